"""Play: SMO steps on by itself at the pace the slider sets, each frame marked as a Step's
(the pair ringed, its subproblem beside the charts), and Pause, Space, Step and Resume stop
or take over in any order. The pace is never faster than the slider says."""
import time

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from svmdesk.app.pace import RATES, Pace
from svmdesk.app.training.run import RunState

from .test_smo_steps import WAIT, assert_marked, smo_on_moons, stop
from .waiting import pause


def iteration(window):
    frame = window.last_frame
    return -1 if frame is None else frame.reading.snapshot.iteration


def set_rate(window, key):
    """The rate slider moved as a person does: focused, a key pressed (End: fastest, Home:
    slowest)."""
    slider = window.panel.run_box.rate
    slider.setFocus()
    QTest.keyClick(slider, key)
    return RATES[slider.value()]


def test_play_shows_each_step_as_a_step_does_and_never_outruns_its_pace(window, qtbot):
    smo_on_moons(window, n=400, C=100.0)                  # 250 pair steps to converge
    box = window.panel.run_box
    assert set_rate(window, Qt.Key.Key_End) == 1000
    assert box.rate_label.text() == "1000 pairs/s"
    shown = []

    def seen(frame):
        """Each frame as drawn; Play clicked again (pause) once 40 steps are shown."""
        shown.append((frame, window.pair_inset.step, window.pair_inset.isVisible(),
                      np.column_stack(window.canvas.step_marks.rings.getData())))
        if frame.reading.snapshot.iteration >= 40 and window.run.state == RunState.PLAYING:
            box.play_button.click()

    window.run_display.frame_shown.connect(seen)           # after the window's own slots
    began = time.perf_counter()
    box.play_button.click()
    assert window.run.state == RunState.PLAYING and box.play_button.isChecked()
    assert not box.pause_button.isChecked() and box.pause_button.isEnabled()
    qtbot.waitUntil(lambda: window.run.state == RunState.PAUSED, timeout=WAIT)
    elapsed = time.perf_counter() - began
    window.run_display.frame_shown.disconnect(seen)
    at = iteration(window)
    assert 40 <= at <= 1000 * elapsed + 1                 # the pace, at most
    iterations = [frame.reading.snapshot.iteration for frame, *_ in shown]
    assert iterations == sorted(set(iterations))          # on, never back
    assert max(np.diff(iterations)) > 1                   # above 60/s: several a frame
    X = window.points.X[~window.points.test_mask]
    for frame, inset_step, inset_seen, rings in shown:
        step = frame.reading.pair_step
        assert frame.run.paused and step is not None
        assert inset_seen and inset_step is step
        np.testing.assert_array_equal(rings, X[[step.i, step.j]])
    pause(100)                                            # paused: it stands there
    assert iteration(window) == at and not box.play_button.isChecked()
    assert_marked(window, window.last_frame)
    stop(window, qtbot)


def test_play_pause_step_and_resume_in_odd_orders(window, qtbot):
    smo_on_moons(window, n=400, C=100.0)
    box, run = window.panel.run_box, window.run            # Play at 10 pairs/s
    box.step_button.click()                               # a run starts paused at step 1
    qtbot.waitUntil(lambda: run.state == RunState.PAUSED and iteration(window) == 1,
                    timeout=WAIT)
    box.play_button.click()
    qtbot.waitUntil(lambda: iteration(window) > 5, timeout=WAIT)
    box.step_button.click()                               # Step takes over from Play
    qtbot.waitUntil(lambda: run.state == RunState.PAUSED, timeout=WAIT)
    at = iteration(window)
    box.step_button.click()
    qtbot.waitUntil(lambda: iteration(window) == at + 1 and run.state == RunState.PAUSED,
                    timeout=WAIT)
    box.play_button.click()
    qtbot.waitUntil(lambda: iteration(window) > at + 5, timeout=WAIT)
    QTest.keyClick(window, Qt.Key.Key_Space)              # Space pauses Play
    qtbot.waitUntil(lambda: run.state == RunState.PAUSED, timeout=WAIT)
    at = iteration(window)
    pause(100)
    assert iteration(window) == at and window.pair_inset.isVisible()
    box.play_button.click()
    assert run.state == RunState.PLAYING
    box.pause_button.click()                              # Pause while playing: paused
    qtbot.waitUntil(lambda: run.state == RunState.PAUSED, timeout=WAIT)
    box.play_button.click()
    QTest.keyClick(window, Qt.Key.Key_Space)
    QTest.keyClick(window, Qt.Key.Key_Space)              # and Space again: resumed
    qtbot.waitUntil(lambda: run.state in (RunState.RUNNING, RunState.FINISHED)
                    and not window.last_frame.run.paused, timeout=WAIT)
    assert not window.pair_inset.isVisible() and not box.play_button.isChecked()
    if run.state == RunState.RUNNING:
        stop(window, qtbot)


def test_play_takes_over_a_running_run_of_any_solver(window, qtbot):
    """Kernel gradient descent runs on at C = 100: Play pauses it and steps it on at its
    pace (no pair to show); Resume lets it run."""
    p, box, run = window.panel, window.panel.run_box, window.run
    p.solver.setCurrentIndex(p.solver.findData("kernel-gradient"))
    p.kernel.setCurrentText("rbf")
    p.controls["C"].widget.set_value(100.0)
    p.controls["tol"].widget.set_value(1e-6)
    p.controls["max_iter"].widget.setValue(10_000_000)
    box.train_button.click()
    qtbot.waitUntil(lambda: iteration(window) > 0, timeout=WAIT)
    box.play_button.click()
    assert run.state == RunState.PLAYING
    qtbot.waitUntil(lambda: window.last_frame.run.paused, timeout=WAIT)
    at = iteration(window)
    qtbot.waitUntil(lambda: iteration(window) >= at + 2, timeout=WAIT)    # at 10 steps/s
    assert window.last_frame.run.paused and not window.pair_inset.isVisible()
    box.pause_button.click()
    qtbot.waitUntil(lambda: run.state == RunState.PAUSED, timeout=WAIT)
    box.pause_button.click()                              # Resume
    assert run.state == RunState.RUNNING and not box.play_button.isChecked()
    qtbot.waitUntil(lambda: not window.last_frame.run.paused, timeout=WAIT)
    stop(window, qtbot)


def test_the_slowest_pace_is_one_pair_a_second(window, qtbot):
    """At 1 pair/s Play shows the pair it starts from, then waits its second."""
    smo_on_moons(window, n=200)
    box = window.panel.run_box
    assert set_rate(window, Qt.Key.Key_Home) == 1
    assert box.rate_label.text() == "1 pairs/s"
    began = time.perf_counter()
    box.play_button.click()
    qtbot.waitUntil(lambda: iteration(window) >= 1, timeout=WAIT)
    pause(300)
    assert iteration(window) <= 1 + (time.perf_counter() - began)
    stop(window, qtbot)


def test_the_rate_is_worded_in_the_solvers_steps(window):
    p = window.panel
    p.solver.setCurrentIndex(p.solver.findData("kernel-gradient"))
    assert p.run_box.rate_label.text() == "10 steps/s"
    p.solver.setCurrentIndex(p.solver.findData("smo"))
    assert p.run_box.rate_label.text() == "10 pairs/s"


@pytest.mark.parametrize("rate, moments, asks", [
    (10, [0.0, 0.05, 0.1, 0.25, 0.3], [1, 1, 1, 1, 1]),     # due one by one
    (1000, [0.0, 0.017, 0.034, 0.1], [1, 16, 17, 66]),       # several a frame
    (100, [0.0, 2.0], [1, 10]),                               # 2 s behind: 0.1 s's
])
def test_pace_owes_the_steps_due_by_the_clock(rate, moments, asks):
    pace = Pace(rate, 0.0)
    assert [pace.take(now) for now in moments] == asks
    assert pace.wait(moments[-1]) >= 0.0


def test_pace_waits_until_the_next_step_is_due():
    pace = Pace(5, 10.0)
    assert pace.wait(10.0) == pytest.approx(0.2)
    pace.take(10.2)
    assert pace.wait(10.2) == pytest.approx(0.2)
    assert pace.wait(10.5) == 0.0


def test_play_clicked_while_a_run_stops_stays_unpressed(window, qtbot):
    """Play does nothing while a run stops: the button, which a click checks, must say so."""
    smo_on_moons(window, n=400, C=100.0)
    box, run = window.panel.run_box, window.run
    box.step_button.click()
    qtbot.waitUntil(lambda: run.state == RunState.PAUSED, timeout=WAIT)
    box.stop_button.click()
    assert run.state == RunState.STOPPING                 # until the worker's last frame
    box.play_button.click()
    assert run.state == RunState.STOPPING and not box.play_button.isChecked()
    qtbot.waitUntil(lambda: not window.running, timeout=WAIT)
    assert not box.play_button.isChecked()


def test_a_closed_window_never_touches_the_solver_the_next_window_took(window, qtbot,
                                                                        another_window):
    """A window shut down while playing hands its solver's process to the next window:
    its Play clock stops, and nothing it does later reaches that process's flags."""
    smo_on_moons(window, n=400, C=100.0)
    box = window.panel.run_box
    set_rate(window, Qt.Key.Key_Home)                       # 1 pair/s: its clock waits
    box.play_button.click()
    qtbot.waitUntil(lambda: iteration(window) >= 1, timeout=WAIT)
    window.shutdown()
    assert not window.run._pace_timer.isActive()
    later = another_window()
    assert later.run.worker.solver is window.run.worker.solver    # the idle process, reused
    flags = list(later.run.worker.solver.flags)
    window.run.worker.stop()
    window.run.worker.pause(True)
    window.run.worker.step(5)
    window.run.worker.frame_drawn()
    window.run.worker.arm(paused=True)
    assert list(later.run.worker.solver.flags) == flags
