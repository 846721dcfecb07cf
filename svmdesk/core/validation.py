"""Cross-validation: the points dealt into k folds, a fresh copy of the estimator trained on
all but one fold and scored on that one, once per fold.

The folds are scikit-learn's, index for index: StratifiedKFold(folds, shuffle=True,
random_state=seed) for a classifier (each fold holds each class in about its share of the
data), KFold(folds, shuffle=True, random_state=seed) for a regressor. A score here and one
from scikit-learn's cross_val_score with the same seed are scores of the same splits; the
core never imports scikit-learn, so the dealing is written again here.
"""
from __future__ import annotations

import numbers
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from ..i18n import tr
from .cluster_executor import for_tasks
from .errors import Cancelled, DataError
from .estimators.base import TableEstimator, column_as_1d
from .estimators.labels import check_data, check_labels, unique
from .estimators.one_class import OneClassSVM
from .estimators.regression import _Regressor, check_targets
from .local_pool import local_pool, worker_count, worker_deaths_said

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

Split = tuple[np.ndarray, np.ndarray]                  # (train, test) indices of one fold
Score = Callable[[Any, np.ndarray, np.ndarray], float]  # (fitted estimator, X_test, y_test)

_SEEDS = 2**32          # numpy's RandomState, which deals scikit-learn's folds, takes [0, 2**32)


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
        scores = _read_only(np.array(self.scores, dtype=np.float64))
        object.__setattr__(self, "scores", scores)
        object.__setattr__(self, "fit_times", _read_only(np.array(self.fit_times, dtype=float)))
        object.__setattr__(self, "indices", tuple(
            (_read_only(np.array(train)), _read_only(np.array(test)))
            for train, test in self.indices))
        object.__setattr__(self, "folds", len(scores))
        object.__setattr__(self, "mean", float(np.mean(scores)))
        object.__setattr__(self, "std", float(np.std(scores)))


def _read_only(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


# -- the folds ----------------------------------------------------------------------------------
def fold_indices(y: ArrayLike, folds: int = 5, seed: int | None = None,
                 stratified: bool = True) -> list[Split]:
    """The (train, test) point indices of each fold, both sorted: stratified, scikit-learn's
    StratifiedKFold(folds, shuffle=True, random_state=seed).split(X, y); else its
    KFold(folds, shuffle=True, random_state=seed).split(X). y holds a label (a string or a
    number) or a target per point. seed None draws a fresh seed from numpy's default_rng
    (scikit-learn would shuffle with numpy's global generator instead: either way each call
    differs). A class with fewer points than folds is allowed with a UserWarning, as
    scikit-learn allows it."""
    folds = _check_folds(folds)
    rng = np.random.RandomState(_fresh_seed() if seed is None else _check_seed(seed))
    if stratified:
        codes, labels = _class_codes(y)
        _check_enough_points(len(codes), folds)
        _check_class_sizes(codes, labels, folds)
        test_fold = _stratified_test_folds(codes, folds, rng)
    else:
        n = len(_one_per_point(y, tr("y should be a 1d array, got an array of shape {shape} "
                                     "instead: give one target value per point (1-D)")))
        _check_enough_points(n, folds)
        test_fold = _shuffled_test_folds(n, folds, rng)
    return [(np.flatnonzero(test_fold != k), np.flatnonzero(test_fold == k))
            for k in range(folds)]


def _stratified_test_folds(codes: np.ndarray, folds: int, rng: np.random.RandomState
                           ) -> np.ndarray:
    """The fold that tests each point."""
    classes = int(codes.max()) + 1
    # Deal the points, sorted by class, to the folds in turn: a fold's share of a class then
    # differs from another fold's by one point at most.
    shares = np.zeros((folds, classes), dtype=np.intp)
    np.add.at(shares, (np.arange(len(codes)) % folds, np.sort(codes)), 1)
    test_fold = np.empty(len(codes), dtype=np.intp)
    for k in range(classes):
        # which class's shares are shuffled first decides the generator's draws: classes
        # go in order of first appearance, as scikit-learn takes them
        fold_of_member = np.repeat(np.arange(folds), shares[:, k])
        rng.shuffle(fold_of_member)
        test_fold[codes == k] = fold_of_member
    return test_fold


def _shuffled_test_folds(n: int, folds: int, rng: np.random.RandomState) -> np.ndarray:
    """The fold that tests each point: the points shuffled, then cut into folds in turn,
    the first n % folds folds one point larger."""
    order = np.arange(n)
    rng.shuffle(order)
    sizes = np.full(folds, n // folds)
    sizes[: n % folds] += 1
    test_fold = np.empty(n, dtype=np.intp)
    test_fold[order] = np.repeat(np.arange(folds), sizes)
    return test_fold


def _class_codes(y: ArrayLike) -> tuple[np.ndarray, list]:
    """Each point's class as a number, and the labels: classes numbered in order of first
    appearance."""
    y = _one_per_point(y, tr("y should be a 1d array, got an array of shape {shape} instead: "
                             "give one label per point (1-D)"))
    check_labels(y)
    number: dict = {}
    for label in y.tolist():
        number.setdefault(label, len(number))
    codes = np.fromiter((number[label] for label in y.tolist()), dtype=np.intp, count=len(y))
    return codes, list(number)


def _one_per_point(y: ArrayLike, wrong_shape: str) -> np.ndarray:
    """y as a 1-D array; `wrong_shape` ({shape}) says why not."""
    y = column_as_1d(y)
    if y.ndim != 1:
        raise DataError(wrong_shape.format(shape=y.shape))
    return y


def _check_folds(folds: object) -> int:
    if isinstance(folds, bool) or not isinstance(folds, numbers.Integral) or folds < 2:
        raise ValueError(tr("folds must be a whole number of 2 or more, got {folds}: each "
                            "fold is tested by a model trained on the others"
                            ).format(folds=repr(folds)))
    return int(folds)


def _check_seed(seed: object) -> int:
    if (isinstance(seed, bool) or not isinstance(seed, numbers.Integral)
            or not 0 <= int(seed) < _SEEDS):
        raise ValueError(tr("seed must be a whole number from 0 to {largest}, or None for a "
                            "fresh one; got {seed}").format(largest=_SEEDS - 1, seed=repr(seed)))
    return int(seed)


def _fresh_seed() -> int:
    return int(np.random.default_rng().integers(_SEEDS))


def _check_enough_points(n: int, folds: int) -> None:
    if n < folds:
        raise ValueError(tr("Cannot split {points} points into {folds} folds: every fold needs "
                            "a point to test on. Use {points} folds at most, or add points"
                            ).format(points=n, folds=folds))


def _check_class_sizes(codes: np.ndarray, labels: list, folds: int) -> None:
    """scikit-learn's rule: refuse when no class can reach every fold, warn when one can't."""
    counts = np.bincount(codes)
    if counts.max() < folds:
        raise ValueError(tr("Cannot make {folds} stratified folds: the largest class has "
                            "only {largest} points, and at least one class needs a point in "
                            "every fold. Use {largest} folds at most, or add points"
                            ).format(folds=folds, largest=int(counts.max())))
    smallest = int(np.argmin(counts))
    if counts[smallest] < folds:
        warnings.warn(tr("Class {label} has fewer points ({count}) than there are folds "
                         "({folds}): some folds test none of it, so their scores say nothing "
                         "about it").format(label=repr(labels[smallest]),
                                            count=int(counts[smallest]), folds=folds),
                      UserWarning, stacklevel=3)


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
    stratified = _is_classifier(estimator)
    if stratified:
        X, y = check_data(X, y)
    else:
        X, y = check_targets(X, y, type(estimator).__name__)
    seed = _fresh_seed() if seed is None else _check_seed(seed)
    splits = fold_indices(y, folds, seed, stratified)
    if stratified:
        _check_training_classes(y, splits)
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


def _is_classifier(estimator: Any) -> bool:
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


def _check_training_classes(y: np.ndarray, splits: Sequence[Split]) -> None:
    for k, (train, _test) in enumerate(splits):
        present = unique(y[train])
        if len(present) < 2:
            raise DataError(tr("Fold {fold} of {folds} would train on class {label} only: its "
                               "test part holds every point of the other classes. Use fewer "
                               "folds, or add points to the smaller classes").format(
                fold=k + 1, folds=len(splits), label=repr(present[0])))


def _one_fold(estimator: Any, X_train: np.ndarray, y_train: np.ndarray, X_test: np.ndarray,
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
        done.append(FoldScore(k, *_one_fold(*task)))
        if progress is not None:
            progress(done[-1])
    return done


def _on_executor(executor: Executor, tasks: list[tuple], cancelled: Callable[[], bool] | None,
                 progress: Callable[[FoldScore], None] | None = None) -> list[FoldScore]:
    futures: list[Future] = []
    try:
        for task in tasks:
            _stop_if_cancelled(cancelled, _finished(futures), len(tasks))
            futures.append(executor.submit(_one_fold, *task))
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
