"""The shading follows the view: after a zoom or a pan the regions, the boundary and the
margins are drawn again over the rectangle in sight, for a finished model, a paused run
and a live run; once through a real qasync loop (the redraw then runs in its executor)."""
import asyncio
import threading

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from svmdesk.app.training.run import RunState
from svmdesk.drawing.decision_grid import model_grid

from .conftest import until
from .test_multiclass_drawing import open_three_classes
from .test_window import drag, set_up_a_long_run
from .waiting import pause

WAIT = 10_000   # ms


def wheel_zoom_in(window, clicks=3):
    """Turn the mouse wheel over the middle of the plot, as a person zooms in."""
    vp = window.canvas.viewport()
    centre = QPointF(vp.width() / 2, vp.height() / 2)
    for _ in range(clicks):
        event = QWheelEvent(centre, QPointF(vp.mapToGlobal(centre.toPoint())), QPoint(0, 0),
                            QPoint(0, 120), Qt.MouseButton.NoButton,
                            Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase,
                            False)
        QApplication.sendEvent(vp, event)
        pause(10)


def view_spec(window):
    return window.grid_spec()


def follows(window) -> bool:
    frame = window.last_frame
    return frame is not None and frame.scene.spec == view_spec(window)


def train(window, qtbot):
    with qtbot.waitSignal(window.training_ended, timeout=WAIT) as ended:
        QTest.keyClick(window, Qt.Key.Key_F5)
    return ended.args[0]


@pytest.mark.slow
def test_a_finished_model_is_shaded_again_over_the_zoomed_view(window, qtbot):
    before = train(window, qtbot)
    wheel_zoom_in(window)
    assert view_spec(window) != before.scene.spec
    qtbot.waitUntil(lambda: follows(window), timeout=WAIT)
    frame = window.last_frame
    scene = frame.scene
    np.testing.assert_allclose(scene.values, model_grid(window.fitted.model_, scene.spec),
                               atol=1e-5)
    rect = window.canvas.regions.mapRectToParent(window.canvas.regions.boundingRect())
    (x0, x1), (y0, y1) = window.canvas.view.viewRange()
    np.testing.assert_allclose([rect.left(), rect.right(), rect.top(), rect.bottom()],
                               [x0, x1, y0, y1], rtol=1e-6, atol=1e-9)
    assert np.isfinite(window.canvas.boundary.getData()[0]).any()


@pytest.mark.slow
def test_three_class_regions_follow_a_pan(window, qtbot, monkeypatch, tmp_path):
    open_three_classes(window, monkeypatch, tmp_path)
    train(window, qtbot)
    drag(window, (0.0, 0.0), (2.0, 1.0))              # the background: the view pans
    qtbot.waitUntil(lambda: follows(window), timeout=WAIT)
    frame, spec = window.last_frame, window.last_frame.scene.spec
    grid = np.column_stack([np.tile(spec.xs, len(spec.ys)), np.repeat(spec.ys, len(spec.xs))])
    expected = frame.scene.colours[window.fitted.model_.predict_indices(grid)].reshape(spec.shape)
    np.testing.assert_array_equal(frame.scene.regions, expected)


@pytest.mark.slow
def test_a_live_and_a_paused_run_follow_the_view(window, qtbot):
    set_up_a_long_run(window)
    with qtbot.waitSignal(window.frame_shown, timeout=WAIT):
        QTest.keyClick(window, Qt.Key.Key_F5)
    wheel_zoom_in(window)
    qtbot.waitUntil(lambda: follows(window), timeout=WAIT)       # the run's next frames
    QTest.keyClick(window, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: window.run.state == RunState.PAUSED and window.last_frame.run.paused,
                    timeout=WAIT)
    wheel_zoom_in(window, clicks=2)
    qtbot.waitUntil(lambda: follows(window), timeout=WAIT)       # redrawn while paused
    assert window.last_frame.run.paused
    window.stop()
    qtbot.waitUntil(lambda: not window.running, timeout=WAIT)


@pytest.mark.slow
def test_under_the_apps_qasync_loop_the_redraw_runs_in_its_executor(window, qtbot,
                                                                    qasync_loop, monkeypatch):
    from svmdesk.app.training import display as run_display

    train(window, qtbot)
    threads, original = [], run_display.regrid

    def regrid(frame, spec):
        threads.append(threading.current_thread())
        return original(frame, spec)

    monkeypatch.setattr(run_display, "regrid", regrid)

    async def zoom_and_wait():
        wheel_zoom_in(window)
        await until(lambda: follows(window))

    qasync_loop.run_until_complete(asyncio.wait_for(zoom_and_wait(), timeout=8))
    assert follows(window)
    assert threads and all(t is not threading.main_thread() for t in threads)
