"""SVR and NuSVR beyond the oracle's numbers: the nu property, nu-SVR's tube as epsilon-SVR's,
sample weights as LIBSVM's, targets checked in scikit-learn's words, the stream over points,
the kernel rows cached once per point, and scikit-learn's estimator checks."""
import math
import warnings

import numpy as np
import pytest
from sklearn.svm import SVR as LibSVR
from sklearn.svm import NuSVR as LibNuSVR
from sklearn.utils.estimator_checks import parametrize_with_checks

from svmdesk.core import SVR, DataError, NuSVR
from svmdesk.core.solvers.smo import row_cache
from svmdesk.core.solvers.smo import state as smo_state

from .conftest import SAMPLE_WEIGHT_FAILURES


def _sine(n=150, seed=2):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-3, 3, n)
    return x[:, None], np.sin(x) + 0.25 * rng.standard_normal(n)


def test_the_nu_property_of_nu_svr():
    """The fraction of points outside the tube is at most nu, that of support vectors at
    least nu (each within 1/n)."""
    X, z = _sine()
    n = len(z)
    for nu in (0.1, 0.3, 0.6, 0.9):
        model = NuSVR(nu=nu, C=10.0, tol=1e-8).fit(X, z)
        outside = np.abs(z - model.predict(X)) > model.epsilon_ + 1e-6
        assert outside.mean() <= nu + 1 / n
        assert len(model.support_) / n >= nu - 1 / n


def test_nu_svr_is_epsilon_svr_with_the_tube_it_found():
    X, z = _sine()
    nu_model = NuSVR(nu=0.4, C=3.0, tol=1e-10).fit(X, z)
    eps_model = SVR(epsilon=nu_model.epsilon_, C=3.0, tol=1e-10).fit(X, z)
    np.testing.assert_allclose(nu_model.predict(X), eps_model.predict(X), atol=1e-6)
    assert SVR(epsilon=0.2).fit(X, z).epsilon_ == 0.2


@pytest.mark.parametrize("ours, ref", [(SVR(tol=1e-8, C=2.0), LibSVR(tol=1e-8, C=2.0)),
                                       (NuSVR(tol=1e-8, nu=0.3), LibNuSVR(tol=1e-8, nu=0.3))])
def test_sample_weights_make_libsvms_weighted_C(ours, ref):
    """C_i = C * sample_weight_i on both of a point's multipliers; weight 0 leaves it out."""
    X, z = _sine(80)
    weights = np.random.default_rng(0).uniform(0.2, 3.0, len(z))
    weights[[3, 17]] = 0.0
    ours.fit(X, z, sample_weight=weights)
    ref.fit(X, z, sample_weight=weights)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), atol=1e-5)
    # the same support vectors; scikit-learn's support_ counts the points left after those
    # of weight 0 are dropped, ours the points given
    np.testing.assert_array_equal(ours.support_vectors_, ref.support_vectors_)
    np.testing.assert_array_equal(X[ours.support_], ours.support_vectors_)
    assert not {3, 17} & set(ours.support_)


@pytest.mark.parametrize("y, said", [
    ([0.5, math.nan, 1.0], "Input y contains NaN."),
    ([0.5, math.inf, 1.0], "Input y contains infinity or a value too large"),
    (["0.5", "tall", "1"], "y must hold numbers.*'tall'"),
    ([0.5, 1.0], "X has 3 points but y has 2 target values"),
    ([[0.5, 1.0], [1.0, 2.0], [0.0, 1.0]], "y should be a 1d array"),
    (None, "SVR requires y to be passed")])
def test_bad_targets_are_refused_in_plain_words(y, said):
    with pytest.raises(DataError, match=said):
        SVR().fit(np.arange(3.0)[:, None], y)


def test_continuous_targets_and_a_column_vector_are_taken():
    X, z = _sine(40)
    with pytest.warns(UserWarning, match="A column-vector y was passed"):
        column = SVR().fit(X, z[:, None])
    np.testing.assert_array_equal(column.predict(X), SVR().fit(X, z).predict(X))
    assert 0.5 < column.score(X, z) <= 1.0


def test_the_stream_holds_one_coefficient_per_point_and_ends_at_the_fit():
    X, z = _sine(60)
    snapshots = [p.snapshot for p in SVR(C=5.0).iter_fit(X, z, every=20)]
    assert len(snapshots) > 2
    for snap in snapshots:
        assert snap.dual_coef.shape == (60,) and snap.decision.shape == (60,)
        np.testing.assert_array_equal(snap.support, np.flatnonzero(snap.dual_coef))
        assert all(0 <= i < 60 for i in snap.working_pair)
    fitted = SVR(C=5.0).fit(X, z)
    np.testing.assert_array_equal(snapshots[-1].dual_coef[fitted.support_],
                                  fitted.dual_coef_[0])


def test_a_small_row_cache_holds_each_point_once_and_changes_nothing(monkeypatch):
    """Under a budget of a few rows, float32 rows, shrinking and eviction: alpha and alpha*
    of a point share its row, and the fit is the one the full cache gives."""
    X, z = _sine(400)
    full = SVR(C=10.0, tol=1e-6).fit(X, z)
    fetched = []
    original = row_cache.KernelRowCache._compute_row

    def spy(self, point, out):
        fetched.append(int(point))
        return original(self, point, out)

    monkeypatch.setattr(smo_state, "CACHE_BYTES", 40 * 800 * 8)
    monkeypatch.setattr(row_cache.KernelRowCache, "_compute_row", spy)
    small = SVR(C=10.0, tol=1e-6).fit(X, z)
    assert max(fetched) < 400                       # rows are the points', never 2l
    np.testing.assert_allclose(small.predict(X), full.predict(X), atol=1e-4)
    assert small.objective_ == pytest.approx(full.objective_, rel=1e-6)


ESTIMATORS = [SVR(), SVR(solver="dual-gradient"), NuSVR()]

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Estimator (SVR|NuSVR) does not inherit", UserWarning)
    each_check = parametrize_with_checks(
        ESTIMATORS, expected_failed_checks=lambda estimator: SAMPLE_WEIGHT_FAILURES)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::svmdesk.core.errors.ConvergenceWarning")
@each_check
def test_scikit_learns_regressor_checks_pass(estimator, check):
    check(estimator)


@pytest.mark.parametrize("estimator", [SVR(), NuSVR()])
def test_points_with_other_features_are_refused_naming_the_estimator(estimator):
    X, z = _sine(30)
    estimator.fit(X, z)
    name = type(estimator).__name__
    with pytest.raises(DataError, match=f"X has 2 features, but {name} is expecting 1"):
        estimator.predict(np.ones((3, 2)))


def test_each_model_says_what_it_learnt_in_libsvms_words():
    from svmdesk.core import SVC, NuSVC, OneClassSVM

    X, z = _sine(40)
    labels = (z > 0).astype(int)
    kinds = [SVC().fit(X, labels), NuSVC().fit(X, labels), OneClassSVM().fit(X),
             SVR().fit(X, z), NuSVR().fit(X, z)]
    assert [m.model_.kind for m in kinds] == ["c_svc", "nu_svc", "one_class", "epsilon_svr",
                                               "nu_svr"]
    assert [m.model_.has_margins for m in kinds] == [True, True, False, False, False]
    assert [m.model_.is_regressor for m in kinds] == [False, False, False, True, True]
