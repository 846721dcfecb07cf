"""A picture saved wider is the same picture, larger: the legend (its text and markers) and
the caption grow with the width as the axes do, and the caption keeps a margin from every
edge; PNG and SVG alike, from the window, `svmdesk render` and the evaluation's figures.

Each picture is saved at two widths, one twice the other, and measured on its pixels (an
SVG drawn by QSvgRenderer at the size it asks for): the box of the legend's ink (its text
and markers, darker than its pale background) and the box of the caption's ink in the band
under the plot."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

from svmdesk.app.widgets import pictures
from svmdesk.app.widgets.pictures import LAYOUT_WIDTH

from .test_window import train_and_wait

RATIO_TOLERANCE = 0.15
MARGIN = 0.01            # of the picture's width, at least, around the caption


def pixels(image: QImage) -> np.ndarray:
    """The picture's RGB values, rows by columns by 3."""
    image = image.convertToFormat(QImage.Format.Format_RGB888)
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(),
                                                             image.bytesPerLine())
    return rows[:, :3 * image.width()].reshape(image.height(), image.width(), 3).copy()


def ink_box(rgb: np.ndarray, dark: int) -> tuple:
    """(left, top, right, bottom) of the pixels whose darkest channel is below `dark`."""
    rows, cols = np.nonzero(rgb.min(axis=2) < dark)
    assert len(rows), "no ink"
    return cols.min(), rows.min(), cols.max(), rows.max()


def legend_box(image: QImage, legend, item, width: int) -> tuple:
    """The legend's ink (text, markers) in a picture of `item`, `width` pixels wide: the
    box of its dark pixels within where the legend lies, scaled to the picture."""
    scale = width / item.sceneBoundingRect().width()
    rect = legend.sceneBoundingRect().translated(-item.sceneBoundingRect().topLeft())
    left, top = int(rect.left() * scale) + 1, int(rect.top() * scale) + 1
    right, bottom = int(rect.right() * scale) - 1, int(rect.bottom() * scale) - 1
    # points under the legend show faintly through its background: far lighter than 110
    x0, y0, x1, y1 = ink_box(pixels(image)[top:bottom, left:right], dark=110)
    return x1 - x0 + 1, y1 - y0 + 1


def caption_box(image: QImage, plot_height: int) -> tuple:
    """(left, top, right, bottom) of the caption's ink, in the band under the plot."""
    x0, y0, x1, y1 = ink_box(pixels(image)[plot_height:], dark=200)
    return x0, y0 + plot_height, x1, y1 + plot_height


def assert_doubled(small, large, what: str) -> None:
    ratios = np.asarray(large, float) / np.asarray(small, float)
    assert np.all(np.abs(ratios - 2) <= 2 * RATIO_TOLERANCE), (what, small, large, ratios)


def assert_caption_kept_in(image: QImage, plot_height: int) -> tuple:
    """The caption's box, at least MARGIN of the width from every edge (the plot's
    bottom its upper edge)."""
    left, top, right, bottom = caption_box(image, plot_height)
    margin = MARGIN * image.width()
    assert left >= margin and image.width() - 1 - right >= margin, (left, right, image.width())
    assert top - plot_height >= margin, (top, plot_height)
    assert image.height() - 1 - bottom >= margin, (bottom, image.height())
    return right - left + 1, bottom - top + 1


def svg_picture(path) -> QImage:
    """The SVG drawn at the size it gives itself, on white."""
    renderer = QSvgRenderer(str(path))
    assert renderer.isValid()
    size = renderer.defaultSize()
    image = QImage(size, QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    return image


def three_classes_trained(window, qtbot) -> None:
    from svmdesk.core.point_generators import blobs

    data = blobs(150, 1.5, seed=1, centers=3)
    window.points.replace(data.X, data.y, np.zeros(len(data.y), bool), ("a", "b", "c"),
                          window.points.state()[4])
    train_and_wait(qtbot, window)


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_the_canvas_saved_twice_as_wide_has_a_legend_and_caption_twice_as_large(
        window, qtbot, tmp_path, suffix):
    three_classes_trained(window, qtbot)
    canvas = window.canvas
    caption = window.files.caption()
    images = []
    for k in (1, 2):
        width = k * canvas.width()
        path = tmp_path / f"canvas-{k}x{suffix}"
        assert window.files.save_picture_to(path, width, caption)
        images.append(QImage(str(path)) if suffix == ".png" else svg_picture(path))
        assert images[-1].width() == pytest.approx(width, abs=1)
    assert_doubled(*(legend_box(image, canvas.legend, canvas.plotItem, image.width())
                     for image in images), "legend")
    heights = [assert_caption_kept_in(image, int(image.width() * canvas.height()
                                                 / canvas.width()))[1] for image in images]
    assert_doubled(*heights, "caption's height")


def test_the_svg_without_a_width_is_the_canvas_as_on_screen(window, qtbot, tmp_path):
    """Width 0: the SVG has the canvas's size on the screen, as before."""
    path = tmp_path / "plain.svg"
    assert window.files.save_picture_to(path, 0)
    assert svg_picture(path).width() == pytest.approx(window.canvas.width(), abs=1)


def test_render_twice_as_wide_draws_a_legend_twice_as_large(qapp, tmp_path, monkeypatch):
    from svmdesk import cli
    from svmdesk.core import make_dataset
    from svmdesk.formats import save_dataset

    save_dataset(make_dataset("blobs", n=90, seed=2, centers=3), tmp_path / "blobs3.csv")
    drawn, save = [], pictures.save_picture

    def save_and_keep(canvas, *args):              # the canvas as render drew it
        drawn.append(canvas)
        return save(canvas, *args)

    monkeypatch.setattr(pictures, "save_picture", save_and_keep)
    legends = []
    for width in (LAYOUT_WIDTH, 2 * LAYOUT_WIDTH):
        out = tmp_path / f"render-{width}.png"
        assert cli.main(["render", str(tmp_path / "blobs3.csv"), "--out", str(out),
                         "--width", str(width)]) == 0
        image = QImage(str(out))
        assert (image.width(), image.height()) == (width, width * 3 // 4)
        canvas = drawn[-1]
        legends.append(legend_box(image, canvas.legend, canvas.plotItem, width))
    assert_doubled(*legends, "legend")


@pytest.mark.parametrize("kind", ["curves", "residuals"])
def test_the_evaluations_figures_twice_as_wide_have_legends_twice_as_large(
        qtbot, tmp_path, kind):
    from svmdesk.app.widgets.evaluation_pictures import curves_figure, residuals_figure
    from svmdesk.drawing.evaluation import evaluation_of

    rng = np.random.default_rng(0)
    truth = rng.integers(0, 2, 120)
    scores = np.round(rng.normal(size=120) + truth, 1)
    e = evaluation_of((0, 1), truth[:80], scores[:80], truth[80:], scores[80:])
    legends = []
    for width in (LAYOUT_WIDTH, 2 * LAYOUT_WIDTH):
        if kind == "curves":
            figure = curves_figure(e, ["no", "yes"], threshold=0.4, width=width)
            item, legend = figure.ci, figure.ci.getItem(0, 0).legend
        else:
            figure = residuals_figure(scores[:80], truth[:80], scores[80:], truth[80:],
                                      width=width)
            item, legend = figure.plotItem, figure.plotItem.legend
        qtbot.addWidget(figure)
        figure.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)   # as the window does
        figure.show()
        path = pictures.save_picture(figure, tmp_path / f"{kind}-{width}.png", width)
        image = QImage(str(path))
        assert image.width() == width
        legends.append(legend_box(image, legend, item, width))
    assert_doubled(*legends, "legend")
