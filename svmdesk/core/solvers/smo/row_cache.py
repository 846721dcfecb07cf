"""The kernel-row cache of SMO, and the memory it keeps from one run to the next."""
from __future__ import annotations

from contextlib import AbstractContextManager
from typing import SupportsIndex

import numpy as np
from numpy.typing import DTypeLike

from ....i18n import tr
from ...kernels import Kernel, KernelRows
from ...per_thread import PerThread
from ..base import square_block

TAU = 1e-12                 # libsvm's guard for a non-positive curvature


class RowMemory:
    """Memory for the kernel-row cache, kept from one run to the next. Fresh memory costs
    its first touch (the system clears, and for numpy's large arrays gathers huge pages):
    measured, a 20,000-point fit took 0.17 s on memory used before and 0.2-0.6 s on fresh.
    A window retraining its points keeps one (see keeping_row_memory); fit does not, and
    gives its memory back when it ends. One run at a time uses it."""

    def __init__(self) -> None:
        self._kept: dict[str, np.ndarray] = {}

    def take(self, name: str, shape: tuple, dtype: DTypeLike) -> np.ndarray:
        """An uninitialised array of this shape, on the memory kept under `name` when it
        is large enough (else on new memory, kept from now on)."""
        size = int(np.prod(shape)) * np.dtype(dtype).itemsize
        kept = self._kept.pop(name, None)
        if kept is None or kept.nbytes < size:
            kept = None                            # the old memory goes before the new comes
            kept = np.empty(size, dtype=np.uint8)
        self._kept[name] = kept
        return kept[:size].view(dtype).reshape(shape)

    def prepare(self, budget: int) -> None:
        """Touch now the memory of a cache of `budget` bytes (its rows and their inverse
        curvatures, half each), so that no run pays for its first touch: the window's
        solver process does this while it waits for its first run."""
        for name in ("rows", "inv_quad"):
            self.take(name, (budget // 2,), np.uint8).fill(0)


_memory = PerThread()


def keeping_row_memory(memory: RowMemory) -> AbstractContextManager[None]:
    """Within this block, on this thread, SMO's kernel-row caches live in `memory`."""
    return _memory.set_to(memory)


def _row_array(name: str, shape: tuple, dtype) -> np.ndarray:
    memory = _memory.value
    return np.empty(shape, dtype=dtype) if memory is None else memory.take(name, shape, dtype)


class KernelRowCache:
    """Rows K[i, :m] over the active prefix of the variables, with their inverse curvatures
    1 / max(k_ii + k_tt - 2 k_it, TAU), under a byte budget; least recently used rows are
    evicted first. Rows are float32 when the full matrix would not fit (libsvm's Qfloat).

    A variable is a point of X; several variables may share one (`point_of`: epsilon-SVR has
    two per point, alpha and alpha*, as LIBSVM's SVR_Q). Rows are kept per point, so that a
    point's row is computed and held once for all its variables: `slot_of` maps each variable
    to its point's slot.

    Given the whole kernel matrix (`gram`, one variable per point), every row is there from
    the start: slot k holds the row of the point in place k of the solver's order, and a
    reordering gathers the matrix into the new order instead of dropping rows."""

    def __init__(self, X: np.ndarray, kernel: Kernel, kdiag: np.ndarray, budget: int,
                 point_of: np.ndarray | None = None, gram: np.ndarray | None = None,
                 kernel_rows: KernelRows | None = None) -> None:
        """kdiag: k(x, x) for each point of X; point_of[v]: variable v's point (None: one
        variable per point, in X's order); gram: k over every pair of X's points, which
        the cache then reads and never writes; kernel_rows: the rows over X's points made
        ready (float64), which it takes instead of making its own."""
        points = len(X)
        n = points if point_of is None else len(point_of)
        self.X, self.kernel, self.kd, self.m = X, kernel, kdiag, n
        self.point_of = None if point_of is None else np.asarray(point_of, dtype=np.intp)
        self.whole = gram is not None and point_of is None
        self.dtype = np.float64 if self.whole or 2 * n * n * 8 <= budget else np.float32
        if kernel_rows is not None and not self.whole:
            self.row_of = (kernel_rows if self.dtype == np.float64
                           else kernel_rows.of_points(np.arange(points), self.dtype))
        elif not self.whole:
            self.row_of = KernelRows(kernel, X, self.dtype)
        if self.point_of is not None:
            self.variables_of = _variables_of(self.point_of, points)
            self.point_row = np.empty(points, dtype=self.dtype)   # a row over the points
        kd_var = kdiag if self.point_of is None else kdiag[self.point_of]
        self.kd_row = kd_var.astype(self.dtype)       # mixed-precision adds are slow
        self.kd_const = constant_value(kdiag)
        capacity = n if self.whole else int(
            min(points, max(2, budget // (2 * n * np.dtype(self.dtype).itemsize))))
        self.rows = (np.asarray(gram, dtype=np.float64) if self.whole
                     else _row_array("rows", (capacity, n), self.dtype))
        self.inv_quad = _row_array("inv_quad", (capacity, n), self.dtype)
        # variable -> slot, slot -> point; a whole matrix: slot k is place k's row
        self.slot_of = np.arange(n) if self.whole else np.full(n, -1, dtype=np.intp)
        self.owner = np.arange(n) if self.whole else np.full(capacity, -1, dtype=np.intp)
        self.stamp = np.zeros(capacity, dtype=np.int64)
        self.have_inv = np.zeros(capacity, dtype=bool)
        self.unused = capacity if self.whole else 0  # slots [unused:] were never filled
        self.entries = 0        # kernel values computed so far: part of the solver's counted work

    def fetch(self, i: SupportsIndex, now: int, keep: SupportsIndex = -1) -> int:
        """Slot of row i, computed on a miss; `now` stamps it for the least-recently-used
        order. Slot `keep` is never the one evicted."""
        slot = self.slot_of[i]
        if slot >= 0:
            return slot
        point = int(i) if self.point_of is None else int(self.point_of[i])
        slot = self._free_slot(keep, now)
        old = self.owner[slot]
        if old >= 0:
            self.slot_of[self._variables(old)] = -1
        self.owner[slot] = point
        self.slot_of[self._variables(point)] = slot
        self.stamp[slot] = now
        self._compute_row(point, self.rows[slot, :self.m])
        self.have_inv[slot] = False
        return slot

    def _variables(self, point: int):
        """The variables whose row is this point's."""
        return point if self.point_of is None else self.variables_of[point]

    def _compute_row(self, point: int, out: np.ndarray) -> None:
        """k(x_point, x_v) for the variables v of the prefix, into `out`: the row over the
        points, computed once, spread to the variables."""
        self.entries += len(out) if self.point_of is None else len(self.point_row)
        if self.point_of is None:
            self.row_of(point, out)
        else:
            np.take(self.row_of(point, self.point_row), self.point_of[:len(out)], out=out)

    def points_of(self, variables: np.ndarray) -> np.ndarray:
        """The points of these variables (rows of X)."""
        return self.X[variables if self.point_of is None else self.point_of[variables]]

    def matvec(self, variables: np.ndarray, v: np.ndarray) -> np.ndarray:
        """sum_c k(x_t, x_c) v_c over the variables c given, for every variable t, in
        float64 from exact kernel values: the rows the cache holds in float64 over every
        variable, fresh values for the others (float32 rows would bring their rounding)."""
        if self.point_of is not None:
            per_point = self.kernel.matvec(self.X, self.X[self.point_of[variables]], v)
            return per_point[self.point_of]
        slots = self.slot_of[variables]
        held = slots >= 0
        if not self.whole and (self.dtype != np.float64 or self.m < len(self.slot_of)):
            held[:] = False                          # rows in float32, or over the prefix
        result = v[held] @ self.rows[slots[held]]
        if not held.all():
            result += self.kernel.matvec(self.X, self.X[variables[~held]], v[~held])
        return result

    def rows_of(self, points: np.ndarray, now: int) -> np.ndarray:
        """The rows of `points` over the active prefix (a copy), fetching the misses; hits
        are stamped first so that a miss cannot evict them."""
        slots = self.slot_of[points]
        self.stamp[slots[slots >= 0]] = now
        for k_miss in np.flatnonzero(slots < 0):
            slots[k_miss] = self.fetch(points[k_miss], now)
            self.stamp[slots[k_miss]] = now
        return self.rows[slots, :self.m]

    def _free_slot(self, keep: SupportsIndex, now: int) -> int:
        """A never-used slot while there is one, else the least recently used (not `keep`)."""
        if self.unused < len(self.rows):
            self.unused += 1
            return self.unused - 1
        if int(keep) >= 0:
            self.stamp[keep] = now
        return int(self.stamp.argmin())

    def inv_quad_row(self, slot: int) -> np.ndarray:
        """1 / max(k_ii + k_tt - 2 k_it, TAU) over the prefix, for the point in `slot`;
        computed the first time the point is the i of a pair."""
        m = self.m
        inv = self.inv_quad[slot, :m]
        if not self.have_inv[slot]:
            inverse_curvatures(self.rows[slot, :m], self.kd_row[:m],
                               float(self.kd[self.owner[slot]]), self.kd_const, inv)
            self.have_inv[slot] = True
        return inv

    def permute(self, order: np.ndarray, m: int) -> None:
        """Points were reordered by `order` and the first m are active. Cached rows are
        dropped: recomputing the few needed again is cheaper than gathering every cached
        row into the new column order (a whole matrix is gathered: it holds every row)."""
        self.kd_row = self.kd_row[order]
        if self.whole:
            self.X, self.kd, self.m = self.X[order], self.kd[order], m
            self.rows = square_block(self.rows, order)
            self.have_inv[:] = False
            return
        if self.point_of is None:
            self.X, self.kd = self.X[order], self.kd[order]
            self.row_of = self.row_of.of_points(order, self.dtype)
        else:                                        # the points stay; their variables move
            self.point_of = self.point_of[order]
            self.variables_of = _variables_of(self.point_of, len(self.X))
        self.clear(m)

    def clear(self, m: int) -> None:
        self.m = m
        if self.whole:                   # every row stays; the curvatures cover the old m
            self.have_inv[:] = False
            return
        self.unused = 0                              # slots [unused:] were never filled
        self.slot_of[:] = -1
        self.owner[:] = -1
        self.stamp[:] = 0


def constant_value(kdiag: np.ndarray) -> float | None:
    """k(x, x) when it is the same for every point (rbf: 1), else None: a constant diagonal
    saves two passes per curvature row."""
    return float(kdiag[0]) if len(kdiag) and (kdiag == kdiag[0]).all() else None


def inverse_curvatures(K: np.ndarray, kd: np.ndarray, kd_i: float | np.ndarray,
                       kd_const: float | None, out: np.ndarray) -> np.ndarray:
    """1 / max(k_ii + k_tt - 2 k_it, TAU) into `out`, for kernel rows K of points i (their
    k_ii: kd_i, broadcast against K) over points t (their k_tt: kd); kd_const: the constant
    diagonal, if there is one. One order of operations for every solver that picks pairs by
    it: SMO's path turns on near-ties."""
    if kd_const is not None:                         # rbf: 1 / (2 (c - k)), in three passes
        np.subtract(kd_const, K, out=out)
        np.maximum(out, 0.5 * TAU, out=out)
        return np.divide(0.5, out, out=out)
    np.multiply(K, -2.0, out=out)
    out += kd
    out += kd_i
    np.maximum(out, TAU, out=out)
    return np.reciprocal(out, out=out)


def _variables_of(point_of: np.ndarray, points: int) -> np.ndarray:
    """(points, r): the r variables of each point, which every point has the same number of."""
    counts = np.bincount(point_of, minlength=points)
    if not (counts == counts[0]).all():
        raise ValueError(tr("every point must be the point of equally many variables"))
    return np.argsort(point_of, kind="stable").reshape(points, -1)
