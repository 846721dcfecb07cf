"""Pieces shared by the textbook gradient solvers (dual-gradient, primal-subgradient,
kernel-gradient, pegasos): their entry point and opening (`gradient_solver`, `Opening`),
argument checks, a safe step from the kernel's largest eigenvalue,
the exact projection onto the dual feasible set, LIBSVM's bias rule, the duality-gap
certificate of the subgradient solvers, the steps of their w and of their unregularised bias,
and the w = 0 model they must beat.

Notation used throughout: g_i = sum_j y_j a_j k(x_j, x_i) is the decision value without the
bias, so f(x_i) = g_i + b, and b_i = y_i - g_i is the bias that would put x_i exactly on its
margin (y_i f(x_i) = 1).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from ...i18n import N_, tr
from .. import catalog
from .base import BinaryProblem, Snapshot, Wanted

Solve = Callable[[BinaryProblem, int, Wanted], Iterator[Snapshot]]
Due = Callable[[int], bool]          # whether a snapshot is due at an iteration


def snapshot_due(every: int, wanted: Wanted) -> Due:
    """When a gradient solver yields a snapshot: every `every` iterations, or, when its caller
    says when it wants one (`wanted`: the window's solver, once a frame is drawn), then
    alone. A snapshot costs a pass over the points (its objective and support): for Pegasos,
    whose step takes a mini-batch, many times a step (in the window, snapshots at every
    step took half the run)."""
    require_every(every)
    if wanted is None:
        return lambda it: it % every == 0
    return lambda it: wanted()


def gradient_solver(name: str, iterate: Callable[[BinaryProblem, Due], Iterator[Snapshot]],
                    check: Callable[[BinaryProblem], None] | None = None) -> Solve:
    """A gradient solver's `solve(problem, every=1, wanted=None)`: it validates at the call
    (so errors surface there, not at the first snapshot), then returns `iterate`'s
    generator, its snapshots when due (snapshot_due). `check`: the solver's own checks
    besides."""

    def solve(problem: BinaryProblem, every: int = 1,
              wanted: Wanted = None) -> Iterator[Snapshot]:
        require_trainable(problem, name)
        due = snapshot_due(every, wanted)
        if check is not None:
            check(problem)
        return iterate(problem, due)

    solve.__doc__ = (f"Snapshots of solver {name!r} every `every` iterations (or when "
                     "`wanted`), the final last.")
    return solve


@dataclass(frozen=True)
class Opening:
    """What every gradient solver opens with, class and sample weights included.

    The weighted problem is LIBSVM's: P = 1/2 ||w||^2 + sum_i C_i hinge_i with C_i = C w_i,
    and its dual box 0 <= a_i <= C_i. The primal solvers step on P / (n C), the textbook's
    R = lam/2 ||w||^2 + 1/n sum_i w_i hinge_i with lam = 1/(n C): a point's weight scales
    its hinge loss, so its share of every sub-gradient, and its multiplier's bound."""

    y: np.ndarray
    n: int
    bounds: np.ndarray      # C_i = C w_i (C = inf: the hard margin)
    weights: np.ndarray     # w_i
    lam: float              # 1 / (n C)
    max_iter: int


def opening(problem: BinaryProblem, default_max_iter: int) -> Opening:
    n, C = problem.n, float(problem.C)
    weights = np.ones(n) if problem.weights is None else np.asarray(problem.weights, float)
    return Opening(y=problem.y, n=n, bounds=problem.bounds, weights=weights,
                   lam=1.0 / (n * C), max_iter=problem.max_iter or default_max_iter)


def require_trainable(problem: BinaryProblem, solver: str) -> None:
    """Refuse a kernel, or a hard margin, the solver cannot train (as the catalog says),
    saying what would work instead."""
    catalog.TABLE.check_pairing(solver, problem.kernel.name, problem.C)


def require_every(every: int) -> None:
    """Snapshots come every `every` iterations, so it must be a positive integer."""
    if not isinstance(every, (int, np.integer)) or every < 1:
        raise ValueError(tr("every must be a positive number of iterations; got {every}"
                            ).format(every=repr(every)))


def largest_eigenvalue(A: np.ndarray, iters: int = 100) -> float:
    """An upper estimate of max |eigenvalue| of the symmetric matrix A (power iteration).

    The Rayleigh quotient approaches the true value from below, so it is padded by 5%: a
    gradient step 1/L is stable for any L >= the true value, and the padding costs little.
    """
    n = A.shape[0]
    if n == 0:
        return 0.0
    v = np.asarray(np.random.default_rng(0).standard_normal(n))  # fixed seed: repeatable
    lam = 0.0
    for _ in range(iters):
        Av = A @ v
        norm = float(np.linalg.norm(Av))
        if norm == 0.0:
            return 0.0
        lam_new = norm / float(np.linalg.norm(v))
        v = Av / norm
        if abs(lam_new - lam) <= 1e-6 * lam_new:
            lam = lam_new
            break
        lam = lam_new
    return 1.05 * lam


def project_dual(v: np.ndarray, y: np.ndarray, C: float | np.ndarray,
                 delta: float = 0.0) -> np.ndarray:
    """Exact Euclidean projection of v onto {a : 0 <= a_i <= C_i, sum_i y_i a_i = delta}; C
    (one for all, or C_i per point) may be inf.

    The KKT conditions give a(mu) = clip(v - mu y, 0, C) for the multiplier mu of the equality.
    h(mu) = y'a(mu) is a sum of terms that each fall with slope -1 on one interval of mu and
    are flat elsewhere, so h is piecewise linear and non-increasing: sort the interval ends,
    accumulate the slopes to get h at every knot, and solve h(mu) = delta on the piece where
    h - delta changes sign. One sort, no iteration.
    """
    u, pos = y * v, y > 0
    # term i slopes for start_i < mu < end_i (start = -inf / end = +inf when C = inf)
    start = np.where(pos, u - C, u)
    end = np.where(pos, u, u + C)
    slope_left = -float(np.count_nonzero(pos & np.isinf(C)))   # terms that never start
    knots = np.concatenate([start, end])
    change = np.concatenate([-np.ones_like(start), np.ones_like(end)])
    finite = np.isfinite(knots)
    order = np.argsort(knots[finite])
    knots, change = knots[finite][order], change[finite][order]
    slope = slope_left + np.cumsum(change)          # slope of h just right of each knot
    h = float(y @ np.clip(v - knots[0] * y, 0.0, C)) - delta + np.concatenate(
        [[0.0], np.cumsum(slope[:-1] * np.diff(knots))])
    below = h <= 0.0
    k = int(np.argmax(below)) if below.any() else len(knots)  # first knot with h <= 0
    if k == 0:                                      # root left of all knots
        mu = knots[0] - (h[0] / slope_left if slope_left else 0.0)
    elif k == len(knots):                           # root right of all knots
        mu = knots[-1] - (h[-1] / slope[-1] if slope[-1] else 0.0)
    else:
        mu = knots[k - 1] + h[k - 1] * (knots[k] - knots[k - 1]) / (h[k - 1] - h[k])
    return np.clip(v - mu * y, 0.0, C)


def dual_bias(alpha: np.ndarray, y: np.ndarray, b_i: np.ndarray,
              C: float | np.ndarray) -> tuple:
    """LIBSVM's bias and its KKT violation for dual variables `alpha`, from b_i = -y_i G_i
    (G the gradient of 1/2 a'Qa + p'a; for C-SVC b_i = y_i - g_i, the bias that would put x_i
    on its margin).

    Points that may still move "up" (I_up) bound the bias from below, points that may move
    "down" (I_low) from above; m - M over these sets is the maximal violating pair gap, zero at
    the optimum. The bias is the mean of b_i over free SVs (0 < a_i < C), where it is exact,
    or the middle of the feasible interval [M, m] when there are none.
    """
    pos = y > 0
    below_C = alpha < C
    above_0 = alpha > 0
    up = (pos & below_C) | (~pos & above_0)
    low = (~pos & below_C) | (pos & above_0)
    m = b_i[up].max(initial=-np.inf)
    M = b_i[low].min(initial=np.inf)
    violation = max(0.0, float(m - M)) if np.isfinite(m - M) else 0.0
    free = above_0 & below_C
    if free.any():
        bias = float(b_i[free].mean())
    elif np.isfinite(m) and np.isfinite(M):
        bias = float(0.5 * (m + M))
    else:
        bias = float(m if np.isfinite(m) else M if np.isfinite(M) else 0.0)
    return bias, violation


class AveragedDual:
    """A duality-gap certificate for the subgradient solvers.

    A subgradient of C * sum_i hinge_i at the current point is -sum_i a_i y_i phi(x_i) with
    a_i = C where x_i violates its margin and 0 elsewhere: these a_i are dual variables in
    disguise, and their running average approaches an optimal dual point (ergodic
    convergence). The average is taken over the second half of the run only (it restarts
    whenever t reaches a power of two), so the wild early iterations are forgotten. Projected
    onto the feasible set it gives a lower bound D(a) <= P*, so P - max D bounds the distance
    of any primal point from the optimum.
    """

    def __init__(self, y: np.ndarray, C: np.ndarray,
                 Q_matvec: Callable[[np.ndarray], np.ndarray]) -> None:
        """Q_matvec(a) must return Q a = y * (K (y * a))."""
        self.y, self.C, self.Q_matvec = y, C, Q_matvec
        self.average = np.zeros(len(y))
        self.count = 0
        self.best = -np.inf

    def add(self, multipliers: np.ndarray, t: int) -> float:
        """Fold in the multipliers of iteration t (>= 1); return the best lower bound so far."""
        if t & (t - 1) == 0:  # t is a power of two: start a new average
            self.average[:] = 0.0
            self.count = 0
        self.count += 1
        self.average += (multipliers - self.average) / self.count
        a = project_dual(self.average, self.y, self.C)
        self.best = max(self.best, float(a.sum() - 0.5 * a @ self.Q_matvec(a)))
        return self.best


class BiasStep:
    """The step of the unregularised bias b in the hinge-loss solvers: b += step(g).

    g = 1/|B| sum_{i in B} s_i y_i in [-1, 1] is minus the subgradient of R in b (s_i = 1 for
    margin violators). The 1/(lambda t) rule of w comes from the curvature lambda of
    lambda/2 ||w||^2, which b does not have: after one large early step (all points violate at
    the start, so g is the class imbalance) it would crawl back along a harmonic series. So
    b gets an AdaGrad step, g / sqrt(sum of all g^2 so far): at most 1 (the scale of the
    margins), and shrinking as long as g keeps changing sign. A fixed learning_rate is used
    as is, as for w.
    """

    def __init__(self, learning_rate: float | None = None) -> None:
        self.learning_rate = learning_rate
        self.sum_sq = 0.0

    def __call__(self, g: float) -> float:
        if self.learning_rate:
            return self.learning_rate * g
        self.sum_sq += g * g
        return g / np.sqrt(self.sum_sq) if self.sum_sq > 0.0 else 0.0


def primal_step(X: np.ndarray, lam: float) -> Callable[[int], float]:
    """The automatic step of w at iteration t >= 1 in the linear primal solvers, in R units:
    eta_t = min(1/(lambda t), 1/(lambda + m2)), with m2 = mean_i ||x_i||^2.

    1/(lambda t) is the Pegasos rule for the lambda-strongly convex R. Alone it ignores the
    data's magnitude: the hinge's sub-gradient (1/n) sum_i s_i y_i x_i is as long as the x_i,
    and a step moves every margin by about eta ||x||^2. With ||x|| ~ 1000 and lambda = 1/(nC)
    the first steps moved the margins by ~1e8 (moons 500, C=1: w stuck at 0 in the best
    iterate; pegasos' average ended 500 times worse than w = 0). The cap keeps a step's move of a
    typical margin near 1, which is what the hinge's kink at margin 1 can resolve: m2 bounds
    the largest eigenvalue of X'X/n, the curvature of the hinge smoothed over unit margins.
    Scaling X by s scales the capped step by 1/s^2, as w* scales, so x1000 trains like x1
    with C 1e6 times larger. Once 1/(lambda t) is the smaller (after m2 n C steps: 1,000 on
    standardised data with 2 features, n = 500, C = 1), the rule is Pegasos' own. lambda eta
    <= 1 always, so the shrinkage of w never overshoots."""
    m2 = float(np.einsum("ij,ij->i", X, X).mean()) if X.size else 0.0
    cap = 1.0 / (lam + m2)
    return lambda t: min(1.0 / (lam * t), cap)


def constant_baseline(y: np.ndarray, C: np.ndarray) -> tuple[float, float]:
    """(P, b) of the best model with w = 0, C_i per point: the bias of the heavier class,
    b = +-1, puts it on its margin and costs 2 C_i per point of the other (ties: b = 0,
    sum C_i). Any fit the linear solvers report must do at least this well."""
    b = float(np.sign(C[y > 0].sum() - C[y < 0].sum()))
    return float((C * np.maximum(0.0, 1.0 - y * b)).sum()), b


def hulls_overlap(a: np.ndarray, g: np.ndarray, y: np.ndarray, radius_sq: float) -> bool:
    """Hard margin: do the classes' convex hulls overlap in feature space, as seen from a?

    g = f - b at every point. With p = 2a / sum(a), p'Qp = 4 a'Qa / sum(a)^2 is the squared
    distance between one point of each hull; it falls towards 0 only when they overlap (for
    separable data it stays above the squared margin width). A tiny value while the current
    boundary still does not separate the classes means there is no hard-margin solution."""
    total = a.sum()
    if total == 0.0:
        return False
    separates = g[y > 0].min(initial=np.inf) > g[y < 0].max(initial=-np.inf)
    quad = float(a @ (y * g))                      # a'Qa, since (Qa)_i = y_i g_i
    return not separates and 4.0 * quad / total ** 2 < 1e-8 * radius_sq


def training_errors(y: np.ndarray, f: np.ndarray) -> int:
    """How many training points f puts on the wrong side (f > 0 predicts the positive class,
    as the model does): what a hard margin without a solution is judged by.

    There the primal P is inf for every state (a margin is always violated) and the dual
    grows without bound, so neither says which state is best. The solvers keep the state
    that misclassifies the fewest training points, the latest of those that tie (the
    pocket rule of Gallant 1990 for the perceptron on data it cannot separate): the
    training accuracy a practitioner reads, and blind to the scale of w, which grows
    without bound with the dual. The number or the sum of the margin violations, like a
    soft-margin objective at a large C, grows with that scale and so would favour the early
    states, whose w is small, whatever their accuracy."""
    return int(np.count_nonzero(np.where(y > 0, f <= 0.0, f > 0.0)))


BEST_STATE = N_("the model is not a solution of the hard margin but the best state found, "
                "the one that misclassifies the fewest training points")


def no_hard_margin(solver: str, kernel: str, shown: str) -> str:
    """The one sentence every solver gives for a hard margin without a solution, with what
    showed it (`shown`): only a dual seen to grow without bound earns it. The solver then
    returns its best state by `training_errors`, and the sentence says so."""
    return tr("solver {solver}: hard margin has no solution with the {kernel} kernel on these "
              "points ({shown}); {best_state}; use a finite C").format(
        solver=repr(solver), kernel=repr(kernel), shown=shown, best_state=tr(BEST_STATE))


def overlap_shown(steps: str) -> str:
    """`shown` for no_hard_margin when hulls_overlap said so, after `steps` (a translated
    count: '40 iterations', '300 pair steps')."""
    return tr("the data are not separable: the classes overlap in feature space and the dual "
              "grew without bound for {steps}").format(steps=steps)
