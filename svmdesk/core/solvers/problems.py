"""The problem SMO solves, LIBSVM's general form (Chang and Lin 2011, section 4.1), and the
builders that state each kind of machine in it. SMO (`smo`) and dual gradient ascent
(`dual_gradient`) solve it.

    minimise  1/2 a'Qa + p'a   subject to   y'a = delta,   0 <= a_i <= C_i,
    Q_ij = y_i y_j k(x_i, x_j),   y_i = +-1.

Every machine LIBSVM trains is this problem with its own X, y, p, C_i and start: C-SVC has
the training points, their labels, p = -e, C_i = C and a = 0 (`c_svc`); the one-class SVM
has y = +1, p = 0, C_i = 1 and sum a = nu n (`one_class`); epsilon-SVR has 2l variables,
alpha and alpha* of each point (y = +1 then -1), whose point is the same (`point_of`), so the
solver caches one kernel row per point and Q is never formed (`epsilon_svr`, `nu_svr`).
delta is y'start: the start fixes it, and every SMO step keeps it.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ...i18n import tr
from ..kernels import Kernel, KernelRows
from .base import BinaryProblem, hinge_primal

# The kind's primal objective, for the snapshots: (alpha, f without the bias at every
# variable's point, bias) -> P. A dual solution is judged by its gap to it.
Primal = Callable[[np.ndarray, np.ndarray, float], float]


@dataclass(frozen=True)
class DualProblem:
    """One instance of the general problem, with what the run needs besides."""

    X: np.ndarray                   # (l, d): the points (rows of Q's kernel)
    y: np.ndarray                   # (n,) of -1.0 / +1.0
    p: np.ndarray                   # (n,) the linear term
    upper: np.ndarray               # (n,) C_i > 0; inf where a multiplier has no upper bound
    start: np.ndarray               # (n,) a feasible a to start from
    kernel: Kernel
    primal: Primal
    C: float                        # the C the bounds come from, named in advice to the user
    tol: float = 1e-3
    max_iter: int | None = None     # None: the solver's own budget
    max_time: float | None = None   # seconds of solving, SMO's bound; None: none
    learning_rate: float | None = None  # dual gradient's step; None: a safe step it chooses
    # the nu form: e'a held within each class too (LIBSVM's Solver_NU; smo/nu.py)
    per_class: bool = False
    # nu-SVC's final rescale by 1/r (LIBSVM's solve_nu_svc; nu-SVR keeps its scale)
    rescaled: bool = False
    # point_of[i]: the row of X that is variable i's point (epsilon- and nu-SVR: i mod l);
    # None: X holds one point per variable
    point_of: np.ndarray | None = None
    # k(x_i, x_j) of X's points when the caller has it (BinaryProblem.gram); None: the
    # solver computes the rows it needs
    gram: np.ndarray | None = field(default=None, repr=False)
    kernel_rows: KernelRows | None = field(default=None, repr=False)   # BinaryProblem's

    def __post_init__(self) -> None:
        n = len(self.y)
        for name in ("p", "upper", "start"):
            if np.shape(getattr(self, name)) != (n,):
                raise ValueError(tr("{name} must hold one value per variable ({n})").format(
                    name=name, n=n))
        if len(self.X) != (n if self.point_of is None else int(self.point_of.max()) + 1):
            raise ValueError(tr("X must hold the point of every variable"))
        # a variable held at 0 by C_i = 0 belongs to neither end of a pair: the builder
        # leaves it out (LIBSVM drops points of weight 0 the same way). min and max, not
        # comparisons made whole: this runs once per machine, tens of times in a small fit
        if not self.upper.min() > 0:
            raise ValueError(tr("every upper bound C_i must be positive"))
        if not (self.start.min() >= 0 and (self.upper - self.start).min() >= 0):
            raise ValueError(tr("the start must lie in the box 0 <= a_i <= C_i"))

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
                       C=float(problem.C), tol=problem.tol, max_iter=problem.max_iter,
                       max_time=problem.max_time, learning_rate=problem.learning_rate,
                       gram=problem.gram,
                       kernel_rows=problem.kernel_rows)


def one_class(X: np.ndarray, kernel: Kernel, nu: float, weights: np.ndarray | None = None,
              tol: float = 1e-3, max_iter: int | None = None, max_time: float | None = None,
              learning_rate: float | None = None) -> DualProblem:
    """The one-class SVM in LIBSVM's scaling: minimise 1/2 a'Ka, 0 <= a_i <= C_i,
    sum_i a_i = nu sum_i C_i, with C_i = 1 (or the point's sample weight), so f(x) =
    sum_i a_i k(x_i, x) - rho. LIBSVM's start: the bounds filled in order until the sum is
    reached (without weights, the first floor(nu n) points at 1 and the remainder on the
    next).

    Its primal, multiplied by nu n: 1/2 ||w||^2 + sum_i C_i max(0, rho - w.phi(x_i)) -
    nu n rho, where rho = -bias; at the optimum it equals the dual -1/2 a'Ka."""
    n = len(X)
    upper = np.ones(n) if weights is None else np.asarray(weights, dtype=np.float64)
    total = nu * float(upper.sum())
    filled = np.cumsum(upper)
    start = np.clip(total - (filled - upper), 0.0, upper)    # each bound, until the sum

    def primal(alpha: np.ndarray, decision: np.ndarray, bias: float) -> float:
        rho = -bias
        slack = np.maximum(0.0, rho - decision)
        return float(0.5 * alpha @ decision + upper @ slack - total * rho)

    return DualProblem(X=X, y=np.ones(n), p=np.zeros(n), upper=upper, start=start,
                       kernel=kernel, primal=primal, C=1.0, tol=tol, max_iter=max_iter,
                       max_time=max_time, learning_rate=learning_rate)


def nu_svc(X: np.ndarray, y: np.ndarray, kernel: Kernel, nu: float,
           weights: np.ndarray | None = None, tol: float = 1e-3, max_iter: int | None = None,
           max_time: float | None = None, learning_rate: float | None = None,
           gram: np.ndarray | None = None, kernel_rows: KernelRows | None = None
           ) -> DualProblem:
    """nu-SVC in LIBSVM's scaling: minimise 1/2 a'Qa, 0 <= a_i <= C_i (1, or the sample
    weight), y'a = 0 and e'a = nu sum C_i, held as half of it within each class (the nu form,
    per_class); LIBSVM's start fills each class's bounds in order to that half. The solver
    rescales the solution by 1/r at the end, which makes it C-SVC's with C = 1/r. Its primal
    is not reported yet (nan)."""
    n = len(y)
    upper = np.ones(n) if weights is None else np.asarray(weights, dtype=np.float64)
    half = nu * float(upper.sum()) / 2
    start = np.zeros(n)
    for members in (np.flatnonzero(y > 0), np.flatnonzero(y < 0)):
        before = np.cumsum(upper[members]) - upper[members]
        start[members] = np.clip(half - before, 0.0, upper[members])

    def primal(alpha: np.ndarray, decision: np.ndarray, bias: float) -> float:
        return math.nan

    return DualProblem(X=X, y=np.asarray(y, dtype=np.float64), p=np.zeros(n),
                       upper=upper, start=start, kernel=kernel, primal=primal, C=1.0,
                       tol=tol, max_iter=max_iter, max_time=max_time,
                       learning_rate=learning_rate, per_class=True, rescaled=True,
                       gram=gram, kernel_rows=kernel_rows)


def _regression_variables(X: np.ndarray, upper: np.ndarray) -> tuple[np.ndarray, ...]:
    """SVR's 2n variables: alpha_i (y = +1) then alpha*_i (y = -1), both of point i, both
    bounded by point i's C_i: (y, upper, point_of)."""
    n = len(X)
    return (np.r_[np.ones(n), -np.ones(n)], np.r_[upper, upper],
            np.r_[np.arange(n), np.arange(n)])


def _tube_primal(z: np.ndarray, upper: np.ndarray,
                 epsilon: float | None, nu: float = 0.0) -> Primal:
    """The regression primal: 1/2 ||w||^2 + sum_i C_i max(0, |z_i - f(x_i)| - eps), for
    nu-SVR plus nu (sum C_i) eps with eps the best for this f (epsilon None): the smallest
    of that piecewise linear function of eps, at eps = 0 or one of the |residuals|."""
    n = len(z)

    def primal(alpha: np.ndarray, decision: np.ndarray, bias: float) -> float:
        half_w_sq = 0.5 * float(alpha @ (np.r_[decision[:n], -decision[:n]]))
        residual = np.abs(z - decision[:n] - bias)
        if epsilon is not None:
            return half_w_sq + float(upper @ np.maximum(0.0, residual - epsilon))
        order = np.argsort(-residual)
        r, c = residual[order], upper[order]
        # at eps = r_j: sum over i < j of c_i (r_i - r_j); and at eps = 0
        before_c = np.cumsum(c) - c
        before_cr = np.cumsum(c * r) - c * r
        losses = np.r_[nu * float(upper.sum()) * r + before_cr - r * before_c,
                       float(c @ r)]
        return half_w_sq + float(losses.min())

    return primal


def epsilon_svr(X: np.ndarray, z: np.ndarray, kernel: Kernel, C: float, epsilon: float,
                weights: np.ndarray | None = None, tol: float = 1e-3,
                max_iter: int | None = None, max_time: float | None = None,
                learning_rate: float | None = None) -> DualProblem:
    """epsilon-SVR as LIBSVM's solve_epsilon_svr states it: over (alpha, alpha*), minimise
    1/2 (a - a*)'K(a - a*) + eps e'(a + a*) - z'(a - a*), e'(a - a*) = 0, 0 <= a, a* <= C_i
    (C times the sample weight), from 0: p = (eps - z, eps + z). f(x) = sum (a_i - a*_i)
    k(x_i, x) + b; the primal is 1/2 ||w||^2 + sum C_i max(0, |z_i - f(x_i)| - eps)."""
    upper = np.full(len(X), float(C)) if weights is None else float(C) * weights
    y, bounds, point_of = _regression_variables(X, upper)
    z = np.asarray(z, dtype=np.float64)
    return DualProblem(X=X, y=y, p=np.r_[epsilon - z, epsilon + z], upper=bounds,
                       start=np.zeros(2 * len(X)), kernel=kernel,
                       primal=_tube_primal(z, upper, epsilon), C=float(C), tol=tol,
                       max_iter=max_iter, max_time=max_time, learning_rate=learning_rate,
                       point_of=point_of)


def nu_svr(X: np.ndarray, z: np.ndarray, kernel: Kernel, C: float, nu: float,
           weights: np.ndarray | None = None, tol: float = 1e-3, max_iter: int | None = None,
           max_time: float | None = None, learning_rate: float | None = None) -> DualProblem:
    """nu-SVR as LIBSVM's solve_nu_svr states it: minimise 1/2 (a - a*)'K(a - a*) -
    z'(a - a*), e'(a - a*) = 0, e'(a + a*) = nu sum C_i, 0 <= a, a* <= C_i: the nu form
    (per_class, without nu-SVC's rescale), p = (-z, z). LIBSVM's start gives alpha_i and
    alpha*_i the same value, the bounds filled in order to half the sum. The tube's width
    eps is found with f: the primal is 1/2 ||w||^2 + nu (sum C_i) eps + sum C_i max(0,
    |z_i - f(x_i)| - eps)."""
    upper = np.full(len(X), float(C)) if weights is None else float(C) * weights
    y, bounds, point_of = _regression_variables(X, upper)
    half = nu * float(upper.sum()) / 2
    filled = np.clip(half - (np.cumsum(upper) - upper), 0.0, upper)
    z = np.asarray(z, dtype=np.float64)
    return DualProblem(X=X, y=y, p=np.r_[-z, z], upper=bounds, start=np.r_[filled, filled],
                       kernel=kernel, primal=_tube_primal(z, upper, None, nu), C=float(C),
                       tol=tol, max_iter=max_iter, max_time=max_time,
                       learning_rate=learning_rate, per_class=True, point_of=point_of)
