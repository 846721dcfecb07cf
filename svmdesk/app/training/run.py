"""The training run's controller: one explicit state, the transitions the user's intents
may take from each, and the worker that trains on its own thread.

Buttons, keys and the readout never touch the worker: they send intents (`train`, `pause`,
`resume`, `step`, `play`, `stop`, `reset`) and draw the state this object announces. An intent a
state does not allow changes nothing. The worker is driven through thread-safe flags, never
through queued signals (a queued call would wait for the busy worker thread: that was why
Pause did nothing).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from enum import Enum

from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot

from ..pace import DEFAULT_RATE, Pace
from .worker import FRAME_RATE, TrainingWorker


class RunState(str, Enum):
    IDLE = "idle"              # no run yet, or reset
    RUNNING = "running"
    PAUSED = "paused"          # the solver waits at the iteration shown
    STEPPING = "stepping"      # one more iteration asked for, not shown yet
    PLAYING = "playing"        # paused, and stepped at the chosen pace
    STOPPING = "stopping"      # stop asked for, the worker not yet ended
    FINISHED = "finished"      # converged, budget spent or stopped
    FAILED = "failed"


S = RunState
ACTIVE = (S.RUNNING, S.PAUSED, S.STEPPING, S.PLAYING, S.STOPPING)
HELD = (S.PAUSED, S.STEPPING, S.PLAYING)        # the solver waits for its steps
AT_REST = (S.IDLE, S.FINISHED, S.FAILED)

# intent -> {state it is allowed in: the controller's method that carries it out}
TRANSITIONS = {
    "train": {**{s: "_start" for s in AT_REST}, **{s: "_restart" for s in ACTIVE}},
    "pause": {S.RUNNING: "_pause", S.PLAYING: "_halt"},
    "resume": {s: "_resume" for s in HELD},
    "step": {**{s: "_start_paused" for s in AT_REST},
             S.RUNNING: "_pause", **{s: "_step" for s in HELD}},
    "play": {**{s: "_start_playing" for s in AT_REST},
             S.RUNNING: "_pause_and_play", S.PAUSED: "_play", S.STEPPING: "_play"},
    "stop": {S.RUNNING: "_stop", **{s: "_stop" for s in HELD}},
    "reset": {**{s: "_reset" for s in AT_REST}, **{s: "_reset_active" for s in ACTIVE}},
}


class RunRefused(Exception):
    """The current points or parameters cannot be trained; the message says why."""


class RunController(QObject):
    state_changed = Signal(str)     # a RunState value
    started = Signal(object)        # the Job of a run that starts
    frame = Signal(object)          # a Frame to draw, during a run
    finished = Signal(object)       # the final Frame of a run (converged, budget, stopped)
    failed = Signal(str)            # the worker's error, readable
    refused = Signal(str)           # why a run could not start
    warned = Signal(str)            # a warning the core raised during the run
    _job_ready = Signal(object, object)   # a Job and its first grid, queued to the worker

    def __init__(self, make_job: Callable, grid_spec: Callable, parent=None):
        """make_job() returns the Job to train, or raises RunRefused; grid_spec() the grid
        of the view, which the run's frames are drawn over."""
        super().__init__(parent)
        self.make_job, self.grid_spec = make_job, grid_spec
        self.state = S.IDLE
        self._then: Callable | None = None   # what follows the active run's end
        self._discard = False                   # reset during a run: draw nothing more
        self._steps_asked = 0
        self._step_count = 1                    # iterations the Step being carried out asks
        self._shown_asked = True                # the frame of the last steps asked has come
        self.rate = float(DEFAULT_RATE)         # Play's steps a second
        self._pace = Pace(self.rate, 0.0)
        self._asked_at = -float("inf")          # when Play last asked for steps
        self._pace_timer = QTimer(self, singleShot=True)   # Play's next ask
        self._pace_timer.timeout.connect(self._ask_paced)
        self.pauses_asked = 0                   # in this run
        self.worker = TrainingWorker()
        self.worker_thread = QThread(self)
        self.worker.moveToThread(self.worker_thread)
        self._job_ready.connect(self.worker.run)
        self.worker.frame.connect(self._on_frame)
        self.worker.finished.connect(self._on_finished)
        self.worker.failed.connect(self._on_failed)
        self.worker.warned.connect(self.warned)
        self.worker_thread.start()

    # -- intents --------------------------------------------------------------------------
    def train(self) -> None:
        self._intent("train")

    def pause(self) -> None:
        self._intent("pause")

    def resume(self) -> None:
        self._intent("resume")

    def toggle_pause(self) -> None:
        self._intent("resume" if self.state in (S.PAUSED, S.STEPPING) else "pause")

    def play(self) -> None:
        """Step on at the chosen pace (a run under way pauses first; with none, a run
        starts paused at its first iteration)."""
        self._intent("play")

    def toggle_play(self) -> None:
        """Play at the chosen pace, or (playing) pause."""
        self._intent("pause" if self.state == S.PLAYING else "play")

    def set_rate(self, rate: float) -> None:
        """Play's pace, in steps a second: a run playing goes on at it from now."""
        self.rate = float(rate)
        self._pace = Pace(self.rate, time.perf_counter())

    def step(self, count: int = 1) -> None:
        """One iteration more (`count`: that many, the last shown) of a paused run; a run
        under way pauses, and with none a run starts paused at its first iteration."""
        self._step_count = count
        self._intent("step")

    def stop(self) -> None:
        self._intent("stop")

    def reset(self) -> None:
        self._intent("reset")

    def shows_the_pause(self, frame) -> bool:
        """`frame` is where the run stands in its current pause (not an earlier pause's)."""
        return (self.state == S.PAUSED and frame is not None and frame.run.paused
                and frame.run.pauses == self.pauses_asked)

    def frame_drawn(self) -> None:
        """The window drew the last frame: the worker may send the next (back-pressure),
        and Play asks for its next steps once they are due."""
        self.worker.frame_drawn()
        if self.state == S.PLAYING and self._shown_asked and not self._pace_timer.isActive():
            now = time.perf_counter()
            if not self._pace.asked:       # the pace counts from the first frame drawn, not
                self._pace = Pace(self.rate, now)   # from the wait for a run's first frame
            wait = max(self._pace.wait(now), self._asked_at + 1.0 / FRAME_RATE - now)
            self._pace_timer.start(round(wait * 1000))

    def want_evaluation(self, wanted: bool) -> None:
        """The evaluation view came into sight or left it: live frames carry their
        evaluation only while it is seen (the end of a run always does)."""
        self.worker.want_evaluation(wanted)

    def follow_view(self, spec) -> None:
        """The view moved: the run's next frames are drawn over this grid."""
        self.worker.set_spec(spec)

    @property
    def active(self) -> bool:
        return self.state in ACTIVE

    def after_run(self, action: Callable) -> None:
        """Do `action` now, or once the active run has stopped (its final frame would be
        drawn over whatever the action shows)."""
        if not self.active:
            action()
            return
        self._then = action
        self._stop()

    def shutdown(self) -> None:
        """Stop any run and join the worker thread (a QThread must never be left running)."""
        self._then = None
        self._pace_timer.stop()              # Play asks for nothing more
        self.worker.stop()
        self.worker_thread.quit()
        self.worker_thread.wait()
        self.worker.release()

    def _intent(self, intent: str) -> None:
        method = TRANSITIONS[intent].get(self.state)
        if method is not None:
            getattr(self, method)()

    # -- transitions ----------------------------------------------------------------------
    def _start(self, paused: bool = False, steps: int = 0) -> None:
        """A run, `paused` at its first iteration or not; `steps` more iterations asked
        for at once (the last of them shown), before the solver can show the first."""
        try:
            job = self.make_job()
        except RunRefused as e:
            self.refused.emit(str(e))
            return
        self._discard, self._steps_asked, self.pauses_asked = False, steps, int(paused)
        self._shown_asked = False                # the first iteration is still to come
        self.worker.arm(paused=paused)
        self.worker.step(steps)
        self._set(S.STEPPING if steps else S.PAUSED if paused else S.RUNNING)
        # the solver's process starts first: what the window does for a run's start
        # (charts cleared, the work autosaved) is done meanwhile, before its first frame,
        # which the worker's queued signal brings after it
        self._job_ready.emit(job, self.grid_spec())
        self.started.emit(job)

    def _start_paused(self) -> None:
        """A run that waits at its first iteration; Step x10 at rest goes on to its tenth,
        shown alone."""
        self._start(paused=True, steps=self._step_count - 1)

    def _start_playing(self) -> None:
        self._start(paused=True)
        if self.state == S.PAUSED:            # not refused
            self._play()

    def _pause_and_play(self) -> None:
        self._pause()
        self._play()

    def _play(self) -> None:
        """Steps from now on at the chosen pace: the next once the frame of the last asked
        for is drawn (frame_drawn)."""
        self._pace = Pace(self.rate, time.perf_counter())
        self._set(S.PLAYING)
        if self._shown_asked:
            self.frame_drawn()

    def _ask_paced(self) -> None:
        if self.state != S.PLAYING:
            return
        now = time.perf_counter()
        count = self._pace.take(now)
        self._asked_at, self._shown_asked = now, False
        self._steps_asked += count
        self.worker.step(count)

    def _halt(self) -> None:
        """Play paused: the steps asked for still come, and the run stands there."""
        self._set(S.PAUSED if self._shown_asked else S.STEPPING)

    def _restart(self) -> None:
        self._then = self._start
        self._stop()

    def _pause(self) -> None:
        self._shown_asked = False               # the frame where it pauses is to come
        self.pauses_asked += 1
        self.worker.pause(True)
        self._set(S.PAUSED)

    def _resume(self) -> None:
        self.worker.pause(False)
        self._set(S.RUNNING)

    def _step(self) -> None:
        self._shown_asked = False
        self._steps_asked += self._step_count
        self.worker.step(self._step_count)
        self._set(S.STEPPING)

    def _stop(self) -> None:
        self.worker.stop()
        self._set(S.STOPPING)

    def _reset(self) -> None:
        self._set(S.IDLE)

    def _reset_active(self) -> None:
        self._then, self._discard = None, True
        self._stop()

    # -- the worker's reports -------------------------------------------------------------
    @Slot(object)
    def _on_frame(self, frame) -> None:
        if self._discard:
            self.worker.frame_drawn()
            return
        if frame.run.paused and frame.run.steps >= self._steps_asked:
            self._shown_asked = True
            if self.state == S.STEPPING:
                self._set(S.PAUSED)
        self.frame.emit(frame)

    @Slot(object)
    def _on_finished(self, frame) -> None:
        discard, self._discard = self._discard, False
        self._set(S.IDLE if discard else S.FINISHED)
        if not discard:
            self.finished.emit(frame)
        self._next()

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self._discard = False
        self._set(S.FAILED)
        self.failed.emit(message)
        self._next()

    def _next(self) -> None:
        then, self._then = self._then, None
        if then is not None:
            then()

    def _set(self, state: RunState) -> None:
        if state != S.PLAYING:
            self._pace_timer.stop()
        if state != self.state:
            self.state = state
            self.state_changed.emit(state.value)
