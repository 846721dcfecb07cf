"""What every solver receives (a binary problem) and what it yields (immutable snapshots).

Objectives use libsvm's units so that all solvers are comparable:
primal  P(w, b) = 1/2 ||w||^2 + C * sum_i max(0, 1 - y_i f(x_i))
dual    D(a)    = sum_i a_i - 1/2 sum_ij a_i a_j y_i y_j k(x_i, x_j)
At the optimum P = D. Hard margin is C = inf (P is inf while a point violates its margin).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ...i18n import tr
from ..kernels import Kernel, KernelRows

# A solver's `wanted`: asked between steps, True when its caller wants a snapshot now
Wanted = Callable[[], bool] | None


@dataclass(frozen=True)
class BinaryProblem:
    """One two-class problem: labels are -1/+1, X is already scaled, parameters resolved."""

    X: np.ndarray                   # (n, d) float64
    y: np.ndarray                   # (n,) float64 of -1.0 / +1.0
    kernel: Kernel
    C: float = 1.0                  # math.inf for hard margin
    tol: float = 1e-3
    max_iter: int | None = None  # None: the solver's own default budget
    learning_rate: float | None = None  # None: a safe step chosen by the solver
    batch_size: int | None = None
    seed: int | None = None
    max_time: float | None = None   # seconds of solving, SMO's bound; None: none
    # each point's weight, its class weight times its sample weight (positive; None: every
    # point weighs 1): LIBSVM's weighted C, C_i = C * weights_i
    weights: np.ndarray | None = None
    # k(x_i, x_j) of X's points, (n, n) float64, when the caller has it (the one-vs-one
    # machines' blocks of one matrix over every training point); None: the solver's own
    gram: np.ndarray | None = field(default=None, repr=False)
    # the kernel's rows over X's points, made ready by the caller (the one-vs-one machines
    # take theirs from one over every point); None: the solver makes its own
    kernel_rows: KernelRows | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.gram is not None and np.shape(self.gram) != (len(self.y), len(self.y)):
            raise ValueError(tr("gram must be the kernel of the problem's {n} points").format(
                n=len(self.y)))

    @property
    def n(self) -> int:
        return len(self.y)

    def of_points(self, which: np.ndarray) -> BinaryProblem:
        """The same problem on some of its points (indices, or a mask)."""
        which = np.flatnonzero(which) if which.dtype == bool else which
        return replace(
            self, X=self.X[which], y=self.y[which],
            weights=None if self.weights is None else self.weights[which],
            gram=None if self.gram is None else square_block(self.gram, which),
            kernel_rows=None if self.kernel_rows is None
            else self.kernel_rows.of_points(which, np.float64))

    @property
    def bounds(self) -> np.ndarray:
        """C_i = C * weights_i: each multiplier's upper bound, each hinge loss's weight."""
        C = float(self.C)
        return np.full(self.n, C) if self.weights is None else C * self.weights

    @property
    def hard_margin(self) -> bool:
        return not np.isfinite(self.C)


def square_block(matrix: np.ndarray, which: np.ndarray) -> np.ndarray:
    """The rows and columns `which` (indices) of a square matrix: two takes, three times
    faster than np.ix_'s fancy index on a small matrix."""
    return matrix.take(which, axis=0).take(which, axis=1)


def frozen(a: np.ndarray) -> np.ndarray:
    """An array a solver made for one snapshot alone, made read-only in place: the
    snapshot keeps it without a copy (it owns its data, and nobody writes it)."""
    a.flags.writeable = False
    return a


def _frozen(a):
    """A read-only copy, or the array itself when it is read-only and owns its data (made
    by `frozen`)."""
    if a is None:
        return None
    if isinstance(a, np.ndarray) and not a.flags.writeable and a.flags.owndata:
        return a
    a = np.array(a, copy=True)
    a.flags.writeable = False
    return a


@dataclass(frozen=True)
class Snapshot:
    """The state of a solver after `iteration` steps. Arrays are read-only copies.

    dual_coef: y_i * a_i per training point (dual solvers), or the representer coefficients
    (kernel-gradient); None for primal linear solvers, which carry `w` instead.
    Indices (support, working_pair, batch, positions in dual_coef) count the machine's own points
    (SVC.iter_fit pairs each snapshot with its Machine, which maps them to the whole set).
    """

    iteration: int
    bias: float
    primal_objective: float
    dual_objective: float | None = None
    gap: float | None = None            # primal - dual, where a dual exists
    kkt_violation: float | None = None  # maximal violating pair gap (dual solvers)
    dual_coef: np.ndarray | None = None
    w: np.ndarray | None = None
    support: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.intp))
    working_pair: tuple | None = None   # (i, j) updated last, SMO only
    converged: bool = False
    step_size: float | None = None
    decision: np.ndarray | None = None  # f without the bias on the machine's points, when
                                           # the solver holds it (SMO: exact on its active
                                           # set, from its last reconstruction elsewhere)
    remaining: float | None = None      # seconds still needed at the recent rate, where the
                                        # solver projects it (SMO's progress watch)
    trace: tuple = ()                   # SMO's record of its steps since the last snapshot
                                        # (smo/trace.py: PairStep, Shrunk, NewtonStep)
    kkt: Any = None                     # SMO: each point's KKT state (smo/trace.KKTStates)
    batch: np.ndarray | None = None     # a stochastic solver's (Pegasos'): the points of its
                                        # last step's mini-batch; None: no step yet, or a
                                        # solver whose every step sees every point

    def __post_init__(self):
        for name in ("dual_coef", "w", "support", "decision", "batch"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))


HARD_MARGIN_SLACK = 1e-3    # margins met to the solvers' default tolerance count as met


def hinge_primal(half_w_sq: float | np.ndarray, margins: np.ndarray,
                 C: float | np.ndarray) -> float:
    """P = 1/2 ||w||^2 + sum_i C_i max(0, 1 - margins_i), with margins = y_i f(x_i) and C
    one C for all or C_i per point. Hard margin (C = inf): 1/2 ||w||^2 once every margin is
    met, inf before."""
    slack = np.maximum(0.0, 1.0 - margins)
    if np.isinf(C).any():
        return float(half_w_sq) if slack.max(initial=0.0) <= HARD_MARGIN_SLACK else float("inf")
    return float(half_w_sq + (C * slack).sum())


def dual_stats(alpha: np.ndarray, y: np.ndarray, y_g: np.ndarray, bias: float,
               C: float | np.ndarray) -> tuple[float, float, float]:
    """Primal, dual and gap for dual variables `alpha`, from y_g = y * g (g: f without bias).

    With Q = (y y^T) * K: a^T Q a = sum a_i y_i g_i, so nothing here touches the kernel.
    """
    quad = float(alpha @ y_g)
    dual = float(alpha.sum() - 0.5 * quad)
    primal = hinge_primal(0.5 * quad, y_g + y * bias, C)
    return primal, dual, primal - dual


def linear_support(margins: np.ndarray, tol: float = 1e-3) -> np.ndarray:
    """Points on or inside the margin (y f(x) <= 1): the support vectors of a primal solution."""
    return np.flatnonzero(margins <= 1.0 + tol)


def check_finite(solver: str, step: float, *values: float | np.ndarray) -> None:
    """Stop a diverging gradient run with a message naming the solver and its step."""
    from ..errors import DivergenceError

    for v in values:
        if not np.all(np.isfinite(v)):
            raise DivergenceError(tr(
                "solver {solver} diverged (NaN or inf) with step size {step}; use a smaller "
                "learning_rate, or leave it unset for an automatic safe step").format(
                solver=repr(solver), step=f"{step:.3g}"))


ROUNDING = 1e-9   # relative: a gap this far below zero is rounding, not a failed bound


def gap_certifies(primal: float, dual: float, tol: float) -> bool:
    """Whether the duality gap P - D certifies convergence: 0 <= P - D <= tol |P|.

    A gap clearly below zero means D is no lower bound: the kernel's matrix is not positive
    semi-definite (sigmoid, for some gamma and coef0), the problem is not convex, and the
    gap certifies nothing."""
    gap = primal - dual
    return -ROUNDING * abs(primal) <= gap <= tol * abs(primal)


def no_bound(primal: float, dual: float) -> bool:
    """The 'lower bound' D lies above P: see gap_certifies."""
    return primal - dual < -ROUNDING * abs(primal)
