"""Compare solvers: the panel's settings trained by several solvers (or one solver at several
values of C) on the same points at once, each run on a lane of its own: a solver process
that trains, makes the run's frames (framing.py) and, as it ends, its line of the table
(core.comparison: its model's predictions and SMO's solution of the same settings, for the
agreement column), and a worker thread that hands them on (worker.py, solver_process.py).
The window's process only paints: while five threads of it made the frames, they took the
GIL from its paints (stalls of 100-300 ms, 6-8 frames a second for the slower runs).

Each run's canvas asks its lane for the next frame once it has painted the last (at most
FRAME_RATE a second, the budget's 10 and a margin), and the canvases draw in turn, one per
pass of the event loop (draw_turns.py); the charts of the objectives redraw at most CHART_MS
apart. The solver processes run niced (solver_process.SolverProcess), so the
window's process keeps its share of the cores.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

import numpy as np
from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot

from ...core.catalog import TABLE
from ...core.comparison import (
    MOST_RUNS,
    Entry,
    Row,
    entries_for,
    offered,
    state_words,
)
from ...core.datasets import class_labels
from ...core.estimators import SVC
from ...core.kinds import C_SVC
from ...core.training_job import Job
from ...drawing.decision_grid import GridSpec
from ...drawing.frame_views import regrid
from ...formats.comparison_record import ComparedRun, ComparisonRecord
from ...i18n import tr
from ..background import in_background
from ..widgets.charts import History
from ..widgets.comparison_picture import Points, run_frame
from ..widgets.pictures import settings_parts
from .draw_turns import DrawTurns
from .run import RunRefused
from .worker import TrainingWorker

FRAME_RATE = 12.0            # frames a second each canvas asks for at most
CHART_MS = 100               # the objectives' charts redraw at most this often
GRID = 100                   # a small canvas's decision grid per axis
READINESS_MS = 200           # between looks at whether the lanes are ready
VIEW_SETTLED_MS = 150        # an ended run's canvas is shaded anew once the view rests
CHARTS = MOST_RUNS           # the charts' turns after the canvases' (draw_turns.DrawTurns)


class _Lane(QObject):
    """One run's worker thread and solver process, kept from comparison to comparison. Its
    worker's reports reach the GUI thread through its slots (a lambda would be called on
    the worker's thread), numbered with the lane's place."""

    order = Signal(object, object)          # a Job and its grid, queued to the worker
    frame = Signal(int, object)             # (lane, Frame) during a run
    summed = Signal(int, object)            # (lane, the run's Row), just before its end
    finished = Signal(int, object)          # (lane, the final Frame)
    failed = Signal(int, str)               # (lane, a readable message)

    def __init__(self, place: int, parent: QObject):
        super().__init__(parent)
        self.place = place
        self.worker = TrainingWorker(frame_rate=FRAME_RATE, background=True)
        self.worker_thread = QThread(self)
        self.worker.moveToThread(self.worker_thread)
        self.order.connect(self.worker.run)
        self.worker.frame.connect(self._frame)
        self.worker.summed.connect(self._summed)
        self.worker.finished.connect(self._finished)
        self.worker.failed.connect(self._failed)
        self.worker_thread.start()

    @Slot(object)
    def _frame(self, frame) -> None:
        self.frame.emit(self.place, frame)

    @Slot(object)
    def _summed(self, row) -> None:
        self.summed.emit(self.place, row)

    @Slot(object)
    def _finished(self, frame) -> None:
        self.finished.emit(self.place, frame)

    @Slot(str)
    def _failed(self, message: str) -> None:
        self.failed.emit(self.place, message)

    def shutdown(self) -> None:
        self.worker.stop()
        self.worker_thread.quit()
        self.worker_thread.wait()
        self.worker.release()


class _Run:
    """What the window knows of one run of the comparison under way."""

    def __init__(self, entry: Entry, job: Job):
        self.entry, self.job = entry, job
        self.seconds: list = []               # each chart row's time
        self.rows = History()                 # (iteration, primal, dual, gap) rows
        self.elapsed = 0.0
        self.model = None                     # its fitted estimator, once it has one
        self.row = None                       # its line of the table, once it has ended
        self.charted = [0, 0]                 # its rows drawn on each chart
        self.ended = False
        self.unpainted = False                # its canvas has a frame not painted yet


class Comparison(QObject):
    ended = Signal()                # every run has its row, its last frame and curve drawn

    def __init__(self, view, make_job: Callable, panel_params: Callable, work, parent=None):
        """`view`: the Compare solvers window's view; `make_job()`: the run the panel and
        the points make (RunRefused says why none); `panel_params()` the panel's settings
        (ValueError: they cannot be trained); `work`: the document, which keeps the last
        comparison (its `comparison`)."""
        super().__init__(parent)
        self.view, self.make_job, self.panel_params = view, make_job, panel_params
        self.work = work
        self.settings = ""                    # the settings the runs share, in words
        self.lanes: list[_Lane] = []
        self.runs: list[_Run] = []
        self.results: list = []               # each run's Row, error message, or None
        self.started = 0.0
        self._count = 0                       # comparisons started: a late row is dropped
        self._ending: set = set()             # lanes whose forgotten runs still end
        self._turns = DrawTurns(self)         # the canvases' changes, one at a time
        self._turns.drained.connect(self._drawn)
        self._ends_when_drawn = False         # every row is in: `ended` once all is drawn
        self._charts = QTimer(self, singleShot=True, interval=CHART_MS)
        self._charts.timeout.connect(self._draw_charts)
        self._readiness = QTimer(self, interval=READINESS_MS)   # the lanes' imports done?
        self._readiness.timeout.connect(self._look_at_readiness)
        view.compare_requested.connect(self.start)
        view.stop_requested.connect(self.stop)
        for k, canvas in enumerate(view.canvases):
            canvas.painted.connect(lambda k=k: self._painted(k))
        for c, chart in enumerate(view.charts):
            chart.painted.connect(lambda c=c: self._turns.painted(CHARTS + c))
        self._view_settled = QTimer(self, singleShot=True, interval=VIEW_SETTLED_MS)
        self._view_settled.timeout.connect(self._regrid_ended)
        view.canvases[0].view.sigRangeChanged.connect(lambda *_: self._follow_view())

    @property
    def running(self) -> bool:
        return any(not run.ended for run in self.runs)

    def prepare(self) -> None:
        """Start every lane now (the window opened): a solver process takes a second or
        more to make its imports, several at once on two cores several seconds, which the
        user spends choosing the solvers rather than watching empty canvases."""
        while len(self.lanes) < MOST_RUNS:
            self._add_lane()
        if not self.running and not self.view.table.rowCount():   # else: a table's words
            self.view.say(tr("Starting the solvers' processes…"))
            self._readiness.start()
            self._look_at_readiness()         # idle processes of an earlier window: ready

    def _look_at_readiness(self) -> None:
        if not self.ready:
            return
        self._readiness.stop()
        if not self.running:
            self.view.say(tr("Ready: tick the solvers, write the values of C and click "
                             "Compare."))

    @property
    def ready(self) -> bool:
        """Every lane's solver process waits for orders."""
        return all(lane.worker.solver.ready() for lane in self.lanes)

    def follow_panel(self) -> None:
        """The window offers the solvers that can train the panel's kernel (the values of
        C are the window's own, checked at Compare)."""
        try:
            params = self.panel_params()
        except ValueError:
            self.view.offer({})
            return
        self.view.offer(offered(params.get("kernel", "linear"), 1.0))

    def start(self, solvers: tuple, Cs: tuple) -> None:
        if self.running:
            return
        if self._ending:       # arming a lane now would take back the stop its run reads
            self.view.say(tr("The runs stopped are still ending: compare again in a "
                             "moment."))
            return
        try:
            job = self.make_job()
            if job.kind != C_SVC.key:
                raise RunRefused(tr("Solvers are compared on a C-SVC classifier: choose "
                                    "classification and C-SVC in the panel."))
            entries = entries_for(solvers, Cs, job.params)
        except (RunRefused, ValueError) as e:
            self.view.say(str(e))
            return
        self._count += 1
        self.settings = shared_words(job.params)
        self.runs = [_Run(entry, Job(job.X, job.y, SVC(**entry.params(job.params)),
                                     job.X_test, job.y_test, job.labels))
                     for entry in entries]
        self.results = [None] * len(entries)
        self._turns.clear()
        self._ends_when_drawn = False
        self.view.show_runs([run.entry.title() for run in self.runs])
        for k, canvas in enumerate(self.view.canvases[:len(self.runs)]):
            self._turns.put(k, partial(self._cleared, canvas))
        for c in range(len(self.view.charts)):
            self._turns.put(CHARTS + c, partial(self._renewed, c))
        for k in range(len(self.runs)):
            self.view.show_row(k, None, tr("running"))
        while len(self.lanes) < len(self.runs):
            self._add_lane()
        spec = self._spec()
        self.started = time.perf_counter()
        self.view.show_running(True)
        self.view.say(tr("Training {n} runs at once… Shared: {settings}").format(
            n=len(self.runs), settings=self.settings))
        for lane, run in zip(self.lanes, self.runs):
            lane.worker.arm()
            lane.order.emit(run.job, spec)

    def stop(self) -> None:
        for lane, run in zip(self.lanes, self.runs):
            if not run.ended:
                lane.worker.stop()

    def shutdown(self) -> None:
        """Stop every run and join the lanes' threads (never leave a QThread running)."""
        self._charts.stop()
        self._readiness.stop()
        self._turns.clear()
        for lane in self.lanes:
            lane.shutdown()
        self.lanes = []

    def _add_lane(self) -> None:
        lane = _Lane(len(self.lanes), self)
        lane.frame.connect(self._frame)
        lane.summed.connect(self._summed)
        lane.finished.connect(self._finished)
        lane.failed.connect(self._failed)
        self.lanes.append(lane)

    def _spec(self) -> GridSpec:
        (x0, x1), (y0, y1) = self.view.canvases[0].view.viewRange()
        return GridSpec(x0, x1, y0, y1, GRID, GRID)

    # -- what the lanes report ----------------------------------------------------------------
    def _frame(self, k: int, frame) -> None:
        if k >= len(self.runs) or self.runs[k].ended:
            self.lanes[k].worker.frame_drawn()
            return
        self._take_history(self.runs[k], frame)
        self._turns.put(k, partial(self._show, k, frame))

    def _take_history(self, run: _Run, frame) -> None:
        history = frame.reading.history
        if history:            # the rows since the last frame, their times spread evenly
            times = np.linspace(run.elapsed, frame.reading.elapsed, len(history) + 1)[1:]
            run.seconds.extend(times.tolist())
            run.rows.extend(history)
        run.elapsed = frame.reading.elapsed
        if not self._charts.isActive():
            self._charts.start()

    def _show(self, k: int, frame) -> bool:
        """Run k's frame on its canvas (its turn come); whether a paint is to come."""
        canvas, run = self.view.canvases[k], self.runs[k]
        canvas.show_frame(frame)
        run.unpainted = _in_sight(canvas)
        if not run.unpainted:              # out of sight: nothing to wait for
            self.lanes[k].worker.frame_drawn()
        return run.unpainted

    @staticmethod
    def _cleared(canvas) -> bool:
        canvas.clear_model()
        return _in_sight(canvas)

    def _renewed(self, c: int) -> bool:
        self.view.renew_charts((c,))
        return _in_sight(self.view.charts[c])

    def _painted(self, k: int) -> None:
        self._turns.painted(k)
        if k < min(len(self.runs), len(self.lanes)) and self.runs[k].unpainted:
            self.runs[k].unpainted = False
            self.lanes[k].worker.frame_drawn()

    def _finished(self, k: int, frame) -> None:
        self._ending.discard(k)
        if k >= len(self.runs) or self.runs[k].ended:
            return
        run = self.runs[k]
        self._take_history(run, frame)
        self._turns.put(k, partial(self._show, k, frame))
        run.ended = True
        run.model = frame.estimator           # None: stopped
        self._take_row(k, run.row if run.row is not None else
                       tr("the run ended without its line of the table"))

    def _summed(self, k: int, row) -> None:
        """Run k's line of the table, made by its solver's process as it ended."""
        if k < len(self.runs):
            self.runs[k].row = row

    def _failed(self, k: int, message: str) -> None:
        self._ending.discard(k)
        if k < len(self.runs) and not self.runs[k].ended:
            self.runs[k].ended = True
            self._take_row(k, message)

    def _take_row(self, k: int, row) -> None:
        """Run k's line (a Row, or why it failed); the last one ends the comparison."""
        self.results[k] = row
        if isinstance(row, Row):
            self.view.show_row(k, row, state_words(row))
        else:
            self.view.show_row(k, None, tr("failed: {why}").format(why=row))
        if all(result is not None for result in self.results):
            self._ends_when_drawn = True
            self._draw_charts()
            self.view.show_running(False)
            self.view.say(tr("Compared {n} runs in {seconds:.2f} s. Shared: {settings}").format(
                n=len(self.runs), seconds=time.perf_counter() - self.started,
                settings=self.settings))
            self.work.comparison = self._record()
            self.work.mark_changed()

    def _drawn(self) -> None:
        if self._ends_when_drawn:
            self._ends_when_drawn = False
            self.ended.emit()

    def _record(self) -> ComparisonRecord:
        """The comparison as the document keeps it."""
        runs = []
        for run, result in zip(self.runs, self.results):
            rows = run.rows.rows()
            curve = np.column_stack([np.asarray(run.seconds, dtype=float), rows[:, :3]])
            row = result if isinstance(result, Row) else None
            runs.append(ComparedRun(run.entry.solver, run.entry.C, row,
                                    "" if row is not None else str(result), curve,
                                    run.model if row is not None else None))
        return ComparisonRecord(self.settings, tuple(runs))

    def show_record(self, record: ComparisonRecord | None) -> None:
        """A kept comparison (a session's) shown as it ended: its table, its curves, and
        its models over the points (a run under way is stopped and forgotten)."""
        self.stop()
        self._ending |= {k for k, run in enumerate(self.runs) if not run.ended}
        self._count += 1
        self.runs, self.results = [], []
        self._turns.clear()
        self._ends_when_drawn = False
        for canvas in self.view.canvases:
            canvas.clear_model()
        if record is None:
            self.view.show_runs([])
            self.view.show_running(False)
            self.view.renew_charts()
            self.view.say("")
            return
        self.view.show_choices(tuple(dict.fromkeys(run.solver for run in record.runs)),
                               tuple(dict.fromkeys(run.C for run in record.runs)))
        self.view.show_runs([Entry(run.solver, run.C).title() for run in record.runs])
        self.view.show_running(False)         # after the rows: it offers to save them
        self.view.renew_charts()
        for k, run in enumerate(record.runs):
            if run.row is not None:
                self.view.show_row(k, run.row, state_words(run.row))
            else:
                self.view.show_row(k, None, tr("failed: {why}").format(why=run.error))
        self.view.show_curves({k: (run.curve[:, 0], run.curve[:, 1:])
                               for k, run in enumerate(record.runs) if len(run.curve)})
        self.view.say(tr("A kept comparison. Shared: {settings}").format(
            settings=record.settings))
        self._draw_models(record)

    def _draw_models(self, record: ComparisonRecord) -> None:
        """Each kept model over the points, on its canvas. On the GUI thread, as a session
        opens: five models over a small canvas's grid take a few tens of milliseconds,
        once."""
        p, spec = self.work.points, self._spec()
        points = Points(p.X, p.y, p.test_mask, tuple(p.class_names))
        labels = class_labels(self.work.used_class_names()).tolist()
        for k, run in enumerate(record.runs):
            try:
                frame = run_frame(run.model, points, labels, spec)
            except (ValueError, ArithmeticError) as error:
                self.view.say(tr("Could not draw a kept model: {error}").format(error=error))
                continue
            if frame is not None:       # None: no model, or one of other classes
                self.view.canvases[k].show_frame(frame)

    def _draw_charts(self) -> None:
        """The runs' new rows on the charts, each chart in a turn of its own."""
        for c in range(len(self.view.charts)):
            self._turns.put(CHARTS + c, partial(self._draw_curves, c))

    def _draw_curves(self, c: int) -> bool:
        """The runs' new rows on chart c; whether a paint is to come."""
        grown = {k: run for k, run in enumerate(self.runs) if len(run.rows) > run.charted[c]}
        self.view.show_curves({k: (np.asarray(run.seconds), run.rows.rows())
                               for k, run in grown.items()}, (c,))
        for run in grown.values():
            run.charted[c] = len(run.rows)
        return bool(grown) and _in_sight(self.view.charts[c])

    def _follow_view(self) -> None:
        """The linked view moved: the runs under way draw their next frames over it."""
        spec = self._spec()
        for lane, run in zip(self.lanes, self.runs):
            if not run.ended:
                lane.worker.set_spec(spec)
        self._view_settled.start()

    def _regrid_ended(self) -> None:
        """The canvases of the runs that ended, shaded over the view now in sight (off the
        GUI thread)."""
        spec, count = self._spec(), self._count
        for k, canvas in enumerate(self.view.canvases):
            frame = canvas.frame            # a run's that ended, or a kept model's
            live = k < len(self.runs) and not self.runs[k].ended
            if live or frame is None or frame.scene.spec == spec:
                continue
            in_background(lambda frame=frame: regrid(frame, spec),
                          lambda moved, k=k, frame=frame: self._show_regrid(
                              count, k, frame, moved),
                          lambda error: self.view.say(tr(
                              "Could not redraw the model for this view: {error}").format(
                              error=error)))

    def _show_regrid(self, count: int, k: int, frame, moved) -> None:
        canvas = self.view.canvases[k]
        if moved is not None and count == self._count and canvas.frame is frame:
            canvas.show_frame(moved)


def _in_sight(canvas) -> bool:
    """Whether a change to the canvas will be painted (its window shown on a screen)."""
    screen = canvas.window().windowHandle()
    return canvas.isVisible() and screen is not None and screen.isExposed()


def shared_words(params: dict) -> str:
    """The settings the runs of a comparison share, in words (the solver and C are each
    run's)."""
    solver = tr(TABLE.solvers[params["solver"]].title)
    return " · ".join(part for part in settings_parts(params, C_SVC.key)
                      if part != solver and not part.startswith("C = "))
