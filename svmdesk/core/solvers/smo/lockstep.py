"""SMO for many C-SVC problems at once, in lockstep: the one-vs-one machines of a fit.

On a few hundred points a pair step's arithmetic is tiny and its cost is its numpy calls,
about twenty, a microsecond each; each machine's setup and final state cost as many again.
Here B problems over points of one set advance together: each keeps its own multipliers,
gradient, working pair, stopping test and bias, and each operation of a pair step is one
numpy call for all of them, on (B, N) arrays padded to the largest problem (a padding entry
belongs to neither I_up nor I_low, so it is never chosen). A problem retires once it is
optimal, or has spent max_iter steps, and the others go on without it.

The method is `solver._SMO`'s, libsvm's: i the maximal violator, j the second-order choice,
the pair moved analytically and clipped to the box, with libsvm's TAU guard, and the same
Newton steps on each problem's free multipliers (after NEWTON_EVERY steps, then every
NEWTON_EVERY_SMALL). Without shrinking, which pays on large problems only, and in float64:
kernel rows come from `SharedRows`, each point's row over every point of the set computed
once, whichever machines need it (a point of class k serves all K - 1 of k's machines). At
the end each problem's F is recomputed from its support vectors' rows, free of the steps'
rounding, and gives its bias and objectives as `_SMO`'s final snapshot does.

`solve_together` is for fit: it yields no snapshot before the last; a window that streams
a run uses `solver.solve`, machine after machine.
"""
from __future__ import annotations

import math
import time
from collections.abc import Sequence

import numpy as np

from ...errors import warn_convergence
from ...kernels import Kernel
from ..base import BinaryProblem, Snapshot, hinge_primal
from .newton import _box_qp, newton_pays
from .progress import ProgressWatch
from .row_cache import constant_value, inverse_curvatures
from .solver import (
    NEWTON_EVERY,
    NEWTON_EVERY_SMALL,
    NEWTON_MAX_FREE,
    _membership,
    max_iter_spent,
    middle_of,
)

WATCH_EVERY = 256       # pair steps between looks at the clock (the progress watch's)
MAX_POINTS = 4096       # the shared rows of every point: at most 128 MB of float64
# Where lockstep gains, measured against the solo solver (fit's time, lockstep / solo) on
# Gaussian blobs of 3 to 10 classes, 2 and 10 features, C 1 and 100: with fewer machines
# the solo pair step (a dozen numpy calls on one machine's points) wins, 1.0-2.5x for 3 and
# 4 classes and 0.7-1.6x for 5; with larger machines the solo solver's shrinking and row
# cache win (6 classes of 300 points, 1.1-1.3x; 10 of 400, 1.1-1.5x). With 15 machines and
# more, of at most 400 points each: 0.47-1.04x (digits, 45 machines of about 360: 0.66-0.8x).
MIN_MACHINES = 15
MAX_MACHINE_POINTS = 400


def gains(machines: int, largest: int) -> bool:
    """Whether `machines` problems, the largest of `largest` points, gain by lockstep."""
    return machines >= MIN_MACHINES and largest <= MAX_MACHINE_POINTS


class SharedRows:
    """k(x_g, x) over every point x of Z for the points g asked for, each row computed once,
    on the first request, in float64; `gram`: the whole matrix, already computed."""

    def __init__(self, kernel: Kernel, Z: np.ndarray, gram: np.ndarray | None = None
                 ) -> None:
        self.kernel, self.Z = kernel, Z
        n = len(Z)
        self.rows = np.ascontiguousarray(gram) if gram is not None else np.empty((n, n))
        self.flat = self.rows.reshape(-1)        # a view: rows written show through it
        self.have = np.full(n, gram is not None)
        self.kd = kernel.diag(Z)
        self.kd_const = constant_value(self.kd)
        if gram is None:      # the kernel's operands made once, not once per request
            self.A_op, self.B_op = kernel.operands(Z, Z)

    def ensure(self, points: np.ndarray) -> None:
        """Compute the rows of these points that are not there yet (in one product)."""
        missing = points[~self.have[points]]
        if len(missing):
            missing = np.unique(missing)
            dots = self.A_op[missing] @ self.B_op.T
            self.kernel.finish(dots, dots)
            self.rows[missing] = dots
            self.have[missing] = True

    def block(self, points: np.ndarray, columns: np.ndarray) -> np.ndarray:
        """k(x_points[r], x_columns[r, :]) for each r: (len(points), columns' width)."""
        self.ensure(points)
        # one take at flat indices: half the time of indexing with the two arrays
        return self.flat.take(points[:, None] * len(self.rows) + columns)


class _Batch:
    """The state of the problems still running, one row each, padded to N columns."""

    def __init__(self, problems: Sequence[BinaryProblem], points: Sequence[np.ndarray],
                 rows: SharedRows, starts: Sequence[np.ndarray | None] | None = None) -> None:
        B, N = len(problems), max(p.n for p in problems)
        self.which = np.arange(B)                        # each row's problem
        self.points = np.zeros((B, N), dtype=np.intp)    # each entry's point in the set
        self.y = np.ones((B, N))
        self.upper = np.ones((B, N))
        self.valid = np.zeros((B, N), dtype=bool)       # not padding
        for b, (problem, own) in enumerate(zip(problems, points)):
            n = problem.n
            self.points[b, :n], self.y[b, :n] = own, problem.y
            self.upper[b, :n] = problem.bounds
            self.valid[b, :n] = True
        valid = self.valid
        self.pos = self.y > 0
        self.alpha = np.zeros((B, N))
        self.F = np.where(valid, self.y, 0.0)            # -y G at a = 0, G = -e
        # F within I_up (else -inf) and within I_low (else +inf); at a = 0 I_up holds the
        # positive points, I_low the negative ones
        self.Fup = np.where(valid & self.pos, self.F, -math.inf)
        self.Flow = np.where(valid & ~self.pos, self.F, math.inf)
        for b, start in enumerate(starts or ()):
            if start is not None:
                self._start_at(b, start, rows)
        self.kd = rows.kd[self.points]
        self.pair = np.zeros((B, 2), dtype=np.intp)
        self.settled: list[np.ndarray | None] = [None] * B   # by problem: see _newton
        self.last_solve = [0] * B            # by problem: the step of its last Newton solve

    def _start_at(self, b: int, start: np.ndarray, rows: SharedRows) -> None:
        """Problem b from the feasible multipliers `start` instead of 0: F = y - K (y a)."""
        n = len(start)
        own = self.points[b, :n]
        self.alpha[b, :n] = start
        moved = np.flatnonzero(start)
        if len(moved):
            K = rows.block(own[moved], np.broadcast_to(own, (len(moved), n)))
            self.F[b, :n] -= (self.y[b, moved] * start[moved]) @ K
        up_pen, low_pen = _membership(self.y[b, :n], start, self.upper[b, :n])
        self.Fup[b, :n], self.Flow[b, :n] = self.F[b, :n] + up_pen, self.F[b, :n] + low_pen

    def rows_at(self, local: np.ndarray, rows: SharedRows) -> np.ndarray:
        """(B, N): for each running problem, the kernel row of its point `local[r]`."""
        return rows.block(self.points[np.arange(len(local)), local], self.points)

    def keep(self, rows: np.ndarray) -> None:
        """Go on with these rows only."""
        for name in ("which", "points", "y", "upper", "valid", "pos", "alpha", "F", "Fup",
                     "Flow", "kd", "pair"):
            setattr(self, name, getattr(self, name)[rows])


def solve_together(problems: Sequence[BinaryProblem], points: Sequence[np.ndarray],
                   rows: SharedRows, starts: Sequence[np.ndarray | None] | None = None
                   ) -> list[Snapshot]:
    """Each C-SVC problem's final snapshot, as `solver.solve` ends it: problem b's points
    are the points[b] of the set `rows` draws from (its X is their rows of it). Every
    problem shares one kernel, tol and max_iter, has a finite C and at least one point of
    each sign. `starts[b]`, if given and not None, is a feasible start for problem b
    (0 <= a <= C_i, y'a = 0) in place of 0."""
    first = problems[0]
    tol = first.tol
    n_max = max(p.n for p in problems)
    max_iter = (first.max_iter if first.max_iter is not None
                else max(10_000_000, 100 * n_max))
    watch = ProgressWatch(tol) if first.max_iter is None else None
    batch = _Batch(problems, points, rows, starts)
    finals: list[tuple | None] = [None] * len(problems)
    steps, busy, started = 0, 0.0, time.perf_counter()
    with np.errstate(over="ignore", invalid="ignore"):
        while len(batch.which):
            fmax = batch.Fup.max(axis=1)
            optimal = fmax - batch.Flow.min(axis=1) < tol
            spent = steps >= max_iter
            if optimal.any() or spent:
                for row in np.flatnonzero(optimal | spent).tolist():
                    finals[batch.which[row]] = (batch.alpha[row], steps, bool(optimal[row]),
                                                batch.pair[row])
                batch.keep(np.flatnonzero(~(optimal | spent)))
                continue
            if steps % WATCH_EVERY == 0 and watch is not None and steps:
                busy = time.perf_counter() - started
                reason = _watch(watch, busy, batch, problems, fmax)
                if reason:
                    warn_convergence(reason, stacklevel=2)
                    for row in range(len(batch.which)):
                        finals[batch.which[row]] = (batch.alpha[row], steps, False,
                                                    batch.pair[row])
                    break
            _step(batch, rows)
            steps += 1
            if steps >= NEWTON_EVERY and steps % NEWTON_EVERY_SMALL == 0:
                for row in range(len(batch.which)):
                    _newton(batch, row, rows, tol, steps)
    if steps >= max_iter and not all(final[2] for final in finals if final is not None):
        warn_convergence(max_iter_spent(max_iter, tol), stacklevel=2)
    return [_final(problem, own, rows, *final)          # type: ignore[misc]
            for problem, own, final in zip(problems, points, finals)]


def _step(batch: _Batch, rows: SharedRows) -> None:
    """One pair step of every problem in the batch."""
    r = np.arange(len(batch.which))
    Fup, Flow, F, a = batch.Fup, batch.Flow, batch.F, batch.alpha
    i = Fup.argmax(axis=1)
    fmax = Fup[r, i]
    Ki = batch.rows_at(i, rows)
    inv = inverse_curvatures(Ki, batch.kd, batch.kd[r, i][:, None], rows.kd_const,
                             np.empty_like(Ki))
    # the second-order gain b^2 / quad over I_low points, b = fmax - F > 0 (b |b| keeps
    # the sign, so points with b <= 0 never win); in _SMO's order of operations, so that
    # both take the same path (SMO's path turns on near-ties)
    b = fmax[:, None] - Flow
    gain = np.abs(b)
    gain *= b
    gain *= inv
    j = gain.argmax(axis=1)
    Kj = batch.rows_at(j, rows)
    bj = b[r, j]
    ai, aj, pos_i, pos_j = a[r, i], a[r, j], batch.pos[r, i], batch.pos[r, j]
    Ci, Cj = batch.upper[r, i], batch.upper[r, j]
    lam = np.minimum(np.minimum(bj * inv[r, j], np.where(pos_i, Ci - ai, ai)),
                     np.where(pos_j, aj, Cj - aj))
    ai = ai + np.where(pos_i, lam, -lam)
    aj = aj - np.where(pos_j, lam, -lam)
    a[r, i], a[r, j] = ai, aj
    change = Ki - Kj
    change *= lam[:, None]
    F -= change
    Fup -= change
    Flow -= change
    for t, at, pos_t, Ct in ((i, ai, pos_i, Ci), (j, aj, pos_j, Cj)):
        above, below = at > 0, at < Ct
        Ft = F[r, t]
        Fup[r, t] = np.where(np.where(pos_t, below, above), Ft, -math.inf)
        Flow[r, t] = np.where(np.where(pos_t, above, below), Ft, math.inf)
    batch.pair[:, 0], batch.pair[:, 1] = i, j


def _newton(batch: _Batch, b: int, rows: SharedRows, tol: float, steps: int) -> None:
    """_SMO._newton_step on row b after `steps` pair steps: its free multipliers moved
    together to the optimum of its dual with the others held, box included
    (`newton._box_qp`), unless they are too few or too many, already there, or the solve
    would cost more than the pair steps since the last (`newton.newton_pays`)."""
    a, upper = batch.alpha[b], batch.upper[b]
    free = np.flatnonzero((a > 0) & (a < upper))
    if not 3 <= len(free) <= NEWTON_MAX_FREE:
        return
    settled = batch.settled[batch.which[b]]
    if settled is not None and np.array_equal(settled, free):
        return                          # already at the optimum over this very free set
    problem = batch.which[b]
    if not newton_pays(len(free), int(batch.valid[b].sum()), steps - batch.last_solve[problem]):
        return
    batch.last_solve[problem] = steps
    y, points = batch.y[b, free], batch.points[b, free]
    Q = rows.block(points, np.broadcast_to(points, (len(free), len(free)))) * np.outer(y, y)
    G = -y * batch.F[b, free]                         # gradient of 1/2 a'Qa - e'a
    old = a[free]
    new, optimal = _box_qp(Q, y, G, old, upper[free], 0.5 * tol)
    change = new - old
    moved = np.flatnonzero(change)
    if not len(moved) or abs(y @ change) > 1e-12 * max(1.0, float(new.max())):
        return                          # nothing to do, or an ill-conditioned solve
    a[free] = new
    K = rows.block(points[moved], np.broadcast_to(batch.points[b], (len(moved),
                                                                     batch.points.shape[1])))
    batch.F[b] -= (y[moved] * change[moved]) @ K
    up_pen, low_pen = _membership(batch.y[b], a, upper)
    batch.Fup[b] = np.where(batch.valid[b], batch.F[b] + up_pen, -math.inf)
    batch.Flow[b] = np.where(batch.valid[b], batch.F[b] + low_pen, math.inf)
    batch.settled[batch.which[b]] = np.flatnonzero((a > 0) & (a < upper)) if optimal else None


def _watch(watch: ProgressWatch, busy: float, batch: _Batch,
           problems: Sequence[BinaryProblem], fmax: np.ndarray) -> str | None:
    """The progress watch's verdict on the batch as one run: its largest violation and
    the running problems' summed dual objective."""
    if not watch.due(busy):
        return None
    violation = float((fmax - batch.Flow.min(axis=1)).max())
    dual = 0.5 * float((batch.alpha * (batch.y * batch.F + 1.0)).sum())
    first = problems[batch.which[0]]
    return watch.reason_to_stop(busy, violation, dual, first.X, float(first.C))


def _final(problem: BinaryProblem, points: np.ndarray, rows: SharedRows, alpha: np.ndarray,
           steps: int, converged: bool, pair: np.ndarray) -> Snapshot:
    """One problem's final snapshot, as `_SMO` ends a run: F from its support vectors' rows
    (free of the steps' rounding), the bias over the free multipliers (else the middle of
    the feasible interval), the objectives and the maximal violation."""
    n, y, C = problem.n, problem.y, problem.bounds
    a = alpha[:n].copy()
    support = np.flatnonzero(a)
    decision = (y[support] * a[support]) @ rows.block(points[support],
                                                      np.broadcast_to(points, (len(support), n)))
    F = y - decision                                  # -y G, G = Qa - e
    up_pen, low_pen = _membership(y, a, C)
    fmax = float((F + up_pen).max(initial=-math.inf))
    fmin = float((F + low_pen).min(initial=math.inf))
    free = (a > 0) & (a < C)
    bias = float(F[free].mean()) if free.any() else middle_of(fmax, fmin)
    dual = 0.5 * float(a @ (y * F + 1.0))
    primal = hinge_primal(0.5 * float(a @ (y * decision)), y * (decision + bias), C)
    return Snapshot(iteration=steps, bias=bias, primal_objective=primal, dual_objective=dual,
                    gap=primal - dual, kkt_violation=max(0.0, fmax - fmin),
                    dual_coef=y * a, support=support, working_pair=(int(pair[0]), int(pair[1]))
                    if steps else None, converged=converged, decision=decision)
