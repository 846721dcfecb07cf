"""The folds of a cross-validation: the points dealt into k folds, each fold's (train, test)
indices, as scikit-learn's, index for index: StratifiedKFold(folds, shuffle=True,
random_state=seed) for a classifier (each fold holds each class in about its share of the
data), KFold(folds, shuffle=True, random_state=seed) for a regressor. The core never imports
scikit-learn, so the dealing is written again here. The checks of folds and seeds are here
too, for cross-validation and grid search alike."""
from __future__ import annotations

import numbers
import warnings
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from ...i18n import tr
from ..errors import DataError
from ..estimators.base import column_as_1d
from ..estimators.labels import check_labels, unique

Split = tuple[np.ndarray, np.ndarray]                  # (train, test) indices of one fold

_SEEDS = 2**32          # numpy's RandomState, which deals scikit-learn's folds, takes [0, 2**32)


def read_only(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


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
    rng = np.random.RandomState(fresh_seed() if seed is None else check_seed(seed))
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


def check_seed(seed: object) -> int:
    if (isinstance(seed, bool) or not isinstance(seed, numbers.Integral)
            or not 0 <= int(seed) < _SEEDS):
        raise ValueError(tr("seed must be a whole number from 0 to {largest}, or None for a "
                            "fresh one; got {seed}").format(largest=_SEEDS - 1, seed=repr(seed)))
    return int(seed)


def fresh_seed() -> int:
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


def check_training_classes(y: np.ndarray, splits: Sequence[Split]) -> None:
    for k, (train, _test) in enumerate(splits):
        present = unique(y[train])
        if len(present) < 2:
            raise DataError(tr("Fold {fold} of {folds} would train on class {label} only: its "
                               "test part holds every point of the other classes. Use fewer "
                               "folds, or add points to the smaller classes").format(
                fold=k + 1, folds=len(splits), label=repr(present[0])))
