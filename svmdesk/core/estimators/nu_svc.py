"""NuSVC: C-SVC's classifier with nu in place of C (Schölkopf et al. 2000), scikit-learn's
names and behaviour, one-vs-one for three or more classes as SVC.

nu bounds the fraction of margin errors from above and the fraction of support vectors
from below. Each machine solves nu-SVC's dual in the nu form (`solvers.problems.nu_svc`,
SMO's Solver_NU in smo/nu.py), rescaled by 1/r at the end: the model is C-SVC's with
C = 1/r, and everything SVC draws, saves or reports reads it the same way.
"""
from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Mapping
from itertools import combinations

import numpy as np

from ...i18n import tr
from .. import catalog
from ..errors import DataError
from ..kinds import NU_SVC
from ..solvers.base import BinaryProblem, Snapshot
from ..solvers.problems import nu_svc
from ..solvers.smo import solve_problem
from .base import NEVER
from .svc import SVC


class NuSVC(SVC, table=catalog.NU_TABLE):
    """nu-SVC trained by SMO. The parameters are the rows of `catalog.NU_TABLE`;
    class_weight is accepted, warned of and ignored, as LIBSVM's nu solver ignores it."""

    def __init__(self, *, solver: str = "smo", kernel: str = "rbf", nu: float = 0.5,
                 gamma: float | str = "scale", degree: int = 3, coef0: float = 0.0,
                 tol: float = 1e-3, max_iter: int | None = None, max_time: float | None = None,
                 standardize: bool = False, probability: bool = False,
                 random_state: int | None = None, class_weight: Mapping | str | None = None,
                 decision_function_shape: str = "ovr") -> None:
        self.solver = solver
        self.kernel = kernel
        self.nu = nu
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.tol = tol
        self.max_iter = max_iter
        self.max_time = max_time
        self.standardize = standardize
        self.probability = probability
        self.random_state = random_state
        self.class_weight = class_weight
        self.decision_function_shape = decision_function_shape

    weighs_classes = False
    bounded_by_C = False
    kind = NU_SVC.key

    def _check_classes(self, params: dict, codes: np.ndarray) -> None:
        """nu must be feasible for every pair of classes: nu (n_i + n_j) / 2 <= min(n_i, n_j)
        (LIBSVM's 'specified nu is infeasible'), said with the largest nu that is."""
        if params["class_weight"] is not None:
            warnings.warn(tr("NuSVC ignores class_weight, as LIBSVM's nu solver does: every "
                             "class weighs 1"), UserWarning, stacklevel=4)
        counts = np.bincount(codes)
        largest = min(2 * min(counts[i], counts[j]) / (counts[i] + counts[j])
                      for i, j in combinations(range(len(counts)), 2))
        if params["nu"] > largest:
            raise DataError(tr("nu={nu} is infeasible for these classes (sizes {sizes}): the "
                               "largest feasible nu is {largest}").format(
                nu=f"{params['nu']:g}", sizes=", ".join(str(c) for c in counts),
                largest=f"{largest:.6g}"))

    def _solve_fold(self, solver: catalog.Solver, problem: BinaryProblem,
                    params: dict) -> Iterator[Snapshot]:
        """A fold's machine, with nu at most what its classes allow: four fifths of the
        points may not allow the nu the whole set does (nu sum C_i / 2 above a class's sum
        of C_i leaves that class no multiplier below its bound, and f undefined)."""
        bounds = problem.bounds
        sums = bounds[problem.y > 0].sum(), bounds[problem.y < 0].sum()
        largest = 2 * min(sums) / (sums[0] + sums[1])
        return self._solve(solver, problem, {**params, "nu": min(params["nu"], largest)},
                           NEVER, None)

    def _solve(self, solver: catalog.Solver, problem: BinaryProblem, params: dict,
               every: int, wanted: Callable[[], bool] | None) -> Iterator[Snapshot]:
        return solve_problem(nu_svc(problem.X, problem.y, problem.kernel, params["nu"],
                                    weights=problem.weights, tol=problem.tol,
                                    max_iter=problem.max_iter, max_time=problem.max_time,
                                    learning_rate=problem.learning_rate,
                                    gram=problem.gram, kernel_rows=problem.kernel_rows),
                             every, wanted)
