"""The one-vs-one machines of a small set read one kernel matrix over every training point
(estimators.svc.shared_gram), each its block of it: the fit is the one each machine makes
from its own kernel rows, and LIBSVM's (the oracle), with Platt's folds too. The rows and
the matrix round differently, so the two runs may stop at different points within the
tolerance: they are compared at a tight one."""
import numpy as np
import pytest
from sklearn.datasets import load_iris, load_wine
from sklearn.svm import SVC as LibSVC

from svmdesk.core import SVC, catalog
from svmdesk.core.estimators import svc as svc_module


def _standardised(load):
    X, y = load(return_X_y=True)
    return (X - X.mean(axis=0)) / X.std(axis=0), y


SHARED_GRAM = svc_module.shared_gram      # the function itself, whatever a test patches
SETS = {"iris": _standardised(load_iris), "wine": _standardised(load_wine)}


def _fit(monkeypatch, shared: bool, X, y, **params):
    """A fit with the shared matrix or without; asserts which way it went."""
    taken = []

    def spy(*args):
        gram = SHARED_GRAM(*args)
        taken.append(gram is not None)
        return gram

    monkeypatch.setattr(svc_module, "shared_gram", spy if shared else lambda *args: None)
    model = SVC(**params).fit(X, y)
    assert taken == ([True] if shared else [])
    return model


@pytest.mark.parametrize("name", SETS)
@pytest.mark.parametrize("kernel, C", [("rbf", 1.0), ("rbf", 100.0), ("linear", 10.0),
                                       ("poly", 1.0)])
def test_smo_on_the_shared_matrix_is_the_fit_from_rows_and_libsvms(monkeypatch, name,
                                                                     kernel, C):
    X, y = SETS[name]
    shared = _fit(monkeypatch, True, X, y, kernel=kernel, C=C, tol=1e-8)
    apart = _fit(monkeypatch, False, X, y, kernel=kernel, C=C, tol=1e-8)
    np.testing.assert_array_equal(shared.support_, apart.support_)
    np.testing.assert_allclose(shared.dual_coef_, apart.dual_coef_, atol=1e-6 * C)
    default = _fit(monkeypatch, True, X, y, kernel=kernel, C=C)
    ref = LibSVC(kernel=kernel, C=C).fit(X, y)
    np.testing.assert_array_equal(default.predict(X), ref.predict(X))
    np.testing.assert_allclose(default.decision_function(X), ref.decision_function(X),
                               atol=5e-3 * C)


def test_the_gradient_solvers_share_it_too(monkeypatch):
    X, y = SETS["iris"]
    params = dict(solver="dual-gradient", kernel="rbf", max_iter=3000)
    shared = _fit(monkeypatch, True, X, y, **params)
    apart = _fit(monkeypatch, False, X, y, **params)
    np.testing.assert_allclose(shared.dual_coef_, apart.dual_coef_, rtol=1e-9, atol=1e-9)


def test_platts_folds_take_their_block_of_it(monkeypatch):
    X, y = SETS["wine"]
    shared = _fit(monkeypatch, True, X, y, probability=True, random_state=3, tol=1e-8)
    apart = _fit(monkeypatch, False, X, y, probability=True, random_state=3, tol=1e-8)
    np.testing.assert_allclose(shared.predict_proba(X), apart.predict_proba(X), atol=1e-6)


def test_only_small_sets_of_several_classes_share_one():
    smo = catalog.SOLVERS["smo"]
    X = np.zeros((smo.shares_gram_up_to + 1, 2))
    kernel = svc_module.Kernel("rbf")
    assert svc_module.shared_gram(smo, X[:50], kernel, 3) is not None
    assert svc_module.shared_gram(smo, X[:50], kernel, 1) is None       # two classes
    assert svc_module.shared_gram(smo, X, kernel, 3) is None            # too many points
    assert svc_module.shared_gram(catalog.SOLVERS["pegasos"], X[:50], kernel, 3) is None
