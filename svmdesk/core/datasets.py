"""What a data set is: the records Dataset (labelled points) and Samples (regression data of
one feature, each with its target), and the labels a machine trains on for a Dataset's
classes. The seeded generators that make them live in point_generators.py and
regression_generators.py.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from svmdesk.core.errors import DataError
from svmdesk.i18n import tr


@dataclass(frozen=True, eq=False)
class Dataset:
    """A labelled point set; ``X`` and ``y`` are read-only copies of what was passed in.

    ``y`` holds integer labels ``0..k-1`` indexing ``class_names``, or the class names
    themselves (strings, e.g. from a CSV file).
    """

    X: np.ndarray
    y: np.ndarray
    class_names: tuple[str, ...]
    feature_names: tuple[str, ...] = ("x1", "x2")
    name: str = ""

    def __post_init__(self):
        X = np.array(self.X, dtype=np.float64)
        y = np.array(self.y)
        if X.ndim != 2:
            raise DataError(tr("X must be a 2-D array (points x features); got shape {shape}"
                               ).format(shape=X.shape))
        if y.ndim != 1:
            raise DataError(tr("y must be a 1-D array of labels; got shape {shape}").format(
                shape=y.shape))
        if len(X) != len(y):
            raise DataError(tr("X has {points} points but y has {labels} labels").format(
                points=len(X), labels=len(y)))
        if not np.isfinite(X).all():
            raise DataError(tr("X contains NaN or infinite values"))
        class_names = tuple(str(c) for c in self.class_names)
        feature_names = tuple(str(f) for f in self.feature_names)
        if len(feature_names) != X.shape[1]:
            raise DataError(tr("{names} feature names for {features} features").format(
                names=len(feature_names), features=X.shape[1]))
        if np.issubdtype(y.dtype, np.integer):
            unknown = y[(y < 0) | (y >= len(class_names))].tolist()
        else:
            unknown = [label for label in y.tolist() if str(label) not in class_names]
        if len(unknown):
            raise DataError(tr("label {label} is not one of the classes {classes}").format(
                label=repr(unknown[0]), classes=str(class_names)))
        X.setflags(write=False)
        y.setflags(write=False)
        for field, value in (("X", X), ("y", y), ("class_names", class_names),
                             ("feature_names", feature_names), ("name", str(self.name))):
            object.__setattr__(self, field, value)

    @property
    def n(self) -> int:
        return len(self.X)

    @property
    def n_classes(self) -> int:
        return len(self.class_names)


def class_labels(class_names: Sequence[str]) -> np.ndarray:
    """The labels a machine trains on, one per class name: integers when every name is one
    ('-1', '+1', '2'), so that LIBSVM export works and predictions print back as the data
    wrote them; otherwise the names themselves (text stays text). The window and the
    command line both train on these, never on class indices."""
    names = [str(n) for n in class_names]
    if all(n.lstrip("+-").isdigit() and n.isascii() and len(n) <= 18 for n in names):
        values = [int(n) for n in names]
        if len(set(values)) == len(values):
            return np.array(values, dtype=np.int64)
    return np.array(names)


@dataclass(frozen=True, eq=False)
class Samples:
    """Regression data of one feature: ``x`` the feature and ``y`` the target of each
    sample (float64, read-only copies, finite, as many of each); ``names`` the feature's
    and the target's."""

    x: np.ndarray
    y: np.ndarray
    names: tuple[str, str] = ("x", "y")
    name: str = ""

    def __post_init__(self):
        x = np.array(self.x, dtype=np.float64)
        y = np.array(self.y, dtype=np.float64)
        for values, what in ((x, "x"), (y, "y")):
            if values.ndim != 1:
                raise DataError(tr("{what} must be a 1-D array, one value per sample; got "
                                   "shape {shape}").format(what=what, shape=values.shape))
            if not np.isfinite(values).all():
                raise DataError(tr("{what} contains NaN or infinite values").format(what=what))
        if len(x) != len(y):
            raise DataError(tr("x has {samples} samples but y has {targets} targets").format(
                samples=len(x), targets=len(y)))
        names = tuple(str(n) for n in self.names)
        if len(names) != 2:
            raise DataError(tr("give two names, the feature's and the target's; got {names}"
                               ).format(names=str(names)))
        x.setflags(write=False)
        y.setflags(write=False)
        for field, value in (("x", x), ("y", y), ("names", names), ("name", str(self.name))):
            object.__setattr__(self, field, value)

    @property
    def n(self) -> int:
        return len(self.x)

    @property
    def X(self) -> np.ndarray:  # noqa: N802 - the estimators' name for the (n, 1) features
        """The feature as the (n, 1) matrix a regressor trains on."""
        return self.x[:, None]
