"""The frames of a run as it trains (numpy only): a solver's snapshot of one machine drawn
(decision grid, contours, support vectors, accuracies), a multi-class run's machines drawn as
their vote so far, f's kernel sums kept between a run's frames, and the charts' points. Made
off the GUI thread by the training worker.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from ..core.estimators import NuSVC, OneClassSVM, Progress
from ..core.kinds import KINDS
from ..core.solvers.base import Snapshot
from ..core.solvers.smo.trace import PairStep
from ..core.training_job import Job
from .contours import contour_path_levels, vote_borders
from .curves import live_curve_frame
from .decision_grid import GridSpec, decision_grid
from .evaluation import evaluation_of
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
from .scenes import Frame, Reading, RunMark, Scene

GRAM_MAX_POINTS = 2000       # training points whose kernel matrix a run keeps (32 MB)


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


def make_frame(step: Progress, job: Job, spec: GridSpec, elapsed: float,
               final: bool = False, stopped: bool = False, history: tuple = (),
               sums: KernelSums | None = None, evaluate: bool = True) -> Frame:
    """Decision grid, contours, support vectors and accuracies for one moment of training:
    a solver's snapshot of one machine (numpy only); a regression's curve, tube and
    residuals (curves.py); drawn over the grid `spec`. `evaluate`: with the evaluation of
    its scores (two sorts of the points: 5 ms at 20,000 of them, left out while nobody
    looks at it). The frame names the training points of f's terms (the hover's)."""
    frame = _with_ring_shares(
        _make_frame(step, job, spec, elapsed, final, stopped, history, sums, evaluate),
        step, job)
    snap, m = step.snapshot, step.machine
    if snap.w is not None or snap.dual_coef is None:
        return frame
    points = m.points if m.points is not None else np.arange(len(job.y))
    return dataclasses.replace(frame, f_points=points[np.flatnonzero(snap.dual_coef)])


def _with_ring_shares(frame: Frame, step: Progress, job: Job) -> Frame:
    """The frame's support vectors' shares of their rings (frame_parts.ring_shares): of a
    solver that trains alpha only."""
    snap, m = step.snapshot, step.machine
    if snap.dual_coef is None or not has_alpha(job.estimator):
        return frame
    local = np.asarray(snap.support, dtype=np.intp)
    shares, basis = ring_shares(snap.dual_coef[local],
                                None if m.bounds is None else m.bounds[local])
    return dataclasses.replace(frame, scene=dataclasses.replace(
        frame.scene, ring_share=shares, ring_basis=basis))


def _make_frame(step: Progress, job: Job, spec: GridSpec, elapsed: float, final: bool,
                stopped: bool, history: tuple, sums: KernelSums | None,
                evaluate: bool) -> Frame:
    snap, m = step.snapshot, step.machine
    points = m.points if m.points is not None else np.arange(len(job.y))
    Z = job.X[points] if m.scaler is None else m.scaler.transform(job.X[points])
    f_train, f_terms = _training_f(step, Z, sums)
    if KINDS[job.kind].regression:
        held_f = (_held_out_f(step, job, Z, f_terms, sums) if len(job.y_test)
                  else np.empty(0))
        return with_pair_step(
            live_curve_frame(step, job, spec, f_train, held_f, f_terms, elapsed,
                             RunMark(final=final, stopped=stopped), history),
            points, np.column_stack([job.X[:, 0], np.asarray(job.y, dtype=np.float64)]))
    local = np.asarray(snap.support, dtype=np.intp)
    if snap.w is not None:
        values = decision_grid(m.kernel, np.empty((0, 2)), np.empty(0), snap.bias,
                               spec, w=snap.w, scaler=m.scaler)
    else:
        terms_z, coef = f_terms
        values = decision_grid(m.kernel, terms_z, coef, snap.bias, spec, scaler=m.scaler)
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
    width = margin_width(w)
    one_class = isinstance(job.estimator, OneClassSVM)
    scene = Scene(
        spec=spec, classes=(int(neg), int(pos)), values=values, regions=None,
        contours=contour_path_levels(values, spec.xs, spec.ys, contour_levels(one_class)),
        support=points[local], support_xy=job.X[points[local]],
        bounded=f_train[local] < OUTSIDE if one_class else margins[local] < MARGIN_MET,
        hard_margin=is_hard_margin(getattr(job.estimator, "C", 1.0)), one_class=one_class)
    if m.count == 1:          # one machine of several is drawn as the vote of all of them:
        scene = coloured(scene)    # with_finished_machines colours that scene
    fractions = None
    if isinstance(job.estimator, NuSVC) and len(margins):
        fractions = fractions_of([margins < MARGIN_MET], [len(local)], job.estimator.nu,
                                 per_machine=m.count > 1)
    if snap.batch is not None and not final:        # what the stochastic step saw last
        scene = dataclasses.replace(scene, batch_xy=job.X[points[snap.batch]])
    if m.count == 1 and not one_class:
        sign = np.where(job.y[points] == pos, 1.0, -1.0)
        scene = dataclasses.replace(scene, slack=slack_segments(
            job.X[points], sign, margins, input_w(w, m.scaler)))
    reading = Reading(snapshot=snap, machine=m, train_accuracy=train_acc,
                      test_accuracy=test_acc, margin_width=width, elapsed=elapsed,
                      history=history, fractions=fractions,
                      slack=(float(np.maximum(0.0, 1.0 - margins).sum())
                             if m.count == 1 and not one_class else None))
    # a multi-class run's machine scores only its own two classes: its evaluation comes
    # with the fitted model at the end of the run
    evaluation = (evaluation_of(scene.classes, job.y[points], f_train, job.y_test, f_test)
                  if m.count == 1 and evaluate else None)
    frame = Frame(scene, reading, RunMark(final=final, stopped=stopped), f_terms=f_terms,
                  evaluation=evaluation)
    if isinstance(job.estimator, OneClassSVM):
        f_test = np.empty(0) if f_test is None else f_test
        frame = judged_one_class(
            frame, np.vstack([job.X[points], job.X_test]), np.concatenate([f_train, f_test]),
            np.arange(len(points) + len(f_test)) < len(points),
            np.concatenate([job.y[points], job.y_test]), int(pos), len(local), job.estimator.nu)
    return with_pair_step(frame, points, job.X)


def with_pair_step(frame: Frame, points: np.ndarray, xy: np.ndarray) -> Frame:
    """The frame with SMO's last pair step (the snapshot's trace), its i and j numbering
    the run's training points (a machine's own through `points`), and where they lie
    (`xy`: each training point's place on the canvas); and the KKT state of each of the
    machine's points."""
    snap = frame.reading.snapshot
    scene = frame.scene
    if snap.kkt is not None:
        scene = dataclasses.replace(scene, kkt=snap.kkt, kkt_xy=xy[points])
    step = next((record for record in snap.trace if isinstance(record, PairStep)), None)
    if step is None:
        return dataclasses.replace(frame, scene=scene)
    step = dataclasses.replace(step, i=int(points[step.i]), j=int(points[step.j]))
    return dataclasses.replace(
        frame, scene=dataclasses.replace(scene, pair_xy=xy[[step.i, step.j]]),
        reading=dataclasses.replace(frame.reading, pair_step=step))


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
    scene = coloured(dataclasses.replace(
        frame.scene, regions=regions, contours={0.0: borders}, support=support, bounded=bounded,
        support_xy=np.concatenate([s.support_xy for s in scenes])[first],
        ring_share=_largest_shares(scenes, support)))
    return dataclasses.replace(frame, scene=scene)


def _largest_shares(scenes: list, support: np.ndarray) -> np.ndarray | None:
    """Each support vector's largest ring share over the machines that have it (`support`:
    theirs together, sorted); None when the machines have no shares."""
    if any(s.ring_share is None for s in scenes):
        return None
    return largest_shares(support, [(s.support, s.ring_share) for s in scenes])
