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

The variables are kept with the positive class first, so that each class is a slice of the
active prefix ([:k] and [k:m]). As LIBSVM's Solver_NU over Solver, this form changes only
the working-set choice (`_pair_within_classes`, which _SMO's one pair loop takes for it), the
bias and shrinking. The Newton step stays off: moving each class's free multipliers apart
(each class's sum held) was measured on standardised diabetes (NuSVR, nu 0.5; linear, rbf,
poly; C 1 and 100) and was slower in six of those eight fits (linear at C 100: 24 s against
12.5 s), and on the sigmoid kernel it ended at a worse stationary point than LIBSVM's.
The nu problems get Newton steps through the C form instead (nu_search.py), which runs this
solver first and last.
Shrinking is LIBSVM's for this form, less often: a bounded point leaves the
prefix when it cannot join a violating pair of its own class; each class stays a slice of
what remains.
"""
from __future__ import annotations

import math

import numpy as np

from ....i18n import tr
from ..problems import DualProblem
from . import shrinking
from .solver import _SMO

# pair steps between shrinking tests: the pairs chosen within a class zig-zag between the
# two classes on a small active set, so shrinking often hurts; measured on nu-SVR (nu 0.5,
# 2-D, 2l variables): 5,000 points 1.4 s (every 250 steps: 2.7 s; never: 1.5 s), 20,000
# points 7.2 s (never: 17 s)
NU_SHRINK_EVERY = 5000


class NuSMO(_SMO):
    k: int                               # the classes are the slices [:k] and [k:m]

    def __init__(self, p: DualProblem, F: np.ndarray | None = None) -> None:
        super().__init__(p, F)
        self.next_newton = math.inf                   # see the module
        self.shrink_every = self.next_shrink = min(p.n, NU_SHRINK_EVERY)
        self._by_class(p.n)
        if not 0 < self.k < p.n:
            raise ValueError(tr("the nu form needs variables of both signs"))

    def _by_class(self, m: int) -> None:
        """The first m points active, the positive class first among them (a stable
        reorder): the classes are the slices [:k] and [k:m]."""
        active = self.y[:m] < 0
        order = np.r_[np.argsort(active, kind="stable"), np.arange(m, self.p.n)]
        shrinking.reorder(self, order, m)
        self.k = int(m - active.sum())

    def _class_gaps(self) -> list[tuple[float, float]]:
        """(max F over I_up, min F over I_low) of each class, over the active prefix."""
        F, m, k = self.F, self.m, self.k
        return [(float((F[part] + self.up_pen[part]).max(initial=-math.inf)),
                 float((F[part] + self.low_pen[part]).min(initial=math.inf)))
                for part in (slice(0, k), slice(k, m))]

    def _violation(self) -> float:
        gaps = [fmax - fmin for fmax, fmin in self._class_gaps()]
        return max([0.0, *(g for g in gaps if math.isfinite(g))])   # none: all at a bound

    def _class_biases(self) -> tuple[float, float]:
        pos = self.y > 0
        return super()._bias(within=pos), super()._bias(within=~pos)

    def _bias(self, within: np.ndarray | None = None) -> float:
        return self._bias_and_scale()[0]

    def _kkt_reference(self) -> np.ndarray:
        """Each class's points are held against that class's bias."""
        b_pos, b_neg = self._class_biases()
        return np.where(self.y > 0, b_pos, b_neg)

    def _bias_and_scale(self) -> tuple[float, float]:
        """(b+ + b-) / 2 and 1 / r, r = (b- - b+) / 2, from one pass over each class."""
        b_pos, b_neg = self._class_biases()
        r = 0.5 * (b_neg - b_pos)
        if not self.p.rescaled:                       # nu-SVR: -r is the tube's width
            return 0.5 * (b_pos + b_neg), 1.0
        return 0.5 * (b_pos + b_neg), 1.0 / r if r > 0 else 1.0   # mid-run r may be <= 0

    def _shrink(self) -> None:
        """_SMO._shrink within each class: a bounded point that cannot be either end of a
        violating pair of its class leaves the prefix; every point comes back once (F made
        exact) when the violation first falls below 10 tol. A class is never shrunk away."""
        self.next_shrink = self.iteration + self.shrink_every
        if not self.unshrunk and self._violation() < 10 * self.p.tol:
            self.unshrunk = True
            self._unshrink()
        if self._violation() < self.p.tol:            # optimal: the next step will see it
            return
        m, k = self.m, self.k
        F = self.F[:m]
        up, low = np.isfinite(self.up_pen[:m]), np.isfinite(self.low_pen[:m])
        (fmax_p, fmin_p), (fmax_n, fmin_n) = self._class_gaps()
        fmax, fmin = np.r_[np.full(k, fmax_p), np.full(m - k, fmax_n)], np.r_[
            np.full(k, fmin_p), np.full(m - k, fmin_n)]
        out = (up & ~low & (F < fmin)) | (low & ~up & (F > fmax))
        kept_p, kept_n = int(k - out[:k].sum()), int(m - k - out[k:].sum())
        if out.sum() < max(1, m // 20) or not (kept_p and kept_n):
            return
        shrinking.reorder(self, np.concatenate([np.flatnonzero(~out), np.flatnonzero(out),
                                      np.arange(m, self.p.n)]), kept_p + kept_n)
        self.k = kept_p                               # ~out kept the class order

    def _unshrink(self) -> None:
        """Every point active again, F exact, the classes slices again."""
        shrinking.reconstruct(self)
        if self.m < self.p.n:
            self._by_class(self.p.n)

    def _pair_within_classes(self, now: int, Fup: np.ndarray, Flow: np.ndarray,
                             b: np.ndarray, work: np.ndarray) -> tuple | None:
        """The working pair within a class, for _SMO._steps (the one pair loop): i is each
        class's maximal violator, b and the curvatures of a class are taken against its own
        i, and the j chosen decides the class of the pair. (i, i's row slot, j, b_j), or
        None when neither class has a violating pair. b and work are scratch (m long)."""
        k, m, inv_quad = self.k, self.m, self.cache.inv_quad
        i_p, i_n = int(Fup[:k].argmax()), k + int(Fup[k:].argmax())
        fmax_p, fmax_n = Fup[i_p], Fup[i_n]
        np.subtract(fmax_p, Flow[:k], out=b[:k])
        np.subtract(fmax_n, Flow[k:], out=b[k:])
        np.abs(b, out=work)
        b *= work
        si_p = self._inv_slot(i_p, now, -1)
        b[:k] *= inv_quad[si_p, :k]
        si_n = self._inv_slot(i_n, now, si_p)
        b[k:] *= inv_quad[si_n, k:m]
        j = int(b.argmax())
        i, si, fmax = (i_p, si_p, fmax_p) if j < k else (i_n, si_n, fmax_n)
        bj = fmax - Flow[j]
        tol = self.p.tol
        if bj < tol and not (fmax_p - Flow[:k].min() >= tol
                             or fmax_n - Flow[k:].min() >= tol):   # nan: no pair there
            return None
        return i, si, j, bj

    def _inv_slot(self, i: int, now: int, keep: int) -> int:
        """The slot of i's kernel row, fetched (never evicting `keep`) and stamped now, with
        its inverse curvatures computed."""
        cache = self.cache
        slot = cache.slot_of[i]
        if slot < 0:
            slot = cache.fetch(i, now, keep=keep)
        cache.stamp[slot] = now
        if not cache.have_inv[slot]:
            cache.inv_quad_row(slot)
        return int(slot)
