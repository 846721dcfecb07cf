"""Random sequences of what a student presses (Train, Pause/Resume, Step, Play, Stop, Reset, a
parameter change, a point added) on the real window. After every step the buttons must show
the run controller's state, and at the end the window is at rest or in a live run whose
iteration advances. Bounded: small data, a few examples, every wait at most 3 s."""
import os
import shutil
import tempfile
import time

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from svmdesk.app.training.run import ACTIVE, AT_REST, RunState

from .waiting import pause

WAIT = 3.0   # s
pytestmark = pytest.mark.slow       # 15 examples of 15 presses: 6 s


def wait_until(condition, timeout=WAIT) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        pause(10)
    return condition()


class RunControls(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        # a fresh state folder: an earlier example's autosave would be offered for recovery
        self.state_dir = tempfile.mkdtemp(prefix="svmdesk-machine-")
        self.saved_env = os.environ.get("SVMDESK_STATE_DIR")
        os.environ["SVMDESK_STATE_DIR"] = self.state_dir
        from svmdesk.app.shell.main_window import MainWindow

        self.window = MainWindow()
        self.window.show()
        p = self.window.panel          # kernel gradient on the demo at C = 100 runs on and
        p.solver.setCurrentIndex(p.solver.findData("kernel-gradient"))   # on: live runs
        p.kernel.setCurrentText("rbf")
        p.controls["C"].widget.set_value(100.0)
        p.controls["tol"].widget.set_value(1e-6)
        p.controls["max_iter"].widget.setValue(10_000_000)

    # -- what a student presses -------------------------------------------------------------
    @rule()
    def train(self):
        self.window.panel.run_box.train_button.click()

    @rule()
    def pause_or_resume(self):
        self.window.panel.run_box.pause_button.click()

    @rule()
    def step(self):
        self.window.panel.run_box.step_button.click()

    @rule(button=st.sampled_from(["step_10_button", "step_100_button"]))
    def step_many(self, button):
        getattr(self.window.panel.run_box, button).click()

    @rule()
    def play_or_pause(self):
        self.window.panel.run_box.play_button.click()

    @rule()
    def stop(self):
        self.window.panel.run_box.stop_button.click()

    @rule()
    def reset(self):
        self.window.panel.run_box.reset_button.click()

    @rule(solver=st.sampled_from(["smo", "kernel-gradient", "dual-gradient"]),
          kernel=st.sampled_from(["linear", "rbf"]))
    def choose(self, solver, kernel):
        p = self.window.panel
        p.solver.setCurrentIndex(p.solver.findData(solver))
        p.kernel.setCurrentText(kernel)

    @rule(ms=st.sampled_from([20, 100, 300]))
    def wait_a_moment(self, ms):
        pause(ms)

    @rule(C=st.sampled_from([0.1, 1.0, 100.0]))
    def change_C(self, C):
        self.window.panel.controls["C"].widget.set_value(C)

    @rule(x=st.floats(-3, 3), y=st.floats(-3, 3), cls=st.integers(0, 2))
    def add_point(self, x, y, cls):
        self.window.editing.add_point(x, y, cls)

    @rule(on=st.booleans())
    def retrain_on_edit(self, on):
        self.window.panel.run_box.auto_retrain.setChecked(on)

    # -- what must hold -----------------------------------------------------------------------
    @invariant()
    def buttons_show_the_state(self):
        pause(5)
        state, p = self.window.run.state, self.window.panel
        under_way = state in (RunState.RUNNING, RunState.PAUSED, RunState.STEPPING,
                              RunState.PLAYING)
        assert p.run_box.pause_button.isEnabled() == under_way, state
        assert p.run_box.stop_button.isEnabled() == under_way, state
        assert p.run_box.pause_button.isChecked() == (state in (RunState.PAUSED,
                                                        RunState.STEPPING)), state
        assert p.run_box.play_button.isChecked() == (state == RunState.PLAYING), state

    @invariant()
    def a_paused_run_stands_still(self):
        window = self.window
        if window.run.state != RunState.PAUSED:
            return
        assert wait_until(lambda: window.run.state != RunState.PAUSED
                          or window.run.shows_the_pause(window.last_frame))
        if window.run.state == RunState.PAUSED:
            at = window.last_frame.reading.snapshot.iteration
            pause(30)
            assert window.last_frame.reading.snapshot.iteration == at
            assert window.panel.readout["iteration"].text().split()[0] == str(at)

    def teardown(self):
        try:
            run = self.window.run
            assert wait_until(lambda: run.state not in (RunState.STOPPING,
                                                         RunState.STEPPING)), run.state
            if run.state == RunState.PAUSED:
                self.window.panel.run_box.pause_button.click()          # resume
            if run.state in ACTIVE:
                # the frame shown may be an ended run's: Play at rest starts a new run
                # from its first iteration, so a live run shows a frame at another one
                frame = self.window.last_frame
                start = -1 if frame is None else frame.reading.snapshot.iteration

                def advanced():
                    shown = self.window.last_frame
                    return shown is not None and shown is not frame \
                        and shown.reading.snapshot.iteration != start
                assert wait_until(lambda: run.state in AT_REST or advanced()), \
                    f"a run {run.state.value} at iteration {start} does not advance"
        finally:
            self.window.shutdown()
            self.window.close()
            self.window.deleteLater()
            pause(1)
            if self.saved_env is None:
                os.environ.pop("SVMDESK_STATE_DIR", None)
            else:
                os.environ["SVMDESK_STATE_DIR"] = self.saved_env
            shutil.rmtree(self.state_dir, ignore_errors=True)


RunControls.TestCase.settings = settings(
    max_examples=10, stateful_step_count=15, deadline=10_000,  # 15 took 9 s of the suite
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.mark.usefixtures("qapp")
class TestRunControls(RunControls.TestCase):
    pass
