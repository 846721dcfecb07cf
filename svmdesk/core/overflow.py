"""Whether training data and a kernel stay inside float64, checked before any solver runs.

Kernels sum squares of the features (|x|^2, |x - x'|^2, <x, x'>): values beyond about 1e150
overflow them to inf, values below about 1e-150 underflow them to 0 (every point then looks
the same). Either way a solver would return NaN, or a model that predicts one class, and say
it converged. Standardised data (standardize=True) has unit variance whatever the input's
scale, which is the fix these messages name.
"""
from __future__ import annotations

import math

import numpy as np

from ..i18n import tr
from .errors import DataError
from .kernels import Kernel

SQUARES_MAX = 1e300      # |x|^2 summed over the features must stay below this...
SQUARES_MIN = 1e-300     # ...and the largest value's square above this (a normal float64)


def check_magnitude(Z: np.ndarray) -> None:
    """Refuse data (as the kernel sees it) whose squares overflow or underflow float64."""
    top = float(np.abs(Z).max(initial=0.0))
    if top == 0.0:
        return
    if top * top * Z.shape[1] > SQUARES_MAX:
        raise DataError(tr("X's values reach {top}: their squares overflow float64, so the "
                           "kernel's values would be inf or NaN; pass standardize=True (or "
                           "divide the features by a common scale)").format(top=f"{top:.2g}"))
    if top * top < SQUARES_MIN:
        raise DataError(tr("X's values are at most {top}: their squares underflow float64, "
                           "so every point would look the same to the kernel; pass "
                           "standardize=True (or multiply the features by a common scale)"
                           ).format(top=f"{top:.2g}"))


def check_kernel(Z: np.ndarray, kernel: Kernel) -> None:
    """Refuse a kernel whose values overflow on these points. Only the polynomial kernel
    can: |k(x, x')| <= (gamma max|x|^2 + |coef0|)^degree by Cauchy-Schwarz; the others are
    bounded (rbf, sigmoid) or are |x|^2 itself (linear), which check_magnitude bounds."""
    if kernel.name != "poly":
        return
    base = kernel.gamma * float(np.einsum("ij,ij->i", Z, Z).max()) + abs(kernel.coef0)
    digits = kernel.degree * math.log10(base) if base > 0 else 0.0
    if digits > math.log10(SQUARES_MAX):
        raise DataError(tr("the 'poly' kernel's values overflow float64 on these points "
                           "((gamma |x|^2 + coef0)^degree reaches about 1e{digits}); pass "
                           "standardize=True, or a smaller gamma or degree").format(
            digits=f"{digits:.0f}"))


def check_gamma(gamma: float, Z: np.ndarray) -> float:
    """gamma='scale' resolved on these points, refused when float64 cannot hold it."""
    if not 0.0 < gamma < math.inf:
        raise DataError(tr("gamma='scale' is 1 / (n_features * X.var()) = {gamma} here "
                           "(X.var() = {var}), which float64 cannot use; pass "
                           "standardize=True or a numeric gamma").format(
            gamma=f"{gamma:.3g}", var=f"{Z.var():.3g}"))
    return gamma
