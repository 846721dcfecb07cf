"""The nu form through the C form it equals (smo/nu_search.py): with the nu solver's own turn
cut to nothing, every NuSVR and NuSVC fit goes through the shift search and the polish, and
the models are LIBSVM's as test_svr and test_nu_svc judge them; the runs' snapshots count
their pair steps on across the solves, only the last is converged, and nu-SVC's snapshots
from the C-form solves are read at the final model's scale."""
from collections import deque

import numpy as np
import pytest
from sklearn.svm import NuSVC as LibNuSVC

from svmdesk.core import Kernel, NuSVC
from svmdesk.core.solvers.problems import nu_svc, nu_svr
from svmdesk.core.solvers.smo import nu_search, solve_problem

from . import test_nu_svc, test_svr

RESIDUE = 1e-12         # a multiplier below it is what rounding left of a zero


@pytest.fixture
def searched(monkeypatch):
    """Every nu fit through the search; the C-form solves it took, counted."""
    solves = []
    shifted = nu_search._Shifted

    class Counted(shifted):
        def __init__(self, *args):
            super().__init__(*args)
            solves.append(self)

    monkeypatch.setattr(nu_search, "DIRECT_WORK", 0.0)
    monkeypatch.setattr(nu_search, "_Shifted", Counted)
    return solves


@pytest.mark.parametrize("name", list(test_svr.SETS))
@pytest.mark.parametrize(("kernel", "C"), [("rbf", 1.0), ("rbf", 10.0), ("linear", 10.0),
                                           ("poly", 1.0)])
def test_nu_svr_through_the_c_form_is_libsvms(searched, name, kernel, C):
    test_svr.test_regression_matches_libsvm("NuSVR smo", name, kernel, C)
    assert searched


@pytest.mark.parametrize("kernel", ["linear", "rbf", "poly"])
@pytest.mark.parametrize("name", list(test_nu_svc.SETS))
def test_nu_svc_through_the_c_form_is_libsvms(searched, name, kernel):
    """As test_nu_svc judges, but for a rounding residue: a multiplier of 1e-19 left by a
    pair step in the polish (seen on iris, linear) is a support vector LIBSVM's run from
    its own start does not have."""
    (X, y), nu = test_nu_svc.SETS[name]
    params = dict(kernel=kernel, nu=nu, gamma="scale", decision_function_shape="ovo")
    ours = NuSVC(tol=1e-6, **params).fit(X, y)
    ref = LibNuSVC(tol=1e-5, **params).fit(X, y)
    assert searched
    residue = np.abs(ours.dual_coef_).max(axis=0) < RESIDUE
    assert residue.sum() <= 1
    np.testing.assert_array_equal(ours.support_[~residue], ref.support_)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    # f within 1e-4 of LIBSVM's, but on a machine with a class whose multipliers are all at
    # a bound: there r is in an interval, where each solver ends at its own place
    # (test_nu_svc: the imbalanced set, linear; here iris, poly, whose 1-2 machine the
    # search ends at a point of the optimal face without free multipliers)
    apart = np.abs(ours.decision_function(X) - ref.decision_function(X)).reshape(len(X), -1)
    differing = set(np.flatnonzero(apart.max(axis=0) > 1e-4))
    assert not differing & set(_machines_with_free_classes(ours, y))


def _machines_with_free_classes(model, y) -> list[int]:
    """The one-vs-one machines (LIBSVM's order) both of whose classes hold a free
    multiplier: a coefficient above 0 and below the machine's bound (its largest)."""
    classes = list(model.classes_)
    labels = y[model.support_]
    pinned = []
    pairs = [(i, j) for i in range(len(classes)) for j in range(i + 1, len(classes))]
    for machine, (i, j) in enumerate(pairs):
        # LIBSVM's layout: class i's coefficients in row j - 1, class j's in row i
        parts = [np.abs(model.dual_coef_[j - 1][labels == classes[i]]),
                 np.abs(model.dual_coef_[i][labels == classes[j]])]
        bound = max(part.max(initial=0.0) for part in parts)
        if all(((part > RESIDUE) & (part < (1 - 1e-9) * bound)).any() for part in parts):
            pinned.append(machine)
    return pinned


def _sine(n=300):
    rng = np.random.default_rng(4)
    x = rng.uniform(-2, 2, (n, 1))
    return x, np.sin(3 * x[:, 0]) + rng.normal(0, 0.1, n)


def test_the_snapshots_count_on_across_the_solves(searched):
    X, z = _sine()
    snapshots = list(solve_problem(nu_svr(X, z, Kernel("rbf", gamma=1.0), 100.0, 0.5), every=50))
    iterations = [s.iteration for s in snapshots]
    assert len(searched) >= 2
    assert iterations == sorted(iterations)
    assert [s.converged for s in snapshots] == [False] * (len(snapshots) - 1) + [True]
    assert iterations[-1] >= sum(s.iteration for s in searched)    # and the polish's


def test_nu_svc_snapshots_of_the_c_form_are_at_the_models_scale(searched):
    X, y = test_nu_svc._imbalanced()
    signs = np.where(y > 0, 1.0, -1.0)
    snapshots = list(solve_problem(nu_svc(X, signs, Kernel("rbf", gamma=0.5), 0.3),
                                   every=10**9))
    final, before = snapshots[-1], snapshots[-2]       # the last C-form solve's own final
    assert final.converged and not before.converged
    # the C form's own multipliers, and its f, are r times the nu form's: 11 times here
    size = [np.median(np.abs(s.decision + s.bias)) for s in (before, final)]
    assert size[0] == pytest.approx(size[1], rel=0.2)
    assert searched[-1].scale < 0.2


def test_a_kernel_that_is_not_positive_semi_definite_stays_on_the_nu_form(searched):
    X, z = _sine()
    sigmoid = Kernel("sigmoid", gamma=0.1, coef0=0.0)
    assert not sigmoid.positive_semidefinite
    assert deque(solve_problem(nu_svr(X, z, sigmoid, 1.0, 0.5)), maxlen=1)[0].converged
    assert not searched


def test_a_search_is_the_same_run_every_time(searched):
    X, z = _sine()
    problem = nu_svr(X, z, Kernel("rbf", gamma=1.0), 100.0, 0.5)
    first, again = (deque(solve_problem(problem, every=10**9), maxlen=1)[0] for _ in "ab")
    assert first.iteration == again.iteration
    np.testing.assert_array_equal(first.dual_coef, again.dual_coef)


@pytest.mark.parametrize(("jump", "most"), [(0.0, 7), (0.0004, 7), (0.05, 12)])
def test_the_bracket_closes_on_a_jump_in_a_few_solves(jump, most):
    """e'a(s) - S a step (+2 below `jump`, -0.4 above): a tube of width 0 makes one at s = 0
    (diabetes, rbf, C 100). The search starts at 0.09, as the nu form's r put it there."""
    target, tol = 10.0, 1e-3
    bracket = nu_search._Bracket(target, 0.009, tol)
    shift, solves = 0.09, 0
    while shift is not None:
        solves += 1
        excess = 2.0 if shift <= jump else -0.4
        alpha = np.full(10, (target + excess) / 10)
        shift = bracket.add(shift, (alpha, np.zeros(10)))
    assert solves <= most
    assert bracket.low[0] <= jump < bracket.high[0] <= bracket.low[0] + tol
