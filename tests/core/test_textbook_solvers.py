"""The four textbook solvers against scikit-learn (used here only, as an oracle).

Reference objective: libsvm's dual D = sum|dual_coef| - 1/2 dc' K dc from SVC(tol=1e-6), which
equals the primal optimum P* in the units every solver reports.
"""
from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np
import pytest
from sklearn.datasets import make_blobs, make_moons
from sklearn.svm import SVC as SklearnSVC

from svmdesk.core import catalog
from svmdesk.core.errors import ConvergenceWarning, DivergenceError
from svmdesk.core.kernels import Kernel
from svmdesk.core.solvers import dual_gradient, kernel_gradient, pegasos, primal_subgradient
from svmdesk.core.solvers._common import project_dual
from svmdesk.core.solvers.base import BinaryProblem

SOLVERS = {
    "dual-gradient": dual_gradient,
    "primal-subgradient": primal_subgradient,
    "kernel-gradient": kernel_gradient,
    "pegasos": pegasos,
}


# ----------------------------------------------------------------------------- fixtures


def _standardize(X):
    return (X - X.mean(axis=0)) / X.std(axis=0)


@functools.cache
def dataset(name):
    """Small two-class sets, standardized, labels -1/+1."""
    if name == "blobs":      # overlapping blobs
        X, y = make_blobs(n_samples=200, centers=2, cluster_std=2.5, random_state=8)
    elif name == "moons":
        X, y = make_moons(n_samples=200, noise=0.2, random_state=1)
    elif name == "separable":
        X, y = make_blobs(n_samples=100, centers=2, cluster_std=0.6, random_state=3)
    elif name == "imbalanced":  # 170 vs 30 points: the optimal intercept is far from 0
        X, y = make_blobs(n_samples=[170, 30], centers=[[0, 0], [1.5, 1.5]],
                          cluster_std=1.0, random_state=0)
    else:
        raise KeyError(name)
    return _standardize(X), np.where(y == 1, 1.0, -1.0)


def kernel(name, d=2):
    return {
        "linear": Kernel("linear"),
        "rbf": Kernel("rbf", gamma=1.0),
        "poly": Kernel("poly", gamma=1.0 / d, degree=3, coef0=1.0),
        "sigmoid": Kernel("sigmoid", gamma=0.1 / d, coef0=0.0),
    }[name]


@functools.cache
def reference(data, kernel_name, C):
    """(optimal objective, fitted sklearn SVC) for a data set, kernel and C."""
    X, y = dataset(data)
    k = kernel(kernel_name, X.shape[1])
    sk = SklearnSVC(kernel=k.name, C=C if math.isfinite(C) else 1e10, gamma=k.gamma,
                    degree=k.degree, coef0=k.coef0, tol=1e-6).fit(X, y)
    dc = sk.dual_coef_.ravel()
    sv = X[sk.support_]
    return float(np.abs(dc).sum() - 0.5 * dc @ k(sv, sv) @ dc), sk


def problem(data, kernel_name, C, **settings):
    X, y = dataset(data)
    return BinaryProblem(X, y, kernel(kernel_name, X.shape[1]), C, **settings)


def run(module, prob, every=10 ** 9):
    """All snapshots of one run (with a huge `every`: just the first and the final one)."""
    return list(module.solve(prob, every=every))


def decision(snapshot, prob):
    if snapshot.w is not None:
        return prob.X @ snapshot.w + snapshot.bias
    return prob.kernel(prob.X, prob.X) @ snapshot.dual_coef + snapshot.bias


def solver_objective(snapshot):
    """What the solver claims to have reached: D for dual-gradient, P for the others."""
    if snapshot.kkt_violation is not None:
        return snapshot.dual_objective
    return snapshot.primal_objective


def check_against_sklearn(module, data, kernel_name, C):
    prob = problem(data, kernel_name, C, seed=0)
    last = run(module, prob)[-1]
    optimum, sk = reference(data, kernel_name, C)
    relative = abs(solver_objective(last) - optimum) / abs(optimum)
    agreement = np.mean(np.sign(decision(last, prob)) == sk.predict(prob.X))
    assert relative <= 0.01, f"objective {solver_objective(last):.6g} vs optimum {optimum:.6g}"
    assert agreement >= 0.97
    return last, sk


# --------------------------------------------------------- accuracy on default settings

CS = (0.1, 1.0, 10.0)


@pytest.mark.parametrize("C", CS)
@pytest.mark.parametrize("kernel_name", ["linear", "rbf", "poly", "sigmoid"])
@pytest.mark.parametrize("data", ["blobs", "moons"])
def test_dual_gradient_reaches_the_optimum(data, kernel_name, C):
    last, _ = check_against_sklearn(dual_gradient, data, kernel_name, C)
    assert last.converged
    assert last.gap >= -1e-9 * abs(last.primal_objective)  # weak duality


@pytest.mark.parametrize("C", CS)
@pytest.mark.parametrize("data", ["blobs", "moons"])
def test_primal_subgradient_reaches_the_optimum(data, C):
    last, _ = check_against_sklearn(primal_subgradient, data, "linear", C)
    assert last.converged and last.dual_coef is None and last.w.shape == (2,)


@pytest.mark.parametrize("C", CS)
@pytest.mark.parametrize("kernel_name", ["linear", "rbf"])
@pytest.mark.parametrize("data", ["blobs", "moons"])
def test_kernel_gradient_reaches_the_optimum(data, kernel_name, C):
    last, _ = check_against_sklearn(kernel_gradient, data, kernel_name, C)
    assert last.converged
    assert last.dual_objective <= last.primal_objective  # a certified gap


@pytest.mark.parametrize("kernel_name", ["poly", "sigmoid"])
def test_kernel_gradient_other_kernels(kernel_name):
    check_against_sklearn(kernel_gradient, "moons", kernel_name, 1.0)


@pytest.mark.filterwarnings("ignore::svmdesk.core.errors.ConvergenceWarning")  # C=10: slow
@pytest.mark.parametrize("C", CS)
@pytest.mark.parametrize("data", ["blobs", "moons"])
def test_pegasos_reaches_the_optimum(data, C):
    last, _ = check_against_sklearn(pegasos, data, "linear", C)
    assert last.w.shape == (2,)


# ------------------------------------------------------------------------- the intercept


@pytest.mark.parametrize("module", [kernel_gradient, dual_gradient])
def test_rbf_model_has_a_real_intercept(module):
    """Seed 002 appends a ones column, which cancels inside an RBF kernel (no intercept)."""
    last, sk = check_against_sklearn(module, "imbalanced", "rbf", 1.0)
    expected = float(sk.intercept_[0])
    assert abs(expected) > 0.5  # the data set does need an intercept
    assert last.bias == pytest.approx(expected, abs=0.1 * abs(expected))
    # and it matters: the same model with its intercept dropped is far from optimal
    prob = problem("imbalanced", "rbf", 1.0)
    g = prob.kernel(prob.X, prob.X) @ last.dual_coef
    without_bias = 0.5 * last.dual_coef @ g + np.maximum(0.0, 1.0 - prob.y * g).sum()
    assert without_bias > 1.5 * last.primal_objective


@pytest.mark.parametrize("name", ["primal-subgradient", "pegasos"])
def test_linear_intercept_is_not_regularized(name):
    """Seed 001 puts b inside ||w||^2, which pulls it towards 0; ours is free."""
    last, sk = check_against_sklearn(SOLVERS[name], "imbalanced", "linear", 1.0)
    expected = float(sk.intercept_[0])
    assert abs(expected) > 0.5
    assert last.bias == pytest.approx(expected, abs=0.1 * abs(expected))


# --------------------------------------------------------------------------- hard margin


@pytest.mark.parametrize("kernel_name", ["linear", "rbf"])
def test_hard_margin_on_separable_data(kernel_name):
    prob = problem("separable", kernel_name, math.inf)
    last = run(dual_gradient, prob)[-1]
    optimum, sk = reference("separable", kernel_name, math.inf)
    assert last.converged
    assert last.dual_objective == pytest.approx(optimum, rel=0.01)
    margins = prob.y * decision(last, prob)
    assert margins.min() > 0.99  # every point on or outside its margin, up to tol
    assert np.all(np.sign(decision(last, prob)) == sk.predict(prob.X))


@pytest.mark.parametrize("kernel_name", ["linear", "poly"])
def test_hard_margin_on_overlapping_data_says_so(kernel_name):
    with pytest.warns(ConvergenceWarning, match="not separable.*use a finite C"):
        last = run(dual_gradient, problem("moons", kernel_name, math.inf))[-1]
    assert not last.converged


@pytest.mark.parametrize("name", ["primal-subgradient", "kernel-gradient", "pegasos"])
def test_hinge_solvers_refuse_hard_margin(name):
    with pytest.raises(ValueError, match="finite C"):
        SOLVERS[name].solve(problem("separable", "linear", math.inf))


# ---------------------------------------------------------------------- kernels, steps


def test_supported_kernels():
    kernels = {name: row.kernels for name, row in catalog.SOLVERS.items()}
    assert set(kernels["dual-gradient"]) == {"linear", "poly", "rbf", "sigmoid"}
    assert set(kernels["kernel-gradient"]) == {"linear", "poly", "rbf", "sigmoid"}
    assert kernels["primal-subgradient"] == ("linear",)
    assert kernels["pegasos"] == ("linear",)


@pytest.mark.parametrize("name", ["primal-subgradient", "pegasos"])
def test_unsupported_kernel_is_refused_at_the_call(name):
    with pytest.raises(ValueError) as error:
        SOLVERS[name].solve(problem("moons", "rbf", 1.0))  # no next() needed
    message = str(error.value)
    assert repr(name) in message and "'rbf'" in message and "kernel='linear'" in message
    assert "kernel-gradient" in message


@pytest.mark.parametrize("name, C", [("dual-gradient", math.inf), ("primal-subgradient", 1.0),
                                     ("kernel-gradient", 1.0), ("pegasos", 1.0)])
def test_huge_learning_rate_diverges_loudly(name, C):
    prob = problem("blobs", "linear", C, learning_rate=1e8)
    with pytest.raises(DivergenceError, match=f"{name}.*1e\\+08"):
        run(SOLVERS[name], prob)


def test_huge_learning_rate_in_a_box_is_explained():
    """With finite C the box keeps the dual bounded: no NaN, but a clear warning."""
    prob = problem("blobs", "linear", 1.0, learning_rate=1e8, max_iter=200)
    with pytest.warns(ConvergenceWarning, match="stable limit"):
        last = run(dual_gradient, prob)[-1]
    assert not last.converged and np.isfinite(last.dual_objective)


def test_budget_exhaustion_warns():
    prob = problem("moons", "rbf", 10.0, max_iter=5)
    for module in (dual_gradient, kernel_gradient):
        with pytest.warns(ConvergenceWarning, match="stopped after 5 iterations"):
            last = run(module, prob)[-1]
        assert last.iteration == 5 and not last.converged


# ------------------------------------------------------------------------------ pegasos


@pytest.mark.slow
def test_pegasos_is_reproducible_with_a_seed():
    def final(seed, batch_size=None):
        return run(pegasos, problem("moons", "linear", 1.0, seed=seed,
                                    batch_size=batch_size))[-1]

    a, b, c = final(3), final(3), final(4)
    assert np.array_equal(a.w, b.w) and a.bias == b.bias and a.iteration == b.iteration
    assert not np.array_equal(a.w, c.w)
    assert final(3, batch_size=1).iteration != a.iteration  # batch size is honoured


# ---------------------------------------------------------------------------- snapshots


@pytest.mark.parametrize("name", list(SOLVERS))
def test_snapshots_are_immutable_and_end_converged(name):
    snapshots = run(SOLVERS[name], problem("blobs", "linear", 1.0, seed=0), every=5)
    assert len(snapshots) >= 2
    assert snapshots[-1].converged and not any(s.converged for s in snapshots[:-1])
    for s in snapshots:
        with pytest.raises(dataclasses.FrozenInstanceError):
            s.bias = 0.0
        for array in (s.dual_coef, s.w, s.support):
            if array is not None:
                assert not array.flags.writeable
                with pytest.raises(ValueError):
                    array[...] = 0
        assert (s.w is None) != (s.dual_coef is None)
    last = snapshots[-1]
    assert len(last.support) > 0 and last.step_size > 0


@pytest.mark.parametrize("name", list(SOLVERS))
@pytest.mark.parametrize("every", [1, 7])
def test_every_k_iterations_plus_the_final(name, every):
    snapshots = run(SOLVERS[name], problem("moons", "linear", 0.1, seed=0), every=every)
    final = snapshots[-1].iteration
    assert [s.iteration for s in snapshots[:-1]] == list(range(0, final, every))


@pytest.mark.parametrize("name", list(SOLVERS))
def test_every_must_be_positive(name):
    with pytest.raises(ValueError, match="every"):
        SOLVERS[name].solve(problem("moons", "linear", 1.0), every=0)


# ----------------------------------------------------------------------- shared helpers


def test_projection_onto_the_dual_feasible_set():
    rng = np.random.default_rng(0)
    for trial in range(300):
        n = int(rng.integers(2, 25))
        y = rng.choice([-1.0, 1.0], n)
        y[:2] = (1.0, -1.0)
        v = 3.0 * rng.standard_normal(n)
        C = (0.5, 2.0, math.inf)[trial % 3]
        a = project_dual(v, y, C)
        assert abs(y @ a) < 1e-9 and a.min() >= 0.0 and a.max() <= C
        for _ in range(5):  # no nearby feasible point is closer to v
            other = project_dual(a + 0.1 * rng.standard_normal(n), y, C)
            assert np.sum((v - a) ** 2) <= np.sum((v - other) ** 2) + 1e-9


def test_projection_onto_a_box_per_point_and_a_sum_that_is_not_zero():
    """The one-class SVM's feasible set: 0 <= a_i <= C_i, sum a_i = delta (y = +1)."""
    rng = np.random.default_rng(1)
    for _ in range(200):
        n = int(rng.integers(2, 25))
        C = rng.uniform(0.2, 2.0, n)
        delta = float(rng.uniform(0.05, 0.95) * C.sum())
        v = 3.0 * rng.standard_normal(n)
        y = np.ones(n)
        a = project_dual(v, y, C, delta)
        assert a.sum() == pytest.approx(delta, abs=1e-9) and np.all((a >= 0) & (a <= C))
        for _ in range(5):  # no nearby feasible point is closer to v
            other = project_dual(a + 0.1 * rng.standard_normal(n), y, C, delta)
            assert np.sum((v - a) ** 2) <= np.sum((v - other) ** 2) + 1e-9



def test_a_negative_duality_gap_is_never_called_convergence():
    """The sigmoid kernel's matrix is not positive semi-definite here, so the averaged dual
    rises above the primal: the gap certifies nothing (it used to stop after a few dozen
    iterations as 'converged' with a gap of -0.07)."""
    from svmdesk.core import SVC, ConvergenceWarning, make_dataset

    d = make_dataset("two_disks", n=100, seed=0)
    svc = SVC(solver="kernel-gradient", kernel="sigmoid", C=1.0, max_iter=2000)
    with pytest.warns(ConvergenceWarning, match="negative duality gap.*not positive semi"):
        snaps = [step.snapshot for step in svc.iter_fit(d.X, d.y)]
    assert all(not s.converged for s in snaps if s.gap < 0)
    assert snaps[-1].gap < 0 and not svc.converged_
    assert snaps[-1].iteration == 2000                      # it kept looking


def test_gap_certifies_only_a_small_non_negative_gap():
    from svmdesk.core.solvers.base import gap_certifies

    assert gap_certifies(10.0, 9.995, 1e-3) and gap_certifies(10.0, 10.0, 1e-3)
    assert gap_certifies(10.0, 10.0 + 1e-12, 1e-3)          # rounding
    assert not gap_certifies(10.0, 9.9, 1e-3)                # too wide
    assert not gap_certifies(10.0, 10.3, 1e-3)               # no bound at all


def test_a_thread_hears_its_own_warnings_only():
    """The window's worker hears the warnings of its run as they are raised, whatever
    another thread does with the warnings module meanwhile."""
    import threading
    import warnings

    from svmdesk.core import SVC, make_dataset
    from svmdesk.core.errors import hearing_warnings

    d = make_dataset("moons", n=60, noise=0.4, seed=1)
    heard, other = [], []

    def other_thread():
        with hearing_warnings(other.append):
            for _ in range(50):
                with warnings.catch_warnings():        # as pyqtgraph's drawing code does
                    warnings.simplefilter("ignore")

    t = threading.Thread(target=other_thread)
    with hearing_warnings(heard.append), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t.start()
        for _ in range(2):
            SVC(solver="dual-gradient", kernel="linear", C=None, max_iter=2000).fit(d.X, d.y)
        t.join(timeout=10)
    assert len(heard) == 2 and all("not separable" in m for m in heard)
    assert other == []


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_a_caller_that_says_when_gets_snapshots_then_and_the_same_model(name):
    """Given `wanted` (the window's solver asks once a frame is drawn), a gradient solver
    yields a snapshot when it says so, not at every step (a snapshot's pass over the points
    cost Pegasos half its run), and ends at the model it ends at without it."""
    X, y = dataset("moons")
    linear = name in ("pegasos", "primal-subgradient")
    problem = BinaryProblem(X, y, kernel("linear" if linear else "rbf"), C=1.0,
                            seed=0)
    calls = []

    def wanted():
        calls.append(1)
        return len(calls) % 25 == 0

    asked = list(SOLVERS[name].solve(problem, every=1, wanted=wanted))
    every = list(SOLVERS[name].solve(problem, every=1))
    steps = every[-1].iteration
    assert steps > 50 and len(asked) == len(calls) // 25 + 1 < len(every)
    assert [s.iteration for s in asked[:-1]] == [25 * k - 1 for k in range(1, len(asked))]
    last, expected = asked[-1], every[-1]
    assert last.converged == expected.converged and last.iteration == steps
    for field in ("dual_coef", "w"):
        np.testing.assert_array_equal(getattr(last, field), getattr(expected, field))
    assert last.bias == expected.bias
