"""No model holds NaN or infinity, and no message claims what the arithmetic did not show:
data whose scale overflows or underflows float64 is refused with the fix (standardize=True)
or, standardised, trained exactly; a hard margin with no solution is found out by SMO as by
the dual gradient ascent, in the same words."""
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris, make_moons

from svmdesk.core import SVC, ConvergenceWarning, DataError

IRIS = load_iris(return_X_y=True)
SOLVERS = [dict(solver="smo"), dict(solver="dual-gradient"),
           dict(solver="kernel-gradient", max_iter=300),
           dict(solver="primal-subgradient", kernel="linear", max_iter=300),
           dict(solver="pegasos", kernel="linear", max_iter=300, random_state=0)]
IDS = [s["solver"] for s in SOLVERS]

pytestmark = pytest.mark.filterwarnings("ignore::svmdesk.core.errors.ConvergenceWarning")


def _finite(svc: SVC) -> bool:
    values = [svc.dual_coef_, svc.intercept_, svc.objective_, svc.support_vectors_]
    return all(np.isfinite(v).all() for v in values)


@pytest.mark.parametrize("params", SOLVERS, ids=IDS)
@pytest.mark.parametrize("scale, words", [(1e160, ["reach 7.9e+160", "overflow"]),
                                          (1e-160, ["at most 7.9e-160", "underflow"])])
def test_data_whose_squares_leave_float64_is_refused_with_the_fix(params, scale, words):
    X, y = IRIS
    with pytest.raises(DataError) as info:
        SVC(**params).fit(X * scale, y)
    message = str(info.value)
    assert "standardize=True" in message and all(w in message for w in words), message


@pytest.mark.parametrize("params", SOLVERS, ids=IDS)
@pytest.mark.parametrize("scale", [1e160, 1e-160])
def test_standardised_the_same_data_trains_as_at_its_own_scale(params, scale):
    X, y = IRIS
    plain = SVC(**params, standardize=True).fit(X, y)
    scaled = SVC(**params, standardize=True).fit(X * scale, y)
    assert _finite(scaled) and np.isfinite(scaled.model_.scaler.scale).all()
    np.testing.assert_array_equal(scaled.predict(X * scale), plain.predict(X))


def test_a_kernel_whose_values_overflow_is_refused_with_the_fix():
    X, y = IRIS
    with pytest.raises(DataError, match=r"'poly' kernel's values overflow.*standardize=True"):
        SVC(kernel="poly", degree=3, gamma=1.0).fit(X * 1e60, y)


@pytest.mark.parametrize("solver", ["smo", "dual-gradient"])
def test_a_hard_margin_with_no_solution_is_found_and_said_the_same_way(solver):
    X, y = make_moons(300, noise=0.3, random_state=0)
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always")
        svc = SVC(solver=solver, kernel="sigmoid", C=None).fit(X, y)
    said = [str(w.message) for w in heard if issubclass(w.category, ConvergenceWarning)]
    assert len(said) == 1 and "hard margin has no solution" in said[0], said
    assert "grew without bound" in said[0] and "use a finite C" in said[0]
    assert not [w for w in heard if issubclass(w.category, RuntimeWarning)]   # no overflow
    assert _finite(svc) and not svc.converged_


def test_the_textbook_solvers_name_standardize_when_the_scales_differ_100_fold():
    X, y = IRIS
    X = X * [1000.0, 1.0, 1.0, 1.0]
    for params in SOLVERS[1:]:
        with pytest.warns(ConvergenceWarning, match="standardize=True") as heard:
            SVC(**{**params, "max_iter": 5}).fit(X, y)
        assert "scales differ" in str(heard[0].message)
        with warnings.catch_warnings(record=True) as heard:
            warnings.simplefilter("always")
            SVC(**{**params, "max_iter": 5}, standardize=True).fit(X, y)
        assert not any("standardize" in str(w.message) for w in heard)


def test_a_solver_that_lets_nan_through_never_hands_out_its_model(monkeypatch):
    import dataclasses

    from svmdesk.core import DivergenceError
    from svmdesk.core.solvers import smo

    real = smo.solve

    def leaky(problem, every=1, wanted=None):
        for snap in real(problem, every, wanted):
            yield dataclasses.replace(snap, bias=np.nan) if snap.converged else snap

    monkeypatch.setattr(smo, "solve", leaky)
    svc = SVC()
    with pytest.raises(DivergenceError, match=r"'smo' produced NaN or inf \(machine 1 of 3\)"):
        svc.fit(*IRIS)
    assert not hasattr(svc, "support_")


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
def test_smo_in_a_box_whose_dual_overflows_says_it_is_arithmetic(monkeypatch):
    from svmdesk.core import DivergenceError, overflow

    monkeypatch.setattr(overflow, "check_kernel", lambda Z, kernel: None)    # let it through
    X, y = IRIS
    with pytest.raises(DivergenceError, match="overflowed float64 with a finite C"):
        SVC(kernel="poly", degree=3, gamma=1.0).fit(X * 1e60, y)
