"""Three classes drawn as a teacher projects them: after a run (live and finished) the
canvas shows every class's voted region, the borders between them and every machine's
support vectors; the readout and the charts tell the run across its machines."""
import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from svmdesk.app.widgets.canvas import class_color

from .test_labels import CTRL, answer_dialogs, write_lab_file
from .waiting import pause

WAIT = 10_000   # ms


def open_three_classes(window, monkeypatch, tmp_path, per_class=16):
    path = write_lab_file(tmp_path / "three.csv", ["-1", "+1", "2"], per_class=per_class)
    answer_dialogs(monkeypatch, path)
    QTest.keyClick(window, Qt.Key.Key_O, CTRL)
    assert len(window.points) == 3 * per_class


def region_shares(window) -> np.ndarray:
    """The share of the canvas painted in each class's region tint (classes 0, 1, 2)."""
    image = window.canvas.viewport().grab().toImage()
    w, h = image.width(), image.height()
    pixels = np.array([[image.pixelColor(x, y).getRgb()[:3] for x in range(0, w, 7)]
                       for y in range(0, h, 7)], dtype=float).reshape(-1, 3)
    shares = []
    for k in range(3):
        tint = 255.0 + 0.45 * (np.array(class_color(k).getRgb()[:3], float) - 255.0)
        shares.append(np.mean(np.abs(pixels - tint).max(axis=1) <= 8))
    return np.array(shares)


def test_a_finished_three_class_run_draws_regions_borders_and_every_support_vector(
        window, qtbot, monkeypatch, tmp_path):
    open_three_classes(window, monkeypatch, tmp_path)
    with qtbot.waitSignal(window.training_ended, timeout=WAIT) as ended:
        QTest.keyClick(window, Qt.Key.Key_F5)
    frame, svc = ended.args[0], window.fitted
    pause(50)
    assert (region_shares(window) > 0.05).all(), region_shares(window)
    # the regions drawn are the model's votes on the grid
    spec = frame.scene.spec
    grid = np.column_stack([np.tile(spec.xs, len(spec.ys)), np.repeat(spec.ys, len(spec.xs))])
    predicted = frame.scene.colours[svc.model_.predict_indices(grid)].reshape(spec.shape)
    np.testing.assert_array_equal(frame.scene.regions, predicted)
    xs, ys = window.canvas.boundary.getData()
    assert np.isfinite(xs).sum() > 20                      # the borders between regions
    rings = sum(len(item.getData()[0]) for item in (window.canvas.free_rings,
                                                    window.canvas.bounded_rings))
    assert rings == len(svc.support_)                       # every machine's SVs
    assert window.panel.readout["svs"].text().startswith(f"{len(svc.support_)} ")
    assert "machine 3 of 3" in window.panel.readout["iteration"].text()


@pytest.mark.slow
def test_a_live_three_class_run_draws_its_regions_and_one_chart_story(
        window, qtbot, monkeypatch, tmp_path):
    open_three_classes(window, monkeypatch, tmp_path, per_class=30)
    p = window.panel
    p.solver.setCurrentIndex(p.solver.findData("kernel-gradient"))
    p.kernel.setCurrentText("rbf")
    p.controls["C"].widget.set_value(100.0)
    p.controls["max_iter"].widget.setValue(3000)
    live = []
    window.frame_shown.connect(lambda f: live.append(f) if not f.run.final else None)
    with qtbot.waitSignal(window.training_ended, timeout=WAIT):
        QTest.keyClick(window, Qt.Key.Key_F5)
    assert live and all(f.scene.regions is not None for f in live)
    later = [f for f in live if f.reading.machine.index == 2]
    assert later and len(np.unique(later[-1].scene.regions)) == 3     # all three classes voted
    iterations = window.charts.history.column("iteration")
    assert (np.diff(iterations) > 0).all()            # one story across the machines


def test_after_a_three_class_run_a_binary_run_draws_its_two_sides_again(
        window, qtbot, monkeypatch, tmp_path):
    open_three_classes(window, monkeypatch, tmp_path)
    with qtbot.waitSignal(window.training_ended, timeout=WAIT):
        QTest.keyClick(window, Qt.Key.Key_F5)
    window.editing.generate("moons", 80, 0.1, 0)
    with qtbot.waitSignal(window.training_ended, timeout=WAIT) as ended:
        QTest.keyClick(window, Qt.Key.Key_F5)
    assert ended.args[0].scene.regions is None and ended.args[0].scene.values is not None


def _nothing_drawn(window) -> bool:
    c = window.canvas
    items = (c.boundary, c.margins, c.free_rings, c.bounded_rings)
    return (window.last_frame is None and c.regions.image is None
            and all(item.getData()[0] is None or len(item.getData()[0]) == 0
                    for item in items))


def test_clear_and_new_points_take_the_old_picture_away(window, qtbot):
    with qtbot.waitSignal(window.training_ended, timeout=WAIT):
        QTest.keyClick(window, Qt.Key.Key_F5)
    assert not _nothing_drawn(window)
    push_button = type(window.panel.run_box.train_button)
    buttons = {b.text(): b for b in window.panel.findChildren(push_button)}
    buttons["Clear"].click()
    assert len(window.points) == 0 and _nothing_drawn(window)
    assert window.panel.readout["svs"].text() == "–"
    with qtbot.waitSignal(window.training_ended, timeout=WAIT):
        window.editing.generate("moons", 60, 0.1, 0)
        QTest.keyClick(window, Qt.Key.Key_F5)
    window.panel.data_box.generator.setCurrentText("circles")
    buttons["Generate"].click()                       # new points: the moons' model goes
    assert _nothing_drawn(window)


def test_the_generator_box_says_where_the_points_came_from(window, monkeypatch, tmp_path):
    p = window.panel
    assert p.data_box.generator.currentData() == "two_disks"
    open_three_classes(window, monkeypatch, tmp_path)
    generator = p.data_box.generator
    assert generator.currentIndex() == -1 and "three.csv" in generator.toolTip()
    assert not p.data_box.generate_button.isEnabled()
    p.data_box.generator.setCurrentText("xor")
    assert p.data_box.generate_button.isEnabled()
    window.editing.generate("moons", 50, 0.1, 0)
    assert p.data_box.generator.currentText() == "moons"
