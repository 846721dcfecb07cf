"""Matching a data file's class names with a model's class labels ('+1' is 1), and the
warning when none of them match.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from ..i18n import tr
from .point_cells import _to_float


def match_labels(names: Sequence[str], labels: ArrayLike) -> np.ndarray:
    """For each of `names` (a data file's class names), the index of the equal label in
    `labels` (a model's classes), or -1. Labels compare as numbers when both are finite
    numbers ('+1' is 1, '2.0' is 2), otherwise as text."""
    def key(label):
        value = _to_float(str(label))
        return ("number", value) if value is not None and math.isfinite(value) \
            else ("text", str(label))

    index = {key(label): k for k, label in enumerate(np.asarray(labels).tolist())}
    return np.array([index.get(key(name), -1) for name in names], dtype=np.intp)


def foreign_classes_warning(names: Sequence[str], labels: ArrayLike) -> str:
    """A sentence when none of `labels` (a model's classes) is one of `names` (the class
    names of the points it is shown over), or '' (also when there are no names). The window
    and `svmdesk render` say the same words."""
    names = [str(name) for name in names]
    if not names or (match_labels(names, labels) >= 0).any():
        return ""
    return tr("none of the model's classes ({labels}) is a class of these points ({names}), "
              "so the accuracy compares different labels.").format(
                  labels=", ".join(map(str, np.asarray(labels))), names=", ".join(names))
