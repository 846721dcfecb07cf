"""The pieces live and model frames make alike (numpy only): the tolerances that ring a
support vector as bounded and a point as outside, a scene's pictures and contour levels, the
margin's width, the nu fractions, and what a one-class frame says of its points.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.model import Scaler
from .scenes import Fractions, Frame, Scene
from .shading import inside_pictures, regions_picture, sides_pictures

MARGIN_MET = 1.0 - 1e-3      # y f(x) below this: a margin not met (a margin error, ringed as
                             # bounded), to the solvers' default tolerance
OUTSIDE = -1e-3              # a one-class f below this: outside the region (the scene rings
                             # the support vectors it has outside the same way). Not 0, nor
                             # -1e-9: the free support vectors lie on the edge only to the
                             # solver's tolerance (default 1e-3; |f| up to 5e-4 measured, and
                             # 1e-7 at tol 1e-8), and counting them would break errors <= nu


def coloured(scene: Scene) -> Scene:
    """The scene with the pictures of its grid: every function that makes a scene or
    changes its grid (values, regions) returns it through here."""
    if scene.regions is not None:
        soft = hard = regions_picture(scene.regions)
    elif scene.one_class:
        assert scene.values is not None, "a one-class scene has f on its grid"
        soft, hard = inside_pictures(scene.values, scene.classes[1])   # the inliers' side
    else:
        assert scene.values is not None, "a scene has f or class regions on its grid"
        soft, hard = sides_pictures(scene.values, scene.classes)
    return dataclasses.replace(scene, picture=soft, hard_picture=hard)


def contour_levels(one_class: bool) -> tuple:
    """The contours drawn: a one-class machine's edge alone, a classifier's margins too."""
    return (0.0,) if one_class else (-1.0, 0.0, 1.0)


def fractions_of(errors: Sequence[np.ndarray], n_support: Sequence[int], nu: float,
                 per_machine: bool) -> Fractions:
    """Fractions from each machine's errors (a bool per training point of the machine) and
    its number of support vectors."""
    error_share = [float(np.mean(e)) for e in errors]
    support_share = [k / len(e) for k, e in zip(n_support, errors)]
    return Fractions((min(error_share), max(error_share)),
                     (min(support_share), max(support_share)), float(nu), per_machine)


def judged_one_class(frame: Frame, X: np.ndarray, f: np.ndarray, trained: np.ndarray,
                     y: np.ndarray, inlier: int, n_support: int, nu: float | None) -> Frame:
    """A one-class frame with what it says of its points: X every point, f its value,
    `trained` the points the machine learnt from; the others are held-out points of the
    one class (y == inlier) or the user's outlier marks. No train accuracy (every point is
    of one class: nu sets how many fall outside); the test accuracy is the held-out points'
    share inside; fractions need nu (None: a bare model, which does not say it)."""
    outside = f < OUTSIDE
    held, marks = ~trained & (y == inlier), ~trained & (y != inlier)
    fractions = None
    if nu is not None and trained.any():
        fractions = fractions_of([outside[trained]], [n_support], nu, per_machine=False)
    reading = dataclasses.replace(
        frame.reading, train_accuracy=None, fractions=fractions,
        test_accuracy=float(np.mean(~outside[held])) if held.any() else None,
        marks_outside=(int(outside[marks].sum()), int(marks.sum())) if marks.any() else None)
    scene = dataclasses.replace(frame.scene, outside_xy=np.asarray(X)[outside].reshape(-1, 2))
    return dataclasses.replace(frame, scene=scene, reading=reading)


def ring_shares(coef: np.ndarray, bounds: np.ndarray | None) -> tuple[np.ndarray, str]:
    """(each support vector's share, basis): |alpha_s| / C_s where every bound is known
    ("bound"), else |alpha_s| over the largest |alpha| ("largest"). coef: the support
    vectors' dual coefficients (y_s alpha_s; a regression's a_s - a*_s), bounds their C_s."""
    size = np.abs(np.asarray(coef, dtype=np.float64))
    if bounds is not None and np.isfinite(bounds).all():
        return np.minimum(size / bounds, 1.0), "bound"
    top = size.max(initial=0.0)
    return (size / top if top > 0 else size), "largest"


def largest_shares(support: np.ndarray, parts: Sequence[tuple]) -> np.ndarray:
    """Each support vector's largest share over the machines that have it: `support` their
    training indices together (sorted), `parts` each machine's (indices, shares)."""
    shares = np.zeros(len(support))
    for indices, share in parts:
        np.maximum.at(shares, np.searchsorted(support, indices), share)
    return shares


def has_alpha(estimator: Any) -> bool:
    """Whether the estimator's solver trains the dual's multipliers alpha (SMO, dual
    gradient ascent); the primal solvers' w (and kernel gradient descent's representer
    coefficients) have none."""
    return estimator.table.solvers[estimator.get_params()["solver"]].objective == "dual"


def slack_segments(X: np.ndarray, sign: np.ndarray, margins: np.ndarray,
                   w: np.ndarray | None) -> np.ndarray:
    """(3k, 2) polyline, NaN rows between: from each margin violator (y f(x) < 1; X its
    place, sign its y) straight to its own margin y f = 1 along w (in input units, as
    input_w gives it), the length of its slack xi = 1 - y f(x) over ||w||. Empty without
    a linear f (no w)."""
    xi = np.maximum(0.0, 1.0 - margins)
    violators = np.flatnonzero(xi > 0)
    norm_sq = 0.0 if w is None else float(w @ w)
    if norm_sq == 0.0 or not len(violators):
        return np.empty((0, 2))
    assert w is not None, "norm_sq > 0"
    foot = X[violators] + (sign[violators] * xi[violators] / norm_sq)[:, None] * w
    path = np.full((len(violators), 3, 2), np.nan)
    path[:, 0], path[:, 1] = X[violators], foot
    return path.reshape(-1, 2)


def input_w(w: np.ndarray | None, scaler: Scaler | None) -> np.ndarray | None:
    """A linear f's w over the input's units: f = w . (x - mean) / scale + b is
    (w / scale) . x plus a constant."""
    if w is None or scaler is None:
        return w
    return w / scaler.scale


def is_hard_margin(C: float | None) -> bool:
    """Whether an SVC's C is the hard margin (None or inf)."""
    return C is None or C == float("inf")


def margin_width(w: np.ndarray | None) -> float | None:
    """2 / ||w||, the margin's width (None without a w, or for w = 0)."""
    norm = float(np.linalg.norm(w)) if w is not None else 0.0
    return 2.0 / norm if norm > 0 else None
