"""What a support vector is, one rule for every solver, for its snapshots and its model.

A point is a support vector when its multiplier alpha_i (|dual_coef_i|) is not zero. SMO's
steps land exactly on the bounds, so its zero is 0. The gradient solvers only approach the
bounds: dual gradient ascent leaves tiny multipliers, and kernel gradient descent, whose
coefficients are the average of every step's targets, keeps C k / t for a point that
violated its margin k times in t steps, long after it has left the margin behind. For them
a support vector is a point whose alpha exceeds SUPPORT_TOL * C (hard margin: of the largest
alpha) and which lies on, inside or within MARGIN_SLACK of its margin (y f(x) <= 1.1): at
the optimum a point beyond its margin has alpha 0 (KKT), so what such a point still holds is
the iterate's leftover, not its part in the machine. Without the margin's half of the rule,
kernel gradient descent on 1,000 moons named 1,000 support vectors where LIBSVM names 153.

A gradient solver's last snapshot, which the model is made of, keeps the support vectors
alone (`sparse_final`). Dropping the other coefficients outright would move f (their many
small terms add up: 0.37 on 1,000 moons), so the kept ones are fitted again: the f of the
kept points nearest to the solver's f in the kernel's space, every alpha still in its box
[0, C]. That is taken when the objectives get no worse than the solver's tol (relative): f
may move (0.34 on 1,000 moons at C 10, poly), as dropping an iterate's leftovers moves it
towards the optimum, and the primal objective says so (it falls). Otherwise zero is lowered
tenfold and tried again (a small alpha of dual gradient ascent can be a true support
vector's); should none do, the snapshot keeps every coefficient: the model is never worse
than the solver's own iterate.
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from .base import BinaryProblem, Snapshot, dual_stats

SUPPORT_TOL = 0.01    # relative to C: the gradient solvers' zero
MARGIN_SLACK = 0.1    # a gradient solver's support vector has y f(x) <= 1 + this
REFIT_STEPS = 500     # accelerated projected gradient steps at most
MAX_REFIT = 4000      # support vectors at most for a refit (it holds their kernel matrix)

# The rule in the readout's words, for each kind of solver (each solver's SUPPORT_RULE)
EXACT_RULE = "α > 0"
TOLERANCE_RULE = f"α > {SUPPORT_TOL:.0%} of C, y f(x) ≤ {1 + MARGIN_SLACK:g}"
MARGIN_RULE = "on or inside its margin"     # the linear primal solvers have no α


def support_of(dual_coef: np.ndarray, C: float | np.ndarray, exact: bool = False,
               zero: float = SUPPORT_TOL, beyond: np.ndarray | None = None) -> np.ndarray:
    """Indices of the support vectors: |dual_coef| above 0 (`exact`: SMO's zero) or above
    `zero` * C_i (the gradient solvers'; C: one for all or one per point), and where it is
    given how far each point lies `beyond` its margin (y f(x) - 1 for a classifier; in
    general the dual's gradient plus y b, which is 0 on the margin), those at most
    MARGIN_SLACK beyond it (the gradient solvers' rule: see the module)."""
    alpha = np.abs(np.asarray(dual_coef, dtype=np.float64))
    if exact:
        return np.flatnonzero(alpha > 0.0)
    scale = np.where(np.isfinite(C), C, alpha.max(initial=0.0))
    named = alpha > zero * scale
    if beyond is not None:
        named &= np.asarray(beyond) <= MARGIN_SLACK
    return np.flatnonzero(named)


def sparse_final(problem: BinaryProblem, snap: Snapshot, dual_is_coef: bool) -> Snapshot:
    """A gradient solver's last snapshot with its support vectors alone (see the module).
    `dual_is_coef`: the snapshot's dual objective is that of its coefficients (dual gradient
    ascent; kernel gradient descent reports a certificate that holds for any of them)."""
    coef = np.asarray(snap.dual_coef, dtype=np.float64)
    nonzero = np.flatnonzero(coef)
    X, y, kernel, C = problem.X, problem.y, problem.kernel, problem.bounds
    g = kernel.matvec(X, X[nonzero], coef[nonzero])                  # f - bias, today
    beyond = y * (g + snap.bias) - 1.0
    before = dual_stats(y * coef, y, y * g, snap.bias, C)              # (P, D, gap)
    for zero in (SUPPORT_TOL, SUPPORT_TOL / 10, SUPPORT_TOL / 100):
        support = support_of(coef, C, zero=zero, beyond=beyond)
        if len(support) == len(nonzero):
            break
        if not 0 < len(support) <= MAX_REFIT:
            continue
        refit = _refit(problem, coef, g, support, zero)
        if refit is None:
            continue
        kept, c, g_new = refit
        sparse = np.zeros_like(coef)
        sparse[kept] = c
        after = dual_stats(y * sparse, y, y * g_new, snap.bias, C)
        tol = problem.tol
        if (after[0] <= before[0] + tol * abs(before[0])
                and (not dual_is_coef or after[1] >= before[1] - tol * abs(before[1]))):
            dual = after[1] if dual_is_coef else snap.dual_objective
            return replace(snap, dual_coef=sparse, support=kept, primal_objective=after[0],
                           dual_objective=dual,
                           gap=None if dual is None else after[0] - dual)
    return replace(snap, support=nonzero)


def _refit(problem, coef, g, support, zero):
    """(kept, their coefficients, f - bias on every point) once the refit has settled: a
    coefficient the refit takes to `zero` or below goes too, and the rest are fitted again."""
    X, y, kernel, C = problem.X, problem.y, problem.kernel, problem.bounds
    K, start = kernel(X[support], X[support]), coef[support]
    for _ in range(5):
        c = refit_on_support(K, g[support], y[support], start, C[support])
        keep = support_of(c, C[support], zero=zero)
        if len(keep) == len(support):
            return support, c, kernel.matvec(X, X[support], c)
        if len(keep) == 0:
            return None
        support, start, K = support[keep], c[keep], K[np.ix_(keep, keep)]
    return None


def refit_on_support(K: np.ndarray, target: np.ndarray, y: np.ndarray, start: np.ndarray,
                     C: float | np.ndarray) -> np.ndarray:
    """Coefficients c of the support vectors whose f = K c is nearest, in the kernel's space,
    to a function that takes the values `target` on them (the solver's f: its projection on
    their span), each alpha = y c kept in [0, C_i]: accelerated projected gradient from `start`
    on 1/2 c'Kc - c'target."""
    lipschitz = max(float(np.abs(K).sum(axis=1).max(initial=0.0)), 1e-12)  # >= K's top eigenvalue
    upper = C
    c = z = y * np.clip(y * start, 0.0, upper)
    momentum = 1.0
    for _ in range(REFIT_STEPS):
        step = z - (K @ z - target) / lipschitz
        c_next = y * np.clip(y * step, 0.0, upper)
        moved = np.abs(c_next - c).max(initial=0.0)
        next_momentum = (1.0 + math.sqrt(1.0 + 4.0 * momentum ** 2)) / 2.0
        z = c_next + (momentum - 1.0) / next_momentum * (c_next - c)
        c, momentum = c_next, next_momentum
        if moved <= 1e-12 * max(1.0, np.abs(c).max(initial=0.0)):
            break
    return c
