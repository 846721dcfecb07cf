"""SMO without a box (a hard margin, C = inf): whether a solution exists, and the best state
to fall back on when none does.

No box holds the multipliers, so on classes whose hulls overlap in feature space the dual
grows without bound. The state before each batch of pair steps is a candidate for the best
state (finite, misclassifying no more training points than the best kept); a run that finds
no solution exists (the hulls overlap, or the dual left float64's range) ends on that best
state, with the warning that says so. Each function reads and writes the solver's state `s`
(state.py).
"""
from __future__ import annotations

import math

import numpy as np

from ....i18n import tr
from ...errors import DivergenceError, warn_convergence
from .._common import hulls_overlap, no_hard_margin, training_errors
from .state import SolverState
from .violating_sets import membership


def checkpoint(s: SolverState, due: bool = True) -> tuple | None:
    """Hard margin only: the state before a batch of pair steps is, when `due`, a candidate
    for the best state, which the run goes back to should it find that no solution exists
    (`keep_if_best`); the best so far, or None in a box."""
    if not s.unbounded:
        return None
    if due:
        keep_if_best(s)
    return s.best


def keep_if_best(s: SolverState) -> None:
    """Keep the current state if it is finite and misclassifies no more training points than
    the best kept (`_common.training_errors`; ties go to the later state). Shrunk points count
    with the F of their last update; the state kept is recomputed exactly at the end."""
    if not (math.isfinite(s.dual) and np.isfinite(s.F).all() and np.isfinite(s.alpha).all()):
        return
    errors = training_errors(s.y, s._decision() + s._bias())
    if s.best is None or errors <= s.best[2]:
        s.best = (s.alpha_in_caller_order(), s.iteration, errors)


def restore_best(s: SolverState) -> None:
    """Go back to the best state kept (every multiplier is free of an upper bound). F and the
    dual are left to the final reconstruction, from the last one (alpha_ref, F_ref), which is
    finite; every point is active again."""
    assert s.best is not None            # the first checkpoint (a = 0) is finite
    alpha, s.iteration, _ = s.best
    s.alpha = alpha[s.order]
    s.up_pen, s.low_pen = membership(s.y, s.alpha, s.upper)
    s.m = s.p.n


def overflowed(s: SolverState, best: tuple | None) -> None:
    """The dual left float64's range. In a box (finite C, finite kernel values, which the
    estimator checks) it cannot, so this is an arithmetic fault; with a hard margin it is the
    dual growing without bound (a pair direction of zero or negative curvature, as a kernel
    that is not positive semi-definite has): the best finite state seen is kept and the run
    ends with the warning that says so."""
    if best is None:
        raise DivergenceError(tr("solver 'smo': the dual objective overflowed float64 with a "
                                 "finite C; pass standardize=True"))
    steps = s.iteration
    restore_best(s)
    warn_convergence(no_hard_margin("smo", s.p.kernel.name, tr(
        "the dual grew without bound, past float64's range, within {count} pair "
        "steps").format(count=steps)), stacklevel=3)


def impossible(s: SolverState) -> bool:
    """C = inf on classes whose hulls overlap in feature space (checked at shrinking time;
    shrunk points use their last F)."""
    if not s.unbounded or s.iteration != s.next_shrink - s.shrink_every:
        return False
    s.no_solution = hulls_overlap(s.alpha, s._decision(), s.y, s.kd.max())
    return s.no_solution
