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
NEWTON_EVERY_SMALL). In float64: kernel rows come from `SharedRows`, each point's row over
every point of the set computed once, whichever machines need it (a point of class k serves
all K - 1 of k's machines). At the end each problem's F is recomputed from its support
vectors' rows, free of the steps' rounding, and gives its bias and objectives as `_SMO`'s
final snapshot does.

Shrinking, as libsvm's: every SHRINK_EVERY steps the bounded points that cannot join a
violating pair leave their rows, and the batch is laid out again as wide as the row with
the most points left. A step's cost is its passes over the (B, N) arrays (twenty or so), so
it falls with the width: on digits, 45 machines of 360 points, to a fifth. A problem
optimal over the points it kept is checked over all its points with the exact F; one that
is not goes on from where it stood, unshrunk (libsvm unshrinks once too).

`solve_together` is for fit: it yields no snapshot before the last; a window that streams
a run uses `solver.solve`, machine after machine. The shared rows and the batch's state live
in lockstep_batch.py; here, the steps.
"""
from __future__ import annotations

import math
import time
from collections.abc import Sequence

import numpy as np

from ...errors import warn_convergence
from ..base import BinaryProblem, Snapshot, hinge_primal
from .lockstep_batch import Batch, SharedRows
from .newton import _box_qp, newton_pays
from .progress import ProgressWatch, counted_work
from .row_cache import inverse_curvatures
from .solver import NEWTON_EVERY_SMALL, NEWTON_MAX_FREE, max_iter_spent
from .state import NEWTON_EVERY
from .violating_sets import membership, middle_of

WATCH_EVERY = 256       # pair steps between looks by the progress watch
MAX_POINTS = 4096       # the shared rows of every point: at most 128 MB of float64
# Where lockstep gains, measured against the solo solver (fit's time, lockstep / solo) on
# Gaussian blobs of 3 to 10 classes, 2 and 10 features, C 1 and 100: with fewer machines
# the solo pair step (a dozen numpy calls on one machine's points) wins, 1.0-2.5x for 3 and
# 4 classes and 0.7-1.6x for 5; with larger machines the solo solver's shrinking and row
# cache win (6 classes of 300 points, 1.1-1.3x; 10 of 400, 1.1-1.5x). With 15 machines and
# more, of at most 400 points each: 0.47-1.04x (digits, 45 machines of about 360: 0.66-0.8x).
MIN_MACHINES = 15
MAX_MACHINE_POINTS = 400
SHRINK_EVERY = 50       # pair steps between shrinking tests


def gains(machines: int, largest: int) -> bool:
    """Whether `machines` problems, the largest of `largest` points, gain by lockstep."""
    return machines >= MIN_MACHINES and largest <= MAX_MACHINE_POINTS



def solve_together(problems: Sequence[BinaryProblem], points: Sequence[np.ndarray],
                   rows: SharedRows, starts: Sequence[np.ndarray | None] | None = None
                   ) -> list[Snapshot]:
    """Each C-SVC problem's final snapshot, as `solver.solve` ends it: problem b's points
    are the points[b] of the set `rows` draws from (its X is their rows of it). Every
    problem shares one kernel, tol and max_iter, has a finite C and at least one point of
    each sign. `starts[b]`, if given and not None, is a feasible start for problem b
    (0 <= a <= C_i, y'a = 0) in place of 0."""
    finals = _solve(problems, points, rows, starts, shrinking=True)
    snapshots = [_final(problem, own, rows, *final)
                 for problem, own, final in zip(problems, points, finals)]
    tol = problems[0].tol
    # optimal over the points each kept; those that are not over all go on, unshrunk
    again = [b for b, snap in enumerate(snapshots)
             if snap.converged and (snap.kkt_violation or 0.0) >= tol]
    if again:
        # the steps go on counting (the Newton steps' schedule reads them); each problem's
        # own are its first run's plus those it took here
        before = max(snapshots[b].iteration for b in again)
        finals = _solve([problems[b] for b in again], [points[b] for b in again], rows,
                        [snapshots[b].dual_coef * problems[b].y for b in again],
                        shrinking=False, steps=before)
        for b, (alpha, steps, optimal, pair) in zip(again, finals):
            if steps == before:
                continue                # optimal on the exact F: the snapshot stands
            snapshots[b] = _final(problems[b], points[b], rows, alpha,
                                  snapshots[b].iteration + steps - before, optimal, pair)
    return snapshots


def _solve(problems: Sequence[BinaryProblem], points: Sequence[np.ndarray],
           rows: SharedRows, starts: Sequence[np.ndarray | None] | None,
           shrinking: bool, steps: int = 0) -> list[tuple]:
    """The pair steps of `solve_together`: each problem's (multipliers, steps, optimal over
    the points it kept, last pair); `steps`: those already taken (which the Newton steps'
    schedule counts)."""
    first = problems[0]
    tol = first.tol
    n_max = max(p.n for p in problems)
    max_iter = (first.max_iter if first.max_iter is not None
                else max(10_000_000, 100 * n_max))
    watch = ProgressWatch(tol) if first.max_iter is None else None
    batches = [Batch(problems, points, rows, starts)]
    finals: list[tuple] = [()] * len(problems)
    busy, started = 0.0, time.perf_counter()
    swept = 0                  # the entries the steps swept: the watch's counted work

    def retire(batch: Batch, row: int, optimal: bool) -> None:
        problem = batch.which[row]
        finals[problem] = (batch.multipliers(row, problems[problem].n), steps, optimal,
                           batch.pair[row])

    with np.errstate(over="ignore", invalid="ignore"):
        while batches:
            if steps >= max_iter:
                for batch in batches:
                    met = batch.violations() < tol
                    for row in range(len(batch.which)):
                        retire(batch, row, bool(met[row]))
                break
            if steps % WATCH_EVERY == 0 and watch is not None and steps:
                busy = time.perf_counter() - started
                reason = _watch(watch, counted_work(steps, swept, 0, 0), busy, batches,
                                problems)
                if reason:
                    warn_convergence(reason, stacklevel=3)
                    for batch in batches:
                        for row in range(len(batch.which)):
                            retire(batch, row, False)
                    break
            stepped = False
            for batch in batches:
                swept += batch.size
                optimal = _step(batch, rows)
                if optimal is None:
                    stepped = True
                    continue
                for row in np.flatnonzero(optimal).tolist():
                    retire(batch, row, True)
                batch.keep(np.flatnonzero(~optimal))
            batches = [batch for batch in batches if len(batch.which)]
            if not stepped:
                continue
            steps += 1
            if shrinking and steps % SHRINK_EVERY == 0:
                batches = [part for batch in batches for part in batch.shrink()]
            if steps >= NEWTON_EVERY and steps % NEWTON_EVERY_SMALL == 0:
                for batch in batches:
                    for row in range(len(batch.which)):
                        _newton(batch, row, rows, tol, steps)
    if steps >= max_iter and not all(final[2] for final in finals):
        warn_convergence(max_iter_spent(max_iter, tol), stacklevel=3)
    return finals


SIGNS = np.array([1.0, -1.0])     # a pair step moves ya_i by +lam and ya_j by -lam


def _step(batch: Batch, rows: SharedRows) -> np.ndarray | None:
    """One pair step of every problem in the batch; or, when some are optimal (their
    maximal violation below tol), no step and which are."""
    Fup, Flow, ya, base, size = batch.Fup, batch.Flow, batch.ya, batch.base, batch.size
    i = Fup.argmax(axis=1)
    at_i = base + i
    fmax = Fup.take(at_i)
    Ki = rows.block(batch.points.take(at_i), batch.points)
    inv = inverse_curvatures(Ki, batch.kd, batch.kd.take(at_i)[:, None], rows.kd_const,
                             np.empty_like(Ki))
    # the second-order gain b^2 / quad over I_low points, b = fmax - F > 0 (b |b| keeps
    # the sign, so points with b <= 0 never win); in _SMO's order of operations, so that
    # both take the same path (SMO's path turns on near-ties)
    b = fmax[:, None] - Flow
    gain = np.abs(b)
    gain *= b
    gain *= inv
    at_j = base + gain.argmax(axis=1)
    bj = b.take(at_j)
    # optimal (the maximal violation below tol) only if j's violation is: then see
    if (bj < batch.tol).any():
        optimal = fmax - Flow.take(base + Flow.argmin(axis=1)) < batch.tol
        if optimal.any():
            return optimal
    Kj = rows.block(batch.points.take(at_j), batch.points)
    pair = np.empty((len(at_i), 2), dtype=np.intp)
    pair[:, 0], pair[:, 1] = at_i, at_j
    # i moves up to its upper end hi_i, j down to its lower end lo_j (flat in FF and ends)
    far = pair + batch.offsets
    y_a = ya.take(pair)
    room = batch.ends.take(far) - y_a
    room *= SIGNS
    lam = np.minimum(bj * inv.take(at_j), np.minimum(room[:, 0], room[:, 1]))
    y_a += lam[:, None] * SIGNS
    ya.put(pair, y_a)
    change = Ki - Kj
    change *= lam[:, None]
    batch.FF -= change                                # Fup and Flow at once
    # the pair's membership of I_up / I_low: i was in I_up and j in I_low, so their F is
    # read there
    F = batch.FF.take(far)
    batch.FF.put(pair, np.where(y_a < batch.ends.take(pair), F, -math.inf))
    batch.FF.put(pair + size, np.where(y_a > batch.ends.take(pair + size), F, math.inf))
    batch.pair = batch.local.take(pair)
    return None


def _newton(batch: Batch, b: int, rows: SharedRows, tol: float, steps: int) -> None:
    """_SMO._newton_step on row b after `steps` pair steps: its free multipliers moved
    together to the optimum of its dual with the others held, box included
    (`newton._box_qp`), unless they are too few or too many, already there, or the solve
    would cost more than the pair steps since the last (`newton.newton_pays`)."""
    a, upper = batch.alpha(b), batch.upper[b]
    free = np.flatnonzero((a > 0) & (a < upper) & batch.valid[b])
    if not 3 <= len(free) <= NEWTON_MAX_FREE:
        return
    problem = batch.which[b]
    settled = batch.settled[problem]
    if settled is not None and np.array_equal(settled, free):
        return                          # already at the optimum over this very free set
    if not newton_pays(len(free), int(batch.valid[b].sum()), steps - batch.last_solve[problem]):
        return
    batch.last_solve[problem] = steps
    y, points = batch.y[b, free], batch.points[b, free]
    Q = rows.block(points, np.broadcast_to(points, (len(free), len(free)))) * np.outer(y, y)
    F = batch.F(b)
    G = -y * F[free]                                  # gradient of 1/2 a'Qa - e'a
    old = a[free]
    new, optimal = _box_qp(Q, y, G, old, upper[free], 0.5 * tol)
    change = new - old
    moved = np.flatnonzero(change)
    if not len(moved) or abs(y @ change) > 1e-12 * max(1.0, float(new.max())):
        return                          # nothing to do, or an ill-conditioned solve
    a[free] = new
    batch.ya[b, free] = y * new
    K = rows.block(points[moved], np.broadcast_to(batch.points[b], (len(moved),
                                                                     batch.points.shape[1])))
    F -= (y[moved] * change[moved]) @ K
    batch._set_F(b, F)
    batch.settled[problem] = (np.flatnonzero((a > 0) & (a < upper) & batch.valid[b])
                              if optimal else None)


def _watch(watch: ProgressWatch, done: float, busy: float, batches: Sequence[Batch],
           problems: Sequence[BinaryProblem]) -> str | None:
    """The progress watch's verdict on the batches as one run, after `done` units of counted
    work (`busy` seconds): their largest violation and the running problems' summed dual
    objective (over the points they kept)."""
    if not watch.due(done):
        return None
    violation = max(float(batch.violations().max()) for batch in batches)
    dual = sum(0.5 * float((batch.alpha() * (batch.y * batch.F() + 1.0))[batch.valid].sum())
               for batch in batches)
    first = problems[batches[0].which[0]]
    return watch.reason_to_stop(done, busy, violation, dual, first.X, float(first.C))


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
    up_pen, low_pen = membership(y, a, C)
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
