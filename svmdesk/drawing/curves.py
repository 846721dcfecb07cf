"""What the canvas and the readout show of a regression of one feature (numpy only): the curve
f(x) across the view, its tube f(x) +- epsilon, the support vectors ringed (free on the tube's
edge, bounded outside it), each training sample's residual, and how well the curve fits.
live_frames.py, model_frames.py and frame_views.py hand a regression's frames here
(make_frame, fitted_frame, model_frame, regrid, decision_at)."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from ..core.estimators import SVR, Machine, NuSVR, Progress
from ..core.estimators.regression import tube_width
from ..core.metrics import mse, r2
from ..core.model import SVMModel
from ..core.solvers.base import Snapshot
from ..core.training_job import Job
from .decision_grid import GridSpec
from .evaluation import FitEvaluation
from .scenes import FitReading, Frame, Reading, RunMark, Scene

CURVE_POINTS = 600      # samples of f across the view (more than a grid's 200 columns:
                        # a narrow rbf bump stays smooth)
EDGE = 1e-3             # |residual| - tube beyond this (of the targets' spread): outside the
                        # tube. Not 0: the free support vectors lie on its edge only to the
                        # solver's tolerance


def outside_tube(residual: np.ndarray, tube: float, targets: np.ndarray) -> np.ndarray:
    """Whether each residual lies outside the tube: the window rings these as bounded, the
    readout counts them and `svmdesk render` draws them as squares."""
    spread = float(np.ptp(targets)) if len(targets) else 0.0
    return np.abs(residual) - tube > EDGE * max(spread, 1e-12)


def curve_xs(spec: GridSpec) -> np.ndarray:
    """Where the curve is sampled: across the view's x range, finer than its grid."""
    return np.linspace(spec.x_min, spec.x_max, max(spec.nx, CURVE_POINTS))


def residual_path(x: np.ndarray, y: np.ndarray, f: np.ndarray) -> np.ndarray:
    """(3n, 2): for each sample (x, y), (x, f(x)) and a NaN row, one polyline for
    pyqtgraph's connect="finite"."""
    path = np.full((len(x), 3, 2), np.nan)
    path[:, 0, 0] = path[:, 1, 0] = x
    path[:, 0, 1], path[:, 1, 1] = y, f
    return path.reshape(-1, 2)


def _if_any(metric: Callable[[np.ndarray, np.ndarray], float], y: np.ndarray,
            f: np.ndarray) -> float | None:
    """metric(y, f), or None without samples (the readout shows a dash)."""
    return metric(y, f) if len(y) else None


def fit_reading(y: np.ndarray, f: np.ndarray, y_test: np.ndarray, f_test: np.ndarray,
                tube: float, nu: float | None, n_support: int) -> FitReading:
    """How the curve fits its training samples (y, f) and the held-out ones; n_support of
    the training samples are support vectors."""
    outside = outside_tube(y - f, tube, y)
    return FitReading(r2=_if_any(r2, y, f), mse=_if_any(mse, y, f),
                      r2_test=_if_any(r2, y_test, f_test),
                      mse_test=_if_any(mse, y_test, f_test), tube=tube,
                      outside=float(np.mean(outside)) if len(y) else None,
                      nu=None if nu is None else float(nu),
                      support=n_support / len(y) if len(y) else None)


def curve_scene(spec: GridSpec, x: np.ndarray, y: np.ndarray, f: np.ndarray,
                local: np.ndarray, support: np.ndarray, tube: float,
                curve: np.ndarray) -> Scene:
    """The scene of a regression: x, y, f the training samples, their targets and f there;
    `local` the support vectors among them, `support` their training indices; curve (m, 2)."""
    outside = outside_tube(y - f, tube, y)
    return Scene(spec=spec, classes=(), values=None, regions=None, contours={},
                 support=support, support_xy=np.column_stack([x[local], y[local]]),
                 bounded=outside[local], regression=True, curve=curve, tube=float(tube),
                 residuals=residual_path(x, y, f))


def live_curve_frame(step: Progress, job: Job, spec: GridSpec, f_train: np.ndarray,
                     f_test: np.ndarray, f_terms: tuple, elapsed: float, run: RunMark,
                     history: tuple) -> Frame:
    """A regression's frame of one snapshot: f_train and f_test its f on the training and
    held-out samples, f_terms (scaled points, coefficients) its kernel sum (none with w)."""
    snap, m = step.snapshot, step.machine
    points = m.points if m.points is not None else np.arange(len(job.y))
    x, y = job.X[points, 0], np.asarray(job.y, dtype=np.float64)[points]
    estimator, nu = job.estimator, None
    if isinstance(estimator, NuSVR):             # the tube's width is found with the curve
        assert snap.dual_coef is not None, "a nu-SVR snapshot holds its coefficients"
        nu, tube = estimator.nu, tube_width(y - f_train, snap.dual_coef, estimator.C)
    else:
        assert isinstance(estimator, SVR), "a regression's job trains an SVR or a NuSVR"
        tube = float(estimator.epsilon)
    xs = curve_xs(spec)
    curve = np.column_stack([xs, snapshot_f(snap, m, f_terms, xs)])
    local = np.asarray(snap.support, dtype=np.intp)
    scene = curve_scene(spec, x, y, f_train, local, points[local], tube, curve)
    y_test = np.asarray(job.y_test, dtype=np.float64)
    reading = Reading(snapshot=snap, machine=m, train_accuracy=None, test_accuracy=None,
                      margin_width=None, elapsed=elapsed, history=history,
                      fit=fit_reading(y, f_train, y_test, f_test, tube, nu, len(local)))
    return Frame(scene, reading, run, f_terms=f_terms,
                 evaluation=FitEvaluation(f_train, y, f_test, y_test))


def snapshot_f(snap: Snapshot, m: Machine, f_terms: tuple, x: np.ndarray) -> np.ndarray:
    """A snapshot's f at the feature values x (input units)."""
    z = x.reshape(-1, 1) if m.scaler is None else m.scaler.transform(x.reshape(-1, 1))
    if snap.w is not None:
        return z @ snap.w + snap.bias
    return m.kernel.matvec(z, *f_terms) + snap.bias


def curve_of(frame: Frame, x: np.ndarray) -> np.ndarray:
    """A regression frame's f at the feature values x: its model's, or its snapshot's."""
    if frame.model is not None:
        return frame.model.predict(x.reshape(-1, 1))
    return snapshot_f(frame.reading.snapshot, frame.reading.machine, frame.f_terms, x)


def recurved(frame: Frame, spec: GridSpec) -> Frame:
    """A regression frame with its curve across another view."""
    xs = curve_xs(spec)
    scene = dataclasses.replace(frame.scene, spec=spec,
                                curve=np.column_stack([xs, curve_of(frame, xs)]))
    return dataclasses.replace(frame, scene=scene)


def model_curve_frame(model: SVMModel, estimator: SVR | NuSVR | None, X: np.ndarray,
                      y: np.ndarray | None, spec: GridSpec, held_out: np.ndarray | None,
                      snapshot: Snapshot) -> Frame:
    """A fitted regressor's frame (see model_frames.model_frame): X (n, 1) the samples, y their
    targets, held_out marks those not trained on (the model's support indices count the
    others). The tube is the estimator's epsilon_ (a bare model does not say it: NaN, and
    no sample is outside). Without targets the support vectors sit on the curve."""
    machine = Machine(0, 1, (), None, model.kernel, model.scaler)
    tube = float(estimator.epsilon_) if estimator is not None else float("nan")
    nu = estimator.get_params()["nu"] if isinstance(estimator, NuSVR) else None
    xs = curve_xs(spec)
    curve = np.column_stack([xs, model.predict(xs[:, None])])
    support = np.asarray(model.machines[0].support, dtype=np.intp)
    reading = Reading(snapshot=snapshot, machine=machine, train_accuracy=None,
                      test_accuracy=None, margin_width=None, elapsed=0.0)
    targets = None if y is None else np.asarray(y, dtype=np.float64)
    test = (np.zeros(0 if targets is None else len(targets), dtype=bool) if held_out is None
            else np.asarray(held_out, dtype=bool))
    if targets is None or (~test).sum() <= support.max(initial=-1):
        scene = _untargeted_scene(model, spec, support, tube, curve)
        return Frame(scene, reading, RunMark(final=True), model=model, estimator=estimator)
    x = np.asarray(X, dtype=np.float64).reshape(-1)
    f = model.predict(x[:, None])
    train = ~test
    scene = curve_scene(spec, x[train], targets[train], f[train], support, support, tube,
                        curve)
    reading = dataclasses.replace(reading, fit=fit_reading(
        targets[train], f[train], targets[test], f[test], tube, nu, len(support)))
    return Frame(scene, reading, RunMark(final=True), model=model, estimator=estimator,
                 evaluation=FitEvaluation(f[train], targets[train], f[test], targets[test]))


def _untargeted_scene(model: SVMModel, spec: GridSpec, support: np.ndarray, tube: float,
                      curve: np.ndarray) -> Scene:
    """A model's scene without its training targets: the support vectors on the curve."""
    Z = model.machines[0].support_vectors
    x = (Z if model.scaler is None else Z * model.scaler.scale + model.scaler.mean)[:, 0]
    return Scene(spec=spec, classes=(), values=None, regions=None, contours={},
                 support=support, support_xy=np.column_stack([x, model.predict(x[:, None])]),
                 bounded=np.zeros(len(support), dtype=bool), regression=True, curve=curve,
                 tube=tube)
