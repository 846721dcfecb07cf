"""Kernel functions k(a, b) on rows of two matrices, evaluated in memory-bounded chunks."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import SupportsIndex

import numpy as np
from numpy.typing import DTypeLike

from ..i18n import tr
from .catalog import KERNELS as KINDS

KERNELS = tuple(KINDS)

# Entries per block: small enough that a block's intermediates stay in the CPU cache (the
# element-wise passes are memory-bound), large enough to amortise numpy's per-call cost.
_BLOCK_ELEMENTS = 1 << 17


@dataclass(frozen=True)
class Kernel:
    """A kernel with resolved numeric parameters.

    linear: <a, b>;  poly: (gamma <a, b> + coef0) ** degree;
    rbf: exp(-gamma ||a - b||^2);  sigmoid: tanh(gamma <a, b> + coef0).
    """

    name: str
    gamma: float = 1.0
    degree: int = 3
    coef0: float = 0.0

    def __post_init__(self):
        if self.name not in KERNELS:
            raise ValueError(tr("kernel must be one of {kernels}; got {name}").format(
                kernels=tr(", ").join(KERNELS), name=repr(self.name)))

    @property
    def positive_semidefinite(self) -> bool:
        """Every Gram matrix of this kernel is positive semi-definite, so a dual over it is
        convex, with one optimal value: linear, rbf, and poly with gamma > 0 and coef0 >= 0
        (sums and products of PSD kernels); sigmoid in general is not."""
        if self.name == "poly":
            return self.gamma > 0 and self.coef0 >= 0
        return self.name in ("linear", "rbf")

    @property
    def formula(self) -> str:
        return KINDS[self.name].formula

    def __call__(self, A: np.ndarray, B: np.ndarray, dtype: DTypeLike = np.float64,
                 out: np.ndarray | None = None) -> np.ndarray:
        """The matrix K[i, j] = k(A[i], B[j]) of shape (len(A), len(B)), written into `out`
        if given (any float dtype; arithmetic is float64 either way)."""
        A, B = self.operands(A, B)
        if out is None:
            out = np.empty((len(A), len(B)), dtype=dtype)
        for rows, cols in _blocks(len(A), len(B)):
            self.finish(A[rows] @ B[cols].T, out[rows, cols])
        return out

    def matvec(self, A: np.ndarray, B: np.ndarray, v: np.ndarray) -> np.ndarray:
        """K(A, B) @ v without ever holding K(A, B): memory stays bounded for any sizes."""
        A, B = self.operands(A, B)
        v = np.asarray(v, dtype=np.float64)
        result = np.zeros((len(A),) + v.shape[1:])
        buf = np.empty(_BLOCK_ELEMENTS)
        for rows, cols in _blocks(len(A), len(B)):
            block = buf[: (rows.stop - rows.start) * (cols.stop - cols.start)]
            block = block.reshape(rows.stop - rows.start, cols.stop - cols.start)
            np.matmul(A[rows], B[cols].T, out=block)
            self.finish(block, block)
            result[rows] += block @ v[cols]
        return result

    def operands(self, A: np.ndarray, B: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(A', B') whose product A' B'^T is what the kernel's function is applied to, so that
        one matrix product does all the arithmetic before it: gamma a.b + coef0 for poly and
        sigmoid, and for rbf -gamma ||a - b||^2 = 2 gamma a.b - gamma |a|^2 - gamma |b|^2
        (on points centred on B's mean, so that the expansion cancels little)."""
        A, B = _as_rows(A), _as_rows(B)
        if self.name == "rbf":
            g = self.gamma
            if len(B):                       # rbf ignores a shift; centred norms lose less
                centre = B.mean(axis=0)
                A, B = A - centre, B - centre
            A = np.column_stack([2.0 * g * A, -g * np.einsum("ij,ij->i", A, A), np.ones(len(A))])
            B = np.column_stack([B, np.ones(len(B)), -g * np.einsum("ij,ij->i", B, B)])
        elif self.name != "linear":
            A = np.column_stack([self.gamma * A, np.full(len(A), self.coef0)])
            B = np.column_stack([B, np.ones(len(B))])
        return A, B

    def finish(self, dots: np.ndarray, out: np.ndarray) -> None:
        """k from the operands' product `dots` (which it may overwrite), into `out`."""
        if self.name == "linear":
            out[...] = dots
        elif self.name == "rbf":
            np.minimum(dots, 0.0, out=dots)          # the exponent is <= 0 but for rounding
            np.exp(dots, out=out)
        elif self.name == "poly":
            out[...] = _int_power(dots, self.degree)
        else:
            np.tanh(dots, out=out)

    def diag(self, A: np.ndarray) -> np.ndarray:
        """k(a, a) for every row a of A."""
        A = np.asarray(A, dtype=np.float64)
        if self.name == "rbf":
            return np.ones(len(A))
        sq = np.einsum("ij,ij->i", A, A)
        if self.name == "linear":
            return sq
        if self.name == "poly":
            return _int_power(self.gamma * sq + self.coef0, self.degree)
        return np.tanh(self.gamma * sq + self.coef0)


class KernelRows:
    """Rows k(B[i], B[:m]) over fixed points B, written in place one at a time: SMO's row
    cache asks for thousands, so each row costs the fewest numpy passes.

    An rbf row over few features takes the difference form exp(-sum_k (z_k - Z_k)^2) on
    points scaled by sqrt(gamma): each difference is taken in float64 and rounded once to
    the row's dtype, the rest is computed in that dtype (a float32 exp is several times
    cheaper), so the row is within rounding of the kernel wherever the points lie, with
    k(b, b) exactly 1. The expanded form |a|^2 + |b|^2 - 2 a.b loses the small distances
    that set SMO's curvatures, and everything for points far apart in kernel widths. Other
    rows come from one product of the kernel's operands."""

    MAX_DIFF_FEATURES = 8      # beyond this, one matrix product beats a pass per feature

    def __init__(self, kernel: Kernel, B: np.ndarray, dtype: DTypeLike) -> None:
        B = _as_rows(B)
        self.kernel, self.n = kernel, len(B)
        self.Z: np.ndarray | None = None
        if kernel.name == "rbf" and B.shape[1] <= self.MAX_DIFF_FEATURES:
            self.Z = np.ascontiguousarray((math.sqrt(kernel.gamma) * B).T)
            self.tmp = np.empty(len(B), dtype=dtype)
        else:
            self.A_op, self.B_op = kernel.operands(B, B)

    def of_points(self, which: np.ndarray, dtype: DTypeLike) -> KernelRows:
        """The rows over B[which] (indices), in `dtype`, from this one's operands: taken,
        not made again (the one-vs-one machines take theirs from one over every point; for
        rbf the operands centred on all the points, which loses as little)."""
        rows = object.__new__(KernelRows)
        rows.kernel, rows.n, rows.Z = self.kernel, len(which), None
        if self.Z is not None:
            rows.Z = self.Z.take(which, axis=1)
            rows.tmp = np.empty(len(which), dtype=dtype)
        else:
            rows.A_op, rows.B_op = self.A_op.take(which, axis=0), self.B_op.take(which, axis=0)
        return rows

    def __call__(self, i: SupportsIndex, out: np.ndarray) -> np.ndarray:
        """k(B[i], B[:len(out)]) into `out`."""
        m = len(out)
        if self.Z is None:
            self.kernel.finish(self.B_op[:m] @ self.A_op[i], out)
            return out
        Z, tmp = self.Z, self.tmp[:m]
        np.subtract(Z[0, :m], Z[0, i], out=out)
        out *= out
        for k in range(1, len(Z)):
            np.subtract(Z[k, :m], Z[k, i], out=tmp)
            tmp *= tmp
            out += tmp
        np.negative(out, out=out)
        return np.exp(out, out=out)

    def matrix(self) -> np.ndarray:
        """Every row k(B[i], B) at once, (n, n) in float64, each within rounding of the row
        __call__ writes: from one product instead of n calls."""
        n = self.n
        out = np.empty((n, n))
        if self.Z is None:
            self.kernel.finish(self.B_op @ self.A_op.T, out)
            return out
        # -|z_i - z_j|^2 = 2 z_i.z_j - |z_i|^2 - |z_j|^2 from one product, on points centred
        # (rbf ignores a shift): in float64 this loses only distances below about 1e-8 of
        # the points' norms, and five passes over the matrix beat the difference form's
        # three per feature. The diagonal is set to k(b, b) = 1 exactly, as a row has it.
        Z = self.Z - self.Z.mean(axis=1, keepdims=True)
        np.matmul(Z.T, Z, out=out)
        norms = out.diagonal().copy()
        out *= 2.0
        out -= norms
        out -= norms[:, None]
        np.minimum(out, 0.0, out=out)
        np.exp(out, out=out)
        np.fill_diagonal(out, 1.0)
        return out


def _as_rows(A) -> np.ndarray:
    A = np.asarray(A, dtype=np.float64)
    return A.reshape(len(A), -1) if A.ndim != 2 else A


def _blocks(n_rows: int, n_cols: int):
    """(row slice, column slice) pairs tiling an n_rows x n_cols matrix in cache-sized blocks."""
    col_step = min(max(n_cols, 1), _BLOCK_ELEMENTS)
    row_step = max(1, _BLOCK_ELEMENTS // col_step)
    for r in range(0, n_rows, row_step):
        for c in range(0, n_cols, col_step):
            yield slice(r, min(r + row_step, n_rows)), slice(c, min(c + col_step, n_cols))


def _int_power(x: np.ndarray, degree: int) -> np.ndarray:
    """x ** degree by repeated squaring: numpy's float power is ~20x slower for ints."""
    result = np.ones_like(x)
    base = x.copy()
    while degree:
        if degree & 1:
            result *= base
        degree >>= 1
        if degree:
            base *= base
    return result
