"""The problem SMO solves, LIBSVM's general form (Chang and Lin 2011, section 4.1), and the
builders that state each kind of machine in it.

    minimise  1/2 a'Qa + p'a   subject to   y'a = delta,   0 <= a_i <= C_i,
    Q_ij = y_i y_j k(x_i, x_j),   y_i = +-1.

Every machine LIBSVM trains is this problem with its own X, y, p, C_i and start: C-SVC has
the training points, their labels, p = -e, C_i = C and a = 0 (`c_svc`); one-class SVM and
epsilon-SVR keep Q's form (SVR with every point twice, y = +1 then -1), so the kernel rows the
solver caches are rows of k over `X` and Q is never formed. delta is y'start: the start fixes
it, and every SMO step keeps it.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from ...kernels import Kernel
from ..base import BinaryProblem, hinge_primal

# The kind's primal objective, for the snapshots: (alpha, f without the bias at every
# variable's point, bias) -> P. A dual solution is judged by its gap to it.
Primal = Callable[[np.ndarray, np.ndarray, float], float]


@dataclass(frozen=True)
class DualProblem:
    """One instance of the general problem, with what the run needs besides."""

    X: np.ndarray                   # (n, d): the point of each variable (rows of Q's kernel)
    y: np.ndarray                   # (n,) of -1.0 / +1.0
    p: np.ndarray                   # (n,) the linear term
    upper: np.ndarray               # (n,) C_i > 0; inf where a multiplier has no upper bound
    start: np.ndarray               # (n,) a feasible a to start from
    kernel: Kernel
    primal: Primal
    C: float                        # the C the bounds come from, named in advice to the user
    tol: float = 1e-3
    max_iter: int | None = None     # None: the solver's own budget
    # every checked training parameter by name (catalog.TABLE)
    params: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        n = len(self.y)
        for name in ("p", "upper", "start"):
            if np.shape(getattr(self, name)) != (n,):
                raise ValueError(f"{name} must hold one value per variable ({n})")
        # a variable held at 0 by C_i = 0 belongs to neither end of a pair: the builder
        # leaves it out (LIBSVM drops points of weight 0 the same way)
        if not (self.upper > 0).all():
            raise ValueError("every upper bound C_i must be positive")
        if not (np.all(self.start >= 0) and np.all(self.start <= self.upper)):
            raise ValueError("the start must lie in the box 0 <= a_i <= C_i")

    @property
    def n(self) -> int:
        return len(self.y)

    @property
    def unbounded(self) -> bool:
        """No upper bound at all: the hard margin of C-SVC."""
        return bool(np.isinf(self.upper).all())


def c_svc(problem: BinaryProblem) -> DualProblem:
    """C-SVC: minimise 1/2 a'Qa - e'a, y'a = 0, 0 <= a_i <= C_i, from a = 0, with C_i = C
    times the point's class and sample weight (LIBSVM's weighted C); its primal is
    1/2 ||w||^2 + sum_i C_i hinge_i (C = inf: the hard margin)."""
    n, bounds = problem.n, problem.bounds
    y = np.asarray(problem.y, dtype=np.float64)

    def primal(alpha: np.ndarray, decision: np.ndarray, bias: float) -> float:
        # a'Qa = sum a_i y_i g_i, with g the decision without the bias
        return hinge_primal(0.5 * float(alpha @ (y * decision)), y * (decision + bias), bounds)

    return DualProblem(X=problem.X, y=y, p=np.full(n, -1.0), upper=bounds,
                       start=np.zeros(n), kernel=problem.kernel, primal=primal,
                       C=float(problem.C),
                       tol=problem.tol, max_iter=problem.max_iter, params=problem.params)
