"""Kernel functions k(a, b) on rows of two matrices, evaluated in memory-bounded chunks."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

KERNELS = ("linear", "poly", "rbf", "sigmoid")

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
            raise ValueError(f"kernel must be one of {', '.join(KERNELS)}; got {self.name!r}")

    @property
    def formula(self) -> str:
        return {
            "linear": "k(x, x') = <x, x'>",
            "poly": "k(x, x') = (gamma <x, x'> + coef0)^degree",
            "rbf": "k(x, x') = exp(-gamma ||x - x'||^2)",
            "sigmoid": "k(x, x') = tanh(gamma <x, x'> + coef0)",
        }[self.name]

    def __call__(self, A: np.ndarray, B: np.ndarray, dtype=np.float64, out=None,
                 B_sq=None) -> np.ndarray:
        """The matrix K[i, j] = k(A[i], B[j]) of shape (len(A), len(B)), written into `out`
        if given (any float dtype; arithmetic is float64 either way). `B_sq`, the squared
        norms of B's rows, saves recomputing them when B is reused."""
        A, B = _as_rows(A), _as_rows(B)
        if out is None:
            out = np.empty((len(A), len(B)), dtype=dtype)
        if len(A) == 1 and B_sq is not None and self.name == "rbf":
            return self._rbf_row(A[0], B, B_sq, out)
        b_sq = None
        if self.name == "rbf":
            b_sq = np.einsum("ij,ij->i", B, B) if B_sq is None else B_sq
        for rows, cols in _blocks(len(A), len(B)):
            self._block(A[rows], B[cols], None if b_sq is None else b_sq[cols], out[rows, cols])
        return out

    def matvec(self, A: np.ndarray, B: np.ndarray, v: np.ndarray) -> np.ndarray:
        """K(A, B) @ v without ever holding K(A, B): memory stays bounded for any sizes."""
        A, B = _as_rows(A), _as_rows(B)
        v = np.asarray(v, dtype=np.float64)
        result = np.zeros((len(A),) + v.shape[1:])
        b_sq = np.einsum("ij,ij->i", B, B) if self.name == "rbf" else None
        buf = np.empty(_BLOCK_ELEMENTS)
        for rows, cols in _blocks(len(A), len(B)):
            block = buf[: (rows.stop - rows.start) * (cols.stop - cols.start)]
            block = block.reshape(rows.stop - rows.start, cols.stop - cols.start)
            self._block(A[rows], B[cols], None if b_sq is None else b_sq[cols], block)
            result[rows] += block @ v[cols]
        return result

    def _rbf_row(self, a, B, b_sq, out):
        """One row of the rbf matrix with B's squared norms known: SMO's kernel-row cache
        asks for thousands of these, so the fewest passes, in one temporary."""
        g = self.gamma
        t = B @ (2.0 * g * a)                    # 2 g a.b
        t -= g * float(a @ a)
        t -= g * b_sq
        np.minimum(t, 0.0, out=t)
        np.exp(t, out=t)
        out[0] = t
        return out

    def _block(self, A, B, b_sq, out):
        dots = A @ B.T
        if self.name == "linear":
            out[...] = dots
        elif self.name == "rbf":
            # -gamma ||a - b||^2 = gamma (2 a.b - |a|^2 - |b|^2), clipped at 0 against rounding
            g = self.gamma
            dots *= 2.0 * g
            dots -= g * np.einsum("ij,ij->i", A, A)[:, None]
            dots -= g * b_sq[None, :]
            np.minimum(dots, 0.0, out=dots)
            np.exp(dots, out=out)
        elif self.name == "poly":
            dots *= self.gamma
            dots += self.coef0
            out[...] = _int_power(dots, self.degree)
        else:
            dots *= self.gamma
            dots += self.coef0
            np.tanh(dots, out=out)

    def sq_norms(self, A: np.ndarray):
        """What `B_sq` wants for this kernel (None when the kernel does not use norms)."""
        return np.einsum("ij,ij->i", _as_rows(A), _as_rows(A)) if self.name == "rbf" else None

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
