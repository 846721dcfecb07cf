"""The frames of a fitted model (numpy only): a model file's or a finished run's model drawn
(f or the one-vs-one class regions on the grid, every machine's support vectors ringed, its
class probabilities), with its accuracies, fractions and evaluation from its own
predictions, and the run's last snapshot for the readout when a run fitted it.
"""
from __future__ import annotations

import dataclasses

import numpy as np
from numpy.typing import ArrayLike

from ..core.decision_terms import is_primal
from ..core.estimators import SVC, SVR, Machine, NuSVR, OneClassSVM, Progress
from ..core.estimators.one_vs_one import machine_pairs
from ..core.kinds import C_SVC, KINDS, NU_SVC
from ..core.model import SVMModel
from ..core.solvers.base import Snapshot
from ..core.training_job import Job
from .contours import contour_path_levels, contour_paths, region_boundaries, vote_borders
from .curves import model_curve_frame
from .decision_grid import GridSpec, class_grid, duel_grid, machine_grids, model_grid
from .evaluation import (
    Evaluation,
    evaluation_of,
    probability_evaluation_of,
    probability_split_of,
    split_of,
)
from .frame_parts import (
    MARGIN_MET,
    OUTSIDE,
    coloured,
    contour_levels,
    fractions_of,
    has_alpha,
    input_w,
    is_hard_margin,
    judged_one_class,
    largest_shares,
    margin_width,
    ring_shares,
    slack_segments,
)
from .scenes import Fractions, Frame, Reading, RunMark, Scene
from .shading import probability_picture


def fitted_frame(estimator: SVC | OneClassSVM | SVR | NuSVR, step: Progress, job: Job,
                 spec: GridSpec, elapsed: float, history: tuple = ()) -> Frame:
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
                            np.concatenate([job.y, job.y_test]).astype(np.float64), spec,
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
    frame = model_frame(estimator, X, y, spec, colours, held_out=held_out)
    if known:
        machine = estimator.model_.machines[0]
        assert snap.decision is not None
        f = snap.decision + snap.bias
        side = np.where(f > 0, machine.positive, machine.negative)
        frame = dataclasses.replace(frame, reading=dataclasses.replace(
            frame.reading, train_accuracy=float(np.mean(colours[side] == job.y))
            if len(job.y) else None))
        frame = _known_fractions(frame, estimator, f, job, X_test, colours)
        if not isinstance(estimator, OneClassSVM):
            frame = _with_slack(frame, estimator.model_, job.X, job.y, f,
                                int(colours[machine.positive]))
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
        return judged_one_class(
            frame, np.vstack([job.X, X_test]), np.concatenate([f, f_test]),
            np.arange(len(y) + len(X_test)) < len(y), np.concatenate([y, job.y_test]),
            int(colours[machine.positive]), len(machine.support), estimator.nu)
    if model.kind == NU_SVC.key and len(y):
        margins = np.where(y == colours[machine.positive], 1.0, -1.0) * f
        fractions = fractions_of([margins < MARGIN_MET], [len(machine.support)], estimator.nu,
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
        return _with_model_shares(model_curve_frame(
            model, regressor, np.asarray(X, dtype=np.float64),
            None if y is None else np.asarray(y), spec,
            None if held_out is None else np.asarray(held_out), _model_snapshot(model, svc)),
            model, svc)
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
        hard_margin=isinstance(svc, SVC) and is_hard_margin(svc.get_params().get("C", 1.0)),
        one_class=one_class)
    if values is None:
        scene = class_regions(scene, model)
    else:
        scene = coloured(dataclasses.replace(scene, contours=contour_path_levels(
            values, spec.xs, spec.ys, contour_levels(one_class))))
    scene = with_probabilities(scene, model)
    reading = Reading(snapshot=_model_snapshot(model, svc), machine=machine,
                      train_accuracy=None, test_accuracy=None, margin_width=margin_width(w),
                      elapsed=0.0)
    frame = _with_model_shares(Frame(scene, reading, RunMark(final=True), model=model,
                                     estimator=svc), model, svc)
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
        frame = judged_one_class(frame, points, f, trained, labels, inlier,
                                 len(first.support), nu)
        return _evaluated(frame, scene.classes, f, labels, trained)
    train_acc, test_acc = _accuracies(model, colours, points[~test], labels[~test],
                                      points[test], labels[test])
    fractions = (_model_fractions(model, colours, points[~test], labels[~test], nu)
                 if nu is not None else None)
    frame = dataclasses.replace(frame, reading=dataclasses.replace(
        reading, train_accuracy=train_acc, test_accuracy=test_acc, fractions=fractions))
    if len(model.machines) == 1:
        frame = _with_slack(frame, model, points[~test], labels[~test], f[~test],
                            int(colours[first.positive]))
    # one-vs-one values score the model's classes; two classes (negative, positive)
    classes = tuple(int(c) for c in colours) if f.ndim == 2 else scene.classes
    frame = _with_probability_scores(frame, model, f, labels, ~test, classes)
    return _evaluated(frame, classes, f, labels, ~test)


def class_regions(scene: Scene, model: SVMModel) -> Scene:
    """A multi-class model's scene over its grid: the voted class regions, their borders
    and what at_threshold moves (grid.duel_grid)."""
    spec, grids = scene.spec, machine_grids(model, scene.spec)
    voted = class_grid(model, spec, grids)
    regions = scene.colours[voted]
    scores, without = duel_grid(model, spec, grids)
    borders = vote_borders(grids, machine_pairs(len(model.classes)), spec.xs, spec.ys)
    return coloured(dataclasses.replace(
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


def with_probabilities(scene: Scene, model: SVMModel) -> Scene:
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


def _with_model_shares(frame: Frame, model: SVMModel,
                       svc: SVC | OneClassSVM | SVR | NuSVR | None) -> Frame:
    """The frame's support vectors' ring shares (frame_parts.ring_shares), each its largest
    over the machines that have it: of C_i where the estimator says its C (C-SVC, one-class,
    the regressions), of the largest |alpha| where it does not (hard margin, nu-SVC, a bare
    model); none for a primal solver's model."""
    if (svc is not None and not has_alpha(svc)) or any(is_primal(m) for m in model.machines):
        return frame
    shared = [ring_shares(m.dual_coef, _bounds(m, svc)) for m in model.machines]
    shares = largest_shares(frame.scene.support, [
        (m.support, share) for m, (share, _) in zip(model.machines, shared)])
    basis = "largest" if any(of == "largest" for _, of in shared) else "bound"
    return dataclasses.replace(frame, scene=dataclasses.replace(
        frame.scene, ring_share=shares, ring_basis=basis))


def _bounds(m, svc) -> np.ndarray | None:
    """The bound C_s of each of the machine's support vectors as the fitted estimator set
    it (the window's fits weigh points by class only), or None where it has no fixed one."""
    if svc is None or (isinstance(svc, SVC) and not svc.bounded_by_C):
        return None
    if isinstance(svc, OneClassSVM):                      # a one-class alpha is at most 1
        return np.ones(len(m.support))
    C = svc.get_params()["C"]
    if is_hard_margin(C):
        return None
    if isinstance(svc, SVC):
        # a fit says each class's weight; an estimator read back from a file does not,
        # unless no class was weighted
        weights = getattr(svc, "class_weight_", None)
        if weights is None and svc.get_params()["class_weight"] is None:
            weights = np.ones(max(m.positive, m.negative) + 1)
        if weights is None:
            return None
        classes = np.where(m.dual_coef > 0, m.positive, m.negative)
        return float(C) * np.asarray(weights)[classes]
    return np.full(len(m.support), float(C))


def _with_slack(frame: Frame, model: SVMModel, X: np.ndarray, labels: np.ndarray,
                f: np.ndarray, positive: int) -> Frame:
    """A two-class model's frame with its training points' slacks (X, their class indices
    and f there): their sum, and their segments where f is linear."""
    sign = np.where(labels == positive, 1.0, -1.0)
    margins = sign * f
    segments = slack_segments(X, sign, margins, input_w(model.machines[0].w, model.scaler))
    return dataclasses.replace(
        frame, scene=dataclasses.replace(frame.scene, slack=segments),
        reading=dataclasses.replace(frame.reading,
                                    slack=float(np.maximum(0.0, 1.0 - margins).sum())))


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
    return fractions_of(errors, n_support, nu, per_machine=len(model.machines) > 1)
