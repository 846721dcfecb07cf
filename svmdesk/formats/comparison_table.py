"""A comparison's table as CSV: one row per run, the columns of the window's table with
every number in full (it reads back exactly), for a spreadsheet or a handout.

Columns: solver (its name in the catalog), C (inf: the hard margin), seconds, iterations,
primal, dual, gap, support_vectors, train_accuracy, test_accuracy, agreement (the share of
every point predicted as SMO's solution of the same settings predicts them; accuracies
and agreement as shares from 0 to 1), converged, stopped (True or False) and error (why a
run failed, on one line; its numbers are then empty). An empty cell: does not apply, or not known (a
primal solver's dual; the test accuracy without held-out points; a stopped run's model).
"""
from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from pathlib import Path

from ..core.catalog import TABLE
from ..core.comparison import Entry, Row
from ..i18n import tr
from .text_file import file_error

COLUMNS = ("solver", "C", "seconds", "iterations", "primal", "dual", "gap",
           "support_vectors", "train_accuracy", "test_accuracy", "agreement", "converged",
           "stopped", "error")
NUMBERS = COLUMNS[2:11]          # a failed run's empty cells
BOOLEANS = {"True": True, "False": False}


def table_text(runs: Sequence[tuple[Entry, Row | str]]) -> str:
    """The CSV of the runs: each its entry and its row, or why it failed."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(COLUMNS)
    for entry, result in runs:
        if isinstance(result, Row):
            r = result
            cells = [_number(r.seconds), str(r.iterations), _number(r.primal),
                     _number(r.dual), _number(r.gap), _whole(r.support),
                     _number(r.train_accuracy), _number(r.test_accuracy),
                     _number(r.agreement), str(r.converged), str(r.stopped), ""]
        else:
            cells = [""] * len(NUMBERS) + ["False", "False", one_line(result) or "failed"]
        writer.writerow([entry.solver, repr(float(entry.C)), *cells])
    return text.getvalue()


def one_line(text: str) -> str:
    """A failed run's message on one line, without control characters (Python 3.10's csv
    can neither write NUL nor read back a lone carriage return)."""
    return " ".join("".join(c if c.isprintable() else " " for c in str(text)).split())


def _number(value: float | None) -> str:
    return "" if value is None else repr(float(value))


def _whole(value: int | None) -> str:
    return "" if value is None else str(int(value))


def read_table(text: str, path: Path = Path("table.csv")) -> list:
    """The runs of a table table_text wrote: (Entry, Row or the failed run's error); a
    DataError names the line and the column of what cannot be read."""
    lines = list(csv.reader(io.StringIO(text)))
    if not lines or tuple(lines[0]) != COLUMNS:
        raise file_error(path, tr("not a comparison's table: its first line must name the "
                                  "columns {columns}").format(columns=", ".join(COLUMNS)), 1)
    runs = []
    for number, cells in enumerate(lines[1:], start=2):
        if not any(cell.strip() for cell in cells):
            continue
        if len(cells) != len(COLUMNS):
            raise file_error(path, tr("{count} cells where the table has {columns} "
                                      "columns").format(count=len(cells),
                                                        columns=len(COLUMNS)), number)
        runs.append(_run(dict(zip(COLUMNS, cells)), path, number))
    return runs


def _run(cells: dict, path: Path, line: int) -> tuple:
    def read(column, parse, allowed):
        try:
            return parse(cells[column])
        except ValueError:
            raise file_error(path, tr("{got!r} is not {allowed}").format(
                got=cells[column], allowed=allowed), line, column) from None

    solver = read("solver", _solver, tr("a solver's name"))
    C = read("C", _C, tr("a positive number (inf: the hard margin)"))
    entry = Entry(solver, C)
    if cells["error"]:
        if any(cells[column] for column in NUMBERS):
            raise file_error(path, tr("a failed run has no numbers"), line, "error")
        return entry, cells["error"]
    a_share = tr("a share from 0 to 1, or empty")
    row = Row(read("seconds", _seconds, tr("a number of seconds, 0 or more")),
              read("iterations", _count, tr("a whole number, 0 or more")),
              read("primal", float, tr("a number")),
              read("dual", _maybe(float), tr("a number, or empty")),
              read("gap", _maybe(float), tr("a number, or empty")),
              read("support_vectors", _maybe(_count), tr("a whole number, or empty")),
              read("train_accuracy", _maybe(_share), a_share),
              read("test_accuracy", _maybe(_share), a_share),
              read("agreement", _maybe(_share), a_share),
              read("converged", _boolean, "True, False"),
              read("stopped", _boolean, "True, False"))
    return entry, row


def _solver(text: str) -> str:
    if text not in TABLE.solvers:
        raise ValueError(text)
    return text


def _C(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise ValueError(text)
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(text)
    return value


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


def _share(text: str) -> float:
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise ValueError(text)
    return value


def _boolean(text: str) -> bool:
    if text not in BOOLEANS:
        raise ValueError(text)
    return BOOLEANS[text]


def _maybe(parse):
    """`parse`, or None for an empty cell."""
    return lambda text: None if text == "" else parse(text)
