"""Tune C and gamma, as a student looking for a good C and gamma does: Ctrl+G brings the Tune
tab, Tune fills the heat map cell by cell off the GUI thread (on worker processes), hovering
a cell says its mean ± std and fit time, clicking one trains its model (a C or gamma beyond
the sliders widens them), Cancel stops the grid, an edit marks the map stale, and a session
and an autosave bring the map back. The cells are the core's grid_search on the same folds
as Cross-validate."""
import asyncio
import math
import threading

import numpy as np
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QPushButton

from svmdesk.app.training import tuning as tuning_module
from svmdesk.app.training.cross_validation import FOLDS_SEED
from svmdesk.core import SVC, SVR, cross_validate, grid_search
from svmdesk.core.errors import Cancelled
from svmdesk.core.model_selection.grid_cells import GridCell
from svmdesk.formats import load_session

from .conftest import until
from .test_tasks import choose
from .test_window import click as click_canvas

TIMEOUT = 8.0
MOVE_GAP_MS = 25


def run_on_loop(loop, coroutine) -> None:
    loop.run_until_complete(asyncio.wait_for(coroutine, TIMEOUT))


def press(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def open_tuning(window, qtbot, C=(-1, 3, 2), gamma=(-1, 1, 2), folds=3):
    """Ctrl+G, the rbf kernel, and the ranges as powers of two (start, stop, step)."""
    window.show()
    qtbot.waitExposed(window)
    QTest.keyClick(window, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    panel = window.tuning_panel
    assert window.below.currentWidget() is panel
    assert not window.panel.readout_box.isVisible()      # the map takes its width
    choose(window.panel.kernel, "rbf")
    for fields, values in ((panel.c_range, C), (panel.gamma_range, gamma)):
        for field, value in zip((fields.start, fields.stop, fields.step), values):
            field.setValue(value)
    panel.folds.setValue(folds)
    return panel


def training_points(window):
    X, y, test = window.points.X, window.points.y, window.points.test_mask
    names = np.array(window.work.used_class_names())
    return X[~test], names[y[~test]]


def map_pos(panel, C: float, gamma: float) -> QPointF:
    """Where the cell of (C, gamma) is on the map's viewport."""
    plot = panel.map
    scene = plot.getViewBox().mapViewToScene(QPointF(math.log10(C), math.log10(gamma)))
    return QPointF(plot.mapFromScene(scene))


def hover(qtbot, panel, C: float, gamma: float, at: QPointF | None = None) -> str:
    """Move the mouse over the cell of (C, gamma) (or to `at` of the viewport); what the
    panel says then. pyqtgraph hears a move 10 ms after the one before at the soonest
    (its mouseRateLimit): a person's next move is never sooner."""
    viewport = panel.map.viewport()
    at = map_pos(panel, C, gamma) if at is None else at
    qtbot.wait(MOVE_GAP_MS)
    with qtbot.waitSignal(panel.map.hovered, timeout=2000):
        QApplication.sendEvent(viewport, QMouseEvent(
            QEvent.Type.MouseMove, at, QPointF(viewport.mapToGlobal(at)),
            Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier))
    return panel.hover.text()


def shown_cells(panel) -> int:
    image = panel.map.image.image
    return 0 if image is None else int(np.isfinite(image).sum())


def test_the_map_fills_in_off_the_gui_thread_and_its_cells_are_grid_searchs(
        window, qtbot, qasync_loop, monkeypatch):
    calls, original = [], tuning_module.grid_search

    def spy(*args, **kwargs):
        calls.append((threading.current_thread(), kwargs["executor"]))
        return original(*args, **kwargs)

    monkeypatch.setattr(tuning_module, "grid_search", spy)
    panel = open_tuning(window, qtbot)
    heard = []
    panel.map.image.sigImageChanged.connect(lambda: heard.append(shown_cells(panel)))

    async def tuned():
        press(qtbot, panel.tune)
        assert panel.cancel.isEnabled() and not panel.tune.isEnabled()   # one at a time
        await until(lambda: not window.tuner.running, TIMEOUT)

    run_on_loop(qasync_loop, tuned())
    (thread, executor), = calls
    assert thread is not threading.main_thread()
    assert type(executor).__name__ == "ProcessPoolExecutor"       # worker processes
    # ... that never imported Qt (their entry point is the numpy core's)
    assert executor.submit(eval, "'PySide6' in __import__('sys').modules").result(
        timeout=TIMEOUT) is False
    # an empty map first, then the cells as they come (the Cancel test sees one alone)
    assert heard[0] == 0 and heard[-1] == 6 and heard == sorted(heard)
    tuning = window.work.tuning
    assert tuning.C == (0.5, 2.0, 8.0) and tuning.gamma == (0.5, 2.0) and tuning.folds == 3
    assert len(tuning.cells) == 6 and shown_cells(panel) == 6
    X, labels = training_points(window)
    params = window.panel.params()
    expected = grid_search(SVC(**params), X, labels, {"C": list(tuning.C),
                                                      "gamma": list(tuning.gamma)},
                           folds=3, seed=FOLDS_SEED, n_jobs=1)
    for cell in expected.cells:
        ours = next(c for c in tuning.cells
                    if (c.C, c.gamma) == (cell.params["C"], cell.params["gamma"]))
        np.testing.assert_array_equal(ours.scores, cell.scores)
    best = expected.best
    assert tuning.best().C == best.params["C"] and tuning.best().gamma == best.params["gamma"]
    # the same folds as Cross-validate: its numbers agree with the cell's
    cv = cross_validate(SVC(**{**params, "C": 2.0, "gamma": 0.5}), X, labels, folds=3,
                        seed=FOLDS_SEED)
    cell = next(c for c in tuning.cells if (c.C, c.gamma) == (2.0, 0.5))
    np.testing.assert_array_equal(cv.scores, cell.scores)
    assert panel.progress.value() == 6 and panel.tune.isEnabled()
    assert not panel.cancel.isEnabled()
    assert "s elapsed" in panel.times.text()
    assert "left" not in panel.times.text()     # a finished map has no time left to guess
    assert panel.best_line.text().startswith(f"Best: C = {best.params['C']:g}")
    best_xy = panel.map.best.getData()
    assert (best_xy[0][0], best_xy[1][0]) == (math.log10(best.params["C"]),
                                              math.log10(best.params["gamma"]))


def test_hover_a_cell_then_click_one_beyond_the_sliders_trains_it(window, qtbot):
    panel = open_tuning(window, qtbot, C=(10, 12, 2), gamma=(-12, -10, 2), folds=2)
    press(qtbot, panel.tune)                 # no loop running: the grid runs inline
    tuning = window.work.tuning
    assert tuning.C == (1024.0, 4096.0) and len(tuning.cells) == 4
    cell = next(c for c in tuning.cells if (c.C, c.gamma) == (4096.0, 2.0 ** -12))
    words = hover(qtbot, panel, 4096.0, 2.0 ** -12)
    assert words == (f"C = 4096, gamma = {2.0 ** -12:g}: {cell.mean:.3f} ± {cell.std:.3f} "
                     f"over the folds, {cell.fit_time:.3g} s a fit")
    assert hover(qtbot, panel, 0, 0, QPointF(2, 2)).startswith("Hover a cell")   # off the cells
    C, gamma = window.panel.controls["C"].widget, window.panel.controls["gamma"].widget
    assert C.spin.maximum() == 1000.0 and gamma.spin.minimum() == 0.001
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT * 1000):
        QTest.mouseClick(panel.map.viewport(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier,
                         map_pos(panel, 4096.0, 2.0 ** -12).toPoint())
    assert C.value() == 4096.0 and gamma.value() == 2.0 ** -12        # widened, not clamped
    assert C.spin.maximum() >= 4096.0 and gamma.spin.minimum() <= 2.0 ** -12
    assert C.slider.value() == C.slider.maximum() and gamma.slider.value() == 0
    assert window.fitted.C == 4096.0 and window.fitted.gamma == 2.0 ** -12
    marked = panel.map.current.getData()
    assert (marked[0][0], marked[1][0]) == (math.log10(4096.0), -12 * math.log10(2.0))
    assert not panel.stale.isVisible()           # C and gamma are what the map varies
    C.set_value(10.0)                            # the slider moves: the mark follows it
    assert panel.map.current.getData()[0][0] == 1.0
    scale = window.panel.controls["gamma"].choice     # gamma = 'scale': marked where it lands
    scale.setChecked(True)
    X, _ = training_points(window)
    assert window.panel.params()["standardize"] is False
    assert panel.map.current.getData()[1][0] == math.log10(1.0 / (2 * X.var()))
    scale.setChecked(False)
    best = tuning.best()                         # its ring is no wall: the cell is clicked
    C.set_value(1.0)
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT * 1000):
        QTest.mouseClick(panel.map.viewport(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier,
                         map_pos(panel, best.C, best.gamma).toPoint())
    assert (C.value(), gamma.value()) == (best.C, best.gamma)
    assert window.fitted.C == best.C


def test_cancel_stops_the_grid_and_keeps_the_cells_done(window, qtbot, qasync_loop,
                                                        monkeypatch):
    """The grid hears its first cell and waits until Cancel is clicked (the core's own
    cancelling is tested with the core): the panel stops, keeps that cell and says so."""
    def first_cell_then_wait(estimator, X, y, grid, *, cancelled, progress, **kwargs):
        cell = GridCell(0, {"C": grid["C"][0], "gamma": grid["gamma"][0]}, [0.5, 0.75],
                        [0.01, 0.02], True)
        progress(cell)
        for _ in range(int(TIMEOUT / 0.01)):
            if cancelled():
                raise Cancelled("cancelled", (cell,))
            threading.Event().wait(0.01)
        raise AssertionError("Cancel never arrived")

    monkeypatch.setattr(tuning_module, "grid_search", first_cell_then_wait)
    panel = open_tuning(window, qtbot, folds=2)

    async def cancelled():
        press(qtbot, panel.tune)
        await until(lambda: shown_cells(panel) == 1, TIMEOUT)
        assert panel.progress.value() == 1 and panel.progress.maximum() == 6
        press(qtbot, panel.cancel)
        await until(lambda: not window.tuner.running, TIMEOUT)

    run_on_loop(qasync_loop, cancelled())
    assert len(window.work.tuning.cells) == 1 and window.work.tuning.cells[0].mean == 0.625
    assert "Tuning cancelled with 1 of 6 cells done" in window.statusBar().currentMessage()
    assert panel.tune.isEnabled() and not panel.cancel.isEnabled()
    assert "left" not in panel.times.text()     # nothing is left to do: it was cancelled


def test_a_session_opened_while_the_grid_runs_replaces_the_map_and_stops_the_grid(
        window, qtbot, qasync_loop, monkeypatch, tmp_path):
    panel = open_tuning(window, qtbot, C=(0, 0, 1), gamma=(0, 0, 1), folds=2)
    press(qtbot, panel.tune)                      # no loop: inline, a map of one cell
    saved = window.work.tuning
    assert window.files.save_session_to(tmp_path / "lab")
    released, stopped = threading.Event(), []

    def one_cell_when_released(estimator, X, y, grid, *, cancelled, progress, **kwargs):
        released.wait(TIMEOUT)
        progress(GridCell(0, {"C": grid["C"][-1], "gamma": grid["gamma"][-1]}, [1.0, 1.0],
                          [0.01, 0.01], True))
        stopped.append(cancelled())
        raise Cancelled("cancelled", ())

    monkeypatch.setattr(tuning_module, "grid_search", one_cell_when_released)
    panel.c_range.stop.setValue(4)

    async def replaced():
        press(qtbot, panel.tune)
        assert window.tuner.running
        window.files.open(tmp_path / "lab.svmdesk")     # read off the GUI thread
        await until(lambda: window.work.tuning == saved, TIMEOUT)
        assert not window.tuner.running
        released.set()
        await until(lambda: stopped, TIMEOUT)
        await asyncio.sleep(0.1)                  # its cell and its end reach the loop

    run_on_loop(qasync_loop, replaced())
    assert stopped == [True]                      # the abandoned grid was told to stop
    assert window.work.tuning == saved and shown_cells(panel) == 1
    assert panel.tune.isEnabled()


def test_an_edit_or_a_kernel_change_marks_the_map_stale(window, qtbot):
    panel = open_tuning(window, qtbot, C=(0, 0, 1), gamma=(0, 0, 1), folds=2)
    press(qtbot, panel.tune)
    assert len(window.work.tuning.cells) == 1 and not panel.stale.isVisible()
    click_canvas(window, 0.3, 0.2)                       # a point added
    assert panel.stale.isVisible()
    press(qtbot, panel.tune)
    assert not panel.stale.isVisible()
    choose(window.panel.kernel, "poly")
    assert panel.stale.isVisible()
    choose(window.panel.kernel, "linear")               # no gamma: says so, Tune waits
    assert "no gamma" in panel.scored.text() and not panel.tune.isEnabled()


def test_novelty_says_it_has_no_labels_and_a_regression_is_scored_by_r2(window, qtbot):
    from .test_regression import generated

    panel = open_tuning(window, qtbot)
    choose(window.panel.task, "one_class")
    assert "no labels to score folds by" in panel.scored.text()
    assert not panel.tune.isEnabled()
    generated(window, qtbot)
    choose(window.panel.kernel, "rbf")
    assert "mean R²" in panel.scored.text() and panel.tune.isEnabled()
    press(qtbot, panel.tune)                 # no loop running: the grid runs inline
    tuning = window.work.tuning
    assert tuning.metric == "R²" and len(tuning.cells) == 6
    X, z, test = window.points.X[:, :1], window.points.X[:, 1], window.points.test_mask
    expected = grid_search(SVR(**window.panel.params()), X[~test], z[~test],
                           {"C": list(tuning.C), "gamma": list(tuning.gamma)}, folds=3,
                           seed=FOLDS_SEED, n_jobs=1)
    for cell in expected.cells:
        ours = next(c for c in tuning.cells
                    if (c.C, c.gamma) == (cell.params["C"], cell.params["gamma"]))
        np.testing.assert_array_equal(ours.scores, cell.scores)


def test_a_session_brings_the_map_back(window, qtbot, tmp_path, another_window):
    panel = open_tuning(window, qtbot, folds=2)
    press(qtbot, panel.tune)
    tuning = window.work.tuning
    assert window.files.save_session_to(tmp_path / "lab")
    other = another_window()
    other.files.open(tmp_path / "lab.svmdesk")
    assert other.work.tuning == tuning
    assert shown_cells(other.tuning_panel) == 6
    assert other.tuning_panel.best_line.text() == panel.best_line.text()


def test_an_autosave_brings_the_map_back(window, qtbot, another_window):
    panel = open_tuning(window, qtbot, folds=2)
    press(qtbot, panel.tune)
    tuning = window.work.tuning
    autosave = window.files.autosave
    autosave.save_now()
    qtbot.waitUntil(lambda: autosave.path.exists()
                    and load_session(autosave.path).tuning == tuning, timeout=TIMEOUT * 1000)
    window.files.finish()             # closed with its work never saved to a file
    restored = another_window()
    restore = [b for b in restored.files.recovery_bar.findChildren(QPushButton)
               if b.text() == "Restore"][0]
    press(qtbot, restore)
    qtbot.waitUntil(lambda: restored.work.tuning is not None, timeout=TIMEOUT * 1000)
    assert restored.work.tuning == tuning and shown_cells(restored.tuning_panel) == 6


def test_the_map_saves_as_a_picture_and_a_table_that_reads_back(window, qtbot, monkeypatch,
                                                                tmp_path):
    """Save picture… and Save table… beside the map: offered once a cell is done; the
    picture as wide as a picture of the canvas; the table every cell exactly, in the grid's
    order."""
    from PySide6.QtGui import QImage

    from svmdesk.formats.tuning_map import read_map_table

    from .test_labels import answer_dialogs

    panel = open_tuning(window, qtbot, folds=2)
    assert not panel.save_picture.isEnabled() and not panel.save_table.isEnabled()
    press(qtbot, panel.tune)
    assert panel.save_picture.isEnabled() and panel.save_table.isEnabled()
    for name in ("map.png", "map.svg"):
        answer_dialogs(monkeypatch, tmp_path / name)
        press(qtbot, panel.save_picture)
        qtbot.waitUntil((tmp_path / name).exists, timeout=TIMEOUT * 1000)
    picture = QImage(str(tmp_path / "map.png"))
    assert picture.width() == window.files.default_width()
    assert picture.height() == picture.width() * 3 // 4
    assert "gamma" in (tmp_path / "map.svg").read_text(encoding="utf-8")
    answer_dialogs(monkeypatch, tmp_path / "map")                 # .csv added
    press(qtbot, panel.save_table)
    qtbot.waitUntil((tmp_path / "map.csv").exists, timeout=TIMEOUT * 1000)
    tuning = window.work.tuning
    cells = read_map_table((tmp_path / "map.csv").read_text(encoding="utf-8"))
    assert sorted(cells, key=lambda c: (c.C, c.gamma)) == \
        sorted(tuning.cells, key=lambda c: (c.C, c.gamma))
    assert [(c.C, c.gamma) for c in cells] == sorted((c.C, c.gamma) for c in tuning.cells)


def test_the_maps_axes_say_log_scale_and_no_scale_factor(window, qtbot):
    """The ticks are powers of ten the map sets itself: pyqtgraph's SI prefix scaled the
    axis titles of a small range ('gamma (log scale) (x0.001)') though no tick was."""
    panel = open_tuning(window, qtbot, folds=2)
    press(qtbot, panel.tune)
    for side, name in (("left", "gamma (log scale)"), ("bottom", "C (log scale)")):
        label = panel.map.getAxis(side).labelString()
        assert label[label.index(">") + 1:label.rindex("<")].strip() == name


def test_a_map_within_one_power_of_ten_labels_its_values(window, qtbot, qasync_loop):
    """C 0.5, 2, 8 and gamma 0.5, 2 span one power of ten (1) or none: an axis labelled '1'
    alone, on a cell's border, said nothing of the cells (seen under Xvfb). It labels the
    values themselves then; a map over several powers of ten labels those."""
    panel = open_tuning(window, qtbot)

    async def tuned():
        press(qtbot, panel.tune)
        await until(lambda: not window.tuner.running, TIMEOUT)

    run_on_loop(qasync_loop, tuned())

    def labels(side: str) -> list:
        levels = panel.map.getAxis(side)._tickLevels   # the ticks the map set (setTicks)
        return [text for _value, text in levels[0]]

    assert labels("bottom") == ["0.5", "2", "8"] and labels("left") == ["0.5", "2"]
