"""A classifier's class and sample weights, made into one weight per training point: LIBSVM's
weighted C (its `-wi` option and scikit-learn's `class_weight` and `sample_weight`), where
point i's margin violations cost C_i = C * class_weight[y_i] * sample_weight_i.

A point of weight 0 is left out of training, as LIBSVM leaves it out: with C_i = 0 its
multiplier could never move.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numpy.typing import ArrayLike

from ...i18n import tr
from ..errors import DataError
from ..sample_weights import check_sample_weight


def class_weights(class_weight: Mapping | str | None, classes: np.ndarray,
                  codes: np.ndarray) -> np.ndarray:
    """One weight per class, in the order of `classes`: 1 for each without `class_weight`;
    "balanced" as scikit-learn computes it, n_samples / (n_classes * the class's count); from
    a mapping, a class it does not name weighs 1, and a label that is no class is an error."""
    if class_weight is None:
        return np.ones(len(classes))
    if isinstance(class_weight, str):                  # "balanced", the table's one word
        return len(codes) / (len(classes) * np.bincount(codes, minlength=len(classes)))
    known = classes.tolist()
    strangers = [label for label in class_weight if label not in known]
    if strangers:
        raise DataError(tr("class_weight names {labels}, which are not classes of y (its "
                           "classes are {classes})").format(
            labels=", ".join(repr(label) for label in strangers),
            classes=", ".join(repr(label) for label in known)))
    return np.array([float(class_weight.get(label, 1.0)) for label in known])


def weighted_points(sample_weight: ArrayLike | None, n: int
                    ) -> tuple[np.ndarray, np.ndarray | None]:
    """(the points trained on: those of positive weight, their weights or None) for a
    machine without classes; an error when every weight is 0."""
    weights = check_sample_weight(sample_weight, n)
    if weights is None:
        return np.arange(n), None
    points = np.flatnonzero(weights > 0)
    if not len(points):
        raise DataError(tr("every point has a sample weight of zero, so there is nothing "
                           "to learn: give some points a positive weight"))
    return points, weights[points]


def point_weights(class_weight: Mapping | str | None, sample_weight: ArrayLike | None,
                  classes: np.ndarray, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(each class's weight, each point's weight): class weight times sample weight. Every
    class keeps a point of positive weight, or the fit could not learn it: an error says so."""
    per_class = class_weights(class_weight, classes, codes)
    weights = per_class[codes]
    sample = check_sample_weight(sample_weight, len(codes))
    if sample is not None:
        weights = weights * sample
    kept = np.bincount(codes[weights > 0], minlength=len(classes))
    if (kept == 0).any():
        lost = classes[np.flatnonzero(kept == 0)].tolist()
        raise DataError(tr("every point of class {labels} has a weight of zero "
                           "(class_weight times sample_weight), so no machine could learn it: "
                           "give its points a positive weight").format(
            labels=", ".join(repr(v) for v in lost)))
    return per_class, weights
