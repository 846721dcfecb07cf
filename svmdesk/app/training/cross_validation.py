"""Cross-validation of the panel's settings on the training points, asked for from the
evaluation view: k folds (core.model_selection.cross_validate) off the GUI thread through the
app's one background mechanism (background.in_background), each fold heard as it ends,
Cancel between folds. Its results pile up in `results`, newest last, each with the
settings it judged, so that a student can compare models side by side; a session keeps
them.
"""
from __future__ import annotations

import hashlib
import threading

import numpy as np
from PySide6.QtCore import QObject, Signal

from ...core.errors import Cancelled, DataError
from ...core.kinds import CLASSIFICATION, KINDS, REGRESSION
from ...core.model_selection.cross_validation import FoldScore, cross_validate
from ...formats.session import CVRecord
from ...i18n import tr
from ..background import in_background
from ..widgets.evaluation.cross_validation_row import cv_folds, cv_line
from ..widgets.pictures import settings_parts
from .run import RunRefused

MOST_KEPT = 20               # results kept (and saved in a session): the oldest go first
# Every cross-validation deals the same points into the same folds: two settings compared
# side by side are scored on the same splits (fresh folds each time moved a comparison by
# more than the difference it was about)
FOLDS_SEED = 0


class CrossValidation(QObject):
    fold_done = Signal(int, int)     # folds done, folds in all (from the background thread:
                                     # Qt queues it to the GUI thread)
    finished = Signal(object)        # the CVRecord added to `results`
    failed = Signal(str)             # why it could not run
    running_changed = Signal(bool)

    def __init__(self, view, make_job, notices, work, parent: QObject | None = None):
        """`view`: the evaluation view (its row asks and shows); `make_job()`: the run
        the panel's settings and the training points make (RunRefused says why none);
        `notices`: where the outcome is said; `work`: the document, which keeps the
        results (its cross_validations)."""
        super().__init__(parent)
        self.view, self.make_job, self.notices, self.work = view, make_job, notices, work
        self.running = False
        self._cancel = threading.Event()
        view.cross_validate_requested.connect(self.ask)
        view.cancel_requested.connect(self.cancel)
        self.fold_done.connect(lambda done, folds: view.show_cv_running((done, folds)))
        self.running_changed.connect(lambda running: running or view.show_cv_running(None))
        self.finished.connect(self._said)
        self.failed.connect(notices.error)

    def ask(self, folds: int) -> None:
        """The view's Cross-validate: the panel's settings over `folds` folds."""
        try:
            job = self.make_job()
        except RunRefused as e:
            self.notices.error(str(e))
            return
        self.start(job, folds, settings_words(job.params, job.kind))

    def judge(self, kind: str, params: dict | None, job) -> None:
        """The panel now holds `kind` with `params` (None: they cannot be trained) and
        `job` would train on its points (None: none can): the view shows the results beside
        the task, settings and points they scored."""
        self.view.judge_cv_by(metric_of(kind),
                              None if params is None else settings_words(params, kind),
                              None if job is None else points_digest(job))

    def start(self, job, folds: int, settings: str) -> None:
        """Cross-validate the estimator of `job` (a training Job: its kind, parameters and
        training points) over `folds` folds; `settings` names what is judged."""
        if self.running:
            return
        metric = metric_of(job.kind)
        if metric is None:
            self.failed.emit(tr("Novelty detection has no labels to score folds by: "
                                "cross-validation needs a classifier or a regressor."))
            return
        estimator = type(job.estimator)(**job.params)   # the job's own stays unfitted
        labels = job.training_labels()
        self._cancel.clear()
        self._set_running(True)
        self.fold_done.emit(0, folds)

        def heard(fold: FoldScore) -> None:
            self.fold_done.emit(fold.fold + 1, folds)

        def work():
            return cross_validate(estimator, job.X, labels, folds=folds, seed=FOLDS_SEED,
                                  cancelled=self._cancel.is_set, progress=heard)

        points = points_digest(job)
        in_background(work, lambda result: self._done(result, settings, metric, points),
                      self._failed)

    def cancel(self) -> None:
        """Stop after the fold that is running (a fold is one fit: it is not cut short)."""
        self._cancel.set()

    @property
    def results(self) -> list[CVRecord]:
        return self.work.cross_validations

    def _said(self, record: CVRecord) -> None:
        self.view.show_cv_results(self.results)
        self.notices.say(f"{cv_line(record)} · {cv_folds(record)}", 8000)

    def _done(self, result, settings: str, metric: str, points: str) -> None:
        record = CVRecord(settings, metric, result.folds, result.seed,
                          tuple(float(s) for s in result.scores), points)
        self.work.cross_validations = (self.results + [record])[-MOST_KEPT:]
        self._set_running(False)
        self.finished.emit(record)

    def _failed(self, error: Exception) -> None:
        self._set_running(False)
        if isinstance(error, Cancelled):          # what the user asked for: no error
            self.notices.say(tr("Cross-validation cancelled after {done} of its folds."
                                ).format(done=len(error.finished)), 8000)
        elif isinstance(error, (DataError, ValueError, TypeError)):
            self.failed.emit(tr("Cross-validation cannot run: {why}").format(why=error))
        else:
            self.failed.emit(tr("Cross-validation failed: {why}").format(why=error))

    def _set_running(self, running: bool) -> None:
        self.running = running
        self.running_changed.emit(running)


def metric_of(kind: str) -> str | None:
    """What folds of `kind` are scored by: R² for a regressor, accuracy for a classifier,
    nothing for novelty detection (no labels)."""
    return {CLASSIFICATION: "accuracy", REGRESSION: "R²"}.get(KINDS[kind].task)


def settings_words(params: dict, kind: str) -> str:
    """The settings a cross-validation judged, in words (what its result shows beside)."""
    return " · ".join(settings_parts(params, kind))


def points_digest(job) -> str:
    """What the training points of `job` are, in a few bytes: two cross-validations scored
    the same points when their digests are equal."""
    digest = hashlib.blake2b(digest_size=16)
    for array in (job.X, job.training_labels()):
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()
