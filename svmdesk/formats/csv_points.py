"""The CSV text format of points: guessing its separator and header, reading its rows and
columns (labelled or not) and writing them.
"""
from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np

from ..core.errors import DataError
from ..i18n import tr
from .libsvm_points import _looks_libsvm
from .point_cells import LINE_BREAK, _choose, _column, _number, _to_float
from .text_file import file_error

DELIMITERS = ("\t", ";", ",")  # on a tie the first wins: with ';' a ',' is a decimal comma


def _load_csv(text: str, path: Path, x, y, label, targets: bool = False):
    delimiter = "\t" if path.suffix.lower() == ".tsv" else _guess_delimiter(text)
    rows = _csv_rows(text, path, delimiter)
    if not rows:
        raise file_error(path, tr("every row is empty: no points to load"))
    header, rows = _split_header(rows, path)
    width = len(header or rows[0][1])
    _check_widths(rows, width, header, delimiter, path)
    label_col = _label_column(label, header, width, path)
    names = header or _default_names(width, label_col)
    where = _column_places(names if header else None, width)
    features = [c for c in range(width) if c != label_col]
    if len(features) < 2 and _looks_libsvm(text):
        raise file_error(path, tr("this looks like LIBSVM text, which a CSV file name hides; "
                                  "rename the file to end in .libsvm"))
    columns = _choose(x, y, names, features, label_col, path, targets)
    X = np.array([[_number(cells[c], path, line, where[c]) for c in columns]
                  for line, cells in rows], dtype=np.float64)
    labels = []
    for line, cells in rows:
        if targets:              # a regression target: a number, said where it is not
            labels.append(_number(cells[label_col], path, line, where[label_col]))
            continue
        if not cells[label_col]:
            raise file_error(path, tr("empty label; every point needs a class"), line,
                             where[label_col])
        labels.append(cells[label_col])
    return X, labels, [names[c] for c in columns]


def _column_places(header, width: int) -> list:
    """How an error names each column: by its header name, else by its number (from 1)."""
    if header:
        return [tr("column '{name}'").format(name=n) for n in header]
    return [tr("column {number}").format(number=c + 1) for c in range(width)]


def _guess_delimiter(text: str) -> str:
    """The separator that splits the first lines into equally many fields, most if several."""
    lines = [line for line in LINE_BREAK.split(text[:65536])[:20] if line.strip()]

    def score(delimiter):
        try:
            widths = [len(r) for r in csv.reader(lines, delimiter=delimiter,
                                                   skipinitialspace=True)]
        except csv.Error:
            return False, 0
        return len(set(widths)) == 1 and widths[0] >= 2, max(widths, default=0)
    return max(DELIMITERS, key=score)


def _csv_rows(text: str, path: Path, delimiter: str) -> list:
    """(line number, stripped cells) of every row that is not blank."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter,
                        skipinitialspace=True, strict=True)
    rows: list[tuple[int, list[str]]] = []
    start = 1
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return rows
        except csv.Error as e:
            raise file_error(path, _quote_problem(str(e)), start) from None
        cells = [cell.strip() for cell in cells]
        if any(cells):                # skips blank lines and Excel's empty ',,,' rows
            rows.append((start, cells))
        start = reader.line_num + 1


def _quote_problem(message: str) -> str:
    if "end of data" in message:
        return tr('a quote " opens a field here and never closes; quotes must come in pairs '
                  'around a whole field, as in "a, b"')
    if "expected after" in message:
        return tr('text follows the quote " that closes a field; quotes must come in pairs '
                  'around a whole field, as in "a, b"')
    return tr('this row cannot be split into fields ({error}); quotes must come in pairs '
              'around a whole field, as in "a, b"').format(error=message)


def _split_header(rows: list, path: Path):
    """The first row is a header when none of its cells is a number."""
    line, first = rows[0]
    if any(_to_float(cell) is not None for cell in first):
        return None, rows
    if len(rows) == 1:
        raise file_error(path, tr("there is a header row but no data rows; add points below it"),
                         line)
    return [cell or f"column {k + 1}" for k, cell in enumerate(first)], rows[1:]


def _check_widths(rows: list, width: int, header, delimiter: str, path: Path) -> None:
    for line, cells in rows:
        if len(cells) != width:
            sep = tr("tab") if delimiter == "\t" else f"'{delimiter}'"
            what = (tr("{n} fields where the header has {width}; every row needs the same "
                       "columns: look for a missing or extra {separator}") if header else
                    tr("{n} fields where the first row has {width}; every row needs the same "
                       "columns: look for a missing or extra {separator}"))
            raise file_error(path, what.format(n=len(cells), width=width, separator=sep), line)


def _label_column(label, header, width: int, path: Path) -> int:
    if label is None:
        return width - 1
    if header is None and isinstance(label, str):
        raise file_error(path, tr("the file has no header row, so there is no column {name}; "
                                  "give label as a 0-based column index").format(
                                      name=repr(label)))
    return _column(label, header or [f"column {k + 1}" for k in range(width)], "label", path)


def _default_names(width: int, label_col: int) -> list:
    names, k = [], 0
    for c in range(width):
        if c == label_col:
            names.append("label")
        else:
            k += 1
            names.append(f"x{k}")
    return names


def _unlabelled_csv(text: str, path: Path, n_features: int | None):
    """(X, names) of the first n_features columns when the CSV file has n_features
    columns, or one more (a label or a regression's target, left aside: a file x,y that
    trained a regressor of one feature; n_features None: every column), else
    (None, None)."""
    delimiter = "\t" if path.suffix.lower() == ".tsv" else _guess_delimiter(text)
    rows = _csv_rows(text, path, delimiter)
    if not rows:
        raise DataError(tr("{file}: {what}").format(
            file=path.name, what=tr("every row is empty: no points to load")))
    header, rows = _split_header(rows, path)
    width = len(header or rows[0][1])
    if n_features is not None and width not in (n_features, n_features + 1):
        return None, None
    _check_widths(rows, width, header, delimiter, path)
    taken = width if n_features is None else n_features
    names = (header or [f"x{j}" for j in range(1, width + 1)])[:taken]
    where = _column_places(header[:taken] if header else None, taken)
    X = np.array([[_number(cell, path, line, where[c]) for c, cell in enumerate(cells[:taken])]
                  for line, cells in rows], dtype=np.float64).reshape(len(rows), taken)
    return X, list(names)


def _csv_text(X: np.ndarray, labels: list, feature_names, path: Path, delimiter: str,
              label_header: str = "label") -> str:
    for name in (*feature_names, *labels):
        if not name or name != name.strip():
            raise file_error(path, tr("name {name} is empty or has spaces around it, which a "
                                      "CSV file cannot keep; rename it").format(name=repr(name)))
    numeric = [n for n in feature_names if _to_float(n) is not None]
    if numeric:
        raise file_error(path, tr("feature name {name} is a number, so the header would be read "
                                  "as data; rename the feature").format(name=repr(numeric[0])))
    # Quote all text if some holds another separator (lest a reader guess that one instead)
    # or a '\r' (which the csv module leaves unquoted when lines end in '\n').
    unsafe = "".join(set(DELIMITERS) - {delimiter}) + "\r"
    risky = any(c in unsafe for name in (*feature_names, *set(labels)) for c in name)
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n",
                        quoting=csv.QUOTE_NONNUMERIC if risky else csv.QUOTE_MINIMAL)
    writer.writerow([*feature_names, label_header])
    writer.writerows([*row, lab] for row, lab in zip(X.tolist(), labels))  # floats: repr
    text = out.getvalue()
    return "\ufeff" + text if text.startswith("\ufeff") else text  # the loader drops one BOM
