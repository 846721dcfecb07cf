"""A property of SMO against LIBSVM over small random problems: labels of any type, scales
from 1e-8 to 1e8, duplicate points, constant features. fit either refuses the data in one
clear line (a ValueError) or returns a finite model; where both converged (LIBSVM's
fit_status_ 0, the same tol on both sides), its dual objective is LIBSVM's within 1e-4.

At the extreme scales float64's rounding can keep either solver from ever reaching tol
(LIBSVM then runs for minutes): LIBSVM is capped at a million iterations and SMO's progress
watch at half a second, so that such an example costs under a second."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.svm import SVC as LibSVC

from svmdesk.core import SVC
from svmdesk.core.kernels import Kernel
from svmdesk.core.solvers.smo import progress

TOL = 1e-5
LABELS = [(0, 1), (-1, 1), ("cat", "dog"), (1.0, 2.0), ("陽性", "陰性")]


@st.composite
def problems(draw):
    n = draw(st.integers(2, 30))
    d = draw(st.integers(1, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    X = rng.normal(size=(n, d)) * 10.0 ** draw(st.integers(-8, 8))
    if draw(st.booleans()):                                   # duplicate points
        X[n // 2:] = X[: n - n // 2]
    if d > 1 and draw(st.booleans()):                         # a constant feature
        X[:, 0] = 3.0
    names = draw(st.sampled_from(LABELS))
    y = np.array([names[k] for k in rng.integers(0, 2, size=n)])
    kernel = draw(st.sampled_from(["linear", "rbf", "poly"]))
    C = draw(st.sampled_from([0.1, 1.0, 100.0]))
    return X, y, kernel, C


def _dual_objective(libsvm: LibSVC, kernel: str) -> float:
    K = Kernel(kernel, libsvm._gamma, libsvm.degree, libsvm.coef0)
    coef, sv = libsvm.dual_coef_[0], libsvm.support_vectors_
    return float(np.abs(coef).sum() - 0.5 * coef @ K(sv, sv) @ coef)


@pytest.fixture
def impatient(monkeypatch):
    monkeypatch.setattr(progress, "PATIENCE", 0.5)


@pytest.mark.filterwarnings("ignore::svmdesk.core.errors.ConvergenceWarning")
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@settings(max_examples=60, deadline=3000,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(problem=problems())
def test_fit_refuses_in_one_line_or_matches_libsvms_objective(impatient, problem):
    X, y, kernel, C = problem
    try:
        ours = SVC(kernel=kernel, C=C, tol=TOL).fit(X, y)
    except ValueError as refusal:
        message = str(refusal)
        assert message and "\n" not in message and len(message) < 400
        assert len(set(y.tolist())) < 2, message       # the only refusal these data earn
        return
    for values in (ours.dual_coef_, ours.intercept_, ours.objective_):
        assert np.isfinite(values).all()
    libsvm = LibSVC(kernel=kernel, C=C, tol=TOL, max_iter=1_000_000).fit(X, y)
    if libsvm.fit_status_ == 0 and ours.converged_:
        expected = _dual_objective(libsvm, kernel)
        assert abs(ours.objective_ - expected) <= 1e-4 * max(abs(expected), 1e-300), (
            ours.objective_, expected)
