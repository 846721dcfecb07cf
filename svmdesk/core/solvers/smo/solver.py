"""Sequential minimal optimisation (Platt 1998) as libsvm does it (Chang and Lin 2011), in
numpy, sped up by Newton steps.

The problem is libsvm's general one (`solvers.problems.DualProblem`): minimise 1/2 a'Qa + p'a,
0 <= a_i <= C_i, y'a = delta, Q_ij = y_i y_j k(x_i, x_j), from a feasible start; C-SVC is
p = -e, C_i = C, a = 0 (`problems.c_svc`), and the other kinds of machine differ only there.
We track F_t = -y_t G_t where G = Qa + p is the gradient:
 * I_up  = {t : y_t a_t can still grow},  I_low = {t : y_t a_t can still shrink};
 * the maximal violating pair gap is  max_{I_up} F - min_{I_low} F;  stop when < tol;
 * a pair step a_i += y_i lam, a_j -= y_j lam changes F by -lam (K[i] - K[j]),
   so the method needs kernel rows only, never y-signed copies.

Each step: i is the maximal violator, j the second-order choice (Fan, Chen, Lin 2005)
maximising b^2 / quad, the pair moves analytically and is clipped to the box, with libsvm's
TAU guard for non-positive curvature. Kernel rows come from an LRU cache under a byte budget
(float32 when the full matrix would not fit, as libsvm's Qfloat; see kernels.KernelRows).

Newton steps: at large C, SMO circles the optimum of an ill-conditioned kernel for
thousands of pair steps. Every NEWTON_EVERY steps (more often once the active set is small)
the free multipliers move together to the optimum of the dual with the others held, box
included (a small active-set solve, `_box_qp`); this is a feasible ascent step, so SMO's own
stopping test stays the judge.

Shrinking (shrinking.py): bounded points that cannot join a violating pair leave an active
prefix, and F is reconstructed exactly before stopping. A hard margin's fallback to its best
state is hard_margin.py's.
"""
from __future__ import annotations

import math
import time
from collections.abc import Iterator

import numpy as np

from ....i18n import tr
from ...errors import warn_convergence
from .._common import (
    no_hard_margin,
    overlap_shown,
)
from ..base import Snapshot, Wanted, frozen
from . import hard_margin, shrinking
from .newton import _box_qp, newton_pays
from .progress import counted_work
from .state import NEWTON_EVERY, SolverState
from .trace import AT_BOUND, AT_ZERO, FREE, KKTStates, NewtonStep, PairStep, Shrunk
from .violating_sets import membership

NEWTON_EVERY_SMALL = 10     # Newton steps this often (not NEWTON_EVERY, state.py) once the
                            # active prefix is at most SMALL_M points
SMALL_M = 1000
NEWTON_MAX_FREE = 400       # beyond this many free multipliers the solve costs too much


def max_iter_spent(max_iter: int, tol: float) -> str:
    """Why a run stopped unconverged: its max_iter pair steps were spent."""
    return tr("SMO stopped after max_iter={max_iter} pair updates before reaching "
              "tol={tol}").format(max_iter=max_iter, tol=f"{tol:g}")


class _SMO(SolverState):
    # -- main loop ------------------------------------------------------------------------
    def run(self, every: int, wanted: Wanted = None) -> Iterator[Snapshot]:
        next_snapshot = every if wanted is None else math.inf
        converged = False
        self.wanted_now = False      # the pair steps stopped because a snapshot is wanted
        busy = 0.0                   # seconds spent solving (not suspended at a yield)
        # A hard margin's candidates for its best state are the states where a batch of
        # pair steps starts in a fit (after a shrink, a Newton step, or optimality on the
        # active set): a batch cut short for a snapshot offers none, so the model is the
        # same whatever snapshots are asked for, and whenever the window's clock wants one.
        due = True
        while True:
            if self.hand_over_at < math.inf and self._work() >= self.hand_over_at:
                self.handed_over = True                 # another solver goes on from here
                return
            started = time.perf_counter()
            fits_end = min(self.max_iter, self.next_shrink, self.next_newton)
            budget = min(next_snapshot, fits_end)
            before = hard_margin.checkpoint(self, due)
            steps_before, m = self.iteration, self.m
            with np.errstate(over="ignore", invalid="ignore"):   # seen below, and said
                optimal = self._steps(budget - self.iteration, wanted)
            due = optimal or self.iteration >= fits_end
            self.swept += (self.iteration - steps_before) * m
            if not math.isfinite(self.dual):
                hard_margin.overflowed(self, before)
                break
            if optimal:
                if self._optimal_everywhere():
                    converged = True
                    break
                self._shrink_recorded()
            elif self.iteration >= self.next_shrink:
                self._shrink_recorded()
            elif self.iteration >= self.next_newton:
                self.next_newton = self.iteration + self._newton_every()
                self._newton_step()
            busy += time.perf_counter() - started
            reason = self._reason_to_stop(busy)
            if reason:
                warn_convergence(reason, stacklevel=2)
                break
            wants = wanted is not None and (self.wanted_now or wanted())
            self.wanted_now = False
            if self.iteration >= next_snapshot or wants:
                yield self._snapshot(False)
                if wanted is None:
                    next_snapshot = self.iteration + every
        if self.no_solution:          # a hard margin without a solution: its best state
            hard_margin.keep_if_best(self)
            hard_margin.restore_best(self)
        # the final F and objective exact for the final multipliers: the running dual sums
        # every step's rounding, which at large C and large kernel values is visible
        shrinking.reconstruct(self)
        yield self._snapshot(converged, final=True)

    def _shrink_recorded(self) -> None:
        """Shrink, and record it in the trace when points left the active prefix."""
        before = self.m
        self._shrink()
        if self.m != before:
            self.events.append(Shrunk(before, self.m))

    def _reason_to_stop(self, busy: float) -> str | None:
        """Why the run should end unconverged now (its budget spent, a hard margin seen to
        have no solution, progress too slow to be worth waiting for), or None."""
        if self.iteration >= self.max_iter:
            return max_iter_spent(self.max_iter, self.p.tol)
        if hard_margin.impossible(self):
            return no_hard_margin("smo", self.p.kernel.name, overlap_shown(
                tr("{count} pair steps").format(count=self.iteration)))
        if self.max_time is not None and busy >= self.max_time:
            return tr("SMO stopped at max_time={max_time} s after {count} pair updates, before "
                      "reaching tol={tol}").format(max_time=f"{self.max_time:g}",
                                                   count=self.iteration, tol=f"{self.p.tol:g}")
        done = self._work()
        if self.watch is None or not self.watch.due(done):
            return None
        return self.watch.reason_to_stop(done, busy, self._violation(), self.dual, self.p.X,
                                         self.C)

    def _work(self) -> float:
        """The run's counted work so far (progress.counted_work): what the watch judges by."""
        return counted_work(self.iteration, self.swept,
                            self.cache.entries * self.p.X.shape[1], self.solved)

    def _newton_every(self) -> int:
        return NEWTON_EVERY_SMALL if self.m <= SMALL_M else NEWTON_EVERY

    def _steps(self, budget: float, wanted=None) -> bool:
        """Up to `budget` pair steps on the active prefix; True once it is optimal.

        This loop is the solver's hot path: every numpy call costs about a microsecond
        whatever the prefix length, so it makes as few calls as the method allows. It keeps
        F only inside Fup = F + up_pen and Flow = F + low_pen (every point is in I_up or
        I_low, so F is where either is finite): one update each per step buys the max over
        I_up and the gains over I_low without a pass to add the penalties."""
        tol, m, cache = self.p.tol, self.m, self.cache
        a, kd = self.alpha, self.kd
        up_pen, low_pen = self.up_pen[:m], self.low_pen[:m]
        Fup, Flow = self.F[:m] + up_pen, self.F[:m] + low_pen
        rows, slot_of, stamp = cache.rows, cache.slot_of, cache.stamp
        inv_quad, have_inv = cache.inv_quad, cache.have_inv
        pos, upper = self.pos_list, self.upper_list
        b, work = np.empty(m), np.empty(m)
        inf = math.inf
        dual, steps, optimal, now = self.dual, 0, False, self.iteration
        within_classes = self.k is not None          # the nu form: see nu.py
        while steps < budget:
            now += 1
            if within_classes:
                chosen = self._pair_within_classes(now, Fup, Flow, b, work)
                if chosen is None:                   # no class has a violating pair
                    optimal = True
                    break
                i, si, j, bj = chosen
                inv_i = inv_quad[si, :m]
            else:
                i = Fup.argmax()
                fmax = Fup[i]
                # second-order selection: j maximises b^2 / quad over I_low points with
                # b > 0, b = fmax - F; b |b| keeps the sign, so points with b <= 0 never win
                np.subtract(fmax, Flow, out=b)
                np.abs(b, out=work)
                b *= work
                si = slot_of[i]
                if si < 0:
                    si = cache.fetch(i, now)
                stamp[si] = now
                if not have_inv[si]:
                    cache.inv_quad_row(si)
                inv_i = inv_quad[si, :m]
                b *= inv_i
                j = b.argmax()
                bj = fmax - Flow[j]             # -inf when no point of I_low is below fmax
                if bj < tol and fmax - Flow.min() < tol:   # the max violation < tol
                    optimal = True
                    break
            sj = slot_of[j]
            if sj < 0:
                sj = cache.fetch(j, now, keep=si)
            stamp[sj] = now
            Ki, Kj = rows[si, :m], rows[sj, :m]
            # clip: a_i moves by +y_i lam, a_j by -y_j lam; both stay within [0, C_i]
            ai0, aj0 = a[i], a[j]
            pos_i, pos_j, Ci, Cj = pos[i], pos[j], upper[i], upper[j]
            step = bj * inv_i[j]                 # the pair's optimum, before the box
            lam = min(step, Ci - ai0 if pos_i else ai0, aj0 if pos_j else Cj - aj0)
            dual += lam * bj - 0.5 * lam * lam * (kd[i] + kd[j] - 2.0 * Ki[j])
            a[i] = ai = ai0 + lam if pos_i else ai0 - lam
            a[j] = aj = aj0 - lam if pos_j else aj0 + lam
            np.subtract(Ki, Kj, out=work)
            work *= lam
            Fup -= work
            Flow -= work
            # membership of I_up / I_low for the two points that moved: i was in I_up, j
            # in I_low, so their F is read there
            Fi, Fj = Fup[i], Flow[j]
            up_i, low_i = (ai < Ci, ai > 0) if pos_i else (ai > 0, ai < Ci)
            up_j, low_j = (aj < Cj, aj > 0) if pos_j else (aj > 0, aj < Cj)
            up_pen[i], Fup[i] = (0.0, Fi) if up_i else (-inf, -inf)
            low_pen[i], Flow[i] = (0.0, Fi) if low_i else (inf, inf)
            up_pen[j], Fup[j] = (0.0, Fj) if up_j else (-inf, -inf)
            low_pen[j], Flow[j] = (0.0, Fj) if low_j else (inf, inf)
            steps += 1
            last = (i, j, bj)
            if wanted is not None and wanted():     # a snapshot is wanted now
                self.wanted_now = True
                break
        np.copyto(self.F[:m], Fup, where=np.isfinite(Fup))
        np.copyto(self.F[:m], Flow, where=np.isfinite(Flow))
        if steps:
            self.pair = (int(self.order[last[0]]), int(self.order[last[1]]))
            # the last step's own values, for the trace: kept as they are (a Newton step
            # comes every ten pair steps at small n, so this runs that often)
            self.last_step = (self.pair, ai0, ai, aj0, aj, last[2], step, lam, Ci, Cj,
                              pos_i, pos_j)
            self.steps_since += steps
        self.iteration += steps
        self.dual = dual
        return optimal

    def _newton_step(self) -> bool:
        """Move the free multipliers (0 < a_i < C_i) together to the optimum of the dual with
        every other multiplier held: the subproblem over the free set, box included, solved
        by a small active-set method on k x k matrices (`_box_qp`). At large C, SMO spends
        thousands of pair steps circling this point on an ill-conditioned kernel; any
        feasible move that raises the dual is safe for it. F is updated once, from the
        kernel rows of the points that moved. True when the multipliers moved."""
        m = self.m
        a, upper = self.alpha[:m], self.upper[:m]
        free = np.flatnonzero((a > 0) & (a < upper))
        k = len(free)
        if k < 3 or k > min(NEWTON_MAX_FREE, len(self.cache.rows) // 2):
            return False
        if self._settled is not None and np.array_equal(self._settled, free):
            return False                 # already at the optimum over this very free set
        if not newton_pays(k, m, self.iteration - self.last_solve):
            return False
        self.last_solve = self.iteration
        self.solved += k * k * (k + self.p.X.shape[1])     # Q's kernel values and its solve
        y = self.y[free]
        Xf = self.cache.points_of(free)
        # Q in float64: float32 rows would make this nearly singular matrix indefinite.
        Q = self.p.kernel(Xf, Xf) * np.outer(y, y)
        G = -y * self.F[free]                        # gradient of 1/2 a'Qa + p'a
        old = a[free]
        new, settled = _box_qp(Q, y, G, old, upper[free], 0.5 * self.p.tol)
        change = new - old
        moved = np.flatnonzero(change)
        if not len(moved) or abs(y @ change) > 1e-12 * max(1.0, float(new.max())):
            return False                             # nothing to do, or an ill-conditioned solve
        self.alpha[free] = new
        self.events.append(NewtonStep(len(moved)))
        rows = self.cache.rows_of(free[moved], self.iteration)
        self.F[:m] -= (y[moved] * change[moved]).astype(self.cache.dtype) @ rows
        self.dual -= G @ change + 0.5 * change @ Q @ change
        self.up_pen[free], self.low_pen[free] = membership(y, new, upper[free])
        self._settled = np.flatnonzero((a > 0) & (a < upper)) if settled else None
        return True

    def _pair_within_classes(self, now: int, Fup: np.ndarray, Flow: np.ndarray,
                             b: np.ndarray, work: np.ndarray) -> tuple | None:
        """The nu form's working pair (nu.py); the C form never asks (self.k is None)."""
        raise NotImplementedError

    # -- shrinking (shrinking.py) -----------------------------------------------------------
    def _shrink(self) -> None:
        """Shrinking.py's (the nu form shrinks within each class, nu.py); points that left
        the prefix bring the next Newton step nearer."""
        if shrinking.shrink(self):
            self.next_newton = min(self.next_newton, self.iteration + self._newton_every())
            self._settled = None

    def _unshrink(self) -> None:
        shrinking.unshrink(self)

    def _optimal_everywhere(self) -> bool:
        """The active prefix is optimal: is every point, with an exact F?"""
        if self.m == self.p.n and self.cache.dtype == np.float64:
            return True
        self._unshrink()
        return self._violation() < self.p.tol

    def _bias_and_scale(self) -> tuple[float, float]:
        """The bias, and what the multipliers, f and the bias are multiplied by in a
        snapshot (the nu form rescales by 1/r, see nu.py)."""
        return self._bias(), 1.0

    def _snapshot(self, converged: bool, final: bool = False) -> Snapshot:
        """State in the caller's order. Shrunk points keep the F of the last reconstruction,
        so a mid-run primal objective is approximate; the final one is exact. The final
        snapshot leaves out the KKT states: a fit makes it alone, and the states (a few
        passes over the points) would add to every fit for what no one steps through."""
        bias, scale = self._bias_and_scale()
        alpha, y, decision = self.alpha, self.y, self._decision()
        if scale != 1.0:
            bias, alpha, decision = bias * scale, alpha * scale, decision * scale
        kkt = None if final else self._kkt_states(scale)
        if self.shuffled:                            # the caller's order back
            back = np.empty_like(self.order)
            back[self.order] = np.arange(len(self.order))
            alpha, y, decision = alpha[back], y[back], decision[back]
            if kkt is not None:
                kkt = KKTStates(kkt.state[back], kkt.violation[back])
        dual = self.dual * scale * scale
        primal = self.p.primal(alpha, decision, bias)
        violation = self._violation()
        # arrays made for this snapshot alone, frozen in place (Snapshot keeps them as they
        # are): a small fit's final snapshot is a share of its fixed cost
        return Snapshot(
            iteration=self.iteration, bias=bias, primal_objective=primal,
            dual_objective=dual, gap=primal - dual,
            kkt_violation=violation, dual_coef=frozen(y * alpha),
            support=np.flatnonzero(alpha), working_pair=self.pair,
            converged=converged, remaining=None if self.watch is None else self.watch.remaining,
            decision=frozen(decision), trace=self._trace(violation, scale),
            kkt=None if kkt is None else KKTStates(frozen(kkt.state), frozen(kkt.violation)))

    def _kkt_states(self, scale: float) -> KKTStates:
        """Each point's KKT state in the solver's order (trace.KKTStates), its violation
        multiplied by `scale` as f is."""
        gap = self.F - self._kkt_reference()
        up, low = np.isfinite(self.up_pen), np.isfinite(self.low_pen)
        violation = (np.where(up, np.maximum(gap, 0.0), 0.0)
                     + np.where(low, np.maximum(-gap, 0.0), 0.0)) * scale
        state = np.full(len(gap), FREE, dtype=np.int8)
        state[self.alpha <= 0] = AT_ZERO
        state[self.alpha >= self.upper] = AT_BOUND
        return KKTStates(state, violation)

    def _kkt_reference(self) -> float | np.ndarray:
        """What F is held against: the bias of the moment (the nu form: each class's)."""
        return self._bias()

    def _trace(self, violation: float, scale: float) -> tuple:
        """What the solver did since the last snapshot (trace.py): its last pair step, then
        its shrink and Newton steps, in order; and a fresh record begun."""
        trace: list = []
        if self.steps_since and self.last_step is not None:
            (i, j), *values, pos_i, pos_j = self.last_step
            ai0, ai, aj0, aj, gap, step, taken, Ci, Cj = (float(value) for value in values)
            trace.append(PairStep(i, j, (ai0, ai), (aj0, aj), gap, gap * step, step, taken,
                                  violation, self.steps_since, bounds=(Ci, Cj),
                                  direction=(1 if pos_i else -1, -1 if pos_j else 1)
                                  ).scaled(scale))
        trace += self.events
        self.steps_since, self.events = 0, []
        return tuple(trace)
