"""SMO's entry points: a binary C-SVC problem, or a problem in the general form as a kind of
machine builds it, each on the solver its form needs (the nu form: nu_search.py, which runs
nu.py's working-set choice, bias and shrinking over solver.py's loop, and the C form)."""
from __future__ import annotations

from collections.abc import Iterator

from .._common import require_trainable
from ..base import BinaryProblem, Snapshot, Wanted
from ..problems import DualProblem, c_svc
from .nu_search import solve_nu_form
from .solver import _SMO


def solve(problem: BinaryProblem, every: int = 1,
          wanted: Wanted = None) -> Iterator[Snapshot]:
    """Snapshots every `every` pair steps; or, given `wanted` (a callable), whenever it
    says True between two pair steps (it is asked after each, so a caller drawing frames
    gets one as soon as it wants one, and the solver runs long batches between)."""
    require_trainable(problem, "smo")
    return solve_problem(c_svc(problem), every, wanted)


def solve_problem(problem: DualProblem, every: int = 1,
                  wanted: Wanted = None) -> Iterator[Snapshot]:
    """`solve` for a problem in the general form, as a kind of machine builds it
    (`problems.one_class`, ...); the nu form (per_class) by its own working-set rule."""
    every = max(1, int(every))
    if problem.per_class:
        return solve_nu_form(problem, every, wanted)
    return _SMO(problem).run(every, wanted)
