"""The state of lockstep SMO (lockstep.py): the kernel rows the machines share, and the batch
of problems still running, one row each, padded to one width.

`SharedRows` holds k(x_g, x) over every point of the set, each row computed once, on the
first request, whichever machines need it (a point of class k serves all K - 1 of k's
machines). `Batch` keeps each problem's signed multipliers, their box and F where a pair
step reaches them in one numpy call for all problems, and shrinks: every SHRINK_EVERY steps
(lockstep.py) the bounded points that cannot join a violating pair leave their rows, and the
batch is laid out again as wide as the row with the most points left, or split in two
where one slow problem would keep every row wide.
"""
from __future__ import annotations

import copy
import math
from collections.abc import Sequence

import numpy as np

from ...kernels import Kernel
from ..base import BinaryProblem
from .row_cache import constant_value

SHRINK_WIDTH = 0.8      # lay the batch out again only when its steps get at most this dear
SPLIT_COST = 5000       # a batch's own numpy calls in a step, in elements passed over


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
        return self.flat.take(np.add((points * len(self.rows))[:, None], columns))

class Batch:
    """The state of the problems still running, one row each, padded to N columns.

    A step reads and writes two points of every row, so the state is kept where flat
    indices reach it in one call each (a `take` or `put` costs a quarter of indexing with
    a row and a column array): the signed multipliers ya = y a, which a pair step moves by
    +lam at i and -lam at j; their ends (hi, lo) stacked in one array, [0, C] for a
    positive point and [-C, 0] for a negative one, so t is in I_up while ya_t < hi_t and
    in I_low while ya_t > lo_t; and F within I_up (else -inf) and within I_low (else +inf)
    stacked likewise, so one subtraction updates both."""

    def __init__(self, problems: Sequence[BinaryProblem], points: Sequence[np.ndarray],
                 rows: SharedRows, starts: Sequence[np.ndarray | None] | None = None) -> None:
        B, N = len(problems), max(p.n for p in problems)
        self.tol = problems[0].tol
        self.which = np.arange(B)                        # each row's problem
        self.points = np.zeros((B, N), dtype=np.intp)    # each entry's point in the set
        self.local = np.zeros((B, N), dtype=np.intp)     # each entry's index in its problem
        self.y = np.ones((B, N))
        self.upper = np.ones((B, N))
        self.valid = np.zeros((B, N), dtype=bool)       # not padding
        for b, (problem, own) in enumerate(zip(problems, points)):
            n = problem.n
            self.points[b, :n], self.y[b, :n] = own, problem.y
            self.local[b, :n] = np.arange(n)
            self.upper[b, :n] = problem.bounds
            self.valid[b, :n] = True
        pos = self.y > 0
        self.ends = np.stack((np.where(pos, self.upper, 0.0), np.where(pos, 0.0, -self.upper)))
        self.ya = np.zeros((B, N))
        self.FF = np.empty((2, B, N))
        self._set_F(slice(None), np.where(self.valid, self.y, 0.0))   # F = -y G = y at a = 0
        for b, start in enumerate(starts or ()):
            if start is not None:
                self._start_at(b, start, rows)
        self.kd = rows.kd[self.points]
        self.saved = self.alpha()         # by problem: the multipliers of points shrunk away
        self.pair = np.zeros((B, 2), dtype=np.intp)      # the last pair, problem's indices
        self.settled: list[np.ndarray | None] = [None] * B   # by problem: see _newton
        self.last_solve = [0] * B            # by problem: the step of its last Newton solve
        self._index()

    @property
    def Fup(self) -> np.ndarray:
        return self.FF[0]

    @property
    def Flow(self) -> np.ndarray:
        return self.FF[1]

    def _index(self) -> None:
        """Each row's first flat index, for the steps' takes and puts."""
        B, N = self.ya.shape
        self.base = np.arange(B) * N
        self.size = B * N                 # Flow's and lo's offset in FF and ends
        self.offsets = np.array([0, B * N])      # i's entry in Fup and hi, j's in Flow and lo

    def alpha(self, rows: int | slice | np.ndarray = slice(None)) -> np.ndarray:
        """The multipliers a = y ya of these rows (exact: y is +-1)."""
        return self.y[rows] * self.ya[rows]

    def F(self, rows: int | slice | np.ndarray = slice(None)) -> np.ndarray:
        """F of these rows (every point is in I_up or I_low; padding: +inf)."""
        Fup, Flow = self.Fup[rows], self.Flow[rows]
        return np.where(np.isfinite(Fup), Fup, Flow)

    def violations(self) -> np.ndarray:
        """Each row's maximal violation: max F over I_up - min F over I_low."""
        return self.Fup.max(axis=1) - self.Flow.min(axis=1)

    def _set_F(self, rows, F: np.ndarray) -> None:
        """Fup and Flow of these rows from F and the membership of their multipliers."""
        ya, hi, lo, valid = self.ya[rows], self.ends[0][rows], self.ends[1][rows], self.valid[rows]
        self.FF[0][rows] = np.where(valid & (ya < hi), F, -math.inf)
        self.FF[1][rows] = np.where(valid & (ya > lo), F, math.inf)

    def _start_at(self, b: int, start: np.ndarray, rows: SharedRows) -> None:
        """Problem b from the feasible multipliers `start` instead of 0: F = y - K (y a)."""
        n = len(start)
        own, y = self.points[b, :n], self.y[b, :n]
        self.ya[b, :n] = y * start
        F = self.F(b)
        moved = np.flatnonzero(start)
        if len(moved):
            K = rows.block(own[moved], np.broadcast_to(own, (len(moved), n)))
            F[:n] -= (y[moved] * start[moved]) @ K
        self._set_F(b, F)

    def keep(self, rows: np.ndarray) -> None:
        """Go on with these rows only."""
        for name in ("which", "points", "y", "upper", "valid", "ya", "kd", "pair", "local"):
            setattr(self, name, getattr(self, name)[rows])
        self.FF, self.ends = self.FF[:, rows], self.ends[:, rows]
        self._index()

    def multipliers(self, row: int, n: int) -> np.ndarray:
        """Row `row`'s problem's multipliers, all n of them: the points it kept and those
        shrunk away."""
        alpha = self.saved[self.which[row], :n].copy()
        kept = self.valid[row]
        alpha[self.local[row, kept]] = self.alpha(row)[kept]
        return alpha

    def shrink(self) -> list[Batch]:
        """Drop from each row the bounded points that cannot join a violating pair (libsvm's
        test: only in I_up and below min F over I_low, or only in I_low and above max F
        over I_up), keeping their multipliers aside, and lay the rows out again; the batch
        itself, or it and a narrower batch of the rows with the fewest points left, where
        one slow problem would keep every row wide. Unchanged unless that makes the steps'
        passes at most SHRINK_WIDTH of today's."""
        Fup, Flow = self.Fup, self.Flow
        up, low = np.isfinite(Fup), np.isfinite(Flow)
        out = (~self.valid | (up & ~low & (Fup < Flow.min(axis=1, keepdims=True)))
               | (low & ~up & (Flow > Fup.max(axis=1, keepdims=True))))
        B, N = out.shape
        kept = N - out.sum(axis=1)
        by_width = np.argsort(kept, kind="stable")
        widths = kept[by_width]
        # the elements a step passes over with the first k rows (by width) apart, k = 0: none
        k = np.arange(B)
        cost = k * widths[k - 1] + (B - k) * widths[-1] + SPLIT_COST * (k > 0)
        cost[0] = B * widths[-1]
        apart = int(cost.argmin())
        if cost[apart] > SHRINK_WIDTH * B * N:
            return [self]
        rows, cols = np.nonzero(out & self.valid)
        self.saved[self.which[rows], self.local[rows, cols]] = self.alpha()[rows, cols]
        order = np.argsort(out, axis=1, kind="stable")              # kept points first
        for problem in self.which.tolist():
            self.settled[problem] = None          # free sets named by the old layout
        parts = [self]
        if apart:
            narrow = copy.copy(self)              # shares saved, settled and last_solve
            narrow.keep(by_width[:apart])
            narrow.lay_out(order[by_width[:apart], :widths[apart - 1]], out[by_width[:apart]])
            parts.append(narrow)
        self.keep(by_width[apart:])
        self.lay_out(order[by_width[apart:], :widths[-1]], out[by_width[apart:]])
        return parts

    def lay_out(self, order: np.ndarray, out: np.ndarray) -> None:
        """Each row's entries in `order` (its row of indices), the entries `out` marked as
        padding."""
        for name in ("points", "y", "upper", "ya", "kd", "local"):
            setattr(self, name, np.take_along_axis(getattr(self, name), order, axis=1))
        self.FF = np.take_along_axis(self.FF, order[None], axis=2)
        self.ends = np.take_along_axis(self.ends, order[None], axis=2)
        self.valid = ~np.take_along_axis(out, order, axis=1)
        self.Fup[~self.valid], self.Flow[~self.valid] = -math.inf, math.inf
        self._index()

