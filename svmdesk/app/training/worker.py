"""Training off the GUI thread: a QObject on a QThread iterates SVC.iter_fit and hands the
window ready-to-draw frames (decision grid, contour polylines, support vectors, readout).

Cancellation, pause and single steps are flags checked between snapshots, so they act
within one solver iteration. A frame goes out only once the window has painted the
previous one, at most FRAME_RATE times a second, and the solver rests while the window
paints it (the two threads take turns with the GIL instead of fighting over it). The final
state always goes out.
"""
from __future__ import annotations

import dataclasses
import sys
import threading
import time
import traceback

from PySide6.QtCore import QObject, Signal, Slot

from ...core import SVC, SVR, NuSVC, NuSVR, OneClassSVM
from ...core.errors import hearing_warnings
from ...core.estimators import Progress
from ...core.solvers.smo import RowMemory, keeping_row_memory
from ...drawing.frames import (
    Frame,
    Job,
    KernelSums,
    RunMark,
    chart_point,
    fitted_frame,
    make_frame,
    with_finished_machines,
)
from ...drawing.grid import GridSpec
from ...i18n import tr

FRAME_RATE = 60.0            # frames per second at most: no screen shows more
# The GUI thread's paint code crosses between Python and C++ hundreds of times per frame and
# must win the GIL back each time from the busy solver thread; Python's default 5 ms switch
# interval makes that a convoy of waits (stalls of several hundred ms). 0.5 ms keeps the
# window responsive at a few per cent of solver speed.
GIL_SWITCH_INTERVAL = 0.0005
# by Job.kind
ESTIMATORS: dict[str, type[SVC] | type[OneClassSVM] | type[SVR] | type[NuSVR]] = {
    "c_svc": SVC, "nu_svc": NuSVC, "one_class": OneClassSVM, "epsilon_svr": SVR,
    "nu_svr": NuSVR}
# The solver rests while the window paints a frame, at most this long. Painting is Python
# too, and the solver's pair step is a dozen short numpy calls that each let go of the GIL
# and then wait a switch interval to get it back: next to a busy Python thread it ran 27x
# slower (measured). Taking turns, it runs alone between frames.
PAINT_WAIT = 0.1
# Between two frames the solver runs at least this many times as long as the last frame
# took to make and paint: painting takes at most a third of a run (measured at 20,000
# points: 1.4-1.5x fit's time at 35-38 frames/s; 1x gave 1.6-2.0x at 47).
SOLVER_SHARE = 2.0


class TrainingWorker(QObject):
    frame = Signal(object)       # Frame, during training
    finished = Signal(object)    # Frame, the final state (converged, budget spent or stopped)
    failed = Signal(str)         # a readable message
    warned = Signal(str)         # a warning the core raised during the run

    def __init__(self):
        super().__init__()
        sys.setswitchinterval(GIL_SWITCH_INTERVAL)
        self._stop = threading.Event()
        self._paused = threading.Event()
        self._steps = threading.Semaphore(0)     # one permit per Step asked for
        self._steps_taken = 0                    # steps this run has taken
        self._pauses = 0                         # pauses this run was asked for
        self._drawn = threading.Event()          # the window drew the last frame
        self._spec = None                        # the view's grid, when it moved since
        self._row_memory = RowMemory()           # SMO's kernel rows, from run to run
        self._evaluated = threading.Event()      # the evaluation is in sight: frames carry it

    # Called from the GUI thread (the run controller): plain flags, safe across threads.
    # Never through signals: a queued call would wait for the busy worker thread.
    def arm(self, paused: bool = False) -> None:
        """Set up the next run before its job is queued: not stopped, paused or not, no
        steps left over from an earlier run. A stop asked for after this is never erased."""
        self._stop.clear()
        (self._paused.set if paused else self._paused.clear)()
        self._steps = threading.Semaphore(0)
        self._steps_taken = 0
        self._pauses = int(paused)
        self._spec = None

    def want_evaluation(self, wanted: bool) -> None:
        """Whether the live frames carry their evaluation (the view is in sight)."""
        (self._evaluated.set if wanted else self._evaluated.clear)()

    def set_spec(self, spec: GridSpec) -> None:
        """The view moved: the next frames are drawn over this grid."""
        self._spec = spec

    def stop(self) -> None:
        self._stop.set()
        self._drawn.set()            # no waiting for a paint: the final frame comes next

    def pause(self, paused: bool) -> None:
        if paused:
            self._pauses += 1              # before the flag: a paused frame counts this one
        (self._paused.set if paused else self._paused.clear)()

    def step(self) -> None:
        """One more iteration of a paused run."""
        self._steps.release()

    def frame_drawn(self) -> None:
        self._drawn.set()

    @Slot(object)
    def run(self, job: Job) -> None:
        self._drawn.set()
        self._heard: list[str] = []
        self._told = 0
        with hearing_warnings(self._heard.append), keeping_row_memory(self._row_memory):
            try:
                self._train(job)
            except Exception as e:  # noqa: BLE001 - any solver error must reach the user
                traceback.print_exc()
                self._tell_warnings()
                self.failed.emit(f"{type(e).__name__}: {e}")

    def _tell_warnings(self) -> None:
        """Send the warnings the core raised since the last call (before the frame they
        explain)."""
        for message in self._heard[self._told:]:
            self.warned.emit(message)
        self._told = len(self._heard)

    def _train(self, job: Job) -> None:
        """Iterate the solver. While paused, each snapshot is shown as it comes (the one
        the solver stands at), and the next waits for a step, a resume or a stop."""
        start, held = time.perf_counter(), 0.0      # held: time spent paused
        estimator = ESTIMATORS[job.kind](**job.params)
        sums = KernelSums()
        step, stopped, history = None, False, []
        done: list[Frame] = []       # the last frames of the finished one-vs-one machines
        previous: Progress | None = None
        # when the last frame began to be made, and when the solver resumed after its paint
        self._frame_began = self._resumed = 0.0
        for step in _stream(estimator, job, self._frame_wanted):
            machine = step.machine
            if len(done) < machine.index:            # the previous machine has finished
                assert previous is not None
                done.append(make_frame(previous, job, 0.0, sums=sums))
            previous = step
            history.append(chart_point(step.snapshot, done))
            if self._stop.is_set():
                stopped = True
                break
            paused = self._paused.is_set()
            last = step.snapshot.converged and machine.index == machine.count - 1
            if self._frame_wanted() and (paused or not last):   # the last is the final frame
                now = self._frame_began = time.perf_counter()
                self._drawn.clear()
                self._tell_warnings()
                job, done = self._follow_view(job, done, sums)
                frame = with_finished_machines(
                    make_frame(step, job, now - start - held, history=tuple(history),
                               sums=sums, evaluate=paused or self._evaluated.is_set()),
                    done, job)
                self.frame.emit(dataclasses.replace(frame, run=RunMark(
                    paused=paused, steps=self._steps_taken, pauses=self._pauses)))
                history = []
                if not paused:
                    self._drawn.wait(PAINT_WAIT)
                self._resumed = time.perf_counter()
            if paused:
                waited = time.perf_counter()
                stopped = self._hold()
                held += time.perf_counter() - waited
                if stopped:
                    break
        self._tell_warnings()
        if step is None:
            raise RuntimeError(tr("the solver stopped before its first iteration"))
        job, done = self._follow_view(job, done, sums)
        elapsed, points = time.perf_counter() - start - held, tuple(history)
        if stopped:
            self.finished.emit(with_finished_machines(
                make_frame(step, job, elapsed, final=True, stopped=True, history=points,
                           sums=sums), done, job))
        else:
            self.finished.emit(fitted_frame(estimator, step, job, elapsed, points))

    def _frame_wanted(self) -> bool:
        """Asked by SMO between pair steps (so it must be cheap): a snapshot is wanted when
        the run is paused or stopped (Step and Pause act within one iteration); else once
        the window has drawn the last frame, a frame's time has passed since that frame
        began, and the solver has run SOLVER_SHARE times as long as the frame took to make
        and paint (a slow window slows the solver by a third at most, never stops it)."""
        if self._paused.is_set() or self._stop.is_set():
            return True
        now = time.perf_counter()
        return (self._drawn.is_set() and now - self._frame_began >= 1.0 / FRAME_RATE
                and now - self._resumed >= SOLVER_SHARE * (self._resumed - self._frame_began))

    def _follow_view(self, job: Job, done: list, sums) -> tuple:
        """The job and the finished machines' frames over the view's latest grid."""
        spec = self._spec
        if spec is None or spec == job.spec:
            return job, done
        job = dataclasses.replace(job, spec=spec)
        return job, [make_frame(Progress(d.reading.machine, d.reading.snapshot), job, 0.0,
                                sums=sums) for d in done]

    def _hold(self) -> bool:
        """Wait while paused, until a step (one iteration more), a resume or a stop; True
        when stopped."""
        pauses = self._pauses
        while self._paused.is_set() and not self._stop.is_set():
            if self._steps.acquire(timeout=0.02):
                self._steps_taken += 1
                break
            if self._pauses != pauses:   # resumed and paused again while this waited: the
                break                    # run goes on to its next iteration and shows it
        return self._stop.is_set()


def _stream(estimator, job: Job, wanted):
    """The estimator's training stream (a one-class SVM learns from points alone; a
    regressor's labels are the targets)."""
    if isinstance(estimator, OneClassSVM):
        return estimator.iter_fit(job.X, every=1, wanted=wanted)
    return estimator.iter_fit(job.X, job.training_labels(), every=1, wanted=wanted)
