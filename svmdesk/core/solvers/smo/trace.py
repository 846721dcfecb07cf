"""SMO's own record of what it did since its last snapshot, carried by the snapshot
(`Snapshot.trace`): the last pair step (which pair, why, the multipliers before and after,
whether the box clipped it), and each shrink and Newton step; and where each point stands
by the optimality (KKT) conditions (`Snapshot.kkt`). The solver keeps the raw values
of its last step as it goes (a few locals, no work in the pair loop) and makes these records
once a snapshot is made, so a fit that reads no trace pays nothing for it.

Indices count the machine's own points in the caller's order, as the snapshot's do; for
SVR's 2n variables (a, then a*) `regression.per_point` turns them into points and says
which of a and a* moved.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np


@dataclass(frozen=True)
class PairStep:
    """The last pair step a snapshot covers.

    i is the maximal violator over I_up (its F the largest there); j the point of I_low with
    the largest second-order gain b^2 / quad over the pair's curvature (LIBSVM's WSS3).
    The step moves a_i and a_j along the line y_i a_i + y_j a_j = const by `unclipped`, the
    optimum of the pair's subproblem, or by `taken`, less, where the box [0, C_i] stops it.
    """

    i: int
    j: int
    alpha_i: tuple[float, float]      # (before, after), on the snapshot's scale (nu's 1/r)
    alpha_j: tuple[float, float]
    gap: float                        # F_i - F_j: how much the pair violated the KKT test
    gain: float                       # b^2 / quad: what chose j (twice the dual's rise
                                      # an unclipped step gives)
    unclipped: float                  # the step along the pair's line the optimum asks
    taken: float                      # the step taken (the box's limit when less)
    violation: float                  # the maximal violation after the step
    steps: int                        # pair steps since the last snapshot (this the last)
    star_i: bool | None = None        # SVR: whether i's variable is a* (None: no a*)
    star_j: bool | None = None
    # the pair's subproblem: the box [0, bound_i] x [0, bound_j] (C_i, C_j) and the
    # direction (+-1, +-1) in which (a_i, a_j) moves along the line y_i a_i + y_j a_j = const
    bounds: tuple[float, float] = (float("inf"), float("inf"))
    direction: tuple[int, int] = (1, -1)

    def along(self, t: float) -> tuple[float, float]:
        """(a_i, a_j) a step t from where the pair stood along its line (t = taken: after
        the step; t = unclipped: the pair's optimum, the box aside)."""
        return (self.alpha_i[0] + t * self.direction[0], self.alpha_j[0] + t * self.direction[1])

    def rise(self, t: float) -> float:
        """How much a step t along the line raises the dual objective: t b - t^2 quad / 2,
        highest at t = unclipped (b = gap, quad = gap / unclipped)."""
        return t * self.gap - 0.5 * t * t * self.gap / self.unclipped

    def of_points(self, n: int) -> PairStep:
        """SVR's record over its 2n variables (a, then a*) as one over its n points."""
        return replace(self, i=self.i % n, j=self.j % n, star_i=self.i >= n,
                       star_j=self.j >= n)

    @property
    def clipped(self) -> bool:
        """The box stopped the step short of the pair's optimum."""
        return self.taken < self.unclipped

    def scaled(self, by: float) -> PairStep:
        """The record of the multipliers multiplied by `by` (the nu form's 1/r, as its
        snapshots are): the steps and the gap by `by`, the gain (the dual's units) by its
        square; the violation stays as the snapshot's kkt_violation is."""
        if by == 1.0:
            return self
        return replace(self, alpha_i=(self.alpha_i[0] * by, self.alpha_i[1] * by),
                       alpha_j=(self.alpha_j[0] * by, self.alpha_j[1] * by),
                       unclipped=self.unclipped * by, taken=self.taken * by,
                       gap=self.gap * by, gain=self.gain * by * by,    # as the dual, by^2
                       bounds=(self.bounds[0] * by, self.bounds[1] * by))


@dataclass(frozen=True)
class Shrunk:
    """Shrinking set points aside: the active points before and after."""

    active_before: int
    active_after: int


@dataclass(frozen=True)
class NewtonStep:
    """A Newton step moved the free multipliers together to their optimum."""

    moved: int                        # the multipliers it moved


AT_ZERO, FREE, AT_BOUND = 0, 1, 2       # KKTStates.state: where a multiplier lies in its box


@dataclass(frozen=True)
class KKTStates:
    """Where each point stands by the KKT conditions, one entry per point (caller's order):
    its multiplier at 0, free or at its bound C_i, and how far it breaks the conditions
    for the bias of the moment (0 where it meets them): F_t - b for a point whose y a may
    grow, b - F_t for one whose y a may shrink (both for a free one), with F = -y G. For
    C-SVC that is max(0, 1 - y f) at 0, |1 - y f| free, max(0, y f - 1) at C. Points set
    aside by shrinking are judged by the F of the last reconstruction."""

    state: np.ndarray                 # AT_ZERO, FREE or AT_BOUND (int8)
    violation: np.ndarray             # >= 0, in f's units

    def of_points(self, n: int) -> KKTStates:
        """SVR's states over its 2n variables (a, then a*) as its n points': the larger
        state of the two, the larger violation."""
        return KKTStates(np.maximum(self.state[:n], self.state[n:]),
                         np.maximum(self.violation[:n], self.violation[n:]))
