"""SMO for the nu form (LIBSVM's Solver_NU, Chang and Lin 2001): the general problem with a
second equality held, e'a within each class, as nu-SVC's dual has (sum of a over each class
fixed by its start). A pair step keeps both sums only when its two points are of one class,
so the working pair is chosen within a class: i is each class's maximal violator, j the
second-order choice among the points of i's class, and the method is optimal when neither
class has a violating pair.

The bias comes from each class apart (b_c: the mean F over its free multipliers, else the
middle of its interval): f = sum y a k + (b+ + b-)/2, and r = (b- - b+)/2 is the scale that
makes the solution C-SVC's with C = 1/r. Snapshots divide the multipliers, f and the bias by
r (LIBSVM's final rescale, nu-SVC's: DualProblem.rescaled), so that a nu model is read as
any other. For nu-SVR, -r is the width of the tube the run found.

Shrinking and the Newton step stay off for this form: both are written for the single
equality (a Newton step moving the free set must keep each class's sum too). Measured on
LIBSVM's own terms in bench/bench_smo.py once nu-SVC is an estimator.
"""
from __future__ import annotations

import math

import numpy as np

from ..problems import DualProblem
from .solver import _SMO, _membership


class NuSMO(_SMO):
    def __init__(self, p: DualProblem) -> None:
        super().__init__(p)
        self.next_shrink = self.next_newton = math.inf   # see the module
        self.pos = self.y > 0

    def _class_extremes(self, mask: np.ndarray) -> tuple[float, float]:
        """(max F over I_up, min F over I_low) within one class."""
        F = self.F
        return (float((F + self.up_pen)[mask].max(initial=-math.inf)),
                float((F + self.low_pen)[mask].min(initial=math.inf)))

    def _violation(self) -> float:
        gaps = [fmax - fmin for fmax, fmin in (self._class_extremes(self.pos),
                                               self._class_extremes(~self.pos))]
        return max(0.0, *(g for g in gaps if math.isfinite(g)))

    def _class_biases(self) -> tuple[float, float]:
        return super()._bias(within=self.pos), super()._bias(within=~self.pos)

    def _bias(self, within: np.ndarray | None = None) -> float:
        return self._bias_and_scale()[0]

    def _bias_and_scale(self) -> tuple[float, float]:
        """(b+ + b-) / 2 and 1 / r, r = (b- - b+) / 2, from one pass over each class."""
        b_pos, b_neg = self._class_biases()
        r = 0.5 * (b_neg - b_pos)
        if not self.p.rescaled:                       # nu-SVR: -r is the tube's width
            return 0.5 * (b_pos + b_neg), 1.0
        return 0.5 * (b_pos + b_neg), 1.0 / r if r > 0 else 1.0   # mid-run r may be <= 0

    def _shrink(self) -> None:
        """Nothing to shrink (see the module): F was made exact by the caller."""

    def _steps(self, budget: float, wanted=None) -> bool:
        """Up to `budget` pair steps within a class; True once no class has a violating pair."""
        tol, cache, a, kd, F = self.p.tol, self.cache, self.alpha, self.kd, self.F
        pos, pos_list, upper = self.pos, self.pos_list, self.upper_list
        dual, steps, optimal, now = self.dual, 0, False, self.iteration
        inf = math.inf
        while steps < budget:
            now += 1
            Fup, Flow = F + self.up_pen, F + self.low_pen
            up_p, up_n = np.where(pos, Fup, -inf), np.where(pos, -inf, Fup)
            i_p, i_n = int(up_p.argmax()), int(up_n.argmax())
            fmax_p, fmax_n = up_p[i_p], up_n[i_n]
            gap_p = fmax_p - np.where(pos, Flow, inf).min()
            gap_n = fmax_n - np.where(pos, inf, Flow).min()
            if not (gap_p >= tol or gap_n >= tol):        # -inf - inf is nan: no pair there
                optimal = True
                break
            # second-order choice of j within each class, against that class's i
            b = np.where(pos, fmax_p, fmax_n) - Flow
            inv_p = self._inv_row(i_p, now).copy()     # fetching i_n may reuse its slot
            inv = np.where(pos, inv_p, self._inv_row(i_n, now))
            j = int((b * np.abs(b) * inv).argmax())
            pos_j = pos_list[j]
            i = i_p if pos_j else i_n
            bj = b[j]
            si, sj = cache.slot_of[i], cache.fetch(j, now, keep=cache.slot_of[i])
            Ki, Kj = cache.rows[si, :len(F)], cache.rows[sj, :len(F)]
            ai, aj, Ci, Cj = a[i], a[j], upper[i], upper[j]
            lam = min(bj * cache.inv_quad[si, j], Ci - ai if pos_j else ai,
                      aj if pos_j else Cj - aj)
            dual += lam * bj - 0.5 * lam * lam * (kd[i] + kd[j] - 2.0 * Ki[j])
            a[i] = ai + lam if pos_j else ai - lam
            a[j] = aj - lam if pos_j else aj + lam
            F -= lam * (Ki - Kj)
            pair = np.array([i, j])
            self.up_pen[pair], self.low_pen[pair] = _membership(
                self.y[pair], a[pair], self.upper[pair])
            steps += 1
            self.pair = (int(self.order[i]), int(self.order[j]))
            if wanted is not None and wanted():
                self.wanted_now = True
                break
        self.iteration += steps
        self.dual = dual
        return optimal

    def _inv_row(self, i: int, now: int) -> np.ndarray:
        """1 / quad(i, t) for every t, from i's kernel row (fetched and stamped now)."""
        cache = self.cache
        slot = cache.fetch(i, now)
        cache.stamp[slot] = now
        if not cache.have_inv[slot]:
            cache.inv_quad_row(slot)
        return cache.inv_quad[slot, :len(self.F)]
