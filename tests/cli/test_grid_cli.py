"""`svmdesk grid` as a LIBSVM grid.py or GridSearchCV user runs it: the table it writes is
grid_search's for the same grid and folds, the best cell is printed, a progress bar shows
on a terminal only, bad input is one line and exit 2 with nothing written, and --plot
draws a heat map."""
from __future__ import annotations

import contextlib
import csv
import io
import math
import re
import time

import numpy as np
import pytest

from svmdesk import cli
from svmdesk.cli.grid_search import value_range
from svmdesk.core import SVC, SVR, class_labels, grid_search, make_dataset
from svmdesk.formats import load_dataset, save_dataset
from svmdesk.formats.targets import save_targets

from .test_cli import assert_one_line_error, run

PNG = b"\x89PNG\r\n\x1a\n"
C_RANGE, GAMMA_RANGE = "0.1:10:3", "0.1:10:3"


@pytest.fixture
def moons(tmp_path):
    """60 points of two classes in moons.csv."""
    save_dataset(make_dataset("moons", n=60, noise=0.25, seed=3), tmp_path / "moons.csv")
    return tmp_path


def points(path):
    data = load_dataset(path)
    return data.X, class_labels(data.class_names)[np.asarray(data.y)]


def read_table(path) -> tuple[list, list]:
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def grid(cwd, *more, jobs="1"):
    return run("grid", "moons.csv", "--C", C_RANGE, "--gamma", GAMMA_RANGE, "--folds", "3",
               "--out", "grid.csv", "--jobs", jobs, *more, cwd=cwd)


# -- the table ----------------------------------------------------------------------------------
@pytest.mark.parametrize("more, params", [((), {}),
                                          (("--standardize",), {"standardize": True})])
def test_the_table_is_grid_searchs_for_the_same_grid_and_folds(moons, more, params):
    result = grid(moons, *more)
    assert result.returncode == 0, result.stderr
    X, y = points(moons / "moons.csv")
    Cs = np.logspace(-1, 1, 3)
    expected = grid_search(SVC(**params), X, y, {"C": Cs, "gamma": Cs}, folds=3, seed=0,
                           n_jobs=1)
    header, rows = read_table(moons / "grid.csv")
    assert header == ["C", "gamma", "mean_score", "std_score", "split0_score",
                      "split1_score", "split2_score", "mean_fit_time", "converged"]
    assert len(rows) == 9
    for row, cell in zip(rows, expected.cells):
        values = dict(zip(header, row))
        assert float(values["C"]) == cell.params["C"]
        assert float(values["gamma"]) == cell.params["gamma"]
        assert float(values["mean_score"]) == cell.mean           # written in full
        assert float(values["std_score"]) == cell.std
        assert [float(values[f"split{k}_score"]) for k in range(3)] == cell.scores.tolist()
        assert float(values["mean_fit_time"]) >= 0
        assert values["converged"] == str(cell.converged)
    assert [float(row[0]) for row in rows[::3]] == pytest.approx(Cs, rel=1e-15)


def test_the_best_cell_and_the_run_are_printed(moons):
    result = grid(moons)
    assert result.returncode == 0, result.stderr
    X, y = points(moons / "moons.csv")
    Cs = np.logspace(-1, 1, 3)
    best = grid_search(SVC(), X, y, {"C": Cs, "gamma": Cs}, folds=3, seed=0, n_jobs=1).best
    out = result.stdout
    assert re.search(r"^data:\s+moons\.csv$", out, re.M)
    assert re.search(r"^points:\s+60$", out, re.M)
    assert re.search(r"^folds:\s+3 \(stratified, seed 0\)$", out, re.M)
    assert re.search(r"^cells:\s+9: 3 C x 3 gamma$", out, re.M)
    assert re.search(r"^time:\s+[\d.]+ s$", out, re.M)
    assert re.search(rf"^best:\s+C={best.params['C']:.6g} gamma={best.params['gamma']:.6g} "
                     rf"mean accuracy {best.mean:.4f} \(std {best.std:.4f}\)$", out, re.M)
    assert "not converged" not in out
    assert out.endswith("wrote grid.csv\n")
    assert result.stderr == ""


def test_a_linear_kernel_searches_C_alone(moons):
    result = run("grid", "moons.csv", "--kernel", "linear", "-C", "0.01:100:5", "--folds", "3",
                 "--seed", "4", "--out", "grid.csv", "--jobs", "1", cwd=moons)
    assert result.returncode == 0, result.stderr
    X, y = points(moons / "moons.csv")
    expected = grid_search(SVC(kernel="linear"), X, y, {"C": value_range("0.01:100:5")},
                           folds=3, seed=4, n_jobs=1)
    header, rows = read_table(moons / "grid.csv")
    assert header[:2] == ["C", "mean_score"] and "gamma" not in header
    assert [float(row[1]) for row in rows] == [cell.mean for cell in expected.cells]
    assert re.search(r"^cells:\s+5: 5 C$", result.stdout, re.M)
    assert re.search(r"^best:\s+C=\S+ mean accuracy", result.stdout, re.M)


def test_a_regressor_is_scored_by_r2(tmp_path):
    rng = np.random.default_rng(5)
    x = np.sort(rng.uniform(0, 6, 40))
    z = np.sin(x) + 0.1 * rng.standard_normal(40)
    save_targets(x[:, None], z, ("x", "y"), tmp_path / "sine.csv")
    result = run("grid", "sine.csv", "--type", "epsilon-svr", "--epsilon", "0.05", "-C", "1:10:2",
                 "--gamma", "0.5", "--folds", "3", "--out", "grid.csv", "--jobs", "1",
                 cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    expected = grid_search(SVR(epsilon=0.05), x[:, None], z, {"C": [1.0, 10.0], "gamma": [0.5]},
                           folds=3, seed=0, n_jobs=1)
    header, rows = read_table(tmp_path / "grid.csv")
    assert [float(row[2]) for row in rows] == [cell.mean for cell in expected.cells]
    assert re.search(r"^folds:\s+3 \(seed 0\)$", result.stdout, re.M)
    assert "mean R^2" in result.stdout


@pytest.mark.parametrize("text, values", [
    ("1e-2:1e3:11", tuple(np.logspace(-2, 3, 11))),
    ("0.03125:32768:11", tuple(2.0 ** np.arange(-5, 16, 2))),
    ("2", (2.0,)),
    ("0.5:8:1", (0.5,)),
    ("3:3:4", (3.0,)),
])
def test_ranges_are_log_spaced_with_the_ends_as_typed(text, values):
    got = value_range(text)
    assert got == pytest.approx(values, rel=1e-14)
    assert (got[0], got[-1]) == (values[0], values[-1])


# -- bad input ----------------------------------------------------------------------------------
@pytest.mark.parametrize("args, says", [
    (("moons.csv", "--C", "1:0:3"), "above 0"),
    (("moons.csv", "--C", "10:1:3"), "START must not be above STOP"),
    (("moons.csv", "--C", "a:b:c"), "START:STOP:COUNT"),
    (("moons.csv", "--C", "1:10:0"), "COUNT must be a whole number"),
    (("moons.csv", "--gamma", "1:10:2.5"), "COUNT must be a whole number"),
    (("moons.csv", "--gamma", "1:10"), "START:STOP:COUNT"),
    (("moons.csv", "--C", "inf"), "above 0"),
    (("moons.csv", "--type", "nu-svc"), "c-svc or epsilon-svr"),
    (("moons.csv", "--kernel", "linear", "--gamma", "1"), "linear kernel has no gamma"),
    (("moons.csv", "--epsilon", "0.1"), "--epsilon is not a parameter of --type c-svc"),
    (("moons.csv", "--folds", "1"), "2 or more"),
    (("moons.csv", "--jobs", "0"), "1 or more"),
    (("missing.csv",), "missing.csv"),
    (("moons.csv", "--out", "nowhere/grid.csv"), "does not exist"),
    (("moons.csv", "--out", "grid.txt"), "must end in .csv"),
    (("moons.csv", "--plot", "nowhere/grid.png"), "does not exist"),
    (("moons.csv", "--plot", "grid.jpg"), "must end in .png or .svg"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(moons, args, says):
    before = sorted(moons.iterdir())
    more = () if "--out" in args else ("--out", "grid.csv")
    result = run("grid", *args, *more, "--jobs", "1", cwd=moons)
    line = assert_one_line_error(result)
    assert says in line
    assert sorted(moons.iterdir()) == before


# -- progress -----------------------------------------------------------------------------------
class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_progress_bar_when_stderr_is_no_terminal(moons, capsys):
    assert cli.main(["grid", str(moons / "moons.csv"), "--C", C_RANGE, "--gamma", GAMMA_RANGE,
                     "--folds", "3", "--out", str(moons / "grid.csv"), "--jobs", "1"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert "best:" in captured.out


def test_a_progress_bar_counts_the_cells_on_a_terminal_and_is_wiped(moons):
    terminal = _Terminal()
    with contextlib.redirect_stderr(terminal), contextlib.redirect_stdout(io.StringIO()):
        code = cli.main(["grid", str(moons / "moons.csv"), "--C", C_RANGE, "--gamma",
                         GAMMA_RANGE, "--folds", "3", "--out", str(moons / "grid.csv"),
                         "--jobs", "1"])
    assert code == 0
    shown = terminal.getvalue()
    frames = shown.split("\r")
    assert "cells 0/9 [" + "." * 30 + "]" in frames
    assert "cells 9/9 [" + "#" * 30 + "]" in frames
    counts = [int(m) for m in re.findall(r"cells (\d+)/9", shown)]
    assert counts == sorted(counts) and counts[-1] == 9
    assert frames[-2].strip() == "" and frames[-1] == ""      # wiped at the end
    assert "\n" not in shown


# -- the picture --------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("linear", [False, True])
def test_plot_draws_a_heat_map_or_a_line(moons, qapp, linear):
    from PySide6.QtGui import QImage

    if linear:
        result = run("grid", "moons.csv", "--kernel", "linear", "--C", "0.01:100:5",
                     "--folds", "3", "--out", "grid.csv", "--jobs", "1", "--plot", "grid.png",
                     "--width", "600", cwd=moons)
    else:
        result = grid(moons, "--plot", "grid.png", "--width", "600")
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith("wrote grid.csv\nwrote grid.png\n")
    data = (moons / "grid.png").read_bytes()
    assert data[:8] == PNG
    picture = QImage(str(moons / "grid.png"))
    assert (picture.width(), picture.height()) == (600, 450)
    colours = {picture.pixel(x, y) for x in range(0, 600, 7) for y in range(0, 450, 7)}
    assert len(colours) > (3 if linear else 20)       # a heat map has many colours


def test_plot_as_svg(moons, qapp):
    result = grid(moons, "--plot", "grid.svg")
    assert result.returncode == 0, result.stderr
    assert "<svg" in (moons / "grid.svg").read_text(encoding="utf-8")


# -- processes ----------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.timeout(60)
def test_two_processes_write_the_same_table(moons):
    started = time.perf_counter()
    result = grid(moons, jobs="2")
    if time.perf_counter() - started > 10 and result.returncode == 0:
        pytest.skip("spawning two processes took over 10 s on this machine")
    assert result.returncode == 0, result.stderr
    header, rows = read_table(moons / "grid.csv")
    assert grid(moons).returncode == 0
    header1, rows1 = read_table(moons / "grid.csv")
    assert header == header1
    drop = header.index("mean_fit_time")
    assert [row[:drop] + row[drop + 1:] for row in rows] == [
        row[:drop] + row[drop + 1:] for row in rows1]
    assert not any(math.isnan(float(row[2])) for row in rows)
