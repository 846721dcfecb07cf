"""SMO on LIBSVM's general problem (min 1/2 a'Qa + p'a, y'a = delta, 0 <= a_i <= C_i, from
a feasible start): each kind of machine LIBSVM trains is stated here by hand, as LIBSVM's
svm.cpp states it, and the solution is compared with LIBSVM's through scikit-learn."""
import math

import numpy as np
import pytest
from sklearn.svm import SVC as LibSVC
from sklearn.svm import SVR as LibSVR
from sklearn.svm import OneClassSVM

from svmdesk.core import Kernel
from svmdesk.core.solvers.problems import DualProblem, c_svc
from svmdesk.core.solvers.smo import solve_problem
from svmdesk.core.solvers.smo import solver as smo_solver

TOL = 1e-6      # tight on both sides, so that the two solutions agree closely


def _no_primal(alpha, decision, bias):
    return math.nan                     # these kinds' primal objectives are not stated here


def _solve(X, y, p, upper, start, kernel, tol=TOL, point_of=None):
    problem = DualProblem(X=X, y=y, p=p, upper=upper, start=start, kernel=kernel,
                          primal=_no_primal, C=float(np.max(upper)), tol=tol,
                          point_of=point_of)
    final = list(smo_solver._SMO(problem).run(every=10**9))[-1]
    assert final.converged
    alpha = y * final.dual_coef
    # the run kept the box and y'a = delta, delta being the start's
    assert alpha.min() >= 0 and np.all(alpha <= upper)
    assert y @ alpha == pytest.approx(y @ start, abs=1e-9 * max(1.0, start.sum()))
    return final, alpha


def _min_objective(final) -> float:
    return -final.dual_objective          # the snapshot reports libsvm's max form


@pytest.mark.parametrize("nu", [0.1, 0.35])
def test_one_class_from_libsvms_start_matches_libsvm(sets, nu):
    """One-class SVM: Q = K (y = +1), p = 0, C_i = 1, sum a = nu n, starting (as LIBSVM) from
    a_i = 1 for the first floor(nu n) points and the remainder on the next: a start that is
    not zero, a delta that is not zero and a linear term that is not -e."""
    X, _ = sets["moons"]
    n, gamma = len(X), 0.8
    start = np.zeros(n)
    whole = int(nu * n)
    start[:whole] = 1.0
    if whole < n:
        start[whole] = nu * n - whole
    final, alpha = _solve(X, np.ones(n), np.zeros(n), np.ones(n), start,
                          Kernel("rbf", gamma=gamma))
    ref = OneClassSVM(nu=nu, gamma=gamma, tol=TOL).fit(X)
    K = Kernel("rbf", gamma=gamma)
    a_ref = ref.dual_coef_[0]
    ref_objective = 0.5 * a_ref @ K(ref.support_vectors_, ref.support_vectors_) @ a_ref
    assert _min_objective(final) == pytest.approx(ref_objective, rel=1e-6)
    np.testing.assert_allclose(final.decision + final.bias, ref.decision_function(X),
                               atol=1e-4)
    assert alpha.sum() == pytest.approx(nu * n)


@pytest.mark.parametrize("shared_rows", [False, True])
@pytest.mark.parametrize("C", [1.0, 50.0])
def test_epsilon_svr_on_doubled_variables_matches_libsvm(C, shared_rows):
    """epsilon-SVR: 2l variables (each point twice, y = +1 then -1), p = (eps - z, eps + z),
    C_i = C, a = 0; f(x_i) is the decision at the first copy plus the bias. The points
    stacked twice, or held once with each variable's point named (point_of: the rows
    cached once per point)."""
    rng = np.random.default_rng(4)
    x = np.sort(rng.uniform(-3, 3, 80))
    z = np.sin(x) + 0.1 * rng.standard_normal(80)
    X, eps, gamma = x[:, None], 0.1, 0.5
    n = len(z)
    y = np.r_[np.ones(n), -np.ones(n)]
    points, point_of = ((X, np.r_[np.arange(n), np.arange(n)]) if shared_rows
                        else (np.vstack([X, X]), None))
    final, alpha = _solve(points, y, np.r_[eps - z, eps + z], np.full(2 * n, C),
                          np.zeros(2 * n), Kernel("rbf", gamma=gamma), point_of=point_of)
    ref = LibSVR(C=C, epsilon=eps, gamma=gamma, tol=TOL).fit(X, z)
    beta = ref.dual_coef_[0]
    K = Kernel("rbf", gamma=gamma)(ref.support_vectors_, ref.support_vectors_)
    z_sv = z[ref.support_]
    ref_objective = 0.5 * beta @ K @ beta + eps * np.abs(beta).sum() - z_sv @ beta
    assert _min_objective(final) == pytest.approx(ref_objective, rel=1e-6)
    np.testing.assert_allclose(final.decision[:n] + final.bias, ref.predict(X), atol=1e-4)
    coef = alpha[:n] - alpha[n:]
    np.testing.assert_array_equal(np.flatnonzero(np.abs(coef) > 0), ref.support_)


def _weighted_c_svc(X, y01, C_i, C, kernel):
    """C-SVC with one bound per point, LIBSVM's weighted C (sklearn: classes_[1] is +1)."""
    y = np.where(y01 == 1, 1.0, -1.0)
    return _solve(X, y, -np.ones(len(y)), C_i, np.zeros(len(y)), kernel)


@pytest.mark.parametrize("C", [1.0, 100.0])      # 100: Newton steps on per-point bounds
def test_class_weights_as_per_point_bounds_match_libsvm(sets, C):
    X, y01 = sets["moons"]
    weights = {0: 4.0, 1: 0.5}
    kernel = Kernel("rbf", gamma=1.0)
    final, alpha = _weighted_c_svc(X, y01, C * np.where(y01 == 1, 0.5, 4.0), C, kernel)
    ref = LibSVC(C=C, gamma=1.0, class_weight=weights, tol=TOL).fit(X, y01)
    np.testing.assert_allclose(final.decision + final.bias, ref.decision_function(X),
                               atol=1e-4)
    np.testing.assert_array_equal(final.support, ref.support_)


def test_sample_weights_as_per_point_bounds_match_libsvm(sets):
    X, y01 = sets["xor"]
    C = 10.0
    weights = np.random.default_rng(7).uniform(0.2, 3.0, len(y01))
    kernel = Kernel("rbf", gamma=2.0)
    final, alpha = _weighted_c_svc(X, y01, C * weights, C, kernel)
    ref = LibSVC(C=C, gamma=2.0, tol=TOL).fit(X, y01, sample_weight=weights)
    np.testing.assert_allclose(final.decision + final.bias, ref.decision_function(X),
                               atol=1e-4)
    np.testing.assert_array_equal(final.support, ref.support_)
    # the multipliers at their own bounds are the ones LIBSVM holds there
    at_bound = np.isclose(alpha, C * weights, rtol=0, atol=1e-12)
    ref_alpha = np.zeros(len(y01))
    ref_alpha[ref.support_] = np.abs(ref.dual_coef_[0])
    np.testing.assert_array_equal(at_bound, np.isclose(ref_alpha, C * weights, atol=1e-9))


def test_c_svc_is_the_general_problem_with_p_minus_e():
    from svmdesk.core.solvers.base import BinaryProblem
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]])
    problem = c_svc(BinaryProblem(X=X, y=np.array([1.0, -1.0, 1.0]), kernel=Kernel("linear"),
                                  C=3.0))
    np.testing.assert_array_equal(problem.p, -np.ones(3))
    np.testing.assert_array_equal(problem.upper, np.full(3, 3.0))
    np.testing.assert_array_equal(problem.start, np.zeros(3))
    assert not problem.unbounded
    assert c_svc(BinaryProblem(X=X, y=np.array([1.0, -1.0, 1.0]), kernel=Kernel("linear"),
                               C=math.inf)).unbounded


@pytest.mark.parametrize("field, value, message", [
    ("upper", np.array([1.0, 0.0]), "positive"),
    ("start", np.array([2.0, 0.0]), "box"),
    ("p", np.zeros(3), "one value per variable"),
])
def test_a_problem_outside_the_method_is_refused(field, value, message):
    fields = dict(X=np.zeros((2, 1)), y=np.array([1.0, -1.0]), p=-np.ones(2),
                  upper=np.ones(2), start=np.zeros(2), kernel=Kernel("linear"),
                  primal=_no_primal, C=1.0)
    fields[field] = value
    with pytest.raises(ValueError, match=message):
        DualProblem(**fields)


@pytest.mark.parametrize("name, nu", [("moons", 0.3), ("moons", 0.6), ("blobs", 0.3),
                                      ("blobs", 0.6), ("xor", 0.3)])
def test_the_nu_form_matches_libsvms_nu_svc(sets, name, nu):
    """nu-SVC's dual (LIBSVM's Solver_NU): pairs within a class keep y'a = 0 and each class's
    sum nu n / 2; the solution rescaled by 1/r is LIBSVM's model. Compared where each class
    has free multipliers: without them r is the middle of an interval that two exact
    solvers may end at different places of (xor at nu 0.6, no free negative: f 3e-3 apart;
    a linear kernel on blobs: r 0.15 % apart)."""
    from sklearn.svm import NuSVC

    from svmdesk.core.solvers.problems import nu_svc

    X, y01 = sets[name]
    y = np.where(y01 == 1, 1.0, -1.0)
    final = list(solve_problem(nu_svc(X, y, Kernel("rbf", gamma=1.0), nu, tol=TOL),
                                          every=10**9))[-1]
    assert final.converged
    ref = NuSVC(nu=nu, gamma=1.0, tol=TOL).fit(X, y01)
    np.testing.assert_allclose(final.decision + final.bias, ref.decision_function(X),
                               atol=1e-5)
    np.testing.assert_array_equal(final.support, ref.support_)
    # the rescaled multipliers: each class's sum is the same (y'a = 0), all share one bound
    alpha = y * final.dual_coef
    assert alpha[y > 0].sum() == pytest.approx(alpha[y < 0].sum(), rel=1e-9)
    bound = alpha.max()
    # the nu-property: margin errors at most nu, support vectors at least nu
    margin_errors = np.mean(np.isclose(alpha, bound, rtol=1e-9))
    assert margin_errors <= nu + 1e-9 <= len(final.support) / len(y) + 2e-9
