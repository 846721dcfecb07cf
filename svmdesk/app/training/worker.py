"""A training run seen from the window: a QObject on a QThread hands the solver's process its
order (solver_process.py), and turns what comes back into ready-to-draw frames (decision grid,
contour polylines, support vectors, readout).

Pause, single steps and stop are flags the solver reads between its steps, so they act
within one iteration. The solver sends a snapshot only once the window has painted the
last one (at most FRAME_RATE a second), and goes on solving meanwhile: making a frame and
painting it cost the solver nothing. The final state always comes.
"""
from __future__ import annotations

import sys
import threading
import traceback

from PySide6.QtCore import QObject, Signal, Slot

from ...core.training_job import Job
from ...drawing.decision_grid import GridSpec
from ...i18n import language, tr
from . import solver_process
from .framing import Framer
from .solver_process import DRAWN, PAUSED, PAUSES, READY, STEPS_ASKED, STOP

FRAME_RATE = 60.0            # frames per second at most: no screen shows more
# The GUI thread's paint code crosses between Python and C++ hundreds of times per frame and
# must win the GIL back each time from the thread making the next frame; Python's default
# 5 ms switch interval makes that a convoy of waits (stalls of several hundred ms). 0.5 ms
# keeps the window responsive.
GIL_SWITCH_INTERVAL = 0.0005


class TrainingWorker(QObject):
    frame = Signal(object)       # Frame, during training
    finished = Signal(object)    # Frame, the final state (converged, budget spent or stopped)
    failed = Signal(str)         # a readable message
    warned = Signal(str)         # a warning the core raised during the run
    summed = Signal(object)      # a background run's line of the comparison (core's Row)

    def __init__(self, frame_rate: float | None = None, background: bool = False):
        """`frame_rate`: the frames a second its runs send at most (None: FRAME_RATE);
        `background`: its solver process is one of Compare solvers' (SolverProcess)."""
        super().__init__()
        self.frame_rate = frame_rate
        sys.setswitchinterval(GIL_SWITCH_INTERVAL)
        # started now: its imports before any run
        self.solver = solver_process.acquire(background)
        self._released = False
        self._ended = False           # the current run's end read from the solver
        self._spec: GridSpec | None = None       # the view's grid, when it moved since
        self._evaluated = threading.Event()      # the evaluation is in sight: frames carry it

    # Called from the GUI thread (the run controller): flags in memory the solver's process
    # shares, safe across threads and processes. Never through signals: a queued call
    # would wait for the busy worker thread.
    def arm(self, paused: bool = False) -> None:
        """Set up the next run before its job is queued: not stopped, paused or not, no
        steps left over from an earlier run. A stop asked for after this is never erased."""
        if self._released:
            return
        self.solver.arm(paused)
        self._spec = None

    def want_evaluation(self, wanted: bool) -> None:
        """Whether the live frames carry their evaluation (the view is in sight)."""
        (self._evaluated.set if wanted else self._evaluated.clear)()

    def set_spec(self, spec: GridSpec) -> None:
        """The view moved: the next frames are drawn over this grid."""
        self._spec = spec
        if self.solver.background and not self._released:
            self.solver.show_view(spec)

    def stop(self) -> None:
        if self._released:            # the process serves another window now: its flags
            return                    # are that window's run's
        self.solver.flags[STOP] = 1
        self.solver.flags[DRAWN] = 1   # no waiting for a paint: the final frame comes next

    def pause(self, paused: bool) -> None:
        if self._released:
            return
        flags = self.solver.flags
        if paused:
            flags[PAUSES] += 1             # before the flag: a paused frame counts this one
        flags[PAUSED] = float(paused)

    def step(self, count: int = 1) -> None:
        """`count` more iterations of a paused run, the last of them shown."""
        if not self._released:
            self.solver.flags[STEPS_ASKED] += count

    def frame_drawn(self) -> None:
        if not self._released:
            self.solver.flags[DRAWN] = 1

    def release(self) -> None:
        """The window is done (no run under way): the solver's process serves the next
        window. Once only: a window shut down twice must not hand it out again."""
        if not self._released:
            self._released = True
            solver_process.release(self.solver)

    @Slot(object, object)
    def run(self, job: Job, spec: GridSpec) -> None:
        """Have the solver's process train `job`, and report what it sends until its end
        in frames drawn over the grid `spec` (then over the view's, when it moves)."""
        if not self.solver.alive():               # killed, or crashed in native code
            dead, self.solver = self.solver, solver_process.acquire(self.solver.background)
            self.solver.flags[:READY] = dead.flags[:READY]   # as the run was armed
            solver_process.release(dead)
        self._ended = False                        # the run's end read from the solver
        # a background solver makes its own frames: the window's process only paints them
        framing = (job, spec) if self.solver.background else None
        try:
            self.solver.conn.send((job.estimator, job.X, job.training_labels(), language(),
                                   self.frame_rate or FRAME_RATE, framing))
            if framing is None:
                self._follow(job, spec)
            else:
                self._follow_frames()
        except (EOFError, OSError):
            self.failed.emit(tr("the solver's process ended before the run did (it may "
                                "have run out of memory); train again to start a new one"))
        except Exception as e:  # noqa: BLE001 - a frame that cannot be made must reach the user
            traceback.print_exc()
            if not self._ended:                    # else no more comes: waiting would hang
                self._abandon()
            self.failed.emit(f"{type(e).__name__}: {e}")

    def _abandon(self) -> None:
        """Stop the solver's run and read what it still sends, up to its end (or the
        process's)."""
        self.stop()
        try:
            while self.solver.conn.recv()[0] not in ("end", "last frame", "failed"):
                pass
        except (EOFError, OSError):
            pass

    def _follow(self, job: Job, spec: GridSpec) -> None:
        """Turn the solver's messages into frames until the run's end."""
        framer = Framer(job, spec)
        while True:
            message = self.solver.conn.recv()
            tag = message[0]
            if tag == "warned":
                self.warned.emit(message[1])
            elif tag == "machine":
                framer.machine(message[1])
            elif tag == "step":
                framer.follow(self._spec)
                self.frame.emit(framer.live(message, self._evaluated.is_set()))
            elif tag == "failed":
                self.failed.emit(message[1])
                return
            else:
                self._ended = True
                framer.follow(self._spec)
                self.finished.emit(framer.final(message))
                return

    def _follow_frames(self) -> None:
        """Hand on the frames a background solver makes itself until the run's end."""
        while True:
            message = self.solver.conn.recv()
            tag = message[0]
            if tag == "warned":
                self.warned.emit(message[1])
            elif tag == "frame":
                self.frame.emit(message[1])
            elif tag == "failed":
                self.failed.emit(message[1])
                return
            elif tag == "last frame":
                self._ended = True
                self.summed.emit(message[2])     # first: the window reads it at the end
                self.finished.emit(message[1])
                return
