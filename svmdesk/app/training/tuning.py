"""Tune C and gamma: the panel's settings cross-validated at every C and gamma of the Tune
panel's ranges (core.model_selection.grid_search) on the same folds as Cross-validate, off
the GUI thread, on worker processes that import no Qt (the core's loky pool), leaving the
GUI a core. Each cell is drawn on the map as it arrives; Cancel withdraws the cells not
started. The map is the document's (a session keeps it); a cell clicked gives the panel its
C and gamma and trains that model.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from ...core import catalog
from ...core.errors import Cancelled, DataError
from ...core.estimators.base import scaled_data_and_kernel
from ...core.local_pool import local_pool, worker_count
from ...core.model_selection.grid_search import grid_search
from ...formats.tuning_map import TunedCell, TuningMap
from ...i18n import tr
from ..background import in_background
from .cross_validation import FOLDS_SEED, metric_of, points_digest, settings_words
from .run import RunRefused

TICK_MS = 500                # the elapsed time's update while the grid runs
# Cells come in bursts (a column's cells end with its last fold): drawn together, at most
# once a frame, the map is redrawn once per burst instead of once per cell
REDRAW_MS = 16
GAMMA_KERNELS = catalog.TABLE.param("gamma").kernels or ()


class Tuning(QObject):
    cell_done = Signal(int, object)   # (run number, GridCell), from the grid's thread
    ended = Signal(int, object)       # (run number, the outcome or the error)

    def __init__(self, panel, make_job: Callable, take_cell: Callable, notices, work,
                 parent: QObject | None = None):
        """`panel`: the Tune panel (it asks and shows); `make_job()`: the run the
        settings panel and the training points make (RunRefused says why none);
        `take_cell(C, gamma)`: the settings panel takes them and the canvas trains;
        `work`: the document, which keeps the map (its tuning)."""
        super().__init__(parent)
        self.panel, self.make_job, self.notices, self.work = panel, make_job, notices, work
        self.running = False
        self._runs = 0                  # a cell or an end of an earlier run is not this one's
        self._cancel = threading.Event()
        self._started = 0.0
        self._clock = QTimer(self)
        self._clock.setInterval(TICK_MS)
        self._clock.timeout.connect(self._show_progress)
        self._redraw = QTimer(self)
        self._redraw.setSingleShot(True)
        self._redraw.setInterval(REDRAW_MS)
        self._redraw.timeout.connect(self._draw_cells)
        panel.start_requested.connect(self.start)
        panel.cancel_requested.connect(self.cancel)
        panel.cell_clicked.connect(take_cell)
        self.cell_done.connect(self._cell)
        self.ended.connect(self._ended)
        work.tuning_replaced.connect(self._replaced)

    @property
    def tuning(self) -> TuningMap | None:
        return self.work.tuning

    def start(self, C: tuple, gamma: tuple, folds: int) -> None:
        """Cross-validate the panel's settings at every (C, gamma) over `folds` folds."""
        if self.running:
            return
        try:
            job = self.make_job()
        except RunRefused as e:
            self.panel.refuse(str(e))
            return
        why = cannot_tune(job.kind, job.params)
        if why:
            self.panel.refuse(why)
            return
        self.work.tuning = TuningMap(tuple(C), tuple(gamma), folds, FOLDS_SEED,
                                     metric_of(job.kind) or "", other_settings(job),
                                     points=points_digest(job))
        self.work.mark_changed()
        self._runs += 1
        run, estimator, labels = self._runs, type(job.estimator)(**job.params), \
            job.training_labels()
        self._cancel = threading.Event()        # its own: an abandoned grid stays cancelled
        cancelled = self._cancel.is_set
        self._set_running(True)
        self.panel.show_stale(False)            # a map of these points and settings
        self.show()

        def work():
            return grid_search(estimator, job.X, labels, {"C": list(C), "gamma": list(gamma)},
                               folds=folds, seed=FOLDS_SEED,
                               executor=local_pool(worker_count(-2)),
                               cancelled=cancelled,
                               progress=lambda cell: self.cell_done.emit(run, cell))

        in_background(work, lambda result: self.ended.emit(run, result),
                      lambda error: self.ended.emit(run, error))

    def cancel(self) -> None:
        """Withdraw the cells not started (those running finish unheard)."""
        self._cancel.set()

    def follow(self, kind: str, params: dict | None, job) -> None:
        """The settings panel now holds `kind` with `params` (None: they cannot be
        trained), and `job` would train on the points (None: none can, or no map to
        judge): the panel says what it can tune, marks the current C and gamma, and marks a
        map of other points or settings stale."""
        why = tr("These settings cannot be trained; see the settings panel.") \
            if params is None else cannot_tune(kind, params)
        if why:
            self.panel.refuse(why)
        else:
            self.panel.show_metric(metric_of(kind))
        C, gamma = (None, None) if params is None else (params.get("C"), params.get("gamma"))
        if isinstance(gamma, str) and job is not None:   # 'scale': the value it gives
            gamma = resolved_gamma(job)
        numbers = all(type(v) in (int, float) for v in (C, gamma))
        self.panel.map.mark_current(*((C, gamma) if numbers else (None, None)))
        self._judge(job)

    def _judge(self, job) -> None:
        tuning = self.tuning
        stale = tuning is not None and (
            job is None or other_settings(job) != tuning.settings
            or (tuning.points is not None and points_digest(job) != tuning.points))
        self.panel.show_stale(stale)

    def _replaced(self) -> None:
        """A session's map replaced the one shown: a grid under way is abandoned (its
        cells belong to no map shown)."""
        if self.running:
            self._cancel.set()
            self._runs += 1
            self._set_running(False)
        self.show()

    def show(self) -> None:
        """Show the document's map (a session's, or the one being made)."""
        self.panel.show_map(self.tuning)

    def _cell(self, run: int, cell) -> None:
        if run != self._runs or self.tuning is None:
            return
        params = cell.params
        self.work.tuning = self.tuning.with_cell(TunedCell(
            float(params["C"]), float(params["gamma"]),
            tuple(float(s) for s in cell.scores), tuple(float(t) for t in cell.fit_times)))
        if not self._redraw.isActive():
            self._redraw.start()

    def _draw_cells(self) -> None:
        """The cells heard since the last drawing: drawn, and the work marked changed."""
        self.work.mark_changed()
        self.show()
        self._show_progress()

    def _show_progress(self) -> None:
        tuning = self.tuning
        if tuning is None:
            return
        done, elapsed = len(tuning.cells), time.monotonic() - self._started
        # a guess of the time left while the map fills; none once it ended (done or not)
        left = elapsed / done * (tuning.size - done) if done and self.running else None
        self.panel.show_progress(done, tuning.size, elapsed, left)

    def _ended(self, run: int, outcome) -> None:
        if run != self._runs:
            return
        if self._redraw.isActive():            # the last cells, drawn before the end
            self._redraw.stop()
            self._draw_cells()
        self._set_running(False)
        self._show_progress()                 # the time it took, and no time left
        if isinstance(outcome, Cancelled):      # what the user asked for: no error
            self.notices.say(tr("Tuning cancelled with {done} of {cells} cells done."
                                ).format(done=len(outcome.finished),
                                         cells=self.tuning.size if self.tuning else 0), 8000)
        elif isinstance(outcome, (DataError, ValueError, TypeError)):
            self.notices.error(tr("Tuning cannot run: {why}").format(why=outcome))
        elif isinstance(outcome, Exception):
            self.notices.error(tr("Tuning failed: {why}").format(why=outcome))
        elif self.tuning is not None and (best := self.tuning.best()) is not None:
            self.notices.say(tr("Tuned: the best cell is C = {C:g}, gamma = {gamma:g} "
                                "({mean:.3f}); click a cell to train its model.").format(
                C=best.C, gamma=best.gamma, mean=best.mean), 10000)

    def _set_running(self, running: bool) -> None:
        self.running = running
        self.panel.show_running(running)
        if running:
            self._started = time.monotonic()
            self._show_progress()
            self._clock.start()
        else:
            self._clock.stop()


def cannot_tune(kind: str, params: dict) -> str:
    """Why `kind` with `params` has no C and gamma to tune ('' when it has)."""
    if metric_of(kind) is None:
        return tr("Novelty detection has no labels to score folds by: tuning needs a "
                  "classifier or a regressor.")
    if "C" not in params:
        return tr("This machine has nu, not C: choose C-SVC or epsilon-SVR to tune C and "
                  "gamma.")
    if params.get("kernel") not in GAMMA_KERNELS:
        return tr("The linear kernel has no gamma: choose the RBF, polynomial or sigmoid "
                  "kernel to tune C and gamma.")
    return ""


def resolved_gamma(job) -> float | None:
    """The gamma the estimator of `job` trains with (its 'scale' or 'auto' worked out on
    the points as fit does), or None when the points cannot be trained."""
    try:
        return float(scaled_data_and_kernel(job.X, job.params)[2].gamma)
    except (DataError, ValueError):
        return None


def other_settings(job) -> str:
    """The settings of `job` but C and gamma, in words: a map is of these."""
    fixed = {**job.params, "C": 1.0, "gamma": 1.0}
    return " · ".join(part for part in settings_words(fixed, job.kind).split(" · ")
                      if part not in ("C = 1", "gamma = 1"))
