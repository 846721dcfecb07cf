"""`svmdesk compare`: the window's Compare solvers for scripts. The chosen solvers train the
same C-SVC at each value of C on a data file, one run after another; the comparison's
table is printed and written as CSV (formats/comparison_table.py) and, with --plot, drawn
as one picture: each run's model over the points, and every run's objectives against
wall time and against iteration (Qt is imported then only, on the offscreen platform)."""
from __future__ import annotations

import argparse
import math
import sys
import warnings
from pathlib import Path

import numpy as np

from ..core import ConvergenceWarning, DataError, kinds
from ..core.catalog import TABLE
from ..core.comparison import (
    FEWEST_RUNS,
    MOST_RUNS,
    Trained,
    entries_for,
    row_texts,
    state_words,
    train_run,
)
from ..core.datasets import class_labels
from ..formats import load_dataset
from ..formats.atomic import write_atomic
from ..formats.comparison_table import COLUMNS, table_text
from ..i18n import N_, tr
from .common import (
    EXIT_OK,
    add_picture_options,
    command,
    fraction,
    must_be,
    picture_path,
    save_plot,
    seed,
    table_path,
    warning_line,
    wrote,
)
from .options import INF_WORDS, add_options, chosen, without
from .terminal_text import columns, labelled_lines, ljust, rjust
from .train import split, too_few_classes

COMPARED = ("solver", "C")                # each run's own; every other parameter shared
SOLVERS = tuple(TABLE.solvers)
EVERY = 1                                 # a snapshot each iteration: the picture's curves


def table():
    """The C-SVC's parameters less the runs' own (looked up when asked)."""
    return without(kinds.KINDS[kinds.C_SVC.key].table, COMPARED)


COMPARE_HELP = N_("""\
Train a C-SVC on DATA with each solver of --solver at each value of --C (both given once
per value: --solver smo --solver pegasos --C 0.1 --C 1), {fewest} to {most} runs
in all, every other setting (--kernel, --tol, --max-iter, ...) shared: the window's
Compare solvers.  The runs train one after another, each on the same points (a seeded
random --test-fraction held out), and the comparison's table is printed and written to
--out as CSV.  A solver that cannot train the kernel is refused with the reason
(primal-subgradient and pegasos train the linear kernel only).

the table (--out FILE.csv), one row per run, in the order solver by solver, then C:
  {columns},
  {more_columns}
  seconds: the run's own fit (the window's runs share the cores, so its times are
  longer); iterations count on across one-vs-one machines; primal, dual and gap are the
  machines' summed; accuracies and agreement are shares from 0 to 1, agreement the
  share of every point (training and test) predicted as SMO's solution of the same
  settings predicts them; an empty cell does not apply (a primal solver's dual, the
  test accuracy without test points); numbers are written in full (they read back
  exactly).

--plot FILE (.png or .svg, W pixels wide with --width W) draws each run's model over
the points side by side, and every run's primal (solid) and dual (dashed) objectives
against wall time and against iteration, each run in its colour.

{data_formats}

{exit_codes}

examples:
  svmdesk compare moons.csv --solver smo --solver dual-gradient --solver pegasos \\
      --kernel linear --out table.csv
  svmdesk compare moons.csv --solver smo --C 0.1 --C 1 --C 10 --kernel rbf \\
      --test-fraction 0.2 --out table.csv --plot compare.png""")


def C_value(text: str) -> float:
    """A value of C: a positive number, or inf (the hard margin)."""
    if text.strip().lower() in INF_WORDS:
        return math.inf
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(
            must_be(tr("a positive number, or inf for the hard margin"), text))
    return value


def solver_name(text: str) -> str:
    if text not in SOLVERS:
        raise argparse.ArgumentTypeError(
            must_be(tr("one of {names}").format(names=", ".join(SOLVERS)), text))
    return text


def add_parser(commands) -> None:
    p = command(commands, "compare", N_("train several solvers (or values of C) on the same "
                                        "points and write the comparison's table as CSV"),
                COMPARE_HELP, run, fewest=FEWEST_RUNS, most=MOST_RUNS,
                columns=", ".join(COLUMNS[:7]), more_columns=", ".join(COLUMNS[7:]))
    p.add_argument("data", metavar="DATA", help=tr("the points (CSV or LIBSVM file)"))
    p.add_argument("--solver", dest="solvers", type=solver_name, action="append",
                   required=True, metavar="SOLVER",
                   help=tr("a solver to compare, once per solver: {names}").format(
                       names=", ".join(SOLVERS)))
    p.add_argument("-C", "--C", dest="C_values", type=C_value, action="append",
                   default=None, metavar="C",
                   help=tr("a value of C to train each solver at, once per value (default: "
                           "1); inf: the hard margin"))
    add_options(p, {kinds.C_SVC.option: table()})
    p.add_argument("--test-fraction", type=fraction, default=0.0, metavar="F",
                   help=tr("share of the points held out at random for the test accuracy, "
                           "from 0 (default) to below 1"))
    p.add_argument("--seed", type=seed, default=0, metavar="N",
                   help=tr("seed of the test split and of the sampling solvers' "
                           "random_state (default 0); the same seed, the same split"))
    p.add_argument("--out", required=True, metavar="FILE",
                   help=tr("the table to write, one row per run: FILE.csv"))
    add_picture_options(p, tr("each run's model and every run's objectives"))


def run(args) -> int:
    out, picture = table_path(args.out), picture_path(args.plot)   # before any work
    data = load_dataset(args.data)
    classes = class_labels(data.class_names)
    X, y = data.X, classes[np.asarray(data.y)]
    train, test = split(len(X), args.test_fraction, args.seed)
    if len(np.unique(y[train])) < 2:
        raise DataError(too_few_classes(Path(args.data).name, len(train), args.test_fraction))
    if picture is not None and X.shape[1] != 2:
        raise DataError(tr("--plot draws points of two features; {name} has {n} (the table "
                           "alone can be written: leave out --plot)").format(
                               name=Path(args.data).name, n=X.shape[1]))
    twice = sorted({s for s in args.solvers if args.solvers.count(s) > 1})
    if twice:
        raise ValueError(tr("--solver {name} is given twice: each run must differ").format(
            name=twice[0]))
    shared = chosen(args, table(), classes, kinds.C_SVC.option)
    entries = entries_for(args.solvers, args.C_values or [TABLE.defaults["C"]], shared)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        runs = [train_run(entry, shared, X[train], y[train], X[test], y[test], EVERY)
                for entry in entries]
    write_atomic(out, table_text([(run.entry, run.row) for run in runs]))
    print(summary(args, runs, len(train), len(test)))
    print(wrote(out))
    for w in caught:
        print(warning_line(w.message), file=sys.stderr)
    if picture is not None:
        _save_plot(picture, args, shared, runs, data, classes, test)
    return EXIT_OK


HEADINGS = (N_("run"), N_("time (s)"), N_("iterations"), "P", "D", "P-D", N_("SVs"),
            N_("train"), N_("test"), "= SMO", N_("state"))


def summary(args, runs: list, trained: int, tested: int) -> str:
    """The data, then the table as the window shows it, in aligned columns."""
    points = (tr("{n} points for training, {held} held out (seed {seed})") if tested
              else tr("{n} points for training")).format(n=trained, held=tested,
                                                         seed=args.seed)
    headings = [tr(heading) for heading in HEADINGS]
    lines = [[f"{run.entry.solver} C={run.entry.C:g}",
              *(text.replace("—", "-") for text in row_texts(run.row)),
              state_words(run.row)] for run in runs]
    widths = [max(columns(row[k]) for row in [headings, *lines])
              for k in range(len(HEADINGS))]

    def aligned(cells) -> str:
        return "  ".join(ljust(cell, w) if k == 0 else rjust(cell, w)
                         for k, (cell, w) in enumerate(zip(cells, widths))).rstrip()

    return "\n".join([labelled_lines([(tr("data"), f"{args.data}: {points}")], gap=3),
                      aligned(headings), *(aligned(line) for line in lines)])


def _save_plot(path: Path, args, shared: dict, runs: list[Trained], data, labels,
               test: np.ndarray) -> None:
    """The comparison's picture, drawn on Qt's offscreen platform, then saved."""
    def draw():
        from ..app.training.comparison import shared_words
        from ..app.widgets.comparison_picture import Points, comparison_figure
        from ..formats.comparison_record import ComparedRun, ComparisonRecord, thinned

        held_out = np.zeros(len(data.X), dtype=bool)
        held_out[test] = True
        points = Points(data.X, np.asarray(data.y), held_out, tuple(data.class_names),
                        tuple(data.feature_names[:2]))
        settings = shared_words({**shared, "solver": runs[0].entry.solver})
        record = ComparisonRecord(settings, tuple(
            ComparedRun(run.entry.solver, run.entry.C, run.row, "", thinned(run.curve),
                        run.model) for run in runs))
        return comparison_figure(record, points, list(labels.tolist()), args.width,
                                 f"{Path(args.data).name} · {settings}")

    save_plot(path, args.width, draw)
