"""`svmdesk grid`: cross-validate a machine at every combination of log-spaced C and gamma
values (LIBSVM's grid.py, scikit-learn's GridSearchCV), print the best, write the table as
CSV and, with --plot, a heat map of the mean score (Qt is imported then only, on the
offscreen platform)."""
from __future__ import annotations

import argparse
import csv
import io
import math
import sys
import time
from pathlib import Path
from typing import TextIO

import numpy as np

from ..core import GridCell, GridResult, catalog, grid_search, kinds
from ..core.datasets import class_labels
from ..formats import load_dataset
from ..formats.atomic import write_atomic
from ..formats.targets import load_targets
from ..i18n import N_, either, tr
from .cluster import executor_at
from .common import (
    EXIT_OK,
    add_picture_options,
    command,
    folds,
    jobs,
    must_be,
    picture_path,
    save_plot,
    seed,
    table_path,
    wrote,
)
from .options import add_options, chosen, without
from .terminal_text import columns, labelled_lines

KINDS = (kinds.C_SVC, kinds.EPSILON_SVR)  # the kinds the grid searches (C and gamma)
TYPES = tuple(kind.option for kind in KINDS)    # their --type
SEARCHED = ("C", "gamma")                 # the grid's axes; every other parameter is fixed
GAMMA_KERNELS = catalog.TABLE.param("gamma").kernels or ()
# LIBSVM grid.py's default ranges: log2 C from -5 to 15, log2 gamma from 3 down to -15 (step 2)
DEFAULT_C = "0.03125:32768:11"
DEFAULT_GAMMA = "3.0517578125e-05:8:10"
BAR = 30                                  # the progress bar's width in characters


def estimators() -> dict:
    """The estimator of each --type (looked up when asked: a test may swap one)."""
    return {kind.option: kinds.KINDS[kind.key].estimator for kind in KINDS}


def tables() -> dict:
    """The parameter table of each --type without the grid's axes: the fixed parameters."""
    return {kind.option: without(kinds.KINDS[kind.key].table, SEARCHED) for kind in KINDS}


GRID_HELP = N_("""\
Cross-validate a machine on DATA at every combination of the C values of --C and the
gamma values of --gamma, all on the same K folds (--folds; stratified for classes,
seeded by --seed), print the best cell and write every cell to --out as CSV: LIBSVM's
grid.py, scikit-learn's GridSearchCV.  Each cell is scored by its mean over the folds:
accuracy for --type c-svc (the default), R^2 for --type epsilon-svr (DATA's label
column then holds each point's target, a number).  The best cell is the first of the
highest mean score, in the table's order (C, then gamma).

ranges (--C, --gamma): START:STOP:COUNT, COUNT values log spaced from START to STOP
(numpy.logspace(log10(START), log10(STOP), COUNT)), 0 < START <= STOP; a single number
is that one value.  Defaults: LIBSVM grid.py's, C from 2^-5 to 2^15 (11 values) and
gamma from 2^-15 to 2^3 (10 values).  A kernel without gamma (--kernel linear) searches
C alone and refuses --gamma.  The other parameters (--kernel, --standardize, --tol,
--epsilon, ...) are fixed for every cell, as train takes them.

the table (--out FILE.csv), one row per cell, C varying slowest:
  C, gamma (left out when the search is over C alone), mean_score, std_score (the
  spread over the folds, ddof 0), split0_score ... split<K-1>_score (each fold's),
  mean_fit_time (seconds), converged (False when a fit stopped before its tolerance);
  numbers are written in full (they read back exactly).

--plot FILE (.png or .svg, W pixels wide with --width W) draws the mean score as a heat
map over log10 C (across) and log10 gamma (up), with its colour scale and the best cell
ringed; a search over C alone is drawn as the mean score against log10 C.

--jobs N scores the grid's columns in N processes (default: one per core); --jobs 1 in
this process.  --scheduler ADDRESS scores them on a Dask cluster instead (the optional
extra: pip install 'svmdesk[cluster]'; start the cluster with 'dask scheduler' and
'dask worker ADDRESS' on each machine, each with svmdesk installed): the points go to
every worker once, and a worker lost mid-grid costs only its cells, which run again.
On a terminal a progress bar counts the cells on stderr.

{data_formats}

{exit_codes}

examples:
  svmdesk grid moons.csv --C 1e-2:1e3:11 --gamma 1e-3:1e2:11 --folds 5 --out grid.csv
  svmdesk grid moons.csv --C 0.1:100:7 --gamma 0.5 --standardize --out grid.csv \\
      --plot grid.png --jobs 4
  svmdesk grid big.csv --C 1e-2:1e3:21 --gamma 1e-3:1e2:21 --folds 10 --out grid.csv \\
      --scheduler tcp://10.0.0.5:8786
  svmdesk grid sine.csv --type epsilon-svr --epsilon 0.05 --out grid.csv""")


def kind(text: str) -> str:
    if text not in TYPES:
        raise argparse.ArgumentTypeError(
            tr("grid searches C and gamma of {types}; got {text!r}").format(
                types=either(list(TYPES)), text=text))
    return text


def value_range(text: str) -> tuple[float, ...]:
    """START:STOP:COUNT as COUNT log-spaced values from START to STOP (both exactly as
    typed), or a single number as itself; every value > 0 and finite."""
    parts = text.split(":")
    if len(parts) not in (1, 3):
        raise argparse.ArgumentTypeError(must_be(
            tr("START:STOP:COUNT (such as 1e-2:1e3:11) or one number"), text))
    numbers = [_positive(part, text) for part in parts[:2]]
    if len(parts) == 1:
        return (numbers[0],)
    start, stop = numbers
    if start > stop:
        raise argparse.ArgumentTypeError(
            tr("START must not be above STOP; got {text!r}").format(text=text))
    try:
        count = int(parts[2])
    except ValueError:
        count = 0
    if count < 1:
        raise argparse.ArgumentTypeError(
            tr("COUNT must be a whole number, 1 or more; got {text!r}").format(text=text))
    if count == 1 or start == stop:
        return (start,)
    values = np.logspace(math.log10(start), math.log10(stop), count)
    values[0], values[-1] = start, stop          # the ends exactly as typed
    return tuple(float(v) for v in values)


def _positive(part: str, text: str) -> float:
    try:
        value = float(part)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(must_be(
            tr("START:STOP:COUNT (such as 1e-2:1e3:11) or one number, each a number above 0"),
            text))
    return value


def add_parser(commands) -> None:
    p = command(commands, "grid", N_("cross-validate every combination of C and gamma values "
                                     "and write the table as CSV"), GRID_HELP, run)
    p.add_argument("data", metavar="DATA", help=tr("the points (CSV or LIBSVM file)"))
    p.add_argument("--type", type=kind, default=kinds.C_SVC.option, metavar="TYPE",
                   help=tr("the kind of machine: c-svc (classes, scored by accuracy; the "
                           "default) or epsilon-svr (targets, scored by R^2)"))
    p.add_argument("-C", "--C", dest="C_values", type=value_range, default=None,
                   metavar="START:STOP:COUNT",
                   help=tr("the C values: COUNT log-spaced from START to STOP, or one number "
                           "(default {default}, LIBSVM grid.py's 2^-5 to 2^15)").format(
                               default=DEFAULT_C))
    p.add_argument("--gamma", dest="gamma_values", type=value_range, default=None,
                   metavar="START:STOP:COUNT",
                   help=tr("the gamma values, as --C (default {default}, LIBSVM grid.py's "
                           "2^-15 to 2^3); kernel {kernels} only").format(
                               default=DEFAULT_GAMMA, kernels=either(list(GAMMA_KERNELS))))
    add_options(p, tables())
    p.add_argument("--folds", type=folds, default=5, metavar="K",
                   help=tr("the number of cross-validation folds, 2 or more (default 5)"))
    p.add_argument("--seed", type=seed, default=0, metavar="N",
                   help=tr("the seed the folds are dealt with (and the solvers' "
                           "random_state): a non-negative integer (default 0); the same "
                           "seed, the same folds"))
    p.add_argument("--jobs", type=jobs, default=None, metavar="N",
                   help=tr("processes to score the grid in (default: one per core; 1: in "
                           "this process)"))
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help=tr("score the grid on the Dask cluster whose scheduler listens at "
                           "ADDRESS (such as tcp://10.0.0.5:8786) instead of this machine's "
                           "cores; needs pip install 'svmdesk[cluster]'"))
    p.add_argument("--out", required=True, metavar="FILE",
                   help=tr("the table to write, one row per cell: FILE.csv"))
    add_picture_options(p, tr("the mean score as a heat map over log10 C and log10 gamma"))


def run(args) -> int:
    out, picture = table_path(args.out), picture_path(args.plot)   # before any work
    if args.scheduler is not None and args.jobs is not None:
        raise ValueError(tr("--jobs counts this machine's processes; with --scheduler the "
                            "cluster's workers score the grid: give one of the two"))
    if kinds.by_option()[args.type].classifies:
        data = load_dataset(args.data)
        classes = class_labels(data.class_names)
        X, y = data.X, classes[np.asarray(data.y)]
    else:
        X, y, _names = load_targets(args.data)
        classes = np.empty(0)
    table = tables()[args.type]
    every = tuple(dict.fromkeys(name for t in tables().values() for name in t.names))
    params = chosen(args, table, classes, args.type, every)
    param_grid = _param_grid(args, params["kernel"])
    estimator = estimators()[args.type](**params)
    total = math.prod(len(values) for values in param_grid.values())
    with executor_at(args.scheduler) as executor:
        bar = _ProgressBar(total, sys.stderr)
        started = time.perf_counter()
        try:
            result = grid_search(estimator, X, y, param_grid, folds=args.folds,
                                 seed=args.seed, executor=executor,
                                 n_jobs=-1 if args.jobs is None else args.jobs,
                                 progress=bar)
        finally:
            bar.clear()
    elapsed = time.perf_counter() - started
    write_atomic(out, table_text(result, tuple(param_grid)))
    print(summary(args, params, param_grid, result, len(X), elapsed))
    print(wrote(out))
    if picture is not None:
        _save_plot(picture, args, result, tuple(param_grid))
    return EXIT_OK


def _param_grid(args, kernel: str) -> dict:
    """{'C': values, 'gamma': values}; C alone for a kernel without gamma."""
    C = args.C_values or value_range(DEFAULT_C)
    if kernel not in GAMMA_KERNELS:
        if args.gamma_values is not None:
            raise ValueError(tr("--gamma: the {kernel} kernel has no gamma; leave --gamma out "
                                "to search C alone, or choose --kernel {kernels}").format(
                                    kernel=kernel, kernels=either(list(GAMMA_KERNELS))))
        return {"C": list(C)}
    return {"C": list(C), "gamma": list(args.gamma_values or value_range(DEFAULT_GAMMA))}


class _ProgressBar:
    """'cells 37/121 [#########.....]' on `stream`, redrawn as each cell is done and wiped
    at the end; nothing at all unless `stream` is a terminal."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total, self.stream, self.done, self.width = total, stream, 0, 0
        isatty = getattr(stream, "isatty", None)
        self.shown = bool(isatty is not None and isatty())
        self._draw()

    def __call__(self, cell: GridCell) -> None:
        self.done += 1
        self._draw()

    def _draw(self) -> None:
        if not self.shown:
            return
        full = BAR * self.done // max(self.total, 1)
        text = tr("cells {done}/{total}").format(done=self.done, total=self.total)
        text += f" [{'#' * full}{'.' * (BAR - full)}]"
        self.width = max(self.width, columns(text))
        self.stream.write("\r" + text)
        self.stream.flush()

    def clear(self) -> None:
        if self.shown and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


def table_text(result: GridResult, axes: tuple) -> str:
    """The CSV table: one row per cell in the grid's order, every number as repr writes it
    (it reads back exactly)."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow([*axes, "mean_score", "std_score",
                     *(f"split{k}_score" for k in range(result.folds)),
                     "mean_fit_time", "converged"])
    for cell in result.cells:
        writer.writerow([*(repr(float(cell.params[name])) for name in axes),
                         repr(cell.mean), repr(cell.std),
                         *(repr(float(s)) for s in cell.scores),
                         repr(float(np.mean(cell.fit_times))), str(cell.converged)])
    return text.getvalue()


def scored_by(kind_name: str) -> str:
    return tr("accuracy") if kinds.by_option()[kind_name].classifies else "R^2"


def summary(args, params: dict, param_grid: dict, result: GridResult, points: int,
            elapsed: float) -> str:
    best = result.best
    counts = " x ".join(f"{len(values)} {name}" for name, values in param_grid.items())
    defaults = tables()[args.type].defaults
    dealt = (tr("stratified, seed {seed}") if kinds.by_option()[args.type].classifies
             else tr("seed {seed}")).format(seed=result.seed)
    fixed = "  ".join(f"{name}={_shown(value)}" for name, value in params.items()
                      if name not in ("kernel", "random_state") and value != defaults[name])
    lines = [
        (tr("data"), f"{args.data}"),
        (tr("type"), args.type),
        (tr("kernel"), params["kernel"] + (f"  {fixed}" if fixed else "")),
        (tr("points"), str(points)),
        (tr("folds"), f"{result.folds} ({dealt})"),
        (tr("cells"), f"{len(result.cells)}: {counts}"),
        (tr("time"), tr("{seconds} s").format(seconds=f"{elapsed:.3f}")),
        (tr("best"), tr("{cell} mean {score} {mean} (std {std})").format(
            cell=_cell_values(best), score=scored_by(args.type), mean=f"{best.mean:.4f}",
            std=f"{best.std:.4f}")),
    ]
    unconverged = sum(not cell.converged for cell in result.cells)
    if unconverged:
        lines.append((tr("not converged"), tr(
            "{k} of {n} cells (a fit stopped before its tolerance: see the table's converged "
            "column)").format(k=unconverged, n=len(result.cells))))
    return labelled_lines(lines)


def _cell_values(cell: GridCell) -> str:
    return " ".join(f"{name}={float(value):.6g}" for name, value in cell.params.items())


def _shown(value) -> str:
    if isinstance(value, bool):
        return tr("yes") if value else tr("no")
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _save_plot(path: Path, args, result: GridResult, axes: tuple) -> None:
    """The heat map (or line), drawn on Qt's offscreen platform, then saved."""
    def draw():
        from .grid_search_picture import grid_plot

        return grid_plot(result, axes, tr("mean {score}").format(score=scored_by(args.type)),
                         args.width,
                         Path(args.data).name)

    save_plot(path, args.width, draw)
