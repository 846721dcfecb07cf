"""Shrinking, as libsvm does it: every `shrink_every` steps, bounded points that cannot join a
violating pair move behind an *active prefix*; every vector operation then runs over the
prefix only. Points are kept in the solver's own order (`order[k]` is the caller's index of
point k), so the prefix is a slice, never a copy. Before stopping, F is recomputed in float64
for every point (the last reconstruction plus the kernel columns of the multipliers that
changed since, free of the float32 rows' drift) and the test repeated on all of them
(libsvm's gradient reconstruction). Each function reads and writes the solver's state `s`
(state.py); the nu form shrinks within each class (nu.py).
"""
from __future__ import annotations

import numpy as np

from .state import SolverState


def shrink(s: SolverState) -> bool:
    """Move bounded points that cannot join a violating pair behind the active prefix:
    an I_up-only point below every I_low value, or an I_low-only point above every
    I_up value, cannot be either end of a violating pair. Like libsvm, bring every
    point back once (with an exact F) when the gap first falls below 10 tol. Whether any
    point left the prefix."""
    s.next_shrink = s.iteration + s.shrink_every
    fmax, fmin = s._extremes(s.m)
    if not s.unshrunk and fmax - fmin < 10 * s.p.tol:
        s.unshrunk = True
        unshrink(s)
        fmax, fmin = s._extremes(s.m)
    if fmax - fmin < s.p.tol:                    # optimal: the next step will see it
        return False
    m = s.m
    F = s.F[:m]
    up, low = np.isfinite(s.up_pen[:m]), np.isfinite(s.low_pen[:m])
    out = (up & ~low & (F < fmin)) | (low & ~up & (F > fmax))
    if out.sum() < max(1, m // 20):              # not worth a reshuffle
        return False
    keep = np.flatnonzero(~out)
    reorder(s, np.concatenate([keep, np.flatnonzero(out), np.arange(m, s.p.n)]), len(keep))
    return True


def reorder(s: SolverState, order: np.ndarray, m: int) -> None:
    """Put the points in `order` (of the solver's current order), the first m active."""
    for name in ("order", "y", "lin", "upper", "alpha", "F", "kd", "up_pen", "low_pen",
                 "alpha_ref", "F_ref"):
        setattr(s, name, getattr(s, name)[order])
    s._list_order()
    s.cache.permute(order, m)
    s.m = m
    s.shuffled = True


def unshrink(s: SolverState) -> None:
    """Every point active again, with F recomputed exactly."""
    reconstruct(s)
    if s.m < s.p.n:
        s.m = s.p.n
        s.cache.clear(s.m)
        s._settled = None


def reconstruct(s: SolverState) -> None:
    """F for every point in float64: the last reconstruction corrected by the kernel
    columns of the points whose multiplier changed since (fresh kernel values, not the
    cache's float32 rows). After the first time these are few (the active set), so
    this costs far less than a sum over every SV. The dual objective is recomputed
    from it too: the running sum carries the float32 rows' rounding."""
    changed = np.flatnonzero(s.alpha != s.alpha_ref)
    if len(changed):
        step = s.y[changed] * (s.alpha[changed] - s.alpha_ref[changed])
        s.F_ref -= s.cache.matvec(changed, step)
        s.alpha_ref[changed] = s.alpha[changed]
    s.F = s.F_ref.copy()
    s.dual = s._dual()
