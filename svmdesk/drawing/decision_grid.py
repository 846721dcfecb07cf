"""The decision function of a 2-D SVM on a regular grid, fast enough to redraw while training.

f(x) = sum_s c_s k(sv_s, x) + b on every point (xs[i], ys[j]) of an nx x ny grid costs
S * nx * ny kernel evaluations when done point by point (200 million for 5,000 support
vectors on 200 x 200). But the grid is a product of two axes, and stays one in the kernel's
space (standardisation scales each axis on its own), so most kernels factor over the axes:

* linear: f = w0 x + w1 y + b with w = sum_s c_s sv_s, an outer sum.
* rbf: exp(-g ||(x, y) - (a, b)||^2) = exp(-g (x - a)^2) * exp(-g (y - b)^2). With
  Ex[s, i] = exp(-g (xs[i] - a_s)^2) and Ey[s, j] = exp(-g (ys[j] - b_s)^2),
  F = Ey^T diag(c) Ex + b: S (nx + ny) exponentials and one float32 matrix product
  (S nx ny multiply-adds; 1.5 ms for 1,644 SVs on 200 x 200). The error stays below
  1e-6 sum |c|.
* poly: (g <sv, x> + c0)^d is a polynomial of total degree d in (x, y). Its
  (d+1)(d+2)/2 coefficients (multinomial expansion, summed over the SVs) are computed once,
  about the grid's centre, and the polynomial is evaluated on the grid as a product of two
  Vandermonde matrices. When rounding could reach 1e-6 (high degrees on wide grids), the
  grid is evaluated directly instead: f is in margin units (the drawn levels are -1, 0, 1),
  so 1e-6 is invisible.
* sigmoid: tanh(g <sv, x> + c0) does not factor; direct evaluation with Kernel.matvec,
  S * nx * ny tanh: about 25 ms for 100 SVs and 1 s for 5,000 on 200 x 200 (the poly
  fallback costs the same).
"""
from __future__ import annotations

import math
import threading
from dataclasses import dataclass

import numpy as np

from ..core.estimators.one_vs_one import duel_scores, vote_without, votes_of
from ..core.kernels import Kernel
from ..core.model import Scaler, SVMModel
from ..i18n import tr

_RBF_CHUNK = 8192      # SVs per rbf block: one BLAS call up to 8192 SVs, ~13 MB
_RBF_CUTOFF = 25.0     # rbf factors below e^-cutoff are raised to it or dropped
_POLY_MAX_ERROR = 1e-6  # largest rounding error accepted from the polynomial expansion


@dataclass(frozen=True)
class GridSpec:
    """A regular nx x ny grid over [x_min, x_max] x [y_min, y_max] (data coordinates)."""

    x_min: float
    x_max: float
    y_min: float
    y_max: float
    nx: int = 200
    ny: int = 200

    def __post_init__(self):
        for name in ("x_min", "x_max", "y_min", "y_max"):
            value = float(getattr(self, name))
            if not math.isfinite(value):
                raise ValueError(tr("{name} must be finite; got {value}").format(name=name,
                                                                                value=value))
            object.__setattr__(self, name, value)
        for name in ("nx", "ny"):
            value = getattr(self, name)
            if isinstance(value, bool) or int(value) != value or value < 2:
                raise ValueError(tr("{name} must be an integer >= 2; got {value!r}").format(
                    name=name, value=value))
            object.__setattr__(self, name, int(value))
        if not self.x_min < self.x_max:
            raise ValueError(tr("need x_min < x_max; got {low}, {high}").format(
                low=self.x_min, high=self.x_max))
        if not self.y_min < self.y_max:
            raise ValueError(tr("need y_min < y_max; got {low}, {high}").format(
                low=self.y_min, high=self.y_max))

    @property
    def xs(self) -> np.ndarray:
        return np.linspace(self.x_min, self.x_max, self.nx)

    @property
    def ys(self) -> np.ndarray:
        return np.linspace(self.y_min, self.y_max, self.ny)

    @property
    def shape(self) -> tuple:
        return (self.ny, self.nx)

    @property
    def points(self) -> np.ndarray:
        """All grid points, (ny * nx, 2), row-major: point j * nx + i is (xs[i], ys[j])."""
        return _points(self.xs, self.ys)


def decision_grid(kernel: Kernel, support_vectors: np.ndarray, coef: np.ndarray, bias: float,
                  spec: GridSpec, w: np.ndarray | None = None,
                  scaler: Scaler | None = None) -> np.ndarray:
    """f on the grid: float32 (ny, nx), C-contiguous, out[j, i] = f(xs[i], ys[j]).

    support_vectors (S, 2) live in the kernel's space; `scaler`, if given, maps the grid
    there first. `w` (the linear kernel's weights) replaces the support vectors when given.
    """
    u, v = spec.xs, spec.ys
    if scaler is not None:
        u = (u - scaler.mean[0]) / scaler.scale[0]
        v = (v - scaler.mean[1]) / scaler.scale[1]
    sv = np.asarray(support_vectors, dtype=np.float64).reshape(-1, 2)
    coef = np.asarray(coef, dtype=np.float64).reshape(-1)
    if len(coef) != len(sv):
        raise ValueError(tr("{k} coefficients for {n} support vectors").format(k=len(coef),
                                                                              n=len(sv)))
    if w is None and kernel.name == "linear":
        w = coef @ sv
    if w is not None:
        w = np.asarray(w, dtype=np.float64).reshape(2)
        values = (w[1] * v)[:, None] + (w[0] * u)[None, :]
    elif kernel.name == "rbf":
        values = _rbf_grid(kernel.gamma, sv, coef, u, v)
    else:
        values = _poly_grid(kernel, sv, coef, u, v) if kernel.name == "poly" else None
        if values is None:
            values = kernel.matvec(_points(u, v), sv, coef).reshape(len(v), len(u))
    out = np.empty((len(v), len(u)), dtype=np.float32)
    np.add(values, float(bias), out=out, casting="unsafe")
    return out


def model_grid(model: SVMModel, spec: GridSpec, machine: int = 0) -> np.ndarray:
    """decision_grid of one binary machine of a fitted model (its f > 0 predicts
    classes[machine.positive])."""
    if model.n_features != 2:
        raise ValueError(tr("the grid needs a 2-feature model; this one has {n}").format(
            n=model.n_features))
    m = model.machines[machine]
    return decision_grid(model.kernel, m.support_vectors, m.dual_coef, m.bias, spec,
                         w=m.w, scaler=model.scaler)


def machine_grids(model: SVMModel, spec: GridSpec) -> list:
    """model_grid of every binary machine of a fitted model, in its order."""
    return [model_grid(model, spec, k) for k in range(len(model.machines))]


def class_grid(model: SVMModel, spec: GridSpec, grids: list | None = None) -> np.ndarray:
    """Predicted class indices on the grid, (ny, nx) intp: the sign for two classes,
    one-vs-one votes otherwise (ties to the lower class index, as libsvm). `grids`: the
    machines' grids when already made (machine_grids)."""
    grids = machine_grids(model, spec) if grids is None else grids
    ovo = np.stack([g.ravel() for g in grids], axis=1)      # the machines in pair order
    return votes_of(ovo, len(model.classes)).reshape(spec.shape)


def duel_grid(model: SVMModel, spec: GridSpec, grids: list | None = None
              ) -> tuple[np.ndarray, np.ndarray]:
    """What a threshold on one class of a K-class model moves on the grid, in the model's
    class order: each class's duel score (one_vs_one.duel_scores), (K, ny, nx) float32,
    and the class voted among the others when it is left out (vote_without), (K, ny, nx)
    in the smallest integer type that holds a class index (K x 40,000 cells: small)."""
    grids = machine_grids(model, spec) if grids is None else grids
    n_classes = len(model.classes)
    ovo = np.stack([g.ravel() for g in grids], axis=1)        # float32, as the grids
    shape = (n_classes,) + spec.shape
    scores = duel_scores(ovo, n_classes).T.reshape(shape)
    without = vote_without(ovo, n_classes).T.reshape(shape)
    return scores.astype(np.float32), without.astype(np.min_scalar_type(n_classes))


def _points(u, v) -> np.ndarray:
    return np.column_stack([np.tile(u, len(v)), np.repeat(v, len(u))])


def _rbf_grid(gamma, sv, coef, u, v) -> np.ndarray:
    """sum_s c_s exp(-g (u - a_s)^2) exp(-g (v - b_s)^2) as Ey^T diag(c) Ex, in float32.

    float32 denormals (values below 1.2e-38, inputs or products) make exp and the matrix
    product 10-100x slower, so each factor is kept >= e^-25 (cutting off at e^-25 costs
    at most 1.4e-11 sum |c|), c is divided by max |c| and SVs with relatively tiny c dropped.
    """
    c_max = np.abs(coef).max(initial=0.0)
    # centre the grid, scale by sqrt(g): the factors are exp(-(u' - a')^2)
    cu, cv = (u[0] + u[-1]) / 2, (v[0] + v[-1]) / 2
    root = math.sqrt(gamma)
    us, vs = (u - cu) * root, (v - cv) * root
    a, b = (sv[:, 0] - cu) * root, (sv[:, 1] - cv) * root
    # drop SVs below e^-25 on the whole grid (zoomed-in views) and negligible coefficients
    far = np.maximum(np.abs(a) - np.abs(us).max(), 0) ** 2 + \
        np.maximum(np.abs(b) - np.abs(vs).max(), 0) ** 2
    keep = (far < _RBF_CUTOFF) & (np.abs(coef) > 1e-12 * c_max)
    a, b, c = a[keep], b[keep], coef[keep] / c_max
    out = np.zeros((len(v), len(u)), dtype=np.float32)
    a, b = a.astype(np.float32), b.astype(np.float32)
    us, vs, c = us.astype(np.float32), vs.astype(np.float32), c.astype(np.float32)
    for s in range(0, len(c), _RBF_CHUNK):
        block = slice(s, s + _RBF_CHUNK)
        ex_buf, ey_buf = _scratch(len(c[block]), len(u), len(v))
        ex = _gauss(us, a[block], ex_buf)     # Ex^T: (nx, S), the long axis contiguous
        ex *= c[None, block]
        out += _gauss(vs, b[block], ey_buf) @ ex.T
    out *= c_max
    return out


def _gauss(axis, centres, out) -> np.ndarray:
    """exp(-(axis[i] - centres[s])^2) (len(axis), len(centres)), floored at e^-25."""
    d = np.subtract(axis[:, None], centres[None, :], out=out)
    cap = math.sqrt(_RBF_CUTOFF)
    if len(centres) and max(axis.max() - centres.min(), centres.max() - axis.min()) > cap:
        np.clip(d, -cap, cap, out=d)
    np.square(d, out=d)
    np.negative(d, out=d)
    return np.exp(d, out=d)


_scratch_space = threading.local()


def _scratch(S, *lengths):
    """float32 arrays (length, S), one per length, reused by the calling thread's later
    calls: fresh memory of this size costs page faults, ~40% of the rbf grid's time."""
    size = S * max(lengths)
    buf = getattr(_scratch_space, "buf", None)
    if buf is None or len(buf) < len(lengths) * size:
        buf = _scratch_space.buf = np.empty(len(lengths) * size, dtype=np.float32)
    return [buf[k * size: k * size + S * m].reshape(m, S) for k, m in enumerate(lengths)]


def _poly_grid(kernel, sv, coef, u, v) -> np.ndarray | None:
    """The expanded polynomial on the grid, or None when its rounding could exceed
    _POLY_MAX_ERROR (then evaluate directly).

    About the centre (cu, cv): g <sv, x> + c0 = A u' + B v' + R with u' = u - cu,
    A = g a, B = g b, R = g (a cu + b cv) + c0 per SV, so
    f - b = sum_{p+q<=d} C[p, q] u'^p v'^q with
    C[p, q] = d! / (p! q! r!) sum_s c_s A_s^p B_s^q R_s^r,  r = d - p - q.
    """
    d, g = kernel.degree, kernel.gamma
    if d < 0:
        return None
    cu, cv = (u[0] + u[-1]) / 2, (v[0] + v[-1]) / 2
    A, B = g * sv[:, 0], g * sv[:, 1]
    R = A * cu + B * cv + kernel.coef0
    # every term of the expansion is bounded by the SV's |A| hu + |B| hv + |R| to the d
    hu, hv = np.abs(u - cu).max(), np.abs(v - cv).max()
    with np.errstate(over="ignore"):
        bound = np.abs(coef) @ (np.abs(A) * hu + np.abs(B) * hv + np.abs(R)) ** d
    if not 4 * (d + 1) * np.finfo(np.float64).eps * bound <= _POLY_MAX_ERROR:
        return None
    powers = np.arange(d + 1)
    PA, PB, PR = (np.vander(x, d + 1, increasing=True) for x in (A, B, R))  # x^0 .. x^d
    C = np.zeros((d + 1, d + 1))
    for p in range(d + 1):
        q = powers[: d - p + 1]
        multinomial = np.array([math.comb(d, p) * math.comb(d - p, k) for k in q], float)
        C[p, q] = multinomial * ((coef * PA[:, p]) @ (PB[:, q] * PR[:, d - p - q]))
    Vu = np.vander(u - cu, d + 1, increasing=True)
    Vv = np.vander(v - cv, d + 1, increasing=True)
    return Vv @ C.T @ Vu.T
