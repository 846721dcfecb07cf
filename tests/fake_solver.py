"""A fake solver and a fake parameter, added as rows to a copy of the catalog's table: what
a maintainer adding a solver writes, and nothing else (tests of the core and the CLI), and
the window's offer of the parameter (tests of the window)."""
from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Mapping

from svmdesk.core import SVC, catalog, kinds
from svmdesk.core.catalog import TABLE, Param, Solver

SHRINK = Param("shrink", "real", 0.5, "how far each step moves", low=0.0, high=1.0,
               high_open=False, solvers=("fake",), formula="w <- shrink * w")
FAKE = Solver("fake", "A fake solver", "SMO, with a shrink that it records",
              __name__, kernels=("linear", "rbf"), hard_margin=False, objective="dual")
seen = []      # the problems the fake solver was handed


def solve(problem, every=1, wanted=None):
    """The fake solver: SMO's answer, with the problem it was given kept."""
    seen.append(problem)
    return TABLE.solvers["smo"].implementation().solve(problem, every, wanted)


FAKE_TABLE = TABLE.with_rows(FAKE, SHRINK)


class ShrinkSVC(SVC, table=FAKE_TABLE):
    """SVC over the table with the new rows: its table, and the new argument written out in
    its __init__ (last, as the table adds the row last), as scikit-learn's estimators do."""

    def __init__(self, *, solver: str = "smo", kernel: str = "rbf", C: float | None = 1.0,
                 gamma: float | str = "scale", degree: int = 3, coef0: float = 0.0,
                 tol: float = 1e-3, max_iter: int | None = None, max_time: float | None = None,
                 learning_rate: float | None = None, batch_size: int | None = None,
                 standardize: bool = False, random_state: int | None = None,
                 probability: bool = False, class_weight: Mapping | str | None = None,
                 decision_function_shape: str = "ovr", shrink: float = 0.5) -> None:
        super().__init__(solver=solver, kernel=kernel, C=C, gamma=gamma, degree=degree,
                         coef0=coef0, tol=tol, max_iter=max_iter, max_time=max_time,
                         learning_rate=learning_rate, batch_size=batch_size,
                         standardize=standardize, random_state=random_state,
                         probability=probability, class_weight=class_weight,
                         decision_function_shape=decision_function_shape)
        self.shrink = shrink


def use_fake_table(monkeypatch):
    """Make the catalog's table, with the fake solver and parameter, the one in use for the
    test's duration (the `fake_table` fixture), and the window offer the parameter."""
    monkeypatch.setattr(catalog, "TABLE", FAKE_TABLE)
    monkeypatch.setitem(kinds.KINDS, kinds.C_SVC.key,
                        dataclasses.replace(kinds.C_SVC, table=FAKE_TABLE))
    _offer_shrink(monkeypatch)
    seen.clear()
    return FAKE_TABLE


def _offer_shrink(monkeypatch) -> None:
    """The window's offer of SHRINK: a spin box from 0.05 to 1 stepping by 0.05. Imported
    here, when asked: the offers are the window's (Qt-free, but tests of the core and the
    CLI import nothing of the window)."""
    from svmdesk.app.widgets import param_offers

    monkeypatch.setitem(param_offers.OFFERS, SHRINK.name,
                        param_offers.Control(0.05, 1.0, step=0.05))


def signature_agrees(cls, table) -> list:
    """What differs between an estimator's __init__ and the table: names, order, defaults."""
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    problems = []
    if [p.name for p in params] != list(table.names):
        problems.append(f"names {[p.name for p in params]} != {list(table.names)}")
    for p in params:
        if p.name in table.names and p.default != table.param(p.name).default:
            problems.append(f"{p.name}: default {p.default!r} != "
                            f"{table.param(p.name).default!r}")
    return problems
