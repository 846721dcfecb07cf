"""What one training point does in f (numpy only), for the hover on a point: its multiplier
alpha, its share of its bound, its margin y f(x), and where that leaves it among the KKT
conditions: beyond its margin with alpha = 0, on it with 0 < alpha < C, inside it at
alpha = C, or not (yet) where the optimum would have it."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .frame_parts import MARGIN_MET
from .frame_views import decision_at
from .scenes import Frame

MET = 1.0 - MARGIN_MET      # how near 1 a margin counts as on it (the solvers' tolerance)


@dataclass(frozen=True)
class PointPart:
    alpha: float | None        # |alpha| (a regression's |a - a*|; the largest over a
                               # model's machines); None: the solver has no alpha
    share: float | None        # alpha over its bound (or over the largest alpha, the
                               # scene's ring_basis says); None without alpha
    margin: float | None       # y f(x) (a one-class machine's: f(x)); None with several
                               # machines or for a regression
    state: str                 # see STATES; "" where no state is said


# The KKT states: where the point stands against the optimum's conditions
STATES = ("beyond", "free", "bounded", "zero_inside", "free_off", "bounded_beyond")


def point_part(frame: Frame, k: int, xy: ArrayLike, positive: bool) -> PointPart:
    """Training point k (at xy, input units; `positive`: of the machine's positive class,
    the one-class inliers') in the frame's f."""
    scene = frame.scene
    alpha, share = _alpha_of(frame, k), _share_of(frame, k)
    one_machine = (frame.reading.machine.count == 1 if frame.model is None
                   else len(frame.model.machines) == 1)
    margin = None
    if one_machine and not scene.regression:
        f = decision_at(frame, xy)[0]
        if f is not None:
            margin = f if scene.one_class else (1.0 if positive else -1.0) * f
    state = ""
    if share is not None and margin is not None:
        # a one-class machine's edge f = 0 stands where a classifier's margin y f = 1 does
        state = kkt_state(share, margin + 1.0 if scene.one_class else margin,
                          scene.ring_basis == "bound")
    return PointPart(alpha, share, margin, state)


def kkt_state(share: float, margin: float, bounded: bool) -> str:
    """Where a multiplier of share `share` (alpha / C) and a point of margin y f(x) stand;
    `bounded`: the share is of C (else no multiplier is at a bound: a hard margin)."""
    at_bound = bounded and share >= 1.0 - 1e-9
    if share <= 0.0:
        return "beyond" if margin >= 1.0 - MET else "zero_inside"
    if at_bound:
        return "bounded" if margin <= 1.0 + MET else "bounded_beyond"
    return "free" if abs(margin - 1.0) <= MET else "free_off"


def _alpha_of(frame: Frame, k: int) -> float | None:
    if frame.scene.ring_share is None:
        return None
    if frame.model is not None:
        return max((abs(float(c)) for m in frame.model.machines
                    for c in m.dual_coef[m.support == k]), default=0.0)
    where = np.flatnonzero(frame.f_points == k)
    return float(abs(frame.f_terms[1][where[0]])) if len(where) else 0.0


def _share_of(frame: Frame, k: int) -> float | None:
    shares = frame.scene.ring_share
    if shares is None:
        return None
    where = np.flatnonzero(frame.scene.support == k)
    return float(shares[where[0]]) if len(where) else 0.0
