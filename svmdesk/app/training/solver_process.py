"""The solver's own process: a training run iterates there, and the window's process makes
and paints its frames meanwhile, each on a core of its own.

Why a process and not a thread beside the window: the window's painting is Python, and so is
the solver's loop around its numpy calls; in one process they take turns with the GIL, so
a frame's making and painting was time the solver stood still (window runs took 1.5-2x
`fit`'s time by design: the solver ran twice as long as a frame took, then rested). Here the
solver never waits for a paint; the window asks for the next snapshot once it has drawn
the last. Each process is one solver: several side by side are several processes.

No Qt here (the child imports this module alone): the window's side is worker.py.

The two sides share a few numbers (`SolverProcess.flags`: plain shared memory, read by the
solver between its steps, so that Pause, Step and Stop act within one iteration) and a
pipe: the window sends a run's order, the solver sends what it has to show.

- ("warned", message): a warning the core raised (before the frames it explains)
- ("machine", progress): a one-vs-one machine has finished; its last state
- ("step", progress, chart points since the last, seconds, paused, steps taken, pauses)
- ("end", progress, fitted estimator or None (stopped), chart points, seconds, stopped)
- ("failed", message)

A background run (Compare solvers: the order's `framing` is its Job and first grid) makes
its frames itself (framing.py) and sends ("frame", Frame) for each step and ("last frame",
Frame, its comparison row) for its end instead; its machines' last states stay with it.

A run's model depends on its data and parameters only: the process keeps SMO's kernel rows
from run to run (as the thread did), which changes no model.
"""
from __future__ import annotations

import atexit
import contextlib
import dataclasses
import multiprocessing
import os
import sys
import time
import traceback
from collections.abc import Iterator
from typing import Any

from ...core import OneClassSVM
from ...core.errors import hearing_warnings
from ...core.solvers.smo import CACHE_BYTES, RowMemory, keeping_row_memory
from ...drawing.live_frames import chart_point
from ...i18n import set_language, tr
from .framing import Framer

HOLD_POLL = 0.005            # s between looks at the flags while paused
BACKGROUND_NICENESS = 10     # how much lower a background process's priority is (19
                             # left the window's paints a few ms more, but beside two
                             # busy programs comparisons of seconds took over ten)

# the flags' places in the shared array (float64: every one is a count or a yes/no);
# READY: the process has made its imports and waits for orders; a background process's
# view (see SolverProcess.show_view): how many times it moved, and where it is now
STOP, PAUSED, DRAWN, PAUSES, STEPS_ASKED, READY, VIEWS, X_MIN, X_MAX, Y_MIN, Y_MAX = range(11)

_context = multiprocessing.get_context("spawn")   # never fork a process with Qt's threads


class SolverProcess:
    """The window's handle on one solver process: its pipe and its flags.

    The main run's process touches SMO's whole row cache (200 MB) while it waits for its
    first run, which then pays nothing for it. A `background` one (Compare solvers: five
    of them, on small data) leaves its cache to grow as its runs need it, and runs at a
    lower priority: five solvers on two cores took the window's process its share of them
    (stalls of 400 ms, canvases at 3 frames a second); niced, they take what it leaves."""

    def __init__(self, background: bool = False) -> None:
        self.background = background
        self.flags: Any = _context.RawArray("d", Y_MAX + 1)
        self.conn, child_end = _context.Pipe()
        self.process = _context.Process(target=serve, args=(child_end, self.flags, background),
                                        name="svmdesk solver", daemon=True)
        with _main_unseen():
            self.process.start()
        child_end.close()

    def alive(self) -> bool:
        return self.process.is_alive()

    def ready(self) -> bool:
        """Its imports are done: an order is taken at once."""
        return bool(self.flags[READY])

    def show_view(self, spec) -> None:
        """A background process's run draws its next frames over this rectangle (its grid
        keeps its size). Read between its steps: a frame made while the four numbers are
        written may take some old and some new, and the next frame puts it right."""
        f = self.flags
        f[X_MIN], f[X_MAX], f[Y_MIN], f[Y_MAX] = spec.x_min, spec.x_max, spec.y_min, spec.y_max
        f[VIEWS] += 1

    def arm(self, paused: bool) -> None:
        """The flags of a run about to start (the process is idle: no run reads them)."""
        f = self.flags
        f[STOP], f[DRAWN], f[STEPS_ASKED] = 0, 1, 0
        f[PAUSED] = f[PAUSES] = float(paused)       # a run started paused: its first pause

    def close(self) -> None:
        """End the process (it ends its run first only if it is between runs)."""
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.process.join(1.0)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(1.0)
        self.conn.close()


@contextlib.contextmanager
def _main_unseen() -> Iterator[None]:
    """multiprocessing's spawn runs the parent's main script again in the child, for the
    objects it may define: a script that opens the window without `if __name__ ==
    "__main__":` would open it again there, and start a process again, and fail. Nothing
    the solver receives comes from the main script, so the child need not see it."""
    main = sys.modules["__main__"]
    saved: dict[str, Any] = {name: main.__dict__[name] for name in ("__file__", "__spec__")
                             if name in main.__dict__}
    main.__dict__.pop("__file__", None)
    main.__spec__ = None                   # read by spawn: must be there
    try:
        yield
    finally:
        main.__dict__.update(saved)


_idle: list[SolverProcess] = []     # processes no window holds, ready for the next


def acquire(background: bool = False) -> SolverProcess:
    """A solver process for a window: an idle one of the kind asked for (its imports long
    done), else a new one."""
    for process in reversed(_idle):
        if process.background == background:
            _idle.remove(process)
            if process.alive():
                return process
            process.close()
            return acquire(background)
    return SolverProcess(background)


def release(process: SolverProcess) -> None:
    """A window is done with `process` (no run under way): the next window takes it
    (TrainingWorker.release gives it back once)."""
    if process.alive():
        _idle.append(process)
    else:
        process.close()


@atexit.register
def _close_idle() -> None:
    while _idle:
        _idle.pop().close()


# -- the solver's side (in the child process) ---------------------------------------------
def serve(conn, flags, background: bool = False) -> None:
    """Run each order the pipe brings, (the unfitted estimator, X, labels or targets,
    language, frames a second at most), until None or the pipe closes (`background`: see
    SolverProcess)."""
    memory = RowMemory()
    if background:
        if hasattr(os, "nice"):        # not on Windows: there the window shares the cores
            os.nice(BACKGROUND_NICENESS)
    else:
        memory.prepare(CACHE_BYTES)    # the first run's cache on memory touched already
    flags[READY] = 1
    while True:
        try:
            order = conn.recv()
        except (EOFError, OSError):
            return
        if order is None:
            return
        estimator, X, y, language, frame_rate, framing = order
        set_language(language)
        run = (_Run(conn, flags, frame_rate) if framing is None
               else _FramingRun(conn, flags, frame_rate, *framing))
        with hearing_warnings(lambda message: conn.send(("warned", message))), \
                keeping_row_memory(memory):
            try:
                run.train(estimator, X, y)
            except Exception as e:  # noqa: BLE001 - any solver error must reach the user
                traceback.print_exc()
                conn.send(("failed", f"{type(e).__name__}: {e}"))


class _Run:
    """One training run in the solver's process."""

    def __init__(self, conn, flags, frame_rate: float) -> None:
        self.conn, self.flags, self.frame_time = conn, flags, 1.0 / frame_rate
        self.sent = -float("inf")          # when the last snapshot went to the window
        self.steps_taken = 0               # Steps this run has taken

    def train(self, estimator: Any, X, y) -> None:
        """Fit `estimator` (the job's, unfitted: SVC, NuSVC, OneClassSVM, SVR or NuSVR),
        iterating its solver. While paused, each snapshot is sent as it comes (the one the
        solver stands at), and the next waits for a step, a resume or a stop."""
        flags, start, held = self.flags, time.perf_counter(), 0.0   # held: paused
        # a one-class SVM learns from points alone; a regressor's labels are the targets
        stream = (estimator.iter_fit(X, every=1, wanted=self.wanted)
                  if isinstance(estimator, OneClassSVM)
                  else estimator.iter_fit(X, y, every=1, wanted=self.wanted))
        step, previous, stopped, history = None, None, False, []
        before: list = []                  # the finished one-vs-one machines' last states
        for step in stream:
            machine = step.machine
            if len(before) < machine.index:                 # the previous one has finished
                assert previous is not None
                held += self.send(("machine", previous))
                before.append(previous.snapshot)
            previous = step
            history.append(chart_point(step.snapshot, before))
            if flags[STOP]:
                stopped = True
                break
            paused = bool(flags[PAUSED])
            last = step.snapshot.converged and machine.index == machine.count - 1
            # Step x10 shows its tenth iteration alone: the nine before are not sent; the
            # last snapshot goes with the end
            asked_on = paused and flags[STEPS_ASKED] > self.steps_taken
            if self.wanted() and (paused or not last) and not asked_on:
                self.sent = time.perf_counter()
                flags[DRAWN] = 0
                held += self.send(("step", step, tuple(history), self.sent - start - held,
                                   paused, self.steps_taken, int(flags[PAUSES])))
                history = []
            if paused:
                waited = time.perf_counter()
                stopped = self._hold()
                held += time.perf_counter() - waited
                if stopped:
                    break
        if step is None:
            raise RuntimeError(tr("the solver stopped before its first iteration"))
        elapsed = time.perf_counter() - start - held
        self.send(("end", step, None if stopped else estimator, tuple(history), elapsed,
                   stopped))

    def send(self, message: tuple) -> float:
        """Send a message to the window; the seconds it took that are not the solver's
        (none here: the window makes the frames)."""
        self.conn.send(message)
        return 0.0

    def wanted(self) -> bool:
        """Asked by SMO between pair steps (so it must be cheap): a snapshot is wanted when
        the run is paused or stopped (Step and Pause act within one iteration); else once
        the window has drawn the last one and a frame's time has passed since it was sent."""
        flags = self.flags
        if flags[PAUSED] or flags[STOP]:
            return True
        return bool(flags[DRAWN]) and time.perf_counter() - self.sent >= self.frame_time

    def _hold(self) -> bool:
        """Wait while paused, until a step (one iteration more), a resume or a stop; True
        when stopped."""
        flags = self.flags
        pauses = flags[PAUSES]
        while flags[PAUSED] and not flags[STOP]:
            if flags[STEPS_ASKED] > self.steps_taken:
                self.steps_taken += 1
                break
            if flags[PAUSES] != pauses:   # resumed and paused again while this waited: the
                break                     # run goes on to its next iteration and shows it
            time.sleep(HOLD_POLL)
        return bool(flags[STOP])


class _FramingRun(_Run):
    """A background run (Compare solvers) that makes its frames itself and sends them, its
    window's process only painting them: five runs' frames made in the window's threads
    took the GIL from its paints. The time a frame takes is not the solver's: a run's
    seconds leave it out."""

    def __init__(self, conn, flags, frame_rate: float, job, spec) -> None:
        super().__init__(conn, flags, frame_rate)
        self.framer, self.views = Framer(job, spec), flags[VIEWS]

    def send(self, message: tuple) -> float:
        started = time.perf_counter()
        tag = message[0]
        if tag == "machine":
            self.framer.machine(message[1])
            return time.perf_counter() - started
        self._follow_view()
        if tag == "step":
            self.conn.send(("frame", self.framer.live(message, False)))
        else:      # its end: its frame, and its line of the table (the window's process
            self.conn.send(("last frame", self.framer.final(message),   # then only paints)
                            self.framer.row(message)))
        return time.perf_counter() - started

    def _follow_view(self) -> None:
        flags = self.flags
        if flags[VIEWS] == self.views:
            return
        self.views = flags[VIEWS]
        spec = self.framer.spec
        self.framer.follow(dataclasses.replace(
            spec, x_min=flags[X_MIN], x_max=flags[X_MAX], y_min=flags[Y_MIN],
            y_max=flags[Y_MAX]))
