"""Regression frames (epsilon-SVR, nu-SVR of one feature) against scikit-learn's SVR and
NuSVR: the curve, the tube, the rings, the residuals and the fit readout."""
import dataclasses

import numpy as np
import pytest
from sklearn.metrics import mean_squared_error, r2_score
from sklearn.svm import SVR as SkSVR
from sklearn.svm import NuSVR as SkNuSVR

from svmdesk.core.estimators import SVR, NuSVR
from svmdesk.core.regression_generators import make_samples
from svmdesk.core.training_job import Job
from svmdesk.drawing.curves import EDGE, outside_tube
from svmdesk.drawing.decision_grid import GridSpec
from svmdesk.drawing.frame_views import decision_at, regrid
from svmdesk.drawing.live_frames import KernelSums, make_frame
from svmdesk.drawing.model_frames import fitted_frame, model_frame
from svmdesk.formats import load_model, save_model

SPEC = GridSpec(-0.5, 10.0, -2.0, 2.0)
PARAMS = {"kernel": "rbf", "gamma": 1.0, "C": 10.0, "tol": 1e-8}
KINDS = {
    "epsilon_svr": (SVR, SkSVR, {"epsilon": 0.1}),
    "nu_svr": (NuSVR, SkNuSVR, {"nu": 0.3}),
}


def _data():
    train = make_samples("sine", n=80, noise=0.2, seed=0)
    test = make_samples("sine", n=30, noise=0.2, seed=1)
    return train.X, train.y, test.X, test.y


def _run(kind):
    """Our estimator fitted by iter_fit, its last Progress, the job, sklearn's fit."""
    ours, theirs, extra = KINDS[kind]
    X, y, X_test, y_test = _data()
    params = {**PARAMS, **extra}
    estimator = ours(**params)
    *_, last = estimator.iter_fit(X, y, every=50)     # the stream's last Progress
    reference = theirs(kernel="rbf", gamma=1.0, C=10.0, tol=1e-8, **extra).fit(X, y)
    job = Job(X, y, ours(**params), X_test=X_test, y_test=y_test)
    return estimator, last, job, reference


@pytest.fixture(scope="module", params=list(KINDS))
def run(request):
    return _run(request.param)


def test_curve_is_our_prediction_and_matches_sklearn(run):
    estimator, last, job, reference = run
    frame = fitted_frame(estimator, last, job, SPEC, elapsed=1.0)
    scene = frame.scene
    assert scene.regression and scene.values is None and scene.regions is None
    assert scene.contours == {} and scene.picture is None and scene.hard_picture is None
    xs, f = scene.curve[:, 0], scene.curve[:, 1]
    assert xs[0] == SPEC.x_min and xs[-1] == SPEC.x_max and len(xs) >= SPEC.nx
    np.testing.assert_array_equal(f, estimator.predict(xs[:, None]))
    np.testing.assert_allclose(f, reference.predict(xs[:, None]), atol=2e-3)


def test_tube_is_the_fitted_width(run):
    estimator, last, job, _ = run
    frame = fitted_frame(estimator, last, job, SPEC, elapsed=1.0)
    assert frame.scene.tube == estimator.epsilon_ == frame.reading.fit.tube
    if job.kind == "epsilon_svr":
        assert estimator.epsilon_ == 0.1
        assert frame.reading.fit.nu is None
    else:
        assert frame.reading.fit.nu == 0.3


def test_live_width_from_the_last_snapshot_is_the_fitted_one(run):
    estimator, last, job, _ = run
    live = make_frame(last, job, SPEC, elapsed=1.0, final=True)
    assert live.scene.tube == pytest.approx(estimator.epsilon_, abs=1e-6)


def test_rings_and_outside_follow_sklearn_residuals(run):
    estimator, last, job, reference = run
    frame = fitted_frame(estimator, last, job, SPEC, elapsed=1.0)
    x, y = job.X[:, 0], job.y
    residual = y - reference.predict(job.X)
    tube = frame.scene.tube
    spread = EDGE * np.ptp(y)
    # clear of the tolerance (sklearn's curve differs from ours by up to 2e-3), the rule agrees
    clear = np.abs(np.abs(residual) - tube - spread) > 5e-3
    expected = np.abs(residual) - tube > spread
    ours = outside_tube(y - estimator.predict(job.X), tube, y)
    np.testing.assert_array_equal(ours[clear], expected[clear])
    np.testing.assert_array_equal(frame.scene.support, estimator.support_)
    np.testing.assert_array_equal(frame.scene.support_xy,
                                  np.column_stack([x, y])[estimator.support_])
    np.testing.assert_array_equal(frame.scene.bounded, ours[estimator.support_])
    assert frame.reading.fit.outside == pytest.approx(np.mean(ours))
    assert 0 < frame.scene.bounded.sum() < len(frame.scene.support)
    # outside the tube: every such sample is a support vector (its multiplier at C)
    assert set(np.flatnonzero(ours)) <= set(estimator.support_.tolist())


def test_fit_reading_is_sklearns_scores_of_our_predictions(run):
    estimator, last, job, _ = run
    fit = fitted_frame(estimator, last, job, SPEC, elapsed=1.0).reading.fit
    train_f, test_f = estimator.predict(job.X), estimator.predict(job.X_test)
    assert fit.r2 == pytest.approx(r2_score(job.y, train_f), abs=1e-12)
    assert fit.mse == pytest.approx(mean_squared_error(job.y, train_f), abs=1e-12)
    assert fit.r2_test == pytest.approx(r2_score(job.y_test, test_f), abs=1e-12)
    assert fit.mse_test == pytest.approx(mean_squared_error(job.y_test, test_f), abs=1e-12)
    assert fit.r2 == pytest.approx(estimator.score(job.X, job.y), abs=1e-12)
    assert fit.r2 > 0.8


def test_no_held_out_samples_no_test_scores():
    estimator, last, job, _ = _run("epsilon_svr")
    job = dataclasses.replace(job, X_test=np.empty((0, 1)), y_test=np.empty(0))
    for frame in (fitted_frame(estimator, last, job, SPEC, elapsed=1.0),
                  make_frame(last, job, SPEC, elapsed=1.0)):
        assert frame.reading.fit.r2_test is None and frame.reading.fit.mse_test is None
        assert frame.reading.train_accuracy is None and frame.reading.test_accuracy is None


def test_residual_polyline(run):
    estimator, last, job, _ = run
    path = fitted_frame(estimator, last, job, SPEC, elapsed=1.0).scene.residuals
    n = len(job.y)
    assert path.shape == (3 * n, 2)
    x, y, f = job.X[:, 0], job.y, estimator.predict(job.X)
    np.testing.assert_array_equal(path[0::3], np.column_stack([x, y]))
    np.testing.assert_array_equal(path[1::3], np.column_stack([x, f]))
    assert np.isnan(path[2::3]).all()


def test_regrid_moves_the_curve_and_keeps_the_rest(run):
    estimator, last, job, _ = run
    for frame in (fitted_frame(estimator, last, job, SPEC, elapsed=1.0),
                  make_frame(last, job, SPEC, elapsed=1.0)):
        moved = regrid(frame, GridSpec(2.0, 4.0, -1.0, 1.0))
        xs = moved.scene.curve[:, 0]
        assert xs[0] == 2.0 and xs[-1] == 4.0 and moved.scene.spec.x_min == 2.0
        np.testing.assert_allclose(moved.scene.curve[:, 1], estimator.predict(xs[:, None]),
                                   atol=1e-9)
        np.testing.assert_array_equal(moved.scene.residuals, frame.scene.residuals)
        assert moved.scene.tube == frame.scene.tube


def test_live_frame_from_the_last_progress_agrees_with_the_fitted_one(run):
    estimator, last, job, _ = run
    fitted = fitted_frame(estimator, last, job, SPEC, elapsed=1.0)
    for sums in (None, KernelSums()):
        live = make_frame(last, job, SPEC, elapsed=1.0, final=True, sums=sums)
        assert live.scene.regression and live.reading.train_accuracy is None
        np.testing.assert_allclose(live.scene.curve, fitted.scene.curve, atol=1e-9)
        np.testing.assert_allclose(live.scene.residuals, fitted.scene.residuals, atol=1e-9)
        np.testing.assert_array_equal(live.scene.support, fitted.scene.support)
        np.testing.assert_array_equal(live.scene.support_xy, fitted.scene.support_xy)
        np.testing.assert_array_equal(live.scene.bounded, fitted.scene.bounded)
        for name in ("r2", "mse", "r2_test", "mse_test", "tube", "outside", "nu"):
            assert getattr(live.reading.fit, name) == pytest.approx(
                getattr(fitted.reading.fit, name), abs=1e-9), name


def test_an_early_snapshot_draws_its_own_curve():
    estimator = SVR(**PARAMS, epsilon=0.1)
    X, y, X_test, y_test = _data()
    job = Job(X, y, SVR(**PARAMS, epsilon=0.1), X_test=X_test, y_test=y_test)
    first = next(iter(estimator.iter_fit(X, y, every=5)))
    frame = make_frame(first, job, SPEC, elapsed=0.0)
    snap = first.snapshot
    terms = np.flatnonzero(snap.dual_coef)
    scaler = first.machine.scaler
    Z = X if scaler is None else scaler.transform(X)
    xs = frame.scene.curve[:, 0]
    zs = xs[:, None] if scaler is None else scaler.transform(xs[:, None])
    expected = first.machine.kernel(zs, Z[terms]) @ snap.dual_coef[terms] + snap.bias
    np.testing.assert_allclose(frame.scene.curve[:, 1], expected, atol=1e-9)
    assert frame.reading.fit.r2 < 0.8       # not fitted yet


def test_decision_at_reads_the_curve(run):
    estimator, last, job, _ = run
    for frame in (fitted_frame(estimator, last, job, SPEC, elapsed=1.0),
                  make_frame(last, job, SPEC, elapsed=1.0)):
        f, cls = decision_at(frame, (1.5, 99.0))
        assert cls is None
        assert f == pytest.approx(float(estimator.predict([[1.5]])[0]), abs=1e-9)


def test_reopened_model_draws_the_same_scene(run, tmp_path):
    estimator, last, job, _ = run
    path = save_model(estimator, tmp_path / "model.json")
    reopened = load_model(path)
    X = np.vstack([job.X, job.X_test])
    y = np.concatenate([job.y, job.y_test])
    held_out = np.arange(len(y)) >= len(job.y)
    frame = model_frame(reopened, X, y, SPEC, held_out=held_out)
    fitted = fitted_frame(estimator, last, job, SPEC, elapsed=1.0)
    for name in ("curve", "residuals", "support", "support_xy", "bounded"):
        np.testing.assert_allclose(getattr(frame.scene, name), getattr(fitted.scene, name),
                                   atol=1e-12, err_msg=name)
    assert frame.scene.tube == fitted.scene.tube
    assert frame.reading.fit == fitted.reading.fit
    assert frame.model is not None and frame.estimator is reopened


def test_a_model_without_targets_rings_its_support_vectors_on_the_curve(run):
    estimator, _, job, _ = run
    frame = model_frame(estimator, job.X, None, SPEC)
    sv = frame.scene.support_xy
    np.testing.assert_allclose(sv[:, 0], job.X[estimator.support_, 0], atol=1e-12)
    np.testing.assert_allclose(sv[:, 1], estimator.predict(sv[:, :1]), atol=1e-12)
    assert frame.reading.fit is None and not frame.scene.bounded.any()
    assert frame.scene.residuals.shape == (0, 2)
