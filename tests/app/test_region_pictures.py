"""The regions' pictures are coloured where frames are made, off the GUI thread, and look
exactly as pyqtgraph coloured f through a lookup table on the GUI thread before."""
import threading

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from svmdesk.app.widgets.canvas import class_color
from svmdesk.drawing import frame_parts
from svmdesk.drawing.shading import LEVEL, diverging_lut, regions_picture, sides_pictures


def _as_pyqtgraph_shaded(values, classes) -> np.ndarray:
    """f on the grid through the lookup table and levels the canvas gave pyqtgraph before."""
    item = pg.ImageItem(axisOrder="row-major")
    item.setImage(values, levels=(-LEVEL, LEVEL), lut=diverging_lut(*classes), autoLevels=False)
    item.render()
    image = item.qimage.convertToFormat(QImage.Format.Format_RGBA8888)
    return np.frombuffer(image.constBits(), np.uint8).reshape(*values.shape, 4).copy()


@pytest.mark.parametrize("classes", [(0, 1), (2, 0), (5, 7)])
def test_the_sides_look_as_pyqtgraph_coloured_them(qapp, classes):
    values = (np.random.default_rng(3).normal(size=(60, 80)) * 1.5).astype(np.float32)
    values[0, :8] = [-LEVEL, LEVEL, 0.0, -1e9, 1e9, 1.99999, -1.0, 1.0]
    values[1, :3] = [0.0, -0.0, 1e-30]
    soft, hard = sides_pictures(values, classes)
    np.testing.assert_array_equal(soft, _as_pyqtgraph_shaded(values, classes))
    np.testing.assert_array_equal(hard, _as_pyqtgraph_shaded(np.sign(values) * LEVEL, classes))


def test_class_regions_are_pale_tints_of_the_class_colours(qapp):
    regions = np.arange(8).repeat(3).reshape(4, 6)
    picture = regions_picture(regions)
    for k in range(8):
        tint = 255.0 + 0.45 * (np.array(class_color(k).getRgb()[:3], float) - 255.0)
        assert (picture[regions == k] == [*tint.astype(np.uint8), 255]).all()


def test_a_runs_pictures_are_made_off_the_gui_thread_and_shown(window, qtbot, monkeypatch):
    """Train, then tick "hard regions" and untick it: the canvas shows the frame's own
    pictures, coloured on the worker's thread."""
    made_on = []

    def recorded(make):
        def wrapper(*args, **kwargs):
            made_on.append(threading.current_thread() is threading.main_thread())
            return make(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(frame_parts, "sides_pictures", recorded(frame_parts.sides_pictures))
    window.editing.generate("moons", 300, 0.2, 0)
    with qtbot.waitSignal(window.training_ended, timeout=10_000):
        qtbot.mouseClick(window.panel.run_box.train_button, Qt.MouseButton.LeftButton)
    frame, shown = window.last_frame, window.canvas.regions
    assert made_on and not any(made_on)
    np.testing.assert_array_equal(shown.image, frame.scene.picture)
    qtbot.mouseClick(window.panel.run_box.hard_regions, Qt.MouseButton.LeftButton)
    np.testing.assert_array_equal(shown.image, frame.scene.hard_picture)
    assert len(np.unique(shown.image.reshape(-1, 4), axis=0)) == 2   # two flat sides
    qtbot.mouseClick(window.panel.run_box.hard_regions, Qt.MouseButton.LeftButton)
    np.testing.assert_array_equal(shown.image, frame.scene.picture)


def test_the_regions_lie_where_the_model_puts_them_whatever_pyqtgraphs_global_order(
        qtbot, another_window):
    """The canvas says itself how its region pictures are laid out (rows along y): a window
    made where pyqtgraph's global option is still its default (column-major: an embedding,
    a script, a test) draws them where they are, not mirrored across the diagonal."""
    from svmdesk.core import SVC
    from svmdesk.drawing.model_frames import model_frame

    from .test_window import viewport_pos

    before = pg.getConfigOption("imageAxisOrder")
    pg.setConfigOptions(imageAxisOrder="col-major")
    try:
        window = another_window()
    finally:
        pg.setConfigOptions(imageAxisOrder=before)
    X = np.array([[-2.0, -1.0], [-2.0, 1.0], [-1.0, 0.0], [2.0, -1.0], [2.0, 1.0], [1.0, 0.0]])
    y = np.array([0, 0, 0, 1, 1, 1])
    svc = SVC(kernel="linear", C=10.0).fit(X, y)            # the boundary is x = 0
    window.canvas.view.setRange(xRange=(-3, 3), yRange=(-2, 2), padding=0)
    frame = model_frame(svc, X, y, window.grid_spec())
    window.run_display.show(frame, "a model")
    image = window.canvas.grab().toImage()

    def colour(x, y):
        return np.array(image.pixelColor(viewport_pos(window, x, y)).getRgb(), dtype=int)

    # left of x = 0 one class's tint, right the other's; mirrored across the diagonal, the
    # point (-2.5, 1.5) would take the colour of (1.5, -2.5): the right side's
    left, also_left, right = colour(-2.5, 1.5), colour(-2.5, -1.5), colour(2.5, 1.5)
    assert np.abs(left - also_left).max() <= 8, (left, also_left)
    assert np.abs(left - right).max() > 40, (left, right)
