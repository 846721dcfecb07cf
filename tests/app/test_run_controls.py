"""Pause, Step, Stop and Reset as a student presses them, in the orders people press them:
through the buttons' clicks and real key presses on the focused widget, each wait bounded."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from svmdesk.app.training.run import TRANSITIONS, RunState

from .test_window import set_up_a_long_run
from .waiting import pause

WAIT = 5000   # ms


def key(window, which):
    """A key press where the focus is (the window itself when nothing has focus)."""
    QTest.keyClick(QApplication.focusWidget() or window, which)


def start_long_run(window, qtbot):
    set_up_a_long_run(window)
    with qtbot.waitSignal(window.frame_shown, timeout=WAIT):
        key(window, Qt.Key.Key_F5)
    assert window.run.state == RunState.RUNNING


def wait_state(window, qtbot, state):
    qtbot.waitUntil(lambda: window.run.state == state, timeout=WAIT)


def shown_iteration(window) -> int:
    return window.last_frame.reading.snapshot.iteration


def assert_standing_still(window, qtbot, seconds=0.4):
    qtbot.waitUntil(lambda: window.last_frame.run.paused, timeout=WAIT)
    before = shown_iteration(window)
    pause(int(seconds * 1000))
    assert shown_iteration(window) == before
    return before


@pytest.mark.slow
def test_pause_stops_the_solver_and_resume_continues_the_same_run(window, qtbot):
    start_long_run(window, qtbot)
    window.panel.run_box.pause_button.click()
    wait_state(window, qtbot, RunState.PAUSED)
    paused_at = assert_standing_still(window, qtbot)
    assert window.panel.run_box.pause_button.isChecked()
    assert window.panel.run_box.pause_button.text().startswith("Resume")
    assert window.panel.readout["iteration"].text() == str(paused_at)
    assert window.panel.readout["state"].text() == "paused"
    key(window, Qt.Key.Key_Space)                                 # resume
    wait_state(window, qtbot, RunState.RUNNING)
    qtbot.waitUntil(lambda: shown_iteration(window) > paused_at + 5, timeout=WAIT)
    key(window, Qt.Key.Key_Space)                                 # and pause again
    wait_state(window, qtbot, RunState.PAUSED)
    assert_standing_still(window, qtbot)
    window.stop()
    qtbot.waitUntil(lambda: not window.running, timeout=WAIT)


@pytest.mark.slow
def test_step_during_a_run_then_pause_twice_keeps_the_run_alive(window, qtbot):
    start_long_run(window, qtbot)
    window.panel.run_box.step_button.click()                # Step during a run: it pauses there
    wait_state(window, qtbot, RunState.PAUSED)
    at = assert_standing_still(window, qtbot)
    window.panel.run_box.pause_button.click()               # Resume
    wait_state(window, qtbot, RunState.RUNNING)
    qtbot.waitUntil(lambda: shown_iteration(window) > at + 5, timeout=WAIT)
    window.panel.run_box.pause_button.click()               # Pause
    wait_state(window, qtbot, RunState.PAUSED)
    at = assert_standing_still(window, qtbot)
    window.panel.run_box.pause_button.click()               # and it resumes again
    qtbot.waitUntil(lambda: shown_iteration(window) > at + 5, timeout=WAIT)
    with qtbot.waitSignal(window.training_ended, timeout=WAIT):
        key(window, Qt.Key.Key_Escape)
    assert window.run.state == RunState.FINISHED


@pytest.mark.slow
def test_a_refused_step_leaves_nothing_behind_for_the_next_run(window, qtbot):
    p = window.panel
    p.solver.setCurrentIndex(p.solver.findData("primal-subgradient"))
    p.kernel.setCurrentText("rbf")
    window.step()                                  # the panel refuses the pair
    assert window.run.state == RunState.IDLE and "linear" in window.notices.banner.text()
    p.kernel.setCurrentText("linear")
    p.controls["max_iter"].widget.setValue(2000)   # its default budget takes 5-10 s here
    with qtbot.waitSignal(window.training_ended, timeout=WAIT) as ended:
        key(window, Qt.Key.Key_F5)
    assert not ended.args[0].run.stopped
    assert window.panel.readout["state"].text() != "training…"


@pytest.mark.slow
def test_each_step_shows_exactly_the_stepped_iteration(window, qtbot):
    start_long_run(window, qtbot)
    window.panel.run_box.pause_button.click()
    wait_state(window, qtbot, RunState.PAUSED)
    at = assert_standing_still(window, qtbot)
    for k in range(1, 4):
        window.panel.run_box.step_button.click()
        qtbot.waitUntil(lambda k=k: window.run.state == RunState.PAUSED
                        and shown_iteration(window) == at + k, timeout=WAIT)
        # no mouse move, no waiting for a repaint: the readout and the charts say it now
        assert window.panel.readout["iteration"].text() == str(at + k)
        xs, _ = window.charts.primal_curve.getData()
        assert xs[-1] == at + k
    window.stop()
    qtbot.waitUntil(lambda: not window.running, timeout=WAIT)


def test_step_at_rest_starts_a_run_that_waits_at_its_first_iteration(window, qtbot):
    window.panel.run_box.step_button.click()
    qtbot.waitUntil(lambda: window.last_frame is not None and window.last_frame.run.paused,
                    timeout=WAIT)
    first = shown_iteration(window)
    window.panel.run_box.step_button.click()
    qtbot.waitUntil(lambda: shown_iteration(window) == first + 1, timeout=WAIT)
    assert window.run.state == RunState.PAUSED
    window.panel.run_box.pause_button.click()               # resume: it runs to the end
    with qtbot.waitSignal(window.training_ended, timeout=WAIT) as ended:
        pass
    assert ended.args[0].estimator is not None


def test_space_esc_and_f5_act_from_a_number_field_without_typing_into_it(window, qtbot):
    set_up_a_long_run(window)
    field = window.panel.controls["C"].widget.spin
    QTest.mouseClick(field.lineEdit(), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: QApplication.focusWidget() in (field, field.lineEdit()),
                    timeout=WAIT)
    text = field.lineEdit().text()
    with qtbot.waitSignal(window.frame_shown, timeout=WAIT):
        key(window, Qt.Key.Key_F5)
    key(window, Qt.Key.Key_Space)
    wait_state(window, qtbot, RunState.PAUSED)
    C = window.panel.controls["C"].widget
    assert field.lineEdit().text() == text and field.value() == C.value()
    with qtbot.waitSignal(window.training_ended, timeout=WAIT):
        key(window, Qt.Key.Key_Escape)
    assert field.lineEdit().text() == text


def test_the_banner_goes_when_its_cause_goes(window, qtbot, monkeypatch):
    p = window.panel
    p.solver.setCurrentIndex(p.solver.findData("pegasos"))
    p.kernel.setCurrentText("rbf")
    window.train()
    assert window.notices.banner.isVisible() and "linear" in window.notices.banner.text()
    p.controls["C"].widget.set_value(2.0)               # not the cause: the message stays
    assert window.notices.banner.isVisible()
    p.kernel.setCurrentText("linear")               # the cause is gone
    assert not window.notices.banner.isVisible()

    window.panel.run_box.pause_button.setFocus()
    window.editing.clear_points()
    window.train()
    assert window.notices.banner.isVisible() and "two classes" in window.notices.banner.text()
    window.editing.add_point(0.0, 0.0, 0)
    assert window.notices.banner.isVisible()                # one class: still true
    window.editing.add_point(1.0, 1.0, 1)
    assert not window.notices.banner.isVisible()


@pytest.mark.slow
def test_reset_during_a_run_clears_the_picture_for_good(window, qtbot):
    start_long_run(window, qtbot)
    window.panel.run_box.reset_button.click()
    qtbot.waitUntil(lambda: window.run.state == RunState.IDLE, timeout=WAIT)
    pause(200)
    assert window.last_frame is None and window.fitted is None
    assert window.panel.readout["iteration"].text() == "–"
    assert window.canvas.boundary.getData()[0] is None or \
        len(window.canvas.boundary.getData()[0]) == 0


@pytest.mark.parametrize("intent", sorted(TRANSITIONS))
def test_an_intent_a_state_does_not_allow_changes_nothing(window, intent):
    run = window.run
    for state in RunState:
        if state not in TRANSITIONS[intent] and state != RunState.STOPPING:
            run.state = state
            getattr(run, intent)()
            assert run.state == state
    run.state = RunState.IDLE


def test_the_readouts_accuracy_at_the_first_step_is_the_models(window, qtbot):
    """Step at rest shows kernel gradient's first iteration, f = 0 everywhere: the model
    then predicts its negative class at every point (f > 0 is the positive one), so the
    training accuracy is the share of that class, not 0 % (every margin 0, none above)."""
    window.editing.generate("moons", 200, 0.2, 0)
    p = window.panel
    p.solver.setCurrentIndex(p.solver.findData("kernel-gradient"))
    p.kernel.setCurrentText("rbf")
    p.run_box.step_button.click()
    qtbot.waitUntil(lambda: window.last_frame is not None and window.last_frame.run.paused,
                    timeout=WAIT)
    snapshot = window.last_frame.reading.snapshot
    assert snapshot.iteration == 0 and not snapshot.dual_coef.any() and snapshot.bias == 0
    negative = window.last_frame.scene.classes[0]
    share = (window.points.y == negative).mean()
    assert p.readout["train"].text() == f"{100 * share:.1f} %" == "50.0 %"
    window.stop()
    qtbot.waitUntil(lambda: not window.running, timeout=WAIT)
