"""Solvers read typed fields of the problem only (issue #87): no bag of every training
parameter rides along; SMO's max_time and dual gradient's learning_rate are fields, which
every builder carries across."""
from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_moons

from svmdesk.core import OneClassSVM
from svmdesk.core.errors import ConvergenceWarning
from svmdesk.core.kernels import Kernel
from svmdesk.core.solvers import dual_gradient
from svmdesk.core.solvers.base import BinaryProblem
from svmdesk.core.solvers.problems import DualProblem, c_svc, epsilon_svr, nu_svr, one_class
from svmdesk.core.solvers.smo import entry as smo


def _moons(n=200):
    X, y = make_moons(n_samples=n, noise=0.2, random_state=1)
    return (X - X.mean(axis=0)) / X.std(axis=0), np.where(y == 1, 1.0, -1.0)


def _fields(cls) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)}


def test_the_problems_carry_typed_fields_and_no_bag_of_parameters():
    for cls in (BinaryProblem, DualProblem):
        assert "params" not in _fields(cls)
        assert {"max_time", "learning_rate"} <= _fields(cls)
    X, y = _moons(20)
    with pytest.raises(TypeError):
        BinaryProblem(X=X, y=y, kernel=Kernel("rbf", gamma=1.0),
                      params={"max_time": 1.0})  # type: ignore[call-arg]


def test_every_builder_carries_the_typed_fields_across():
    X, y = _moons(20)
    kernel = Kernel("rbf", gamma=1.0)
    binary = BinaryProblem(X=X, y=y, kernel=kernel, max_time=2.5, learning_rate=0.125)
    duals = [c_svc(binary), c_svc(binary.of_points(np.arange(10))),
             one_class(X, kernel, 0.5, max_time=2.5, learning_rate=0.125),
             epsilon_svr(X, y, kernel, 1.0, 0.1, max_time=2.5, learning_rate=0.125),
             nu_svr(X, y, kernel, 1.0, 0.5, max_time=2.5, learning_rate=0.125)]
    for dual in duals:
        assert (dual.max_time, dual.learning_rate) == (2.5, 0.125)


def test_smo_honours_max_time_given_as_the_field():
    X, y = _moons()
    problem = BinaryProblem(X=X, y=y, kernel=Kernel("rbf", gamma=1.0), C=100.0, tol=1e-6)
    unbounded = list(smo.solve(problem))[-1]
    assert unbounded.converged and unbounded.iteration > 10      # it needs many steps
    with pytest.warns(ConvergenceWarning, match="max_time"):
        bounded = list(smo.solve(dataclasses.replace(problem, max_time=1e-9)))[-1]
    assert not bounded.converged and bounded.iteration < unbounded.iteration


def test_dual_gradient_takes_its_step_from_the_field():
    X, _y = _moons(60)
    rate, budget = 1e-3, 50
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fitted = OneClassSVM(solver="dual-gradient", kernel="rbf", gamma=1.0, nu=0.3,
                             learning_rate=rate, max_iter=budget, standardize=False).fit(X)
        problem = one_class(X, Kernel("rbf", gamma=1.0), 0.3, max_iter=budget,
                            learning_rate=rate)
        given = list(dual_gradient.solve_problem(problem))[-1]
        safe = list(dual_gradient.solve_problem(
            dataclasses.replace(problem, learning_rate=None)))[-1]
    assert given.step_size == pytest.approx(rate)
    assert safe.step_size != pytest.approx(rate)
    assert given.bias == pytest.approx(float(fitted.intercept_[0]))
    np.testing.assert_allclose(given.dual_coef[fitted.support_], fitted.dual_coef_[0])
