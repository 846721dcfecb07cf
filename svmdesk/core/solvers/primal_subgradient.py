"""Full-batch sub-gradient descent on the linear SVM primal (the regularised hinge loss of
Shalev-Shwartz et al. 2007, with every point in each step).

Problem (the textbook form): minimise R(w, b) = lambda/2 ||w||^2 + 1/n sum_i hinge_i with
hinge_i = max(0, 1 - y_i (w.x_i + b)) and lambda = 1/(n C). R is the libsvm primal divided by
n C, so every objective reported is P = n C R = 1/2 ||w||^2 + C sum_i hinge_i. Unlike the seed,
the bias b is a separate, unregularised variable (the seed appends a column of ones to X, which
puts b inside ||w||^2 and shrinks it towards 0).

Update: with s_i = 1 for points violating their margin (y_i f(x_i) < 1), 0 otherwise,
    w <- w - eta (lambda w - 1/n sum_i s_i y_i x_i),   b <- b + eta_b 1/n sum_i s_i y_i.
With class and sample weights each hinge loss counts w_i times in R (C_i = C w_i in P, as
LIBSVM's weighted C), so s_i becomes w_i s_i in both.

Step sizes: eta_t = 1/(lambda t), the classic rule for a lambda-strongly convex objective
(Pegasos, Shalev-Shwartz et al. 2007), here on the full batch, capped at 1/(lambda + m2) with
m2 = mean ||x_i||^2 (_common.primal_step). Once uncapped it makes w_t the plain average of
the "targets" 1/(lambda n) sum_i s_i y_i x_i, which damps the zig-zag of the subgradient
method; the cap makes the step follow the data's magnitude (without it, features ~1000
moved the margins by ~1e8 a step and the best iterate stayed w = 0). b has no such
curvature and gets an AdaGrad step (_common.BiasStep).
problem.learning_rate sets one constant eta for both instead (the textbook's choice).
step_size in the snapshots is eta, in these (R) units.

A subgradient method does not decrease the objective at every step, so the solver keeps the
best iterate seen; every snapshot shows it (it is the answer you would get by stopping there).
The contest starts with the best model with w = 0 (_common.constant_baseline), so no answer is
ever worse than predicting the majority class.

Stopping: the relative duality gap (P_best - D) / P_best <= problem.tol, where D is a lower
bound on the optimum built from the averaged subgradient multipliers (_common.AveragedDual).
The gap is reported in the snapshots; dual_objective stays None (this is a primal solver).
"""
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ...i18n import tr
from ..errors import warn_convergence
from ..standardize_hints import hinted
from ._common import (
    AveragedDual,
    BiasStep,
    Due,
    constant_baseline,
    gradient_solver,
    opening,
    primal_step,
)
from .base import (
    BinaryProblem,
    Snapshot,
    check_finite,
    gap_certifies,
    hinge_primal,
    linear_support,
)
from .support import MARGIN_RULE

NAME = "primal-subgradient"
SUPPORT_RULE = MARGIN_RULE
DEFAULT_MAX_ITER = 20_000


def _iterate(problem: BinaryProblem, due: Due) -> Iterator[Snapshot]:
    start = opening(problem, DEFAULT_MAX_ITER)
    X, y, C, n, lam, max_iter = (problem.X, start.y, start.bounds, start.n, start.lam,
                                 start.max_iter)
    certificate = AveragedDual(y, C, lambda a: y * (X @ (X.T @ (y * a))))

    w, b = np.zeros(X.shape[1]), 0.0
    baseline, b0 = constant_baseline(y, C)
    best: tuple = (baseline, w, b0, y * b0)  # (P, w, b, margins) of the best iterate so far
    it, step, gap = 0, np.nan, np.inf
    bias_step = BiasStep(problem.learning_rate)
    auto_step = primal_step(X, lam)
    while True:
        margins = y * (X @ w + b)
        with np.errstate(over="ignore"):  # ||w||^2 overflows before w: check_finite reports it
            primal = hinge_primal(0.5 * w @ w, margins, C)
        check_finite(NAME, step, primal)
        if primal < best[0]:
            best = (primal, w, b, margins)
        violators = (margins < 1.0).astype(float)
        gap = best[0] - certificate.add(C * violators, it + 1)
        violators *= start.weights                  # each loss counts w_i times
        converged = gap_certifies(best[0], best[0] - gap, problem.tol)
        if converged or it >= max_iter:
            break
        if due(it):
            yield _snapshot(it, best, gap, step)
        # one sub-gradient step on R(w, b); the bias is not regularised
        step = problem.learning_rate or auto_step(it + 1)
        w = w - step * (lam * w - X.T @ (violators * y) / n)
        b = b + bias_step(float(violators @ y) / n)
        check_finite(NAME, step, w, b)
        it += 1

    if not converged:
        warn_convergence(hinted(tr(
            "solver {solver} stopped after {count} iterations with relative duality gap "
            "{gap} > tol={tol}; raise max_iter or tol").format(
            solver=repr(NAME), count=it, gap=f"{gap / abs(best[0]):.3g}",
            tol=f"{problem.tol:g}"), problem.X), stacklevel=2)
    yield _snapshot(it, best, gap, step, converged)


solve = gradient_solver(NAME, _iterate)


def _snapshot(it, best, gap, step, converged=False):
    primal, w, b, margins = best
    return Snapshot(
        iteration=it,
        bias=float(b),
        primal_objective=primal,
        gap=float(gap),
        w=w,
        support=linear_support(margins),
        converged=converged,
        step_size=None if np.isnan(step) else float(step),
    )
