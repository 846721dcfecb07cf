"""What both point formats read the same way: one cell's number (said with its file, line
and column when it is none), and the feature columns chosen by name or index.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np

from ..i18n import tr
from .text_file import file_error

LINE_BREAK = re.compile(r"\r\n?|\n")
DECIMAL_COMMA = re.compile(r"[+-]?\d*,\d+")


def _choose(x, y, names: list, features: list, label_col, path: Path,
            targets: bool = False) -> list:
    """The feature columns to load: all of them, or x and y when either is given. Points of
    classes need two features (the canvas's plane); regression data one (y is its
    target)."""
    if targets and not features:
        raise file_error(path, tr("needs a feature column besides the target"))
    if len(features) < 2 and not targets:
        found = ", ".join(repr(names[c]) for c in features) or tr("none")
        raise file_error(path, tr("needs at least two feature columns besides the label; found "
                                  "{n} ({found})").format(n=len(features), found=found))
    if x is None and y is None:
        return features
    cx = None if x is None else _column(x, names, "x", path, label_col)
    cy = None if y is None else _column(y, names, "y", path, label_col)
    cx = next(c for c in features if c != cy) if cx is None else cx
    cy = next(c for c in features if c != cx) if cy is None else cy
    if cx == cy:
        raise file_error(path, tr("x and y are both column {name}; choose two different "
                                  "columns").format(name=repr(names[cx])))
    return [cx, cy]


def _column(spec, names: list, role: str, path: Path, label_col=None) -> int:
    shown = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
    if isinstance(spec, str):
        if spec not in names:
            raise file_error(path, tr("there is no column named {name} (given as {role}); the "
                                      "columns are {columns}").format(
                                          name=repr(spec), role=role, columns=shown))
        c = names.index(spec)
    elif isinstance(spec, (int, np.integer)) and not isinstance(spec, bool):
        if not 0 <= spec < len(names):
            raise file_error(path, tr("column index {index} (given as {role}) is out of range; "
                                      "the {n} columns are numbered 0 to {last}").format(
                                          index=spec, role=role, n=len(names),
                                          last=len(names) - 1))
        c = int(spec)
    else:
        raise file_error(path, tr("{role}={value}: give a column name or a 0-based column "
                                  "index").format(role=role, value=repr(spec)))
    if c == label_col:
        raise file_error(path, tr("column {name} (given as {role}) holds the labels; choose a "
                                  "feature column").format(name=repr(names[c]), role=role))
    return c


def _number(cell: str, path: Path, line: int, where: str | tuple) -> float:
    value = _to_float(cell)
    if value is not None and math.isfinite(value):
        return value
    where = _place(where)
    if not cell:
        raise file_error(path, tr("empty cell; fill it in or remove that row"), line, where)
    if value is not None:
        raise file_error(path, tr("{cell} is not a finite number; fix or remove that "
                                  "row").format(cell=repr(cell)), line, where)
    what = (tr("{cell} is not a number; use a point for decimals (1.5, not 1,5); fix or remove "
               "that row") if DECIMAL_COMMA.fullmatch(cell) else
            tr("{cell} is not a number; fix or remove that row"))
    raise file_error(path, what.format(cell=repr(cell)), line, where)


def _to_float(text: str):
    """float(text), or None when it is not a number (Python's '1_000' is not one here)."""
    if "_" in text:
        return None
    try:
        return float(text)
    except ValueError:
        return None


def _place(where) -> str:
    """`where` as an error says it: a column's place, or for a LIBSVM value its (item,
    feature), said only when an error is raised ("item 3, column 'x2'")."""
    if isinstance(where, tuple):
        return tr("item {number}, column '{name}'").format(number=where[0], name=f"x{where[1]}")
    return where
