"""A made frame seen another way, without making it again (numpy only): over another
rectangle of the plane (the view moved), at one point for the hover readout, and with the
decision threshold moved (on f or on the class probabilities).
"""
from __future__ import annotations

import dataclasses

import numpy as np
from numpy.typing import ArrayLike

from ..core.decision_terms import (
    DecisionTerms,
    decision_terms,
    primal_terms,
    split_terms,
)
from ..core.estimators.one_vs_one import vote_at_threshold
from ..core.probability import duel_probabilities, rivals
from .contours import contour_path_levels, contour_paths, region_boundaries
from .curves import curve_of, recurved
from .decision_grid import GridSpec, decision_grid, model_grid
from .frame_parts import OUTSIDE, coloured, contour_levels
from .model_frames import class_regions, with_probabilities
from .scenes import Frame, Scene
from .shading import probability_picture

PROBABILITY_EDGE = 1e-6      # a probability is kept this far from 0 and 1 for its log-odds


def regrid(frame: Frame, spec: GridSpec) -> Frame | None:
    """The same moment drawn over another rectangle of the plane (the view moved), or None
    for a live multi-class frame (its finished machines are the worker's: the run's next
    frame follows the view)."""
    if frame.scene.regression:
        return recurved(frame, spec)
    model, scene = frame.model, frame.scene
    if model is not None and len(model.classes) > 2:
        return dataclasses.replace(frame, scene=with_probabilities(class_regions(
            dataclasses.replace(scene, spec=spec), model), model))
    if model is not None:
        values = model_grid(model, spec)
    elif scene.regions is not None:
        return None
    else:
        snap, m = frame.reading.snapshot, frame.reading.machine
        points, coef = (np.empty((0, 2)), np.empty(0)) if snap.w is not None else frame.f_terms
        values = decision_grid(m.kernel, points, coef, snap.bias, spec, w=snap.w,
                               scaler=m.scaler)
    moved = coloured(dataclasses.replace(scene, spec=spec, values=values,
                                         contours=contour_path_levels(
                                             values, spec.xs, spec.ys,
                                             contour_levels(scene.one_class))))
    return dataclasses.replace(frame, scene=moved if model is None
                               else with_probabilities(moved, model))


def decision_at(frame: Frame, xy: ArrayLike) -> tuple:
    """(f(x), predicted class index) at one point, for the hover readout; a regression's
    (f at the point's x, None)."""
    if frame.scene.regression:
        x_only = np.asarray(xy, dtype=np.float64).reshape(-1)[:1]
        return float(curve_of(frame, x_only)[0]), None
    x = np.asarray(xy, dtype=np.float64).reshape(1, 2)
    if frame.model is not None:
        values = frame.model.decision_function(x)
        if frame.scene.one_class:
            return float(values[0]), _one_class_side(frame.scene, float(values[0]))
        cls = int(frame.scene.colours[frame.model.predict_indices(x)[0]])
        return (float(values[0]) if values.ndim == 1 else None), cls
    snap, m = frame.reading.snapshot, frame.reading.machine
    z = x if m.scaler is None else m.scaler.transform(x)
    if snap.w is not None:
        f = float(z @ snap.w + snap.bias)
    else:
        f = float(m.kernel.matvec(z, *frame.f_terms)[0] + snap.bias)
    if frame.scene.one_class:
        return f, _one_class_side(frame.scene, f)
    neg, pos = frame.scene.classes
    return f, int(pos if f > 0 else neg)


def terms_at(frame: Frame, xy: ArrayLike) -> tuple[DecisionTerms, np.ndarray]:
    """f at one place as its largest terms alpha_s y_s K(x_s, x), the rest and the bias
    (core.decision_terms), and where the named points lie (input units, (k, 2); a
    regression's (x, target)). A live frame's terms are of the machine it trains; a model's
    with three or more classes, of the machine that decided."""
    d = 1 if frame.scene.regression else 2
    x = np.asarray(xy, dtype=np.float64).reshape(-1)[:d]
    model = frame.model
    if model is not None:
        terms = decision_terms(model, x)
        scaler = model.scaler
    else:
        snap, m = frame.reading.snapshot, frame.reading.machine
        scaler = m.scaler
        z = x[None] if scaler is None else scaler.transform(x[None])
        if snap.w is not None:
            terms = primal_terms(snap.w, z[0], snap.bias)
        else:
            vectors, coef = frame.f_terms
            terms = split_terms(frame.f_points, vectors, m.kernel(z, vectors)[0] * coef,
                                snap.bias)
    if not len(terms.points):
        return terms, np.empty((0, 2))
    where = (terms.vectors if scaler is None
             else terms.vectors * scaler.scale + scaler.mean)
    if frame.scene.regression:            # a sample is drawn at (x, its target)
        drawn = dict(zip(frame.scene.support.tolist(), frame.scene.support_xy))
        where = np.array([drawn.get(k, (np.nan, np.nan)) for k in terms.points.tolist()])
    return terms, where


def probabilities_at(frame: Frame, xy: ArrayLike) -> np.ndarray | None:
    """Each class's probability at one point, in the model's class order (scene.colours
    maps it to the canvas's classes), for the hover readout; None for a frame without a
    model with Platt's sigmoids."""
    model = frame.model
    if model is None or model.is_regressor or not model.has_probabilities:
        return None
    return model.predict_proba(np.asarray(xy, dtype=np.float64).reshape(1, 2))[0]


def _one_class_side(scene: Scene, f: float) -> int:
    """The class index a one-class f reads as: the inliers' on the edge and inside (the
    free support vectors lie on it), the outliers' outside, as outside_xy counts them."""
    neg, pos = scene.classes
    return int(neg if f < OUTSIDE else pos)


def at_probability(scene: Scene, threshold: float, chosen: int | None = None) -> Scene:
    """A scene with probabilities drawn with the threshold set on P at t (the rule of
    evaluation.predicted_at by probability), at 0.5 too: where the most probable class
    lies, which is not quite where f = 0 (Platt's sigmoid is shifted). Two classes: the
    sides shaded and the boundary drawn where P(classes[1] | x) = t. More classes: the
    chosen class (a class index, as the canvas's) where its probability against its
    strongest rival exceeds t, elsewhere the most probable class, or the most probable
    other; with no class chosen, the scene as it is. Either way the probability picture
    tints each place by its most probable class once the chosen class's odds are scaled by
    (1 - t) / t, which moves its even point to t."""
    probabilities = scene.class_probabilities
    if probabilities is None or (len(probabilities) > 2 and chosen is None):
        return scene
    t = float(np.clip(threshold, PROBABILITY_EDGE, 1 - PROBABILITY_EDGE))
    colours = np.asarray(scene.colours)
    column = 1 if len(probabilities) == 2 else int(np.flatnonzero(colours == chosen)[0])
    weighted = probabilities.astype(np.float64)
    weighted[column] *= (1 - t) / t
    weighted /= weighted.sum(axis=0)
    picture = probability_picture(weighted, colours)
    spec = scene.spec
    if len(probabilities) == 2:
        # Platt's P is a sigmoid of f, so its log-odds less t's are f - f_t up to a positive
        # factor: the sides shade as at_threshold shades f - f_t
        p = np.clip(weighted[1], PROBABILITY_EDGE, 1 - PROBABILITY_EDGE)
        shaded = coloured(dataclasses.replace(
            scene, values=np.log(p / (1 - p)).astype(np.float32)))
        line = contour_paths(probabilities[1], spec.xs, spec.ys, threshold)
    else:
        assert chosen is not None, "returned above: more classes need a chosen one"
        flat = probabilities.reshape(len(probabilities), -1).T
        best, rival = rivals(flat)
        regions = vote_at_threshold(
            duel_probabilities(flat, rival)[:, column], colours[best],
            colours[rival[:, column]], chosen, threshold, neutral=0.5).reshape(spec.shape)
        shaded = coloured(dataclasses.replace(scene, regions=regions))
        line = region_boundaries(regions, spec.xs, spec.ys)
    return dataclasses.replace(
        scene, picture=shaded.picture, hard_picture=shaded.hard_picture,
        regions=shaded.regions, contours={**scene.contours, 0.0: line},
        probability_boundary=line, probability_picture=picture)


def at_threshold(scene: Scene, threshold: float, chosen: int | None = None) -> Scene:
    """The scene drawn with the decision threshold moved to t (evaluation.predicted_at on
    the grid), the same scene at 0. Two classes and one-class: the sides shaded and the
    boundary drawn at f = t (the margins stay the model's f = -1 and 1). More classes
    (scenes holding duel_scores): the chosen class (a class index, as the canvas's) where
    its duel score exceeds t, elsewhere the vote among the others (the rule of
    one_vs_one.vote_at_threshold); with no class chosen, the model's regions."""
    if threshold == 0.0 or scene.regression:
        return scene
    spec = scene.spec
    if scene.values is not None and scene.regions is None:
        shaded = coloured(dataclasses.replace(scene, values=scene.values - threshold))
        line = contour_path_levels(scene.values, spec.xs, spec.ys, (threshold,))[threshold]
        return dataclasses.replace(scene, picture=shaded.picture,
                                   hard_picture=shaded.hard_picture,
                                   contours={**scene.contours, 0.0: line})
    voted, scores, without = scene.regions, scene.duel_scores, scene.votes_without
    if voted is None or scores is None or without is None or chosen is None:
        return scene
    colours = np.asarray(scene.colours)
    column = int(np.flatnonzero(colours == chosen)[0])
    # scene.regions is the vote in the canvas's class indices: the rule runs in them
    regions = vote_at_threshold(scores[column], voted, colours[without[column]], chosen,
                                threshold)
    return coloured(dataclasses.replace(
        scene, regions=regions, contours={0.0: region_boundaries(regions, spec.xs, spec.ys)}))
