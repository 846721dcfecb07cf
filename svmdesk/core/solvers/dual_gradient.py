"""Projected gradient ascent on the SVM dual (Vapnik's dual, as in Cortes and Vapnik 1995),
for any kernel.

Problem: maximise D(a) = sum_i a_i - 1/2 a'Qa with Q_ij = y_i y_j k(x_i, x_j),
subject to 0 <= a_i <= C_i and sum_i y_i a_i = 0 (C = inf: hard margin, no upper bound).
Class and sample weights are LIBSVM's weighted C: C_i = C w_i, each multiplier's own bound
(and each hinge loss's weight in the primal P reported beside D).

Algorithm: the textbook update a <- a + eta (1 - Qa), followed by the EXACT Euclidean
projection onto the feasible set (textbook versions only clip to the box, some also nudge y'a
towards 0, so their iterates never satisfy the equality and the bias comes out wrong).
Nesterov momentum (FISTA) speeds it up; the momentum is reset whenever it points against the
projected gradient step (adaptive restart, O'Donoghue & Candes 2015), which keeps the ascent
steady.

Step size: 1/L with L an upper estimate of the largest |eigenvalue| of the kernel matrix
(power iteration). Q has the same eigenvalues as K, so 1/L is the classic safe step for a
gradient method on this quadratic. problem.learning_rate replaces it when set; beyond
2/L the ascent overshoots: with C = inf it diverges (DivergenceError), inside a finite box it
bounces between corners and the budget-exhausted warning says why.

Stopping: the maximal violating pair gap (LIBSVM's criterion, see _common.dual_bias) is at
most problem.tol. The bias is LIBSVM's: the mean of y_i - g_i over free support vectors.
With C = inf the reported primal objective stays inf until every margin is met to 1e-9
(base.hinge_primal), which this tolerance does not promise.

Hard margin on data that are not separable in the kernel's feature space has no solution:
the dual grows without bound. With p = 2a / sum(a) (a convex combination of each class),
p'Qp is the squared distance between two points of the classes' convex hulls in feature
space, which is at least the squared margin width when the data are separable. When it has
shrunk below 1e-8 of the squared data radius and the current boundary still does not
separate the classes, the hulls overlap: the solver stops with a ConvergenceWarning saying
so (as it does, with a milder message, when the budget runs out), and returns the best
iterate seen: the latest of those that misclassify the fewest training points
(_common.training_errors; P is inf for all of them), which the warning says is not a
solution.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from ...i18n import tr
from ..errors import warn_convergence
from ..standardize_hints import hinted
from ._common import (
    Due,
    dual_bias,
    gradient_solver,
    hulls_overlap,
    largest_eigenvalue,
    no_hard_margin,
    overlap_shown,
    project_dual,
    snapshot_due,
    training_errors,
)
from .base import BinaryProblem, Snapshot, Wanted, check_finite
from .problems import DualProblem, c_svc
from .support import TOLERANCE_RULE, sparse_final, support_of

NAME = "dual-gradient"
SUPPORT_RULE = TOLERANCE_RULE
DEFAULT_MAX_ITER = 20_000


def _iterate(problem: BinaryProblem, due: Due) -> Iterator[Snapshot]:
    """C-SVC: its dual in the general form, the model made sparse at the end."""
    return iterate_problem(c_svc(problem), due, problem.learning_rate,
                           finish=lambda snap: sparse_final(problem, snap, dual_is_coef=True))


def solve_problem(problem: DualProblem, every: int = 1,
                  wanted: Wanted = None) -> Iterator[Snapshot]:
    """`solve` for a problem in the general form, as a kind of machine builds it
    (`problems.one_class`); the step is the safe one unless the problem sets learning_rate."""
    due = snapshot_due(every, wanted)
    return iterate_problem(problem, due, problem.learning_rate)


def iterate_problem(problem: DualProblem, due: Due, learning_rate: float | None = None,
                    finish: Callable[[Snapshot], Snapshot] = lambda snap: snap
                    ) -> Iterator[Snapshot]:
    """Projected gradient ascent on D(a) = -(1/2 a'Qa + p'a) over 0 <= a_i <= C_i,
    y'a = delta, from the problem's start; `finish` makes the last snapshot the model."""
    y, C, p = problem.y, problem.upper, problem.p
    delta = float(y @ problem.start)
    max_iter = problem.max_iter or DEFAULT_MAX_ITER
    K = (problem.kernel(problem.X, problem.X) if problem.gram is None    # over the points
         else problem.gram)
    point_of = problem.point_of
    # Q over the variables is P K P' (signed), P picking each variable's point: with r
    # variables per point (SVR: 2), P'P = r I, so its largest eigenvalue is r times K's
    copies = 1 if point_of is None else len(point_of) // len(K)
    safe_step = 1.0 / max(copies * largest_eigenvalue(K), 1e-12)
    step = learning_rate or safe_step

    def Q(v):  # Q v = y * (K (y * v)), without forming Q (nor K over the variables)
        if point_of is None:
            return y * (K @ (y * v))
        return y * (K @ np.bincount(point_of, weights=y * v, minlength=len(K)))[point_of]

    radius_sq = float(K.diagonal().max(initial=0.0))
    a = problem.start.copy()
    Qa = Q(a)
    a_prev, Qa_prev, momentum = a, Qa, 1.0
    it, converged, overlap = 0, False, False
    best: tuple[int, np.ndarray, np.ndarray, float, float] | None = None   # hard margin
    fewest = problem.n + 1                  # best: (it, a, Qa, bias, violation)
    while True:
        bias, violation = dual_bias(a, y, -y * (Qa + p), C)
        converged = violation <= problem.tol
        if problem.unbounded:               # C-SVC's hard margin (y * Qa: f without bias)
            errors = training_errors(y, y * Qa + bias)
            if errors <= fewest:                     # iterates are never changed in place
                best, fewest = (it, a, Qa, bias, violation), errors
        overlap = problem.unbounded and hulls_overlap(a, y * Qa, y, radius_sq)
        if converged or overlap or it >= max_iter:
            break
        if due(it):
            yield _snapshot(it, a, Qa, bias, violation, step, problem)
        # FISTA: extrapolate, take a projected gradient step, restart momentum if needed.
        next_momentum = 0.5 * (1.0 + np.sqrt(1.0 + 4.0 * momentum ** 2))
        inertia = (momentum - 1.0) / next_momentum
        z = a + inertia * (a - a_prev)
        Qz = Qa + inertia * (Qa - Qa_prev)  # Q is linear: no extra product with K
        with np.errstate(over="ignore", invalid="ignore"):  # check_finite reports these
            a_new = project_dual(z - step * (Qz + p), y, C, delta)
            Qa_new = Q(a_new)
        check_finite(NAME, step, a_new, Qa_new)
        if (z - a_new) @ (a_new - a) > 0.0:  # momentum fights the step: restart
            next_momentum = 1.0
        a_prev, Qa_prev, a, Qa, momentum = a, Qa, a_new, Qa_new, next_momentum
        it += 1

    if not converged:
        _warn_not_converged(problem, learning_rate, it, overlap, violation, safe_step)
    if overlap:                     # no solution: the best iterate seen, not the last
        assert best is not None     # overlap is hard margin's, which keeps a best from it 0
        it, a, Qa, bias, violation = best
    yield finish(_snapshot(it, a, Qa, bias, violation, step, problem, converged=converged))


def _snapshot(it, a, Qa, bias, violation, step, problem, converged=False):
    decision = problem.y * Qa                       # f without the bias
    primal = problem.primal(a, decision, bias)
    dual = -float(0.5 * a @ Qa + problem.p @ a)
    return Snapshot(
        iteration=it,
        bias=bias,
        primal_objective=primal,
        dual_objective=dual,
        gap=primal - dual,
        kkt_violation=violation,
        dual_coef=problem.y * a,
        # how far beyond its margin each point lies: the gradient of the dual plus y b
        support=support_of(a, problem.upper, beyond=Qa + problem.p + problem.y * bias),
        converged=converged,
        step_size=step,
    )


solve = gradient_solver(NAME, _iterate)


def _warn_not_converged(problem, learning_rate, it, overlap, violation, safe_step):
    if overlap:
        message = no_hard_margin(NAME, problem.kernel.name, overlap_shown(
            tr("{count} iterations").format(count=it)))
    else:
        message = hinted(tr(
            "solver {solver} stopped after {count} iterations with KKT violation {violation} > "
            "tol={tol}; raise max_iter or tol").format(
            solver=repr(NAME), count=it, violation=f"{violation:.3g}", tol=f"{problem.tol:g}"),
            problem.X)
        if learning_rate and learning_rate > 2.0 * safe_step:
            # In a box the iterates cannot blow up; a too-long step makes them bounce instead.
            why = tr("learning_rate {rate} is beyond the stable limit ~{limit} = 2 / largest "
                     "eigenvalue of K, so the ascent oscillates; leave learning_rate unset for "
                     "a safe step").format(rate=f"{learning_rate:.3g}",
                                           limit=f"{2.0 * safe_step:.3g}")
            message = tr("{warning} ({why})").format(warning=message, why=why)
    warn_convergence(message, stacklevel=3)
