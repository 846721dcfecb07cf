"""Reading labelled points from CSV files, strictly: a bad file raises DataError naming the
file, line and column and loads nothing."""
from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import numpy as np

from .datasets import Dataset
from .errors import DataError

MAX_BYTES = 50 * 2**20       # a teaching canvas has no use for more; refuse rather than hang
ENCODINGS = ("utf-8-sig", "shift_jis")   # Excel in Japan saves Shift-JIS


def load_dataset(path, x=None, y=None, label=None) -> Dataset:
    """Points from a CSV file with a header or none, separated by ',', ';' or tabs.

    x, y: the two feature columns (header names or 0-based indices), by default the first
    two numeric columns other than the label; label: the label column (default: the last).
    Labels may be text or numbers.
    """
    path = Path(path)
    text = _read_text(path)
    rows = _parse(text, path)
    header, rows = _split_header(rows)
    width = len(rows[0])
    for line, row in enumerate(rows, start=2 if header else 1):
        if len(row) != width:
            raise DataError(f"{path.name}, line {line}: {len(row)} fields where the first row "
                            f"has {width}; every row needs the same columns")
    names = header or [f"column {k + 1}" for k in range(width)]
    label_col = _column(label, names, path, default=width - 1)
    feature_cols = [c for c in range(width) if c != label_col]
    if x is not None or y is not None:
        feature_cols = [_column(x, names, path, feature_cols[0]),
                        _column(y, names, path, feature_cols[min(1, len(feature_cols) - 1)])]
    if len(feature_cols) < 2:
        raise DataError(f"{path.name}: needs two feature columns and a label column; found "
                        f"{width} column(s)")
    feature_cols = feature_cols[:2] if x is None and y is None else feature_cols
    first = 2 if header else 1
    X = np.array([[_number(row[c], path, first + r, c, names) for c in feature_cols]
                  for r, row in enumerate(rows)])
    labels = [row[label_col].strip() for row in rows]
    for r, value in enumerate(labels):
        if not value:
            raise DataError(f"{path.name}, line {first + r}, column '{names[label_col]}': "
                            "empty label; every point needs a class")
    classes = sorted(set(labels), key=_label_key)
    if len(classes) < 2:
        raise DataError(f"{path.name}: every point has label {classes[0]!r}; a classifier "
                        "needs at least two classes")
    index = {c: k for k, c in enumerate(classes)}
    return Dataset(X=X, y=np.array([index[v] for v in labels]), class_names=tuple(classes),
                   feature_names=tuple(names[c] for c in feature_cols), name=path.stem)


def _read_text(path: Path) -> str:
    try:
        size = path.stat().st_size
    except OSError as e:
        raise DataError(f"cannot open {path}: {e.strerror or e}") from None
    if size > MAX_BYTES:
        raise DataError(f"{path.name} is {size / 2**20:.0f} MB; svmdesk reads files up to "
                        f"{MAX_BYTES // 2**20} MB: sample the data first")
    data = path.read_bytes()
    if b"\x00" in data[:4096]:
        raise DataError(f"{path.name} looks like a binary file, not CSV text")
    for encoding in ENCODINGS:
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise DataError(f"{path.name} is neither UTF-8 nor Shift-JIS text; save it as UTF-8 CSV")


def _parse(text: str, path: Path) -> list:
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise DataError(f"{path.name} is empty: no points to load")
    sample = "\n".join(lines[:20])
    delimiter = max((",", ";", "\t"), key=sample.count)
    return [[cell.strip() for cell in row]
            for row in csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter)]


def _split_header(rows):
    """A first row whose would-be feature cells are not all numbers is a header."""
    first = rows[0]
    numeric = sum(_is_number(cell) for cell in first[:-1])
    if numeric < len(first) - 1 and len(rows) > 1:
        return [c or f"column {k + 1}" for k, c in enumerate(first)], rows[1:]
    return None, rows


def _column(spec, names, path, default) -> int:
    if spec is None:
        return default
    if isinstance(spec, (int, np.integer)) and not isinstance(spec, bool):
        if 0 <= spec < len(names):
            return int(spec)
    elif spec in names:
        return names.index(spec)
    raise DataError(f"{path.name}: no column {spec!r}; columns are {', '.join(names)}")


def _number(cell: str, path, line, col, names) -> float:
    try:
        value = float(cell)
    except ValueError:
        raise DataError(f"{path.name}, line {line}, column '{names[col]}': {cell!r} is not a "
                        "number; fix or remove that row") from None
    if not math.isfinite(value):
        raise DataError(f"{path.name}, line {line}, column '{names[col]}': {cell!r} is not a "
                        "finite number; fix or remove that row")
    return value


def _is_number(cell: str) -> bool:
    try:
        float(cell)
        return True
    except ValueError:
        return False


def _label_key(label: str):
    """Numeric labels sort as numbers, text labels alphabetically after them."""
    return (0, float(label), "") if _is_number(label) else (1, 0.0, label)
