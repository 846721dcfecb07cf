"""The one-class SVM against LIBSVM's (scikit-learn's OneClassSVM): blobs with uniform
outliers and a real set, four kernels, both solvers (SMO and dual gradient ascent), at tol
1e-6: decision values, offset, support set, predictions, and the fraction of outliers
against nu."""
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.svm import OneClassSVM as LibOneClassSVM
from sklearn.utils.estimator_checks import parametrize_with_checks

from svmdesk.core import OneClassSVM
from svmdesk.core.errors import DataError, NotFittedError

from .conftest import SAMPLE_WEIGHT_FAILURES

TOL = 1e-6
EDGE = 1e-5     # |f| below this: on the boundary, where a free support vector lies


def _blobs_with_outliers():
    """Two blobs and uniform outliers, all in the positive quadrant (see _breast_cancer)."""
    rng = np.random.default_rng(0)
    return np.r_[rng.normal(2.0, 0.5, (150, 2)), rng.normal(5.0, 0.5, (100, 2)),
                 rng.uniform(0.0, 7.0, (25, 2))]


def _breast_cancer():
    """Its first eight features scaled to [0, 1], the usual preparation for a one-class SVM:
    centred data put the origin among the points, where the linear kernel's one-class
    problem is flat (LIBSVM then cycles without end at tol 1e-6)."""
    X = load_breast_cancer().data[:, :8]
    return (X - X.min(axis=0)) / (X.max(axis=0) - X.min(axis=0))


SETS = {"blobs and outliers": _blobs_with_outliers(), "breast cancer": _breast_cancer()}
# gamma for sigmoid: at 'scale' its matrix is far from positive semi-definite, and two
# solvers of a non-convex dual may stop at different stationary points
GAMMA = {"linear": "scale", "rbf": "scale", "poly": "scale", "sigmoid": 0.05}


@pytest.mark.parametrize("nu", [0.1, 0.5])
@pytest.mark.parametrize("kernel", ["linear", "rbf", "poly", "sigmoid"])
@pytest.mark.parametrize("name", list(SETS))
@pytest.mark.parametrize("solver", ["smo", "dual-gradient"])
def test_one_class_matches_libsvm(solver, name, kernel, nu):
    X = SETS[name]
    params = dict(kernel=kernel, nu=nu, gamma=GAMMA[kernel], tol=TOL)
    ours = OneClassSVM(solver=solver, **params).fit(X)
    assert ours.converged_
    ref = LibOneClassSVM(max_iter=10**6, **params).fit(X)     # a bound, should it cycle
    f, f_ref = ours.decision_function(X), ref.decision_function(X)
    scale = max(1.0, np.abs(f_ref).max())
    np.testing.assert_allclose(f, f_ref, atol=1e-5 * scale)
    np.testing.assert_allclose(ours.offset_, ref.offset_, atol=1e-5 * scale)
    np.testing.assert_allclose(ours.score_samples(X), ref.score_samples(X), atol=1e-5 * scale)
    clear = np.abs(f_ref) > EDGE * scale       # on the edge the sign is rounding's
    np.testing.assert_array_equal(ours.predict(X)[clear], ref.predict(X)[clear])
    if kernel in ("rbf", "sigmoid"):           # a unique optimum (linear, poly: a flat one)
        np.testing.assert_array_equal(ours.support_, ref.support_)
        # the gradient's tol leaves a multiplier further off along a flat direction (two
        # free support vectors trading weight: 2e-4 on breast cancer, sigmoid) than f
        np.testing.assert_allclose(ours.dual_coef_, ref.dual_coef_,
                                   atol=1e-5 if solver == "smo" else 1e-3)
    # the nu-property: outliers at most nu, support vectors at least nu
    outside = np.mean(f < -EDGE * scale)
    assert outside <= nu + 1e-9 and len(ours.support_) / len(X) >= nu - 1e-9
    assert ours.dual_coef_.sum() == pytest.approx(nu * len(X))


def test_the_attributes_are_scikit_learns():
    X = SETS["blobs and outliers"]
    ours = OneClassSVM(kernel="linear", nu=0.3).fit(X)
    ref = LibOneClassSVM(kernel="linear", nu=0.3).fit(X)
    for name in ("offset_", "intercept_", "dual_coef_", "support_", "n_support_", "coef_",
                 "support_vectors_"):
        assert np.shape(getattr(ours, name)) == np.shape(getattr(ref, name)), name
    np.testing.assert_allclose(ours.decision_function(X),
                               X @ ours.coef_[0] - ours.offset_[0], atol=1e-12)
    assert set(np.unique(ours.predict(X))) <= {-1, 1}
    np.testing.assert_array_equal(ours.fit_predict(X), ours.predict(X))
    assert ours.model_.kind == "one_class" and not ours.model_.has_margins


def test_iter_fit_streams_snapshots_then_sets_the_model():
    X = SETS["blobs and outliers"]
    model = OneClassSVM(nu=0.2, max_iter=None)
    snaps = [p.snapshot for p in model.iter_fit(X, every=5)]
    assert len(snaps) > 2 and snaps[-1].converged
    duals = [s.dual_objective for s in snaps]
    assert all(b >= a - 1e-12 for a, b in zip(duals, duals[1:]))     # SMO never lowers D
    # the reported primal is the one-class primal: its gap closes at the optimum
    assert snaps[-1].gap == pytest.approx(0.0, abs=1e-3 * abs(snaps[-1].primal_objective))
    with pytest.raises(NotFittedError):
        OneClassSVM().decision_function(X)


def test_sample_weights_bound_the_multipliers_as_libsvm_does():
    X = SETS["blobs and outliers"]
    weights = np.random.default_rng(3).uniform(0.2, 2.0, len(X))
    weights[:10] = 0.0
    ours = OneClassSVM(nu=0.3, tol=TOL).fit(X, sample_weight=weights)
    ref = LibOneClassSVM(nu=0.3, tol=TOL).fit(X, sample_weight=weights)
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=1e-5)
    assert not np.isin(ours.support_, np.arange(10)).any()


@pytest.mark.parametrize("params, sample_weight, message", [
    (dict(nu=0.0), None, "nu must be"),
    (dict(nu=1.5), None, "nu must be"),
    (dict(kernel="gauss"), None, "kernel must be"),
    (dict(), np.zeros(275), "weight of zero"),
    (dict(), -np.ones(275), "finite numbers >= 0"),
])
def test_bad_parameters_get_a_message_and_change_nothing(params, sample_weight, message):
    X = SETS["blobs and outliers"]
    model = OneClassSVM().fit(X)
    before = model.decision_function(X)
    model.set_params(**params)
    with pytest.raises(ValueError, match=message):
        model.fit(X, sample_weight=sample_weight)
    np.testing.assert_array_equal(model.decision_function(X), before)
    assert isinstance(DataError("x"), ValueError)


# scikit-learn's outlier-detector checks, with the failures it expects of its own
# OneClassSVM (conftest.SAMPLE_WEIGHT_FAILURES)
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Estimator OneClassSVM does not inherit", UserWarning)
    each_check = parametrize_with_checks(
        [OneClassSVM(), OneClassSVM(solver="dual-gradient")],
        expected_failed_checks=lambda estimator: SAMPLE_WEIGHT_FAILURES)


@pytest.mark.slow
@each_check
def test_scikit_learns_outlier_detector_checks_pass(estimator, check):
    check(estimator)
