"""SMO's state: the multipliers, F, the bounds and the signs in the solver's own order (an
active prefix first, see shrinking.py), the kernel-row cache, the counters and budgets of a
run, and what reads them (the extremes of F over I_up and I_low, the violation, the dual
objective, f without its bias, the bias, values in the caller's order). The solver's loop
(solver.py), shrinking and a hard margin's fallback (shrinking.py, hard_margin.py) work on it.
"""
from __future__ import annotations

import math

import numpy as np

from ..problems import DualProblem
from .progress import ProgressWatch
from .row_cache import KernelRowCache
from .violating_sets import membership, middle_of

CACHE_BYTES = 200 * 2**20   # kernel-row cache budget (sklearn's default cache_size)
SHRINK_EVERY = 250          # pair steps between shrinking tests (libsvm: 1000; measured
                            # best here together with the Newton steps)
NEWTON_EVERY = 200          # pair steps between Newton steps on the free multipliers (and
                            # once the prefix is small: solver.NEWTON_EVERY_SMALL)


class SolverState:
    def __init__(self, p: DualProblem, F: np.ndarray | None = None) -> None:
        """F: -y (Qa + p) at the start, exact, when the caller has it (nu_search's solves,
        each from the last one's end), instead of the kernel columns of every nonzero
        multiplier."""
        self.p = p
        n = p.n
        self.C = p.C
        self.order = np.arange(n)
        self.m = n                                   # active prefix length
        # never written in place (a shrink reorders them into new arrays): the problem's own
        self.y = np.asarray(p.y, dtype=np.float64)
        self.lin = np.asarray(p.p, dtype=np.float64)            # the linear term p
        self.upper = np.asarray(p.upper, dtype=np.float64)
        self.alpha = np.asarray(p.start, dtype=np.float64).copy()
        # F = -y G = -y (Qa + p) = -K (y a) - y p: at a = 0, -y p (C-SVC: y)
        kd_points = p.kernel.diag(p.X)
        self.kd = kd_points if p.point_of is None else kd_points[p.point_of]
        self.cache = KernelRowCache(p.X, p.kernel, kd_points, CACHE_BYTES, p.point_of,
                                    p.gram, p.kernel_rows)
        self.F = -self.y * self.lin
        start = np.flatnonzero(self.alpha)
        if F is not None:
            self.F = np.array(F, dtype=np.float64)
        elif len(start):
            self.F -= self.cache.matvec(start, (self.y * self.alpha)[start])
        self.unbounded = p.unbounded                  # the hard margin: no box at all
        self.shuffled = False                         # order is no longer 0, 1, ..., n - 1
        self.alpha_ref, self.F_ref = self.alpha.copy(), self.F.copy()   # last reconstruction
        # hard margin: the best state seen (alpha in the caller's order, its iteration, its
        # training errors), and whether the run found that no solution exists
        self.best: tuple | None = None
        self.no_solution = False
        self.unshrunk = False                        # libsvm unshrinks once, near the end
        self.max_iter = p.max_iter if p.max_iter is not None else max(10_000_000, 100 * n)
        self.shrink_every = min(n, SHRINK_EVERY)
        self.next_shrink: float = self.shrink_every     # inf: never (the nu form)
        self.next_newton: float = NEWTON_EVERY
        # the free set whose optimum the last Newton step reached
        self._settled: np.ndarray | None = None
        self.last_solve = 0                          # the iteration of the last Newton solve
        self.k: int | None = None                    # the nu form's classes: [:k], [k:m]
        self.iteration = 0
        self.swept = 0                               # sum of the active sizes the steps swept
        self.solved = 0                              # the Newton steps' k^2 (k + d)
        # an explicit max_iter is the user's own budget: then the watch does not stop the run
        self.watch = ProgressWatch(p.tol) if p.max_iter is None else None
        # seconds of solving, the user's bound
        self.max_time = None if p.max_time is None else float(p.max_time)
        self.dual = self._dual() if len(start) else 0.0    # D(a), kept exact step by step
        self.pair: tuple[int, int] | None = None
        # the trace (trace.py): the last pair step's values, the pair steps and the shrink
        # and Newton steps since the last snapshot
        self.last_step: tuple | None = None
        self.steps_since = 0
        self.events: list = []
        # counted work after which the run ends without a final snapshot, handed over
        # (nu_search: the nu form's own steps, then the search's C-form solves)
        self.hand_over_at = math.inf
        self.handed_over = False
        self.up_pen, self.low_pen = membership(self.y, self.alpha, self.upper)
        self._list_order()

    def _extremes(self, m: int):
        """(max of F over I_up, min of F over I_low) among the first m points."""
        F = self.F[:m]
        return float((F + self.up_pen[:m]).max()), float((F + self.low_pen[:m]).min())

    def _dual(self) -> float:
        """D = -(1/2 a'Qa + p'a), the dual objective in libsvm's max form (C-SVC:
        e'a - 1/2 a'Qa), from F: Qa = G - p = -y F - p, so D = 1/2 a'(y F - p)."""
        return 0.5 * float(self.alpha @ (self.y * self.F - self.lin))

    def _decision(self) -> np.ndarray:
        """f without the bias at each variable's point, in the solver's order:
        sum_j y_j a_j k(x_j, x_i) = y_i (Qa)_i = -F_i - y_i p_i (C-SVC: y - F)."""
        return -self.F - self.y * self.lin

    def _violation(self) -> float:
        """The maximal violation over the active prefix: max F over I_up - min over I_low."""
        fmax, fmin = self._extremes(self.m)
        return max(0.0, fmax - fmin)

    # -- results ----------------------------------------------------------------------------
    def alpha_in_caller_order(self) -> np.ndarray:
        return self._in_caller_order(self.alpha)

    def F_in_caller_order(self) -> np.ndarray:
        """F in the caller's order: exact for every variable after a run that ended (the
        final reconstruction), not after one handed over."""
        return self._in_caller_order(self.F)

    def _in_caller_order(self, values: np.ndarray) -> np.ndarray:
        out = np.empty_like(values)
        out[self.order] = values
        return out

    def _bias(self, within: np.ndarray | None = None) -> float:
        """Mean F over free SVs (0 < a_i < C_i), else the middle of the feasible interval
        (its finite end, when it has one); `within`: among these points only (a mask)."""
        free = (self.alpha > 0) & (self.alpha < self.upper)
        if within is not None:
            free &= within
        if free.any():
            return float(self.F[free].mean())
        m = self.m
        inside = slice(None) if within is None else within[:m]
        F = self.F[:m][inside]
        return middle_of(float((F + self.up_pen[:m][inside]).max(initial=-math.inf)),
                         float((F + self.low_pen[:m][inside]).min(initial=math.inf)))

    def _list_order(self) -> None:
        """The signs and the bounds as lists in the solver's order, for the pair steps: list
        lookups beat numpy scalars there (made again when shrinking reorders the points)."""
        self.pos_list = (self.y > 0).tolist()
        self.upper_list = self.upper.tolist()
