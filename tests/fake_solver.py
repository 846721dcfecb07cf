"""A fake solver and a fake parameter, added as rows to a copy of the catalog's table: what
a maintainer adding a solver writes, and nothing else (tests of the core and the CLI)."""
from __future__ import annotations

import inspect

from svmdesk.core import SVC, catalog
from svmdesk.core.catalog import TABLE, Control, Param, Solver

SHRINK = Param("shrink", "real", 0.5, "how far each step moves", low=0.0, high=1.0,
               high_open=False, solvers=("fake",), formula="w <- shrink * w",
               control=Control(0.05, 1.0, step=0.05))
FAKE = Solver("fake", "A fake solver", "SMO, with a shrink that it records",
              __name__, kernels=("linear", "rbf"), hard_margin=False, objective="dual")
seen = []      # the problems the fake solver was handed


def solve(problem, every=1, wanted=None):
    """The fake solver: SMO's answer, with the problem it was given kept."""
    seen.append(problem)
    return TABLE.solvers["smo"].implementation().solve(problem, every, wanted)


FAKE_TABLE = TABLE.with_rows(FAKE, SHRINK)


class ShrinkSVC(SVC, table=FAKE_TABLE):
    """SVC over the table with the new rows: the one line an estimator needs."""


def use_fake_table(monkeypatch):
    """Make the catalog's table, with the fake solver and parameter, the one in use for the
    test's duration (the `fake_table` fixture)."""
    monkeypatch.setattr(catalog, "TABLE", FAKE_TABLE)
    seen.clear()
    return FAKE_TABLE


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
