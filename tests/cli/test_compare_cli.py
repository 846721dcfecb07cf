"""`svmdesk compare` as a teacher scripts it: the table it writes is the core's fits of the
same runs (read back exactly), the printed table says the same, bad input is one line and
exit 2 with nothing written, and --plot draws the runs side by side with their
objectives, as PNG at the width asked or as SVG."""
from __future__ import annotations

import numpy as np
import pytest

from svmdesk.core import class_labels, make_dataset
from svmdesk.core.catalog import TABLE
from svmdesk.core.comparison import Entry, compare
from svmdesk.formats import load_dataset, save_dataset
from svmdesk.formats.comparison_table import read_table

from .test_cli import assert_one_line_error, run
from .test_grid_cli import PNG

SETTINGS = ("--kernel", "linear", "--test-fraction", "0.25", "--seed", "2")


@pytest.fixture
def moons(tmp_path):
    """80 points of two classes in moons.csv, 3 features in wide.csv."""
    data = make_dataset("moons", n=80, noise=0.25, seed=3)
    save_dataset(data, tmp_path / "moons.csv")
    wide = np.column_stack([data.X, np.arange(len(data.X))])
    (tmp_path / "wide.csv").write_text("\n".join(
        ",".join([*(repr(float(v)) for v in x), data.class_names[c]])
        for x, c in zip(wide, data.y)) + "\n", encoding="utf-8")
    return tmp_path


def core_rows(folder, entries, test_fraction=0.25, seed=2):
    """The core's rows of the runs on the same points, split and settings."""
    from svmdesk.cli.train import split

    data = load_dataset(folder / "moons.csv")
    X, y = data.X, class_labels(data.class_names)[np.asarray(data.y)]
    train, test = split(len(X), test_fraction, seed)
    shared = {**TABLE.defaults, "kernel": "linear", "random_state": seed}
    return compare(entries, shared, X[train], y[train], X[test], y[test])


def test_the_table_is_the_cores_fits_of_the_same_runs(moons):
    result = run("compare", "moons.csv", "--solver", "smo", "--solver", "dual-gradient",
                 "--solver", "pegasos", *SETTINGS, "--out", "table.csv", cwd=moons)
    assert result.returncode == 0, result.stderr
    entries = [Entry("smo", 1.0), Entry("dual-gradient", 1.0), Entry("pegasos", 1.0)]
    expected = core_rows(moons, entries)
    written = read_table((moons / "table.csv").read_text(encoding="utf-8"))
    assert [entry for entry, _row in written] == entries
    for (_entry, row), core in zip(written, expected):
        for name in ("iterations", "primal", "dual", "gap", "support", "train_accuracy",
                     "test_accuracy", "agreement", "converged", "stopped"):
            assert getattr(row, name) == getattr(core, name), name
        assert row.seconds >= 0
    assert written[2][1].dual is None                 # Pegasos: a primal solver
    lines = result.stdout.splitlines()
    assert lines[0] == "data:   moons.csv: 60 points for training, 20 held out (seed 2)"
    assert lines[2].startswith("smo C=1 ") and lines[2].endswith("converged")
    assert lines[-1] == "wrote table.csv"


def test_one_solver_at_three_values_of_C(moons):
    result = run("compare", "moons.csv", "--solver", "smo", "--C", "0.1", "--C", "1",
                 "--C", "inf", *SETTINGS, "--out", "table.csv", cwd=moons)
    assert result.returncode == 0, result.stderr
    written = read_table((moons / "table.csv").read_text(encoding="utf-8"))
    assert [entry.C for entry, _row in written] == [0.1, 1.0, float("inf")]
    assert all(row.agreement == 1.0 for _entry, row in written)   # SMO agrees with itself


@pytest.mark.parametrize("args, says", [
    (("--solver", "smo"), "2 to 5"),
    (("--solver", "smo", "--solver", "smo"), "--solver smo is given twice"),
    (("--solver", "smo", "--solver", "newton"), "must be one of"),
    (("--solver", "smo", "--C", "-1"), "positive number"),
    (("--solver", "smo", "--C", "abc"), "positive number"),
    (("--solver", "smo", "--solver", "pegasos", "--kernel", "rbf"), "linear"),
    (("--solver", "smo", "--C", "1", "--C", "1"), "twice"),
    (("--solver", "smo", "--C", "1", "--C", "2", "--out", "table.txt"), "must end in .csv"),
    (("--solver", "smo", "--C", "1", "--C", "2", "--out", "nowhere/t.csv"), "does not exist"),
    (("--solver", "smo", "--C", "1", "--C", "2", "--plot", "c.jpg"), ".png or .svg"),
    (("--solver", "smo", "--C", "1", "--C", "2", "--width", "10"), "pixels"),
    (("--solver", "smo", "--C", "1", "--C", "2", "--test-fraction", "1.5"), "below 1"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(moons, args, says):
    before = sorted(moons.iterdir())
    more = () if "--out" in args else ("--out", "table.csv")
    result = run("compare", "moons.csv", *args, *more, cwd=moons)
    line = assert_one_line_error(result)
    assert says in line
    assert sorted(moons.iterdir()) == before


def test_a_missing_file_and_points_of_three_features_for_a_picture(moons):
    for args, says in ((("missing.csv",), "missing.csv"),
                       (("wide.csv", "--plot", "c.png"), "two features")):
        before = sorted(moons.iterdir())
        result = run("compare", *args, "--solver", "smo", "--C", "1", "--C", "2", "--out",
                     "table.csv", cwd=moons)
        assert says in assert_one_line_error(result)
        assert sorted(moons.iterdir()) == before


@pytest.mark.slow
def test_plot_draws_the_runs_and_their_objectives(moons, qapp):
    from PySide6.QtGui import QImage

    result = run("compare", "moons.csv", "--solver", "smo", "--solver", "dual-gradient",
                 *SETTINGS, "--out", "table.csv", "--plot", "compare.png", "--width", "700",
                 cwd=moons)
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith("wrote table.csv\nwrote compare.png\n")
    assert (moons / "compare.png").read_bytes()[:8] == PNG
    picture = QImage(str(moons / "compare.png"))
    assert picture.width() == 700 and 500 < picture.height() < 900
    # each run's title in its colour over its canvas: SMO's blue, dual gradient's red
    colours = {picture.pixel(x, y) & 0xFFFFFF for x in range(0, 700, 2)
               for y in range(0, picture.height() // 8, 2)}
    assert 0x1F77B4 in colours and 0xD62728 in colours


def test_plot_as_svg(moons, qapp):
    result = run("compare", "moons.csv", "--solver", "smo", "--solver", "pegasos",
                 *SETTINGS, "--out", "table.csv", "--plot", "compare.svg", cwd=moons)
    assert result.returncode == 0, result.stderr
    svg = (moons / "compare.svg").read_text(encoding="utf-8")
    assert "<svg" in svg and "Pegasos" in svg
