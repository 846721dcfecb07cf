"""A classifier's labels: X and y checked together (one label per point, classes and not
measurements, two classes at least), the distinct labels in order, and their codes."""
from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ...i18n import tr
from ..errors import DataError, continuous_labels
from .base import check_X, column_as_1d


def check_data(X: ArrayLike, y: ArrayLike, need_two_classes: bool = True
               ) -> tuple[np.ndarray, np.ndarray]:
    if y is None:
        raise DataError(tr("SVC requires y to be passed, but the target y is None: give each "
                           "point its class label"))
    X = check_X(X)
    y = column_as_1d(y)
    if y.ndim != 1:
        raise DataError(tr("y should be a 1d array, got an array of shape {shape} instead: "
                           "give one label per point (1-D)").format(shape=y.shape))
    if len(y) != len(X):
        raise DataError(tr("X has {points} points but y has {labels} labels: they must match"
                           ).format(points=len(X), labels=len(y)))
    check_labels(y)
    if need_two_classes and _one_class(y):
        label = y[0].item() if isinstance(y[0], np.generic) else y[0]
        said = (tr("The number of classes has to be greater than one; got 1 class "
                   "(n_samples = 1): every point has label {label}; a classifier needs at "
                   "least two classes, so add points of another class") if len(y) == 1 else
                tr("The number of classes has to be greater than one; got 1 class: every "
                   "point has label {label}; a classifier needs at least two classes, so add "
                   "points of another class"))
        raise DataError(said.format(label=repr(label)))
    return X, y


def check_labels(y: np.ndarray) -> None:
    """Refuse labels that name no class: NaN, infinity, measurements (2.5)."""
    if y.dtype.kind == "f" and not np.isfinite(y).all():
        raise DataError(tr("y contains NaN or infinite labels: every point needs a class"))
    fractional = y.dtype.kind in "fc" and (y != np.round(y))
    if np.any(fractional):
        raise DataError(continuous_labels(repr(y[np.argmax(fractional)].item())))


_NUMPY_SORTS = "biufUS"   # label dtypes numpy sorts and encodes itself, and fast


def _one_class(y: np.ndarray) -> bool:
    """Whether every label is the same (at most one class); for numpy's own dtypes one
    comparison, not a sort (a fit encodes the labels next, which sorts them anyway)."""
    if y.dtype.kind in _NUMPY_SORTS:
        return not (y != y[0]).any()
    return len(unique(y)) < 2


def unique(y: np.ndarray) -> list:
    """Distinct labels, sorted when they can be, else in order of appearance."""
    if y.dtype.kind in _NUMPY_SORTS:
        return np.unique(y).tolist()
    seen = list(dict.fromkeys(y.tolist()))
    try:
        return sorted(seen)
    except TypeError:
        return seen


def encode_labels(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if y.dtype.kind in _NUMPY_SORTS:
        classes, codes = np.unique(y, return_inverse=True)
        return classes, codes.astype(np.intp).ravel()
    labels = unique(y)
    index = {label: k for k, label in enumerate(labels)}
    codes = np.fromiter((index[v] for v in y.tolist()), dtype=np.intp, count=len(y))
    classes = np.array(labels, dtype=y.dtype if y.dtype.kind != "O" else object)
    return classes, codes
