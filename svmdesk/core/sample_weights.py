"""Sample weights checked: one finite, non-negative number per point. Below the estimators and
the metrics, which both take them."""
from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ..i18n import tr
from .errors import DataError


def check_sample_weight(sample_weight: ArrayLike | None, n: int) -> np.ndarray | None:
    """The sample weights as floats, one per point (a single number weighs every point the
    same), or None; each finite and >= 0."""
    if sample_weight is None:
        return None
    try:
        weights = np.asarray(sample_weight, dtype=np.float64)
    except (TypeError, ValueError):
        raise DataError(tr("sample_weight must hold numbers, one per point")) from None
    if weights.ndim == 0:
        weights = np.full(n, float(weights))
    if weights.shape != (n,):
        raise DataError(tr("sample_weight.shape == {shape}, expected ({n},): give one weight "
                           "per point").format(shape=weights.shape, n=n))
    if not np.isfinite(weights).all() or (weights < 0).any():
        raise DataError(tr("sample_weight must hold finite numbers >= 0 (0 leaves a point "
                           "out of training)"))
    return weights
