"""The C-gamma map of the window's Tune panel as a session keeps it: the values of C and
gamma searched, the folds and the seed they were dealt with, what was scored and with which
other settings, and every cell finished (a cancelled map keeps the cells it has). Its cells
also save as a CSV table (map_table_text), `svmdesk grid`'s columns and each fold's fit
time, every number in full (read_map_table reads them back exactly).

In a session (version 5, optional)::

    "tuning": {"C": [values, increasing], "gamma": [values, increasing], "folds": k,
               "seed": integer, "metric": "accuracy" or "R²", "settings": text,
               "cells": [{"C": value, "gamma": value, "scores": [k numbers],
                          "fit_times": [k seconds]}, ...]}
"""
from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from ..i18n import tr
from .checked_json import Checker
from .text_file import file_error

METRICS = ("accuracy", "R²")
MOST_FOLDS = 1000
MOST_VALUES = 100            # values of C or gamma a map holds (grid.py's default: 11 by 10)


@dataclass(frozen=True)
class TunedCell:
    """One cell of the map: its C and gamma, and each fold's score and fit time."""

    C: float
    gamma: float
    scores: tuple
    fit_times: tuple

    @cached_property
    def mean(self) -> float:         # kept: the map and its best cell read it at each redraw
        return float(np.mean(self.scores))

    @property
    def std(self) -> float:          # the population's, as GridSearchCV's
        return float(np.std(self.scores))

    @property
    def fit_time(self) -> float:
        """The mean fit time of a fold, in seconds."""
        return float(np.mean(self.fit_times))


@dataclass(frozen=True)
class TuningMap:
    C: tuple                  # the values of C searched, increasing
    gamma: tuple              # the values of gamma searched, increasing
    folds: int
    seed: int
    metric: str               # METRICS
    settings: str             # the other settings it was run with, in words
    cells: tuple = ()         # TunedCells, in the order they finished
    # the training points it scored (a digest; None: not known, as for a map read from a
    # file): the window marks a map of other points stale. Not kept in a session.
    points: str | None = field(default=None, compare=False)

    @property
    def size(self) -> int:
        return len(self.C) * len(self.gamma)

    def with_cell(self, cell: TunedCell) -> TuningMap:
        return replace(self, cells=self.cells + (cell,))

    def best(self) -> TunedCell | None:
        """The cell of the highest mean score, the first of equals in the grid's order (C
        slowest, as scikit-learn's GridSearchCV orders C and gamma); None before any."""
        if not self.cells:
            return None
        order = sorted(self.cells, key=lambda c: (self.C.index(c.C), self.gamma.index(c.gamma)))
        means = [cell.mean for cell in order]
        return order[int(np.argmax(means))]


def tuning_document(tuning: TuningMap) -> dict:
    return {"C": [float(v) for v in tuning.C], "gamma": [float(v) for v in tuning.gamma],
            "folds": int(tuning.folds), "seed": int(tuning.seed), "metric": tuning.metric,
            "settings": tuning.settings,
            "cells": [{"C": float(c.C), "gamma": float(c.gamma),
                       "scores": [float(s) for s in c.scores],
                       "fit_times": [float(t) for t in c.fit_times]} for c in tuning.cells]}


def read_tuning(check: Checker, v: Any) -> TuningMap:
    """The map of a session's "tuning" field, every value checked (a DataError names the
    field)."""
    v = check.obj(v, "tuning", ("C", "gamma", "folds", "seed", "metric", "settings", "cells"))
    axes = {name: _axis(check, v[name], f"tuning.{name}") for name in ("C", "gamma")}
    folds = check.integer(v["folds"], "tuning.folds", 2, MOST_FOLDS)
    cells: list[TunedCell] = []
    listed = check.array(v["cells"], "tuning.cells")
    for k, item in enumerate(listed):
        where = f"tuning.cells[{k}]"
        item = check.obj(item, where, ("C", "gamma", "scores", "fit_times"))
        C, gamma = (check.real(item[name], f"{where}.{name}", positive=True)
                    for name in ("C", "gamma"))
        if C not in axes["C"] or gamma not in axes["gamma"]:
            check.fail(where, tr("{field} is not a cell of the map's values of C and gamma"))
        if any(c.C == C and c.gamma == gamma for c in cells):
            check.fail(where, tr("{field} is a cell the map already holds"))
        cells.append(TunedCell(C, gamma, _listed(check, item["scores"], f"{where}.scores", folds),
                               _listed(check, item["fit_times"], f"{where}.fit_times", folds)))
    return TuningMap(axes["C"], axes["gamma"], folds, check.integer(v["seed"], "tuning.seed", 0),
                     check.string(v["metric"], "tuning.metric", METRICS),
                     check.string(v["settings"], "tuning.settings"), tuple(cells))


def _axis(check: Checker, v: Any, where: str) -> tuple:
    values = _listed(check, v, where, positive=True)
    if not 1 <= len(values) <= MOST_VALUES:
        check.fail(where, tr("{field} must hold 1 to {most} values; got {n}"),
                   most=MOST_VALUES, n=len(values))
    if any(b <= a for a, b in zip(values, values[1:])):
        check.fail(where, tr("{field} must be increasing"))
    return values


def _listed(check: Checker, v: Any, where: str, length: int | None = None,
            positive: bool = False) -> tuple:
    return tuple(float(x) for x in check.reals(v, where, length, positive))


def map_table_header(folds: int) -> list:
    """The table's columns: `svmdesk grid`'s (less converged), then each fold's fit time."""
    return ["C", "gamma", "mean_score", "std_score",
            *(f"split{k}_score" for k in range(folds)), "mean_fit_time",
            *(f"split{k}_fit_time" for k in range(folds))]


def map_table_text(tuning: TuningMap) -> str:
    """The map's cells finished as CSV, one row per cell in the grid's order (C slowest,
    as `svmdesk grid` writes them), every number as repr writes it."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(map_table_header(tuning.folds))
    order = sorted(tuning.cells, key=lambda c: (tuning.C.index(c.C),
                                                tuning.gamma.index(c.gamma)))
    for cell in order:
        writer.writerow([repr(float(cell.C)), repr(float(cell.gamma)), repr(cell.mean),
                         repr(cell.std), *(repr(float(s)) for s in cell.scores),
                         repr(cell.fit_time), *(repr(float(t)) for t in cell.fit_times)])
    return text.getvalue()


def read_map_table(text: str, path: Path = Path("map.csv")) -> tuple:
    """The cells of a table map_table_text wrote (TunedCells, in its order); a DataError
    names the line and the column of what cannot be read."""
    lines = [cells for cells in csv.reader(io.StringIO(text)) if any(c.strip() for c in cells)]
    folds = (len(lines[0]) - 5) // 2 if lines else 0
    if folds < 2 or lines[0] != map_table_header(folds):
        raise file_error(path, tr("not a C-gamma map's table: its first line must name the "
                                  "columns C, gamma, mean_score, std_score, the folds' "
                                  "scores, mean_fit_time and the folds' fit times"), 1)
    header = lines[0]
    cells = []
    for number, row in enumerate(lines[1:], start=2):
        if len(row) != len(header):
            raise file_error(path, tr("{count} cells where the table has {columns} "
                                      "columns").format(count=len(row),
                                                        columns=len(header)), number)
        named = {column: _cell_value(text_value, column, path, number)
                 for column, text_value in zip(header, row)}
        cells.append(TunedCell(named["C"], named["gamma"],
                               tuple(named[f"split{k}_score"] for k in range(folds)),
                               tuple(named[f"split{k}_fit_time"] for k in range(folds))))
    return tuple(cells)


def _cell_value(text: str, column: str, path: Path, line: int) -> float:
    """A number of the map's table: C and gamma above 0, a fit time 0 or more."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if column in ("C", "gamma"):
        fits, allowed = value > 0, tr("a positive number")
    elif column.endswith("fit_time"):
        fits, allowed = value >= 0, tr("a number of seconds, 0 or more")
    else:
        fits, allowed = True, tr("a number")
    if not (fits and math.isfinite(value)):
        raise file_error(path, tr("{got!r} is not {allowed}").format(got=text, allowed=allowed),
                         line, column)
    return value
