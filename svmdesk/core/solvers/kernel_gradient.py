"""Sub-gradient descent on the representer coefficients of a kernel SVM, any kernel (the
representer theorem: Kimeldorf and Wahba 1971; Schölkopf, Herbrich and Smola 2001).

Model: f(x) = sum_j beta_j k(x_j, x) + b (representer theorem), with a REAL bias b. The seed
appends a column of ones to X instead; inside an RBF kernel that column cancels
(||x - x'|| does not change), so its RBF model has no intercept at all.

Problem: minimise P(beta, b) = 1/2 beta'K beta + sum_i C_i hinge_i,
hinge_i = max(0, 1 - y_i f(x_i)), the textbook lambda/2 beta'K beta + mean hinge multiplied
by n C (lambda = 1/(n C)).
C_i = C w_i with w_i the point's class and sample weight (1 without them): its hinge loss
counts w_i times in the mean, so in every step (the violators' targets below are
w_i y_i s_i).

Update: the textbook gradient in beta is K (lambda beta - 1/n y*s), with s_i = 1 where x_i violates
its margin. Dropping the leading K (preconditioning by K^-1, i.e. the gradient of f itself in
the kernel's feature space) removes K's bad conditioning and gives
    beta <- beta - eta (lambda beta - 1/n y*s),   b <- b + eta_b 1/n y's,
the kernel twin of primal-subgradient (for a linear kernel w = X'beta follows the same path).

Step sizes: eta_t = 1/(lambda t) (from the curvature lambda of lambda/2 ||f||^2), which makes
beta_t the average of the first t targets y*s/(lambda n); the bias has no curvature and gets
an AdaGrad step (_common.BiasStep). problem.learning_rate sets one constant eta for both
instead. step_size in the snapshots is eta, in the textbook's (R) units. The best iterate is
kept and every snapshot shows it.

Stopping: the relative duality gap (P_best - D) / P_best <= problem.tol, with D the lower bound
from the averaged subgradient multipliers (_common.AveragedDual); D is reported as
dual_objective. For a kernel whose matrix is not positive semi-definite (sigmoid, for some
gamma / coef0) the problem is not convex and D is no longer a guaranteed bound: a negative
gap is never taken for convergence (base.gap_certifies).
"""
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ...i18n import tr
from ..errors import warn_convergence
from ..standardize_hints import hinted
from ._common import AveragedDual, BiasStep, Due, gradient_solver, opening
from .base import (
    BinaryProblem,
    Snapshot,
    check_finite,
    gap_certifies,
    hinge_primal,
    no_bound,
)
from .support import TOLERANCE_RULE, sparse_final, support_of

NAME = "kernel-gradient"
SUPPORT_RULE = TOLERANCE_RULE
DEFAULT_MAX_ITER = 20_000


def _iterate(problem: BinaryProblem, due: Due) -> Iterator[Snapshot]:
    start = opening(problem, DEFAULT_MAX_ITER)
    y, C, n, lam, max_iter = start.y, start.bounds, start.n, start.lam, start.max_iter
    K = problem.kernel(problem.X, problem.X) if problem.gram is None else problem.gram
    certificate = AveragedDual(y, C, lambda a: y * (K @ (y * a)))

    beta, b = np.zeros(n), 0.0
    best: tuple = (np.inf, beta, b, None)  # (P, beta, b, margins) of the best iterate so far
    it, step, dual = 0, np.nan, -np.inf
    bias_step = BiasStep(problem.learning_rate)
    while True:
        Kbeta = K @ beta
        margins = y * (Kbeta + b)
        with np.errstate(over="ignore"):  # beta'K beta overflows first: check_finite reports it
            primal = hinge_primal(0.5 * beta @ Kbeta, margins, C)
        check_finite(NAME, step, primal)
        if primal < best[0]:
            best = (primal, beta, b, margins)
        violators = (margins < 1.0).astype(float)
        dual = certificate.add(C * violators, it + 1)
        violators *= start.weights                  # each loss counts w_i times
        converged = gap_certifies(best[0], dual, problem.tol)
        if converged or it >= max_iter:
            break
        if due(it):
            yield _snapshot(it, best, dual, step, C)
        # one preconditioned sub-gradient step; the bias is not regularised
        step = problem.learning_rate or 1.0 / (lam * (it + 1))
        beta = beta - step * (lam * beta - violators * y / n)
        b = b + bias_step(float(violators @ y) / n)
        check_finite(NAME, step, beta, b)
        it += 1

    if not converged and no_bound(best[0], dual):
        warn_convergence(tr(
            "solver {solver} stopped after {count} iterations with a negative duality gap "
            "({gap}): the {kernel} kernel's matrix is not positive semi-definite for these "
            "points and parameters, so the dual is no lower bound and convergence cannot be "
            "certified; the model is the best iterate found").format(
            solver=repr(NAME), count=it, gap=f"{best[0] - dual:.3g}",
            kernel=problem.kernel.name), stacklevel=2)
    elif not converged:
        warn_convergence(hinted(tr(
            "solver {solver} stopped after {count} iterations with relative duality gap "
            "{gap} > tol={tol}; raise max_iter or tol").format(
            solver=repr(NAME), count=it, gap=f"{(best[0] - dual) / abs(best[0]):.3g}",
            tol=f"{problem.tol:g}"), problem.X), stacklevel=2)
    yield sparse_final(problem, _snapshot(it, best, dual, step, C, converged),
                       dual_is_coef=False)


solve = gradient_solver(NAME, _iterate)


def _snapshot(it, best, dual, step, C, converged=False):
    primal, beta, b, margins = best
    return Snapshot(
        iteration=it,
        bias=float(b),
        primal_objective=primal,
        dual_objective=dual,
        gap=primal - dual,
        dual_coef=beta,
        support=support_of(beta, C, beyond=None if margins is None else margins - 1.0),
        converged=converged,
        step_size=None if np.isnan(step) else float(step),
    )
