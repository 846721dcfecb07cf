"""Each support vector's ring share is |alpha| over its bound C_i, as LIBSVM (scikit-learn's
SVC, OneClassSVM and SVR) has the multipliers: in a fitted model's frame and in a run's
last live frame; for every machine of three classes; for none of a primal solver's."""
import numpy as np
import pytest
from sklearn import svm

from svmdesk.core import make_dataset
from svmdesk.core.estimators import SVC, SVR, NuSVC, OneClassSVM
from svmdesk.core.training_job import Job
from svmdesk.drawing.decision_grid import GridSpec
from svmdesk.drawing.live_frames import make_frame, with_finished_machines
from svmdesk.drawing.model_frames import model_frame

SPEC = GridSpec(-3.0, 3.0, -3.0, 3.0, nx=20, ny=20)
ALIKE = dict(rtol=0, atol=1e-4)
TOL = 1e-7                             # both solvers near the optimum: alike to 1e-4


def shares_by_point(frame) -> dict:
    return dict(zip(frame.scene.support.tolist(), frame.scene.ring_share.tolist()))


def oracle_shares(oracle, bounds) -> dict:
    """|alpha_s| / C_s of scikit-learn's fit, each support vector's largest over its
    machines (the columns of dual_coef_ a one-vs-one SVC keeps)."""
    size = np.abs(np.atleast_2d(oracle.dual_coef_)).max(axis=0)
    return dict(zip(oracle.support_.tolist(), (size / bounds).tolist()))


def assert_shares(frame, expected: dict) -> None:
    got = shares_by_point(frame)
    assert set(got) == set(expected)
    keys = sorted(got)
    np.testing.assert_allclose([got[k] for k in keys], [expected[k] for k in keys], **ALIKE)


def test_a_weighted_svcs_shares_are_alpha_over_each_points_c():
    d = make_dataset("moons", n=120, noise=0.3, seed=0)
    weights = {0: 3.0, 1: 1.0}
    ours = SVC(kernel="rbf", C=2.0, class_weight=weights, tol=TOL).fit(d.X, d.y)
    oracle = svm.SVC(kernel="rbf", C=2.0, gamma="scale", class_weight=weights,
                     tol=TOL).fit(d.X, d.y)
    frame = model_frame(ours, d.X, d.y, SPEC)
    bounds = 2.0 * np.array([weights[c] for c in d.y[oracle.support_]])
    assert_shares(frame, oracle_shares(oracle, bounds))
    assert frame.scene.ring_basis == "bound" and frame.scene.ring_share.max() == 1.0


def test_one_class_and_regression_shares_are_of_their_bounds():
    d = make_dataset("blobs", n=80, noise=0.6, seed=1)
    frame = model_frame(OneClassSVM(nu=0.3, tol=TOL).fit(d.X), d.X, np.ones(80, dtype=int), SPEC)
    oracle = svm.OneClassSVM(nu=0.3, gamma="scale", tol=TOL).fit(d.X)
    assert_shares(frame, oracle_shares(oracle, 1.0))
    x = d.X[:, :1]
    t = np.sin(2 * x[:, 0]) + 0.1 * d.X[:, 1]
    frame = model_frame(SVR(C=3.0, epsilon=0.1, tol=TOL).fit(x, t), x, t, SPEC)
    oracle = svm.SVR(C=3.0, epsilon=0.1, gamma="scale", tol=TOL).fit(x, t)
    assert_shares(frame, oracle_shares(oracle, 3.0))


def test_a_nu_svc_shares_its_largest_alpha():
    d = make_dataset("moons", n=100, noise=0.3, seed=2)
    frame = model_frame(NuSVC(nu=0.4, tol=TOL).fit(d.X, d.y), d.X, d.y, SPEC)
    oracle = svm.NuSVC(nu=0.4, gamma="scale", tol=TOL).fit(d.X, d.y)
    size = np.abs(oracle.dual_coef_[0])
    assert_shares(frame, dict(zip(oracle.support_.tolist(), (size / size.max()).tolist())))
    assert frame.scene.ring_basis == "largest"


def test_a_runs_last_live_frame_of_three_classes_has_each_machines_largest_share():
    d = make_dataset("blobs", n=90, noise=1.2, seed=3, centers=3)
    estimator = SVC(kernel="rbf", C=1.5, tol=TOL)
    job = Job(X=d.X, y=d.y, estimator=estimator)
    done, last = [], None
    for step in estimator.iter_fit(d.X, d.y, every=10**9):
        if last is not None and step.machine.index != last.machine.index:
            done.append(make_frame(last, job, SPEC, 0.0))
        last = step
    frame = with_finished_machines(make_frame(last, job, SPEC, 0.0), done, job)
    oracle = svm.SVC(kernel="rbf", C=1.5, gamma="scale", tol=TOL).fit(d.X, d.y)
    assert_shares(frame, oracle_shares(oracle, 1.5))


@pytest.mark.filterwarnings("ignore:solver")
@pytest.mark.parametrize("solver", ["pegasos", "primal-subgradient", "kernel-gradient"])
def test_a_solver_without_alpha_has_no_shares(solver):
    d = make_dataset("blobs", n=60, noise=0.8, seed=4)
    estimator = SVC(solver=solver, kernel="linear", max_iter=200, random_state=0)
    job = Job(X=d.X, y=d.y, estimator=estimator)
    last = list(estimator.iter_fit(d.X, d.y, every=10**9))[-1]
    assert make_frame(last, job, SPEC, 0.0).scene.ring_share is None
    assert model_frame(estimator, d.X, d.y, SPEC).scene.ring_share is None
