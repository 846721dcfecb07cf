"""The catalog: one table of solver, kernel and parameter facts that the estimator checks
against, and that a new solver or parameter joins with one row."""
from __future__ import annotations

import math

import numpy as np
import pytest

from svmdesk.core import SVC, make_dataset
from svmdesk.core.catalog import TABLE, Param
from svmdesk.core.kernels import Kernel
from svmdesk.core.solvers.base import BinaryProblem

from ..fake_solver import ShrinkSVC, seen, signature_agrees


def test_svc_signature_agrees_with_the_table():
    assert signature_agrees(SVC, TABLE) == []


def test_get_params_and_repr_follow_the_table():
    assert list(SVC().get_params()) == list(TABLE.names)
    assert repr(SVC()) == "SVC()"
    assert repr(SVC(C=10, kernel="linear")) == "SVC(kernel='linear', C=10)"


@pytest.mark.parametrize("param", TABLE.params, ids=lambda p: p.name)
def test_every_default_passes_its_own_check(param):
    checked = param.check(param.default)
    assert checked == param.default or (param.default is None and checked == param.none_value)


@pytest.mark.parametrize("param", TABLE.params, ids=lambda p: p.name)
def test_every_row_describes_itself(param):
    assert param.about and param.allowed()
    assert param.value_type in ("choice", "real", "int", "bool", "weights")
    for names, rows in ((param.solvers, TABLE.solvers), (param.kernels, TABLE.kernels)):
        assert names is None or set(names) <= set(rows)


@pytest.mark.parametrize("solver", TABLE.solvers.values(), ids=lambda s: s.name)
def test_every_solver_row_names_a_module_that_solves_and_kernels_that_exist(solver):
    assert callable(solver.implementation().solve)
    assert solver.title and solver.about and solver.objective in ("dual", "primal")
    assert solver.kernels and set(solver.kernels) <= set(TABLE.kernels)


@pytest.mark.parametrize("kernel", TABLE.kernels.values(), ids=lambda k: k.name)
def test_every_kernel_row_has_an_implementation_and_its_formula(kernel):
    assert Kernel(kernel.name).formula == kernel.formula
    assert kernel.formula.startswith("k(x, x') = ")


def test_hard_margin_solvers_are_the_dual_ones():
    hard = {name for name, row in TABLE.solvers.items() if row.hard_margin}
    assert hard == {name for name, row in TABLE.solvers.items() if row.objective == "dual"}


@pytest.mark.parametrize("param, value, words", [
    (Param("shrink", "real", 0.5, "a share", low=0, high=1, high_open=False), 1.5,
     ["0 < shrink <= 1"]),
    (Param("rounds", "int", 3, "how often", low=2, high=9, low_open=False), 1,
     ["an integer with 2 <= rounds < 9"]),
    (Param("offset", "real", 0.0, "a shift", low=-1), -2, ["a number with -1 < offset"]),
])
def test_a_range_is_said_in_the_error(param, value, words):
    with pytest.raises(ValueError) as info:
        param.check(value)
    message = str(info.value)
    assert message.startswith(f"{param.name} must be ") and message.endswith(f"got {value!r}")
    for word in words:
        assert word in message


# -- a new solver and a new parameter: rows in a copy of the table --------------------------
def test_the_signature_check_catches_a_parameter_missing_from_init(fake_table):
    assert signature_agrees(ShrinkSVC, fake_table) == []
    assert "shrink" in " ".join(signature_agrees(SVC, fake_table))


def test_the_estimator_takes_a_new_solver_and_parameter_from_the_table(fake_table):
    d = make_dataset("moons", n=80, noise=0.2, seed=0)
    svc = ShrinkSVC(solver="fake", kernel="rbf", shrink=0.25).fit(d.X, d.y)
    # the fake solver trained it (a parameter a real solver reads is a field of its problem)
    assert seen and isinstance(seen[0], BinaryProblem)
    reference = ShrinkSVC(solver="smo", kernel="rbf").fit(d.X, d.y)
    np.testing.assert_allclose(svc.decision_function(d.X), reference.decision_function(d.X))
    assert svc.objective_ == pytest.approx(reference.objective_)   # its objective: the dual
    assert svc.get_params()["shrink"] == 0.25 and "shrink=0.25" in repr(svc)


@pytest.mark.parametrize("params, words", [
    (dict(shrink=2.0), ["shrink must be", "0 < shrink <= 1", "got 2.0"]),
    (dict(shrink="half"), ["shrink must be", "got 'half'"]),
    (dict(kernel="poly"), ["solver 'fake' trains linear and rbf models only", "'poly'"]),
    (dict(C=math.inf), ["solver 'fake'", "finite C"]),
])
def test_the_new_rows_are_checked_before_training(fake_table, params, words):
    d = make_dataset("moons", n=40, noise=0.2, seed=0)
    with pytest.raises(ValueError) as info:
        ShrinkSVC(**{"solver": "fake", **params}).fit(d.X, d.y)
    for word in words:
        assert word in str(info.value)
    assert seen == []
