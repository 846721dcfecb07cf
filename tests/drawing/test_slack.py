"""A linear classifier's slacks: a segment from each margin violator to its own margin, of
length xi_i / ||w|| with xi_i = max(0, 1 - y_i f(x_i)), ending where y f = 1; and their sum
in the reading (scikit-learn's SVC the oracle of f)."""
import numpy as np
import pytest
from sklearn import svm

from svmdesk.core import make_dataset
from svmdesk.core.estimators import SVC
from svmdesk.core.training_job import Job
from svmdesk.drawing.decision_grid import GridSpec
from svmdesk.drawing.live_frames import make_frame
from svmdesk.drawing.model_frames import model_frame

SPEC = GridSpec(-4.0, 4.0, -4.0, 4.0, nx=20, ny=20)


def segments(frame) -> tuple:
    """(starts, ends) of the frame's slack segments."""
    path = frame.scene.slack.reshape(-1, 3, 2)
    assert np.isnan(path[:, 2]).all()
    return path[:, 0], path[:, 1]


@pytest.mark.parametrize("standardize", [False, True])
def test_each_violator_has_a_segment_of_its_slack_over_w_to_its_margin(standardize):
    d = make_dataset("blobs", n=120, noise=1.4, seed=5)
    X = d.X * [1.0, 3.0]                  # unequal scales: standardizing changes w's units
    ours = SVC(kernel="linear", C=1.0, standardize=standardize, tol=1e-7).fit(X, d.y)
    frame = model_frame(ours, X, d.y, SPEC)
    y = np.where(d.y == 1, 1.0, -1.0)
    f = ours.decision_function(X)
    xi = np.maximum(0.0, 1.0 - y * f)
    starts, ends = segments(frame)
    violators = np.flatnonzero(xi > 0)
    np.testing.assert_array_equal(starts, X[violators])
    # f over the input: its gradient is the w the segments run along
    w = np.array([(ours.decision_function(X[:1] + e) - f[:1])[0] for e in np.eye(2)])
    # xi = 1 - y f loses f's relative precision to cancellation where xi is tiny (a point
    # all but on its margin: 1.5e-8 came out 1.6e-8 apart in relative terms on another
    # CPU's rounding), so the lengths agree to float64's precision of f, not of xi
    np.testing.assert_allclose(np.hypot(*(ends - starts).T), xi[violators] / np.linalg.norm(w),
                               rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(y[violators] * ours.decision_function(ends), 1.0, atol=1e-9)
    oracle = svm.SVC(kernel="linear", C=1.0, tol=1e-7).fit(
        (X - X.mean(0)) / X.std(0) if standardize else X, d.y)
    oracle_f = oracle.decision_function((X - X.mean(0)) / X.std(0) if standardize else X)
    assert frame.reading.slack == pytest.approx(np.maximum(0.0, 1.0 - y * oracle_f).sum(),
                                                rel=1e-4)


@pytest.mark.filterwarnings("ignore:solver")
def test_a_primal_solvers_live_frame_has_its_slack_and_a_kernel_only_its_sum():
    d = make_dataset("blobs", n=80, noise=1.4, seed=6)
    y = np.where(d.y == 1, 1.0, -1.0)
    for kernel, drawn in (("linear", True), ("rbf", False)):
        estimator = SVC(solver="pegasos" if drawn else "smo", kernel=kernel, C=1.0,
                        max_iter=300, random_state=0)
        job = Job(X=d.X, y=d.y, estimator=estimator)
        last = list(estimator.iter_fit(d.X, d.y, every=10**9))[-1]
        frame = make_frame(last, job, SPEC, 0.0)
        f = estimator.decision_function(d.X)
        xi = np.maximum(0.0, 1.0 - y * f)
        assert frame.reading.slack == pytest.approx(xi.sum(), rel=1e-9)
        assert (len(frame.scene.slack) == 3 * np.count_nonzero(xi > 0)) if drawn \
            else not len(frame.scene.slack)

