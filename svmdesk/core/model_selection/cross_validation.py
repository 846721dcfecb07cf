"""Cross-validation: the points dealt into k folds, a fresh copy of the estimator trained on
all but one fold and scored on that one, once per fold.

The folds are scikit-learn's, index for index (folds.py): a score here and one from
scikit-learn's cross_val_score with the same seed are scores of the same splits.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from ...i18n import tr
from ..cluster_executor import for_tasks
from ..errors import Cancelled
from ..estimators.base import TableEstimator
from ..estimators.labels import check_data
from ..estimators.one_class import OneClassSVM
from ..estimators.regression import _Regressor, check_targets
from ..local_pool import local_pool, worker_count, worker_deaths_said
from .folds import Split, check_seed, check_training_classes, fold_indices, fresh_seed, read_only

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

Score = Callable[[Any, np.ndarray, np.ndarray], float]  # (fitted estimator, X_test, y_test)

@dataclass(frozen=True)
class FoldScore:
    """One fold's outcome: `fold` counts from 0 (an index into CVResult.indices), `score` is
    its test part's score, `fit_time` the seconds its fit took."""

    fold: int
    score: float
    fit_time: float


@dataclass(frozen=True, eq=False)
class CVResult:
    """A cross-validation's outcome. `scores` and `fit_times` (seconds, time.perf_counter
    around fit) hold one value per fold; `indices` each fold's (train, test) point indices;
    `seed` the seed the folds were dealt with, drawn afresh when none was given, so that a
    run can be repeated. `mean` and `std` summarise the scores; std is the population's
    (numpy's default, ddof=0), as scikit-learn's reports print it. Every array is read-only.
    """

    scores: np.ndarray
    fit_times: np.ndarray
    seed: int
    indices: tuple[Split, ...]
    folds: int = field(init=False)
    mean: float = field(init=False)
    std: float = field(init=False)

    def __post_init__(self) -> None:
        scores = read_only(np.array(self.scores, dtype=np.float64))
        object.__setattr__(self, "scores", scores)
        object.__setattr__(self, "fit_times", read_only(np.array(self.fit_times, dtype=float)))
        object.__setattr__(self, "indices", tuple(
            (read_only(np.array(train)), read_only(np.array(test)))
            for train, test in self.indices))
        object.__setattr__(self, "folds", len(scores))
        object.__setattr__(self, "mean", float(np.mean(scores)))
        object.__setattr__(self, "std", float(np.std(scores)))


# -- the runs -----------------------------------------------------------------------------------
def cross_validate(estimator: Any, X: ArrayLike, y: ArrayLike, folds: int = 5,
                   seed: int | None = None, executor: Executor | None = None,
                   cancelled: Callable[[], bool] | None = None,
                   score: Score | None = None,
                   progress: Callable[[FoldScore], None] | None = None,
                   n_jobs: int | None = None) -> CVResult:
    """Train a fresh copy of `estimator` (its class called with its get_params) on each
    fold's training part and score it on its test part: the estimator's own score (accuracy
    for a classifier, R^2 for a regressor) unless `score(estimator, X_test, y_test)` is
    given. A classifier's folds are stratified, a regressor's plain (see fold_indices);
    seed None draws a fresh one, kept in the result.

    `executor` (a concurrent.futures.Executor) runs the folds; without one, `n_jobs` says
    how, as scikit-learn's: None or 1 one after another in this thread, -1 on a pool of
    one process per core, n on n processes (local_pool: loky's reusable pool, which
    pickles a lambda too). For another executor's processes, the estimator, the data and
    `score` must pickle (a module-level function, not a lambda). `cancelled()` is asked
    before each fold (serially) or before each fold is handed over and each result
    collected (a pool): on True the run stops, pending folds are withdrawn and Cancelled is
    raised with the folds finished so far. Folds already running in an executor are not interrupted.
    `progress(fold)`, if given, hears of each fold as it is done (serially: on this thread;
    with an executor: as its result is collected, in fold order).

    Everything is checked before the first fit: X against y, NaN, each fold's training
    part holding two classes at least."""
    workers = worker_count(n_jobs)
    stratified = is_classifier(estimator)
    if stratified:
        X, y = check_data(X, y)
    else:
        X, y = check_targets(X, y, type(estimator).__name__)
    seed = fresh_seed() if seed is None else check_seed(seed)
    splits = fold_indices(y, folds, seed, stratified)
    if stratified:
        check_training_classes(y, splits)
    tasks = [(_fresh_copy(estimator), X[train], y[train], X[test], y[test], score)
             for train, test in splits]
    if executor is not None:
        done = _on_executor(for_tasks(executor), tasks, cancelled, progress)
    elif workers == 1:
        done = _serially(tasks, cancelled, progress)
    else:
        with worker_deaths_said():
            done = _on_executor(local_pool(workers), tasks, cancelled, progress)
    return CVResult(scores=np.array([d.score for d in done]),
                    fit_times=np.array([d.fit_time for d in done]),
                    seed=seed, indices=tuple(splits))


def is_classifier(estimator: Any) -> bool:
    """True for a classifier, False for a regressor; the one-class SVM is refused."""
    if not (hasattr(estimator, "fit") and hasattr(estimator, "get_params")):
        raise TypeError(tr("cross_validate needs an estimator with fit and get_params, such "
                           "as svmdesk's SVC; got {kind}").format(kind=type(estimator).__name__))
    kind = _estimator_type(estimator)
    if kind == "outlier_detector":
        raise ValueError(tr("{estimator} learns from points without labels, so cross-"
                            "validation has nothing to score its predictions against. "
                            "Cross-validate a classifier (SVC, NuSVC) or a regressor (SVR, "
                            "NuSVR)").format(estimator=type(estimator).__name__))
    return kind != "regressor"


def _estimator_type(estimator: Any) -> str | None:
    if isinstance(estimator, _Regressor):
        return "regressor"
    if isinstance(estimator, OneClassSVM):
        return "outlier_detector"
    if isinstance(estimator, TableEstimator):
        return "classifier"
    # Another library's estimator: scikit-learn's tags (its own, so scikit-learn is loaded
    # already; svmdesk's tags would import it, hence the checks above).
    tags = getattr(estimator, "__sklearn_tags__", None)
    return tags().estimator_type if tags is not None else None


def _fresh_copy(estimator: Any) -> Any:
    """An unfitted copy with the same parameters (shallow: a parameter that is itself an
    estimator is shared; svmdesk's estimators have none)."""
    return type(estimator)(**estimator.get_params(deep=False))


def one_fold(estimator: Any, X_train: np.ndarray, y_train: np.ndarray, X_test: np.ndarray,
              y_test: np.ndarray, score: Score | None) -> tuple[float, float]:
    """One fold's (score, fit seconds). Module-level, so that a process pool can pickle it."""
    start = time.perf_counter()
    estimator.fit(X_train, y_train)
    fit_time = time.perf_counter() - start
    value = estimator.score(X_test, y_test) if score is None else score(estimator, X_test,
                                                                          y_test)
    return float(value), fit_time


def _serially(tasks: list[tuple], cancelled: Callable[[], bool] | None,
              progress: Callable[[FoldScore], None] | None = None) -> list[FoldScore]:
    done: list[FoldScore] = []
    for k, task in enumerate(tasks):
        _stop_if_cancelled(cancelled, done, len(tasks))
        done.append(FoldScore(k, *one_fold(*task)))
        if progress is not None:
            progress(done[-1])
    return done


def _on_executor(executor: Executor, tasks: list[tuple], cancelled: Callable[[], bool] | None,
                 progress: Callable[[FoldScore], None] | None = None) -> list[FoldScore]:
    futures: list[Future] = []
    try:
        for task in tasks:
            _stop_if_cancelled(cancelled, _finished(futures), len(tasks))
            futures.append(executor.submit(one_fold, *task))
        for k, future in enumerate(futures):
            _stop_if_cancelled(cancelled, _finished(futures), len(tasks))
            outcome = future.result()
            if progress is not None:
                progress(FoldScore(k, *outcome))
    except BaseException:
        for future in futures:      # a fold failed or the run was cancelled: none is left queued
            future.cancel()
        raise
    return _finished(futures)


def _finished(futures: list[Future]) -> list[FoldScore]:
    """The folds done without error, in fold order (a pool may finish them in any order)."""
    return [FoldScore(k, *future.result()) for k, future in enumerate(futures)
            if future.done() and not future.cancelled() and future.exception() is None]


def _stop_if_cancelled(cancelled: Callable[[], bool] | None, done: list[FoldScore],
                       folds: int) -> None:
    if cancelled is not None and cancelled():
        raise Cancelled(tr("Cross-validation cancelled with {done} of {folds} folds done"
                           ).format(done=len(done), folds=folds), tuple(done))
