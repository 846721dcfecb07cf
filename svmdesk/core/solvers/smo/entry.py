"""SMO's entry points: a binary C-SVC problem, or a problem in the general form as a kind of
machine builds it, each on the solver its form needs (the nu form: nu_search.py, which runs
nu.py's working-set choice, bias and shrinking over solver.py's loop, and the C form)."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import numpy as np
from numpy.typing import ArrayLike

from ....i18n import tr
from .._common import require_trainable
from ..base import BinaryProblem, Snapshot, Wanted
from ..problems import DualProblem, c_svc
from .nu_search import solve_nu_form
from .solver import _SMO


def solve(problem: BinaryProblem, every: int = 1, wanted: Wanted = None,
          start: ArrayLike | None = None) -> Iterator[Snapshot]:
    """Snapshots every `every` pair steps; or, given `wanted` (a callable), whenever it
    says True between two pair steps (it is asked after each, so a caller drawing frames
    gets one as soon as it wants one, and the solver runs long batches between).

    `start`: the multipliers a to begin from instead of 0, a warm start (grid search begins
    each C where the C before ended, scaled: alpha seeding). They must be feasible, one per
    point: 0 <= a_i <= C_i (C times the point's weight) and y'a = 0; a ValueError says
    which rule a start breaks."""
    require_trainable(problem, "smo")
    dual = c_svc(problem)
    if start is not None:
        dual = replace(dual, start=_feasible(start, dual))
    return solve_problem(dual, every, wanted)


def _feasible(start: ArrayLike, dual: DualProblem) -> np.ndarray:
    """`start` as floats, checked against the box and y'a = 0 (within rounding)."""
    a = np.asarray(start, dtype=np.float64)
    if a.shape != (dual.n,):
        raise ValueError(tr("start must hold one multiplier per point, {n} of them; got an "
                            "array of shape {shape}").format(n=dual.n, shape=a.shape))
    slack = 1e-9 * np.maximum(1.0, dual.upper)
    if not np.isfinite(a).all() or (a < -slack).any() or (a > dual.upper + slack).any():
        raise ValueError(tr("start must lie in the box: 0 <= a_i <= C_i for every point"))
    if abs(float(dual.y @ a)) > 1e-8 * max(1.0, float(np.abs(a).sum())):
        raise ValueError(tr("start must keep the classes balanced: the sum of y_i a_i must "
                            "be 0"))
    return a


def solve_problem(problem: DualProblem, every: int = 1,
                  wanted: Wanted = None) -> Iterator[Snapshot]:
    """`solve` for a problem in the general form, as a kind of machine builds it
    (`problems.one_class`, ...); the nu form (per_class) by its own working-set rule."""
    every = max(1, int(every))
    if problem.per_class:
        return solve_nu_form(problem, every, wanted)
    return _SMO(problem).run(every, wanted)
