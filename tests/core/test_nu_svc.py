"""NuSVC against LIBSVM's (scikit-learn's NuSVC): breast cancer, iris (three classes,
one-vs-one values compared with "ovo") and an imbalanced set, four kernels: decision values,
support sets, predictions; an infeasible nu refused before training; class_weight ignored
with a warning, as LIBSVM's nu solver ignores it."""
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.svm import NuSVC as LibNuSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from svmdesk.core import NuSVC
from svmdesk.core.errors import DataError

from .conftest import SAMPLE_WEIGHT_FAILURES


def _imbalanced():
    rng = np.random.default_rng(0)
    X = np.r_[rng.normal(0.0, 1.0, (400, 2)), rng.normal(1.5, 1.0, (40, 2))]
    return X, np.r_[np.zeros(400, dtype=int), np.ones(40, dtype=int)]


def _breast_cancer():
    data = load_breast_cancer()
    return (data.data - data.data.mean(axis=0)) / data.data.std(axis=0), data.target


# nu where the machines' C-equivalent (1/r) is moderate: at nu 0.1 the imbalanced set's is
# 2e4, and both solvers' f differ by O(1) at tol 1e-6 (LIBSVM takes 192,000 pair steps)
SETS = {"breast cancer": (_breast_cancer(), 0.3), "iris": (load_iris(return_X_y=True), 0.5),
        "imbalanced": (_imbalanced(), 0.15)}


@pytest.mark.parametrize("kernel", ["linear", "rbf", "poly", "sigmoid"])
@pytest.mark.parametrize("name", list(SETS))
def test_nu_svc_matches_libsvm(name, kernel):
    (X, y), nu = SETS[name]
    params = dict(kernel=kernel, nu=nu, gamma=0.01 if kernel == "sigmoid" else "scale",
                  decision_function_shape="ovo")
    ours = NuSVC(tol=1e-6, **params).fit(X, y)
    ref = LibNuSVC(tol=1e-5, **params).fit(X, y)
    np.testing.assert_array_equal(ours.support_, ref.support_)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    if name == "imbalanced" and kernel in ("linear", "sigmoid"):
        # no free multiplier in the minority class: r is the middle of an interval, which
        # each solver ends at its own place (f 0.2 apart, the same support and predictions)
        return
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=1e-4)


def test_the_nu_property_on_random_data():
    """Margin errors (multipliers at their bound) at most nu, support vectors at least nu,
    each within 1/n."""
    rng = np.random.default_rng(5)
    for _ in range(5):
        X = rng.normal(size=(120, 2))
        y = (X[:, 0] + 0.8 * rng.normal(size=120) > 0).astype(int)
        nu = float(rng.uniform(0.2, 0.8))
        model = NuSVC(nu=nu, tol=1e-6).fit(X, y)
        alpha = np.abs(model.dual_coef_[0])
        bound = alpha.max()
        errors = np.count_nonzero(np.isclose(alpha, bound, rtol=1e-9)) / len(y)
        assert errors <= nu + 1 / len(y)
        assert len(model.support_) / len(y) >= nu - 1 / len(y)


def test_an_infeasible_nu_is_refused_before_training_with_the_largest_feasible():
    X, y = _imbalanced()
    model = NuSVC(nu=0.5)
    with pytest.raises(DataError, match=r"nu=0.5 is infeasible.*sizes 400, 40.*0\.181818"):
        model.fit(X, y)
    assert not hasattr(model, "model_")
    with pytest.raises(ValueError, match="infeasible"):
        LibNuSVC(nu=0.5).fit(X, y)              # LIBSVM refuses it too


@pytest.mark.parametrize("name", ["iris", "breast cancer"])
def test_nu_one_trains_where_it_is_feasible(name):
    """nu = 1 on balanced classes (iris: 50 each; breast cancer cut to 212 each) puts every
    multiplier at its bound: feasible. LIBSVM's model there has infinite coefficients (r is
    0: scikit-learn refuses it); ours is the limit of LIBSVM's as nu reaches 1."""
    (X, y), _nu = SETS[name]
    if name == "breast cancer":
        keep = np.r_[np.flatnonzero(y == 0), np.flatnonzero(y == 1)[:212]]   # 212 each
        X, y = X[keep], y[keep]
    ours = NuSVC(nu=1.0, decision_function_shape="ovo").fit(X, y)
    ref = LibNuSVC(nu=1.0 - 1e-6, decision_function_shape="ovo").fit(X, y)
    assert ours.converged_
    np.testing.assert_array_equal(ours.support_, ref.support_)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=1e-4)


def test_class_weight_is_ignored_with_a_warning_as_libsvm_does():
    X, y = _imbalanced()
    plain = NuSVC(nu=0.15).fit(X, y)
    with pytest.warns(UserWarning, match="NuSVC ignores class_weight"):
        weighted = NuSVC(nu=0.15, class_weight="balanced").fit(X, y)
    np.testing.assert_array_equal(weighted.decision_function(X), plain.decision_function(X))
    ref = LibNuSVC(nu=0.15, class_weight="balanced").fit(X, y)
    np.testing.assert_array_equal(ref.decision_function(X),
                                  LibNuSVC(nu=0.15).fit(X, y).decision_function(X))


# scikit-learn's classifier checks, with the expected failures it declares for its own
# NuSVC: the two sample-weight checks (conftest; here the repeated copies also change the
# class sizes nu must be feasible for) and class weights, which nu-SVC ignores
EXPECTED_FAILURES = {**SAMPLE_WEIGHT_FAILURES,
                     "check_class_weight_classifiers": "class_weight is ignored."}

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Estimator NuSVC does not inherit", UserWarning)
    each_check = parametrize_with_checks(
        [NuSVC()], expected_failed_checks=lambda estimator: EXPECTED_FAILURES)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:NuSVC ignores class_weight:UserWarning")
@each_check
def test_scikit_learns_classifier_checks_pass(estimator, check):
    check(estimator)
