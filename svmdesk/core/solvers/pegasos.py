"""Pegasos: mini-batch stochastic sub-gradient descent on the linear SVM primal
(Shalev-Shwartz, Singer and Srebro 2007).

Problem: minimise R(w, b) = lambda/2 ||w||^2 + 1/n sum_i max(0, 1 - y_i (w.x_i + b)) with
lambda = 1/(n C); objectives are reported as P = n C R = 1/2 ||w||^2 + C sum_i hinge_i.
With class and sample weights each hinge loss counts w_i times in R (C_i = C w_i in P, as
LIBSVM's weighted C), so a violator's share of a step below is w_i s_i.

Update: each epoch visits the points in a fresh random order (np.random.default_rng(seed)),
in mini-batches B of problem.batch_size points (default 32). With s_i = 1 where x_i in B
violates its margin,
    w <- w - eta_t (lambda w - 1/|B| sum_B s_i y_i x_i),   b <- b + eta_b 1/|B| sum_B s_i y_i,
an unbiased estimate of the full sub-gradient step. The bias is not regularised (the seed
puts it inside w, which shrinks it towards 0).

Step sizes: eta_t = 1/(lambda t) (Shalev-Shwartz et al. 2007), capped at 1/(lambda + m2) with
m2 = mean ||x_i||^2 so that a step follows the data's magnitude (_common.primal_step: without
the cap, moons x1000 at C = 100 ended at P = 2.6e9, against 5e4 for w = 0); b has no
curvature and gets an AdaGrad step (_common.BiasStep). problem.learning_rate sets one constant
eta for both instead.
step_size in the snapshots is eta, in these (R) units.

The stochastic iterates keep jittering, so the answer is their running average weighted by t
(w_bar = sum_t t w_t / sum_t t; late iterates count more, Shamir & Zhang 2013), for w and b
alike. Snapshots show this average; the final one shows the best of the averages seen at the
ends of epochs and of the best model with w = 0 (_common.constant_baseline), so no answer is
ever worse than predicting the majority class.

Stopping: after each epoch e the averaged objective P_e is evaluated on all points. Its excess
over the optimum decays roughly like 1/e, so P_{e/2} - P_e estimates it, but sampling noise
also makes it wobble. The solver stops once P has varied by at most problem.tol * P_e over the
second half of the epochs so far (covering both the trend and the wobble). The default budget
is 1000 epochs; large C (small lambda) may need more and then ends with a ConvergenceWarning.
"""
from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from ...i18n import tr
from ..errors import warn_convergence
from ..standardize_hints import hinted
from ._common import (
    BiasStep,
    Due,
    constant_baseline,
    gradient_solver,
    opening,
    primal_step,
)
from .base import BinaryProblem, Snapshot, check_finite, hinge_primal, linear_support
from .support import MARGIN_RULE

NAME = "pegasos"
SUPPORT_RULE = MARGIN_RULE
DEFAULT_BATCH = 32
DEFAULT_EPOCHS = 1000
MIN_EPOCHS = 4  # judge the trend over at least two epochs


def _check_batch(problem: BinaryProblem) -> None:
    if problem.batch_size is not None and problem.batch_size < 1:
        raise ValueError(tr("batch_size must be a positive integer; got {value}").format(
            value=repr(problem.batch_size)))


def _iterate(problem: BinaryProblem, due: Due) -> Iterator[Snapshot]:
    n = problem.n
    batch = min(n, problem.batch_size or DEFAULT_BATCH)
    opened = opening(problem, DEFAULT_EPOCHS * math.ceil(n / batch))
    X, y, C, lam, max_iter = problem.X, opened.y, opened.bounds, opened.lam, opened.max_iter
    weights = opened.weights
    rng = np.random.default_rng(problem.seed)

    def primal(w, b):
        margins = y * (X @ w + b)
        with np.errstate(over="ignore"):  # ||w||^2 overflows before w: check_finite reports it
            return hinge_primal(0.5 * w @ w, margins, C), margins

    w, b = np.zeros(X.shape[1]), 0.0
    w_bar, b_bar, weight = w, b, 0.0
    epoch_objectives = [primal(w_bar, b_bar)[0]]  # P of the average after each epoch
    baseline, b0 = constant_baseline(y, C)
    best = (baseline, w, b0)  # (P, w, b) of the best epoch average so far
    it, step, converged = 0, np.nan, False
    B = None                # the last step's mini-batch
    bias_step = BiasStep(problem.learning_rate)
    auto_step = primal_step(X, lam)
    while it < max_iter and not converged:
        order = rng.permutation(n)
        for start in range(0, n, batch):
            if due(it):
                yield _snapshot(it, w_bar, b_bar, primal, step, batch=B)
            B = order[start:start + batch]
            # each loss counts w_i times
            violators = (y[B] * (X[B] @ w + b) < 1.0) * weights[B]
            step = problem.learning_rate or auto_step(it + 1)
            w = w - step * (lam * w - X[B].T @ (violators * y[B]) / len(B))
            b = b + bias_step(float(violators @ y[B]) / len(B))
            check_finite(NAME, step, w, b)
            it += 1
            weight += it  # running average with weights proportional to t
            w_bar = w_bar + (it / weight) * (w - w_bar)
            b_bar = b_bar + (it / weight) * (b - b_bar)
            if it >= max_iter:
                break
        epoch_objectives.append(primal(w_bar, b_bar)[0])
        check_finite(NAME, step, epoch_objectives[-1])
        if epoch_objectives[-1] < best[0]:
            best = (epoch_objectives[-1], w_bar, b_bar)
        converged = _settled(epoch_objectives, problem.tol)

    if not converged:
        warn_convergence(hinted(tr(
            "solver {solver} stopped after {count} iterations ({epochs} epochs) before its "
            "objective settled to tol={tol}; raise max_iter or tol").format(
            solver=repr(NAME), count=it, epochs=len(epoch_objectives) - 1,
            tol=f"{problem.tol:g}"), problem.X), stacklevel=2)
    if epoch_objectives[-1] > best[0]:
        w_bar, b_bar = best[1], best[2]
    yield _snapshot(it, w_bar, b_bar, primal, step, converged, B)


solve = gradient_solver(NAME, _iterate, check=_check_batch)


def _settled(objectives, tol):
    """Has the averaged objective stayed within tol (relative) over the second half of the run?"""
    e = len(objectives) - 1
    if e < MIN_EPOCHS:
        return False
    recent = objectives[e // 2:]
    return max(recent) - min(recent) <= tol * abs(objectives[e])


def _snapshot(it, w, b, primal, step, converged=False, batch=None):
    objective, margins = primal(w, b)
    return Snapshot(
        iteration=it,
        bias=float(b),
        primal_objective=objective,
        w=w,
        support=linear_support(margins),
        converged=converged,
        step_size=None if np.isnan(step) else float(step),
        batch=batch,
    )
