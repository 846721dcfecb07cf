"""The train command's options come from the catalog's table: a new solver and parameter
in a copy of the table are options, in the help and in the summary, with no other change."""
from __future__ import annotations

import dataclasses
import re

import pytest

from svmdesk import cli
from svmdesk.core import make_dataset
from svmdesk.core.kinds import C_SVC, KINDS
from svmdesk.core.solvers.base import BinaryProblem

from ..fake_solver import ShrinkSVC, seen


def test_the_cli_takes_a_new_solver_and_parameter_from_the_table(fake_table, monkeypatch,
                                                                 tmp_path, capsys):
    with pytest.raises(SystemExit):
        cli.main(["train", "--help"])
    flat = " ".join(capsys.readouterr().out.split())
    assert "--shrink SHRINK how far each step moves: a number with 0 < shrink <= 1; used by " \
           "solver fake (default 0.5)" in flat
    assert "fake: SMO, with a shrink that it records (linear, rbf)" in flat
    d = make_dataset("moons", n=60, noise=0.2, seed=0)
    data = tmp_path / "moons.csv"
    data.write_text("x,y,label\n" + "".join(f"{a},{b},{c}\n" for (a, b), c in zip(d.X, d.y)))
    monkeypatch.setitem(KINDS, C_SVC.key, dataclasses.replace(
        KINDS[C_SVC.key], estimator_at=f"{ShrinkSVC.__module__}:ShrinkSVC"))
    code = cli.main(["train", str(data), "--solver", "fake", "--kernel", "linear",
                     "--shrink", "0.75", "--out", str(tmp_path / "m.json")])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert seen and isinstance(seen[0], BinaryProblem)     # the fake solver trained it
    assert re.search(r"^solver: +fake$", out.out, re.M)
    assert "shrink=0.75" in out.out and "(dual)" in out.out
    assert cli.main(["train", str(data), "--solver", "fake", "--shrink", "3",
                     "--out", str(tmp_path / "m.json")]) == 2
    assert "shrink must be a number with 0 < shrink <= 1; got 3.0" in capsys.readouterr().err
