"""What a student meets on the first day: the window wears svmdesk's icon, and File >
Examples opens the example data sets the way a person does, from the menu."""
import numpy as np
import pytest
from PySide6.QtGui import QImage

from svmdesk import resources
from svmdesk.app.icon import app_icon, draw_icon
from svmdesk.formats import load_dataset


def _menu(window, title):
    return next(a.menu() for a in window.menuBar().actions() if a.text() == title)


def _examples_menu(window):
    file_menu = _menu(window, "&File")
    return next(a.menu() for a in file_menu.actions() if a.text() == "E&xamples")


def test_the_window_wears_the_icon_at_every_size(window):
    sizes = {s.width() for s in window.windowIcon().availableSizes()}
    assert sizes == set(resources.ICON_SIZES)
    assert not window.windowIcon().pixmap(32, 32).isNull()


@pytest.mark.parametrize("size", resources.ICON_SIZES)
def test_each_png_icon_is_the_svg_drawn_at_its_size(qapp, size):
    """tools/render-icons draws them: a PNG not drawn again after the SVG changed fails."""
    def pixels(image):
        image = image.convertToFormat(QImage.Format.Format_RGBA8888)
        return np.frombuffer(image.constBits(), np.uint8).reshape(size, -1)[:, :4 * size]

    png = QImage(str(resources.icon_png(size)))
    assert (png.width(), png.height()) == (size, size)
    drawn, kept = pixels(draw_icon(size)).astype(int), pixels(png).astype(int)
    assert np.abs(drawn - kept).mean() < 2          # antialiasing may differ across Qt versions


def test_the_examples_menu_lists_what_the_window_can_open(window):
    titles = [a.text() for a in _examples_menu(window).actions()]
    assert titles == [e.title for e in resources.EXAMPLES + resources.EXERCISES]
    assert app_icon() is app_icon()                   # made once


@pytest.mark.parametrize("example", [e for e in resources.EXAMPLES
                                     if e.task == "classification"], ids=lambda e: e.file)
# (the regression example: tests/app/test_regression.py)
def test_each_example_opens_from_the_menu_and_stays_out_of_the_recent_files(window, example):
    recent_before = window.files.recent.paths()
    action = next(a for a in _examples_menu(window).actions() if a.text() == example.title)
    action.trigger()
    data = load_dataset(resources.example_path(example))
    points = window.points
    np.testing.assert_array_equal(points.X, data.X)
    np.testing.assert_array_equal(points.y, data.y)
    assert points.class_names[:data.n_classes] == list(data.class_names)
    assert window.canvas.axis_names == tuple(data.feature_names[:2])
    assert window.files.recent.paths() == recent_before
    assert window.files._folder() != str(resources.example_path(example).parent)


def test_an_example_of_small_numbers_fills_the_view(window):
    """Breast cancer's smoothness runs from 0.07 to 0.23: the view fits it (a fixed floor of
    half a unit of padding squashed it into a sixth of the canvas)."""
    cancer = next(e for e in resources.EXAMPLES if e.file == "breast-cancer.csv")
    next(a for a in _examples_menu(window).actions() if a.text() == cancer.title).trigger()
    (x0, x1), (y0, y1) = window.canvas.view.viewRange()
    low, high = window.points.X.min(axis=0), window.points.X.max(axis=0)
    assert y0 <= low[1] and high[1] <= y1 and (high[1] - low[1]) / (y1 - y0) > 0.6
    assert x0 <= low[0] and high[0] <= x1 and (high[0] - low[0]) / (x1 - x0) > 0.6
