"""What the canvas and the readout draw for a moment of training (numpy only): the decision
grid, contour polylines, region pictures, support vectors and accuracies of a snapshot or a
fitted model, made off the GUI thread by the training worker or a view's regrid.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from ..core.estimators import SVC, SVR, Machine, NuSVC, NuSVR, OneClassSVM, Progress
from ..core.estimators.one_vs_one import machine_pairs, vote_at_threshold
from ..core.kinds import C_SVC, KINDS, NU_SVC
from ..core.model import SVMModel
from ..core.probability import duel_probabilities, rivals
from ..core.solvers.base import Snapshot
from .contours import contour_path_levels, contour_paths, region_boundaries, vote_borders
from .curves import curve_of, live_curve_frame, model_curve_frame, recurved
from .evaluation import (
    Evaluation,
    evaluation_of,
    probability_evaluation_of,
    probability_split_of,
    split_of,
)
from .grid import GridSpec, class_grid, decision_grid, duel_grid, machine_grids, model_grid
from .scenes import Fractions, Frame, Job, Reading, RunMark, Scene
from .shading import inside_pictures, probability_picture, regions_picture, sides_pictures

GRAM_MAX_POINTS = 2000       # training points whose kernel matrix a run keeps (32 MB)
MARGIN_MET = 1.0 - 1e-3      # y f(x) below this: a margin not met (a margin error, ringed as
                             # bounded), to the solvers' default tolerance
OUTSIDE = -1e-3              # a one-class f below this: outside the region (the scene rings
                             # the support vectors it has outside the same way). Not 0, nor
                             # -1e-9: the free support vectors lie on the edge only to the
                             # solver's tolerance (default 1e-3; |f| up to 5e-4 measured, and
                             # 1e-7 at tol 1e-8), and counting them would break errors <= nu


PROBABILITY_EDGE = 1e-6      # a probability is kept this far from 0 and 1 for its log-odds


def _coloured(scene: Scene) -> Scene:
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


def chart_point(snap: Snapshot, before: Sequence[Snapshot] = ()) -> tuple:
    """(iteration, primal, dual, gap) for the charts. With several one-vs-one machines the
    run is one story: iterations count on across the machines, and the objectives and
    gaps are the finished machines' final ones (`before`) plus the current machine's."""
    def value(s, name):
        v = getattr(s, name)
        if name == "gap" and v is None:
            v = s.kkt_violation
        return np.nan if v is None else v

    iteration = snap.iteration + sum(s.iteration + 1 for s in before)
    primal, dual, gap = (value(snap, n) + sum(value(s, n) for s in before)
                         for n in ("primal_objective", "dual_objective", "gap"))
    return iteration, primal, dual, (gap if gap > 0 else np.nan)


class KernelSums:
    """f's kernel sums on one run's points, kept between its frames.

    On the training points, the kernel matrix (small n only, GRAM_MAX_POINTS): f there is
    a matrix-vector product instead of n^2 kernel evaluations. On the held-out points,
    the last frame's f brought up to date by the multipliers that moved since: a frame
    costs the held-out points times the moved terms (a few hundred between two frames of
    SMO), not times all of them (5,000 x 1,300 kernel values, 9 ms a frame, measured)."""

    def __init__(self) -> None:
        self._key: tuple | None = None             # whose kernel matrix _K is
        self._K = np.empty((0, 0))
        self._held_key: tuple | None = None        # whose held-out f is kept
        self._held_coef, self._held_f = np.empty(0), np.empty(0)

    def decision(self, step: Progress, Z: np.ndarray) -> np.ndarray | None:
        """sum_t c_t k(z, z_t) for every training point z, or None when n is too large."""
        if len(Z) > GRAM_MAX_POINTS:
            return None
        m = step.machine
        key = (m.index, m.kernel, len(Z), id(m.scaler))
        if key != self._key:
            self._key, self._K = key, m.kernel(Z, Z)
        coef = step.snapshot.dual_coef
        assert coef is not None, "kernel sums are of dual coefficients"
        return self._K @ coef

    def held_out(self, step: Progress, Z: np.ndarray, Zt: np.ndarray) -> np.ndarray:
        """sum_t c_t k(z, z_t) for every held-out point z (Z: the training points)."""
        snap, m = step.snapshot, step.machine
        key = (m.index, m.kernel, len(Z), len(Zt), id(m.scaler))
        if key != self._held_key:
            self._held_key = key
            self._held_coef, self._held_f = np.zeros(len(Z)), np.zeros(len(Zt))
        assert snap.dual_coef is not None, "held-out sums are of dual coefficients"
        change = snap.dual_coef - self._held_coef
        moved = np.flatnonzero(change)
        if len(moved):
            self._held_f = self._held_f + m.kernel.matvec(Zt, Z[moved], change[moved])
            self._held_coef = np.array(snap.dual_coef, dtype=np.float64)
        return self._held_f


def make_frame(step: Progress, job: Job, elapsed: float, final: bool = False,
               stopped: bool = False, history: tuple = (),
               sums: KernelSums | None = None, evaluate: bool = True) -> Frame:
    """Decision grid, contours, support vectors and accuracies for one moment of training:
    a solver's snapshot of one machine (numpy only); a regression's curve, tube and
    residuals (curves.py). `evaluate`: with the evaluation of its scores (two sorts of the
    points: 5 ms at 20,000 of them, left out while nobody looks at it)."""
    snap, m = step.snapshot, step.machine
    points = m.points if m.points is not None else np.arange(len(job.y))
    Z = job.X[points] if m.scaler is None else m.scaler.transform(job.X[points])
    f_train, f_terms = _training_f(step, Z, sums)
    if KINDS[job.kind].regression:
        held_f = (_held_out_f(step, job, Z, f_terms, sums) if len(job.y_test)
                  else np.empty(0))
        return live_curve_frame(step, job, f_train, held_f, f_terms, elapsed,
                                RunMark(final=final, stopped=stopped), history)
    local = np.asarray(snap.support, dtype=np.intp)
    if snap.w is not None:
        values = decision_grid(m.kernel, np.empty((0, 2)), np.empty(0), snap.bias,
                               job.spec, w=snap.w, scaler=m.scaler)
    else:
        terms_z, coef = f_terms
        values = decision_grid(m.kernel, terms_z, coef, snap.bias, job.spec, scaler=m.scaler)
    neg, pos = job.class_of(m.classes)
    margins = np.where(job.y[points] == pos, 1.0, -1.0) * f_train
    f_test = (_held_out_f(step, job, Z, f_terms, sums) if m.count == 1 and len(job.y_test)
              else None)
    # the model's own: f > 0 predicts the positive class, f <= 0 the negative (f = 0, every
    # margin 0, is not 0 % right)
    train_acc = (float(np.mean((f_train > 0) == (job.y[points] == pos))) if m.count == 1
                 else None)
    test_acc = None if f_test is None else float(np.mean((f_test > 0) == (job.y_test == pos)))
    w = snap.w
    if w is None and snap.dual_coef is not None and m.kernel.name == "linear" and len(local):
        w = snap.dual_coef[local] @ Z[local]
    width = _margin_width(w)
    one_class = isinstance(job.estimator, OneClassSVM)
    scene = Scene(
        spec=job.spec, classes=(int(neg), int(pos)), values=values, regions=None,
        contours=contour_path_levels(values, job.spec.xs, job.spec.ys, _levels(one_class)),
        support=points[local], support_xy=job.X[points[local]],
        bounded=f_train[local] < OUTSIDE if one_class else margins[local] < MARGIN_MET,
        hard_margin=_hard_margin(getattr(job.estimator, "C", 1.0)), one_class=one_class)
    if m.count == 1:          # one machine of several is drawn as the vote of all of them:
        scene = _coloured(scene)    # with_finished_machines colours that scene
    fractions = None
    if isinstance(job.estimator, NuSVC) and len(margins):
        fractions = _fractions([margins < MARGIN_MET], [len(local)], job.estimator.nu,
                               per_machine=m.count > 1)
    reading = Reading(snapshot=snap, machine=m, train_accuracy=train_acc,
                      test_accuracy=test_acc, margin_width=width, elapsed=elapsed,
                      history=history, fractions=fractions)
    # a multi-class run's machine scores only its own two classes: its evaluation comes
    # with the fitted model at the end of the run
    evaluation = (evaluation_of(scene.classes, job.y[points], f_train, job.y_test, f_test)
                  if m.count == 1 and evaluate else None)
    frame = Frame(scene, reading, RunMark(final=final, stopped=stopped), f_terms=f_terms,
                  evaluation=evaluation)
    if isinstance(job.estimator, OneClassSVM):
        f_test = np.empty(0) if f_test is None else f_test
        frame = _judged_one_class(
            frame, np.vstack([job.X[points], job.X_test]), np.concatenate([f_train, f_test]),
            np.arange(len(points) + len(f_test)) < len(points),
            np.concatenate([job.y[points], job.y_test]), int(pos), len(local), job.estimator.nu)
    return frame


def _training_f(step: Progress, Z: np.ndarray, sums: KernelSums | None) -> tuple:
    """(f on the training points Z, f's kernel sum (scaled points, coefficients): none for
    a snapshot with w)."""
    snap, m = step.snapshot, step.machine
    if snap.w is not None:
        return Z @ snap.w + snap.bias, ()
    assert snap.dual_coef is not None, "a snapshot holds w or the dual coefficients"
    terms = np.flatnonzero(snap.dual_coef)      # all of f's terms, not only the SVs
    coef = snap.dual_coef[terms]
    f_sum = snap.decision                       # the solver's own, when it has it
    if f_sum is None and sums is not None:
        f_sum = sums.decision(step, Z)
    if f_sum is None:
        f_sum = m.kernel.matvec(Z, Z[terms], coef)
    return f_sum + snap.bias, (Z[terms], coef)


def _held_out_f(step: Progress, job: Job, Z: np.ndarray, f_terms: tuple,
                sums: KernelSums | None) -> np.ndarray:
    """f on the held-out points (a one-class run's: and the outlier marks); Z: the
    training points, f_terms: f's kernel sum (none for a snapshot with w)."""
    snap, m = step.snapshot, step.machine
    Zt = job.X_test if m.scaler is None else m.scaler.transform(job.X_test)
    if snap.w is not None:
        ft = Zt @ snap.w
    elif sums is not None:
        ft = sums.held_out(step, Z, Zt)
    else:
        ft = m.kernel.matvec(Zt, *f_terms)
    return ft + snap.bias


def _levels(one_class: bool) -> tuple:
    """The contours drawn: a one-class machine's edge alone, a classifier's margins too."""
    return (0.0,) if one_class else (-1.0, 0.0, 1.0)


def _fractions(errors: Sequence[np.ndarray], n_support: Sequence[int], nu: float,
               per_machine: bool) -> Fractions:
    """Fractions from each machine's errors (a bool per training point of the machine) and
    its number of support vectors."""
    error_share = [float(np.mean(e)) for e in errors]
    support_share = [k / len(e) for k, e in zip(n_support, errors)]
    return Fractions((min(error_share), max(error_share)),
                     (min(support_share), max(support_share)), float(nu), per_machine)


def _judged_one_class(frame: Frame, X: np.ndarray, f: np.ndarray, trained: np.ndarray,
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
        fractions = _fractions([outside[trained]], [n_support], nu, per_machine=False)
    reading = dataclasses.replace(
        frame.reading, train_accuracy=None, fractions=fractions,
        test_accuracy=float(np.mean(~outside[held])) if held.any() else None,
        marks_outside=(int(outside[marks].sum()), int(marks.sum())) if marks.any() else None)
    scene = dataclasses.replace(frame.scene, outside_xy=np.asarray(X)[outside].reshape(-1, 2))
    return dataclasses.replace(frame, scene=scene, reading=reading)


def with_finished_machines(frame: Frame, done: list, job: Job) -> Frame:
    """A frame of a multi-class run drawn as the run so far: the regions voted by the
    finished machines and the current one, the borders between them, and every machine's
    support vectors (a binary run's frame is returned as it is)."""
    if frame.reading.machine.count == 1:
        return frame
    scenes = [d.scene for d in done] + [frame.scene]
    n_classes = max(int(job.y.max()) + 1, *(max(s.classes) + 1 for s in scenes))
    values = frame.scene.values
    assert values is not None, "a live frame has f on its grid"
    votes = np.zeros((n_classes,) + values.shape, dtype=np.int32)
    for s in scenes:
        positive = s.values > 0
        votes[s.classes[1]] += positive
        votes[s.classes[0]] += ~positive
    regions = votes.argmax(axis=0)
    borders = vote_borders([s.values for s in scenes],      # f > 0 votes for classes[1]
                           [(s.classes[1], s.classes[0]) for s in scenes],
                           frame.scene.spec.xs, frame.scene.spec.ys)
    support, first = np.unique(np.concatenate([s.support for s in scenes]), return_index=True)
    bounded = np.zeros(len(support), dtype=bool)
    for s in scenes:
        bounded[np.searchsorted(support, s.support[s.bounded])] = True
    scene = _coloured(dataclasses.replace(
        frame.scene, regions=regions, contours={0.0: borders}, support=support, bounded=bounded,
        support_xy=np.concatenate([s.support_xy for s in scenes])[first]))
    return dataclasses.replace(frame, scene=scene)


def regrid(frame: Frame, spec: GridSpec) -> Frame | None:
    """The same moment drawn over another rectangle of the plane (the view moved), or None
    for a live multi-class frame (its finished machines are the worker's: the run's next
    frame follows the view)."""
    if frame.scene.regression:
        return recurved(frame, spec)
    model, scene = frame.model, frame.scene
    if model is not None and len(model.classes) > 2:
        return dataclasses.replace(frame, scene=_with_probabilities(_class_regions(
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
    moved = _coloured(dataclasses.replace(scene, spec=spec, values=values,
                                          contours=contour_path_levels(
                                              values, spec.xs, spec.ys,
                                              _levels(scene.one_class))))
    return dataclasses.replace(frame, scene=moved if model is None
                               else _with_probabilities(moved, model))


def fitted_frame(estimator: SVC | OneClassSVM | SVR | NuSVR, step: Progress, job: Job,
                 elapsed: float, history: tuple = ()) -> Frame:
    """The end of a full run: the fitted model drawn exactly as a reopened session draws it
    (every machine's support vectors, accuracies from its own predictions), with the run's
    last snapshot for the readout and the charts.

    A binary run whose solver holds f on every training point (SMO's final gradient,
    rebuilt in float64) takes the training accuracy from it: predicting 20,000 points
    again would cost a third of the fit (and a nu machine's fractions, a one-class
    machine's points outside). A regressor predicts every sample again (one feature: cheap)."""
    snap = step.snapshot
    if isinstance(estimator, (SVR, NuSVR)):
        frame = model_frame(estimator, np.vstack([job.X, np.reshape(job.X_test, (-1, 1))]),
                            np.concatenate([job.y, job.y_test]).astype(np.float64), job.spec,
                            held_out=np.arange(len(job.y) + len(job.y_test)) >= len(job.y))
        return _with_run(frame, step, elapsed, history)
    X_test = np.asarray(job.X_test, dtype=np.float64).reshape(-1, 2)
    colours = job.class_of(estimator.model_.classes if isinstance(estimator, OneClassSVM)
                           else estimator.classes_)     # a one-class model's: -1, +1
    known = snap.decision is not None and step.machine.count == 1
    if known:            # only the held-out points are predicted
        X, y = X_test, np.asarray(job.y_test, dtype=np.intp)
        held_out = np.ones(len(y), dtype=bool)
    else:
        X = np.vstack([job.X, X_test])
        y = np.concatenate([job.y, job.y_test]).astype(np.intp)
        held_out = np.arange(len(y)) >= len(job.y)
    frame = model_frame(estimator, X, y, job.spec, colours, held_out=held_out)
    if known:
        machine = estimator.model_.machines[0]
        assert snap.decision is not None
        f = snap.decision + snap.bias
        side = np.where(f > 0, machine.positive, machine.negative)
        frame = dataclasses.replace(frame, reading=dataclasses.replace(
            frame.reading, train_accuracy=float(np.mean(colours[side] == job.y))
            if len(job.y) else None))
        frame = _known_fractions(frame, estimator, f, job, X_test, colours)
        frame = _with_training_scores(frame, job.y, f)
        frame = _with_training_probabilities(frame, estimator.model_, f, job.y)
    return _with_run(frame, step, elapsed, history)


def _with_training_probabilities(frame: Frame, model: SVMModel, f: np.ndarray,
                                 y: np.ndarray) -> Frame:
    """A binary final frame of a model with probabilities: its evaluation by P gets the
    training points too, from their f as the solver holds it (model_frame scored the
    held-out points only)."""
    if not model.has_probabilities:
        return frame
    classes = frame.scene.classes
    train = probability_split_of(classes, np.asarray(y, dtype=np.intp),
                                 model.probabilities_of(f))
    held = (frame.probability_evaluation.test if frame.probability_evaluation is not None
            else None)
    return dataclasses.replace(frame, probability_evaluation=Evaluation(classes, train, held)
                               if train is not None or held is not None else None)


def _with_training_scores(frame: Frame, y: np.ndarray, f: np.ndarray) -> Frame:
    """A binary final frame whose evaluation takes the training points' f as the solver
    holds it (model_frame scored the held-out points only)."""
    classes = frame.scene.classes
    train = split_of(classes, np.asarray(y, dtype=np.intp), f)
    held = frame.evaluation.test if isinstance(frame.evaluation, Evaluation) else None
    evaluation = (Evaluation(classes, train, held) if train is not None or held is not None
                  else None)
    return dataclasses.replace(frame, evaluation=evaluation)


def _with_run(frame: Frame, step: Progress, elapsed: float, history: tuple) -> Frame:
    """A model's frame with the run's last snapshot for the readout and the charts."""
    return dataclasses.replace(frame, reading=dataclasses.replace(
        frame.reading, snapshot=step.snapshot, machine=step.machine, elapsed=elapsed,
        history=history))


def _known_fractions(frame: Frame, estimator: SVC | OneClassSVM, f: np.ndarray, job: Job,
                     X_test: np.ndarray, colours: np.ndarray) -> Frame:
    """A binary final frame judged with f on the training points as the solver holds it
    (model_frame saw the held-out points only): a nu machine's fractions, a one-class
    machine's points outside and fractions."""
    model = estimator.model_
    machine, y = model.machines[0], np.asarray(job.y, dtype=np.intp)
    if KINDS[model.kind].novelty and len(y):
        f_test = model.decision_function(X_test) if len(X_test) else np.empty(0)
        return _judged_one_class(
            frame, np.vstack([job.X, X_test]), np.concatenate([f, f_test]),
            np.arange(len(y) + len(X_test)) < len(y), np.concatenate([y, job.y_test]),
            int(colours[machine.positive]), len(machine.support), estimator.nu)
    if model.kind == NU_SVC.key and len(y):
        margins = np.where(y == colours[machine.positive], 1.0, -1.0) * f
        fractions = _fractions([margins < MARGIN_MET], [len(machine.support)], estimator.nu,
                               per_machine=False)
        return dataclasses.replace(frame, reading=dataclasses.replace(
            frame.reading, fractions=fractions))
    return frame


def _accuracies(model, colours, X, y, X_test, y_test) -> tuple:
    """(train, test) accuracy of a model's predictions against class indices y; test is
    None without test points."""
    def accuracy(X, y):
        predicted = colours[model.predict_indices(np.asarray(X, dtype=np.float64))]
        return float(np.mean(predicted == np.asarray(y)))

    return (accuracy(X, y) if len(y) else None,
            accuracy(X_test, y_test) if len(y_test) else None)


def _hard_margin(C) -> bool:
    """Whether an SVC's C is the hard margin (None or inf)."""
    return C is None or C == float("inf")


def _margin_width(w) -> float | None:
    """2 / ||w||, the margin's width (None without a w, or for w = 0)."""
    norm = float(np.linalg.norm(w)) if w is not None else 0.0
    return 2.0 / norm if norm > 0 else None


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


def model_frame(model: SVC | OneClassSVM | SVR | NuSVR | SVMModel, X: ArrayLike,
                y: ArrayLike | None,
                spec: GridSpec, colours: ArrayLike | None = None,
                held_out: ArrayLike | None = None) -> Frame:
    """A drawable Frame for an already fitted model (a loaded model file has no solver
    snapshots): for two classes f on the grid with its boundary and margins, for more the
    one-vs-one class regions; the support vectors of every machine in input units, ringed
    as bounded when y_s f(x_s) < 1 (on the wrong side of their margin). A one-class model
    (kind "one_class", classes -1 and +1) has f with its edge f = 0 and no margins, and
    rings as bounded the support vectors outside the edge.

    model: an SVMModel, or a fitted SVC, NuSVC or OneClassSVM (then the support vectors'
    classes come from its support_ / n_support_, and nu from its parameters; a bare
    SVMModel gives the classes by the sign of each coefficient, which is exact for the dual
    solvers' y_s a_s, and no fractions). X, y: points and their class indices (the canvas's
    classes) for the accuracy; y may be None. `colours[k]`, if given, is the class index of
    the model's class k (default k): the sides of the boundary, the regions of three or
    more classes and the accuracy follow it. `held_out` marks the points held out for
    testing: the train accuracy is over the others, the test accuracy over them. For a
    one-class model the points of its inlier class (colours[1]) not held out are its
    training points, and points of the other class are outlier marks (see Job).
    A regressor (a fitted SVR or NuSVR, or a model of kind "epsilon_svr" / "nu_svr"): X
    (n, 1) its samples, y their targets; its curve, tube and residuals (curves.py).
    """
    if isinstance(model, (SVC, OneClassSVM, SVR, NuSVR)):
        return _model_frame(model.model_, model, X, y, spec, colours, held_out)
    return _model_frame(model, None, X, y, spec, colours, held_out)


def _model_frame(model: SVMModel, svc: SVC | OneClassSVM | SVR | NuSVR | None,
                 X: ArrayLike, y: ArrayLike | None, spec: GridSpec,
                 colours: ArrayLike | None, held_out: ArrayLike | None) -> Frame:
    if model.is_regressor:
        regressor = svc if isinstance(svc, (SVR, NuSVR)) else None
        return model_curve_frame(model, regressor, np.asarray(X, dtype=np.float64),
                                 None if y is None else np.asarray(y), spec,
                                 None if held_out is None else np.asarray(held_out),
                                 _model_snapshot(model, svc))
    kernel, scaler, first = model.kernel, model.scaler, model.machines[0]
    colours = np.arange(len(model.classes)) if colours is None else np.asarray(colours)
    machine = Machine(0, len(model.machines), (model.classes[first.negative],
                                               model.classes[first.positive]),
                      None, kernel, scaler)
    support, support_xy, bounded = _rings(model, None if isinstance(svc, (SVR, NuSVR))
                                          else svc)
    one_class = KINDS[model.kind].novelty
    values = model_grid(model, spec) if len(model.classes) <= 2 else None
    w = first.w if len(model.machines) == 1 else None
    scene = Scene(
        spec=spec, values=values, regions=None, contours={},
        classes=(int(colours[first.negative]), int(colours[first.positive])),
        support=support, support_xy=support_xy, bounded=bounded, colours=colours,
        hard_margin=isinstance(svc, SVC) and _hard_margin(svc.get_params().get("C", 1.0)),
        one_class=one_class)
    if values is None:
        scene = _class_regions(scene, model)
    else:
        scene = _coloured(dataclasses.replace(scene, contours=contour_path_levels(
            values, spec.xs, spec.ys, _levels(one_class))))
    scene = _with_probabilities(scene, model)
    reading = Reading(snapshot=_model_snapshot(model, svc), machine=machine,
                      train_accuracy=None, test_accuracy=None, margin_width=_margin_width(w),
                      elapsed=0.0)
    frame = Frame(scene, reading, RunMark(final=True), model=model, estimator=svc)
    labels = None if y is None else np.asarray(y)
    if labels is None or not len(labels):
        return frame
    points = np.asarray(X, dtype=np.float64).reshape(len(labels), -1)
    test = (np.zeros(len(labels), dtype=bool) if held_out is None
            else np.asarray(held_out, dtype=bool))
    nu = svc.get_params()["nu"] if svc is not None and model.kind != C_SVC.key else None
    f = model.decision_function(points)
    if one_class:
        inlier = int(colours[first.positive])
        trained = ~test & (labels == inlier)
        frame = _judged_one_class(frame, points, f, trained, labels, inlier,
                                  len(first.support), nu)
        return _evaluated(frame, scene.classes, f, labels, trained)
    train_acc, test_acc = _accuracies(model, colours, points[~test], labels[~test],
                                      points[test], labels[test])
    fractions = (_model_fractions(model, colours, points[~test], labels[~test], nu)
                 if nu is not None else None)
    frame = dataclasses.replace(frame, reading=dataclasses.replace(
        reading, train_accuracy=train_acc, test_accuracy=test_acc, fractions=fractions))
    # one-vs-one values score the model's classes; two classes (negative, positive)
    classes = tuple(int(c) for c in colours) if f.ndim == 2 else scene.classes
    frame = _with_probability_scores(frame, model, f, labels, ~test, classes)
    return _evaluated(frame, classes, f, labels, ~test)


def _class_regions(scene: Scene, model: SVMModel) -> Scene:
    """A multi-class model's scene over its grid: the voted class regions, their borders
    and what at_threshold moves (grid.duel_grid)."""
    spec, grids = scene.spec, machine_grids(model, scene.spec)
    voted = class_grid(model, spec, grids)
    regions = scene.colours[voted]
    scores, without = duel_grid(model, spec, grids)
    borders = vote_borders(grids, machine_pairs(len(model.classes)), spec.xs, spec.ys)
    return _coloured(dataclasses.replace(
        scene, values=None, regions=regions, contours={0.0: borders},
        duel_scores=scores, votes_without=without))


def _with_probability_scores(frame: Frame, model: SVMModel, f: np.ndarray,
                             labels: np.ndarray, trained: np.ndarray,
                             classes: tuple) -> Frame:
    """A model with probabilities: the frame with its points' evaluation by probability
    (evaluation.probability_split_of; from their f, decision_function's, in the model's
    class order, which `classes` gives as the canvas's), for a threshold set on P."""
    if not model.has_probabilities:
        return frame
    probabilities = model.probabilities_of(f)
    labels = np.asarray(labels, dtype=np.intp)
    return dataclasses.replace(frame, probability_evaluation=probability_evaluation_of(
        classes, labels[trained], probabilities[trained], labels[~trained],
        probabilities[~trained]))


def _with_probabilities(scene: Scene, model: SVMModel) -> Scene:
    """The scene with its model's class probabilities on the grid (the model's own
    predict_proba on every grid point: 30 ms for two classes, 150 ms for three, measured),
    their picture and their boundary; the scene as it is for a model without sigmoids."""
    if not model.has_probabilities:
        return scene
    spec = scene.spec
    shape = (len(model.classes),) + spec.shape
    probabilities = np.ascontiguousarray(
        model.predict_proba(spec.points).T.reshape(shape), dtype=np.float32)
    if len(model.classes) == 2:          # P(classes[1]) = 0.5, where f's sigmoid crosses
        boundary = contour_paths(probabilities[1], spec.xs, spec.ys, 0.5)
    else:
        boundary = region_boundaries(np.asarray(scene.colours)[probabilities.argmax(axis=0)],
                                     spec.xs, spec.ys)
    return dataclasses.replace(
        scene, class_probabilities=probabilities, probability_boundary=boundary,
        probability_picture=probability_picture(probabilities, scene.colours))


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
        shaded = _coloured(dataclasses.replace(
            scene, values=np.log(p / (1 - p)).astype(np.float32)))
        line = contour_paths(probabilities[1], spec.xs, spec.ys, threshold)
    else:
        assert chosen is not None, "returned above: more classes need a chosen one"
        flat = probabilities.reshape(len(probabilities), -1).T
        best, rival = rivals(flat)
        regions = vote_at_threshold(
            duel_probabilities(flat, rival)[:, column], colours[best],
            colours[rival[:, column]], chosen, threshold, neutral=0.5).reshape(spec.shape)
        shaded = _coloured(dataclasses.replace(scene, regions=regions))
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
        shaded = _coloured(dataclasses.replace(scene, values=scene.values - threshold))
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
    return _coloured(dataclasses.replace(
        scene, regions=regions, contours={0.0: region_boundaries(regions, spec.xs, spec.ys)}))


def _evaluated(frame: Frame, classes: tuple, values: np.ndarray, labels: np.ndarray,
               trained: np.ndarray) -> Frame:
    """The frame with the evaluation of its points' decision values (evaluation.split_of):
    the `trained` ones and the others (held out; a one-class machine's: and the outlier
    marks)."""
    labels = np.asarray(labels, dtype=np.intp)
    return dataclasses.replace(frame, evaluation=evaluation_of(
        classes, labels[trained], values[trained], labels[~trained], values[~trained]))


def _model_snapshot(model: SVMModel, svc: SVC | OneClassSVM | SVR | NuSVR | None
                    ) -> Snapshot:
    """What the model file says of its training as a snapshot: its first machine, the
    iterations, and the objective its solver optimised (the catalog says which: the dual or
    the primal)."""
    first = model.machines[0]
    iterations, primal, dual, converged = 0, float("nan"), None, True
    if svc is not None and len(model.machines) == 1:
        iterations, converged = int(np.sum(svc.n_iter_)), bool(svc.converged_)
        objective = float(np.ravel(np.asarray(svc.objective_, dtype=np.float64))[0])
        if svc.table.solvers[svc.solver].objective == "dual":
            dual = objective
        else:
            primal = objective
    return Snapshot(iteration=iterations, bias=float(first.bias), primal_objective=primal,
                    dual_objective=dual, dual_coef=first.dual_coef, w=first.w,
                    support=np.arange(len(first.support), dtype=np.intp), converged=converged)


def _rings(model: SVMModel, svc: SVC | OneClassSVM | None) -> tuple:
    """(training indices, input-unit positions, bounded) of every machine's support
    vectors, each once: bounded by any machine that has it beyond its margin (a one-class
    machine: outside its edge)."""
    owner = None
    if isinstance(svc, SVC):
        owner = dict(zip(np.asarray(svc.support_).tolist(),
                         np.repeat(np.arange(len(model.classes)), svc.n_support_).tolist()))
    indices, vectors, inside = [], [], []
    for m in model.machines:
        f = m.decision(m.support_vectors, model.kernel)
        indices.append(m.support)
        vectors.append(m.support_vectors)
        if not model.has_margins:       # one-class: a bounded multiplier lies outside
            inside.append(f < OUTSIDE)
            continue
        if owner is not None:
            sign = np.array([1.0 if owner.get(s) == m.positive else -1.0
                             for s in m.support.tolist()])
        else:
            sign = np.where(m.dual_coef != 0, np.sign(m.dual_coef), np.sign(f))
        inside.append(sign * f < MARGIN_MET)
    index = np.concatenate(indices)
    support, first_at, where = np.unique(index, return_index=True, return_inverse=True)
    bounded = np.zeros(len(support), dtype=bool)
    np.logical_or.at(bounded, where.reshape(-1), np.concatenate(inside))
    Z = np.concatenate(vectors)[first_at].reshape(len(support), model.n_features)
    scaler = model.scaler
    return support, (Z if scaler is None else Z * scaler.scale + scaler.mean), bounded


def _model_fractions(model: SVMModel, colours: np.ndarray, X: np.ndarray, y: np.ndarray,
                     nu: float) -> Fractions | None:
    """A nu-SVC model's fractions over its machines, each judged on the training points
    of its two classes (X, y: the training points and their class indices)."""
    if not len(y):
        return None
    f = model.decision_function(X).reshape(len(y), -1)
    errors, n_support = [], []
    for k, m in enumerate(model.machines):
        mine = (y == colours[m.positive]) | (y == colours[m.negative])
        if mine.any():
            margins = np.where(y[mine] == colours[m.positive], 1.0, -1.0) * f[mine, k]
            errors.append(margins < MARGIN_MET)
            n_support.append(len(m.support))
    if not errors:
        return None
    return _fractions(errors, n_support, nu, per_machine=len(model.machines) > 1)
