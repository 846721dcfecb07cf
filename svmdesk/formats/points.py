"""Reading and writing labelled points as CSV or LIBSVM/svmlight text.

Loading is strict: a bad file raises DataError naming the file, the line and the column, what
is wrong and what to do, and loads nothing.  Saving is atomic: a crash mid-save leaves the old
file (or none), never half a file.
"""
from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike

from ..core.catalog import MAX_CLASSES
from ..core.datasets import Dataset
from ..core.errors import DataError, continuous_labels
from ..i18n import tr
from .atomic import StrPath, write_atomic
from .text_file import file_error, read_text

MAX_CELLS = 25_000_000       # a dense LIBSVM matrix of at most 200 MB
CSV_SUFFIXES = (".csv", ".tsv")
LIBSVM_SUFFIXES = (".libsvm", ".svm", ".svmlight")
TEXT_SUFFIXES = (".txt", ".dat", ".data")   # either format: read by their content
DATA_SUFFIXES = CSV_SUFFIXES + TEXT_SUFFIXES + LIBSVM_SUFFIXES
DELIMITERS = ("\t", ";", ",")  # on a tie the first wins: with ';' a ',' is a decimal comma
LINE_BREAK = re.compile(r"\r\n?|\n")
LIBSVM_LINE = re.compile(r"\s*\S+\s+\d+:")
DECIMAL_COMMA = re.compile(r"[+-]?\d*,\d+")


# -- loading --------------------------------------------------------------------------------
def load_dataset(path: StrPath, x: str | int | None = None, y: str | int | None = None,
                 label: str | int | None = None) -> Dataset:
    """Points from a CSV or LIBSVM/svmlight text file.

    The format follows the extension (.csv .tsv: CSV; .libsvm .svm .svmlight: LIBSVM)
    or, for any other (.txt, .dat, ...), the content: LIBSVM lines as LIBSVM, the rest as
    CSV.  X holds every feature column, or exactly the two
    columns x and y when either is given (header names or 0-based column indices; in a
    LIBSVM file the features are x1, x2, ... with indices 0, 1, ...); when only one is given
    the other is the first remaining feature column.  y holds class indices into
    class_names, which sort numbers by value before text.

    CSV: a header row or none; ',', ';' or tab separators; quoted fields; UTF-8 (with or
    without BOM) or Shift-JIS.  ``label`` names the label column (default: the last); labels
    may be text or numbers.  Headerless columns are called x1, x2, ... and label.
    LIBSVM: ``label index:value ...`` lines, 1-based indices, missing features are 0,
    '#' starts a comment; labels are numbers.
    """
    path = Path(path)
    text = read_text(path)
    if _is_libsvm(path, text):
        X, labels, names = _load_libsvm(text, path, x, y, label)
    else:
        X, labels, names = _load_csv(text, path, x, y, label)
    classes = sorted(set(labels), key=_label_key)
    if len(classes) < 2:
        raise file_error(path, tr("every point has the label {label}; a classifier needs at "
                                  "least two classes").format(label=repr(classes[0])))
    _refuse_measurements(classes, path)
    index = {c: k for k, c in enumerate(classes)}
    return Dataset(X=X, y=np.array([index[v] for v in labels], dtype=np.int64),
                   class_names=tuple(classes), feature_names=tuple(names), name=path.stem)


def _refuse_measurements(classes: list, path: Path) -> None:
    """Labels that are fractional numbers, more of them than a data set may hold classes,
    are a regression target (scikit-learn's "continuous"). A few fractional labels (0.5 and
    1.5) stay class names, as they always loaded."""
    if len(classes) <= MAX_CLASSES:
        return
    values = [_to_float(c) for c in classes]
    if all(v is not None for v in values) and any(not v.is_integer() for v in values):
        example = next(c for c, v in zip(classes, values) if not v.is_integer())
        raise file_error(path, tr("{reason} ({n} distinct labels)").format(
            reason=continuous_labels(example), n=len(classes)))


def _is_libsvm(path: Path, text: str) -> bool:
    suffix = path.suffix.lower()
    if suffix in CSV_SUFFIXES + LIBSVM_SUFFIXES:
        return suffix in LIBSVM_SUFFIXES
    return _looks_libsvm(text)


def _looks_libsvm(text: str) -> bool:
    """Whether the first line that is not blank or a comment reads like '+1 1:0.5 ...'."""
    for line in LINE_BREAK.split(text[:65536]):
        if line.strip() and not line.lstrip().startswith("#"):
            return bool(LIBSVM_LINE.match(line)) and "," not in line and ";" not in line
    return False


# -- CSV ------------------------------------------------------------------------------------
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


# -- LIBSVM ---------------------------------------------------------------------------------
def _load_libsvm(text: str, path: Path, x, y, label, targets: bool = False):
    if label is not None:
        raise file_error(path, tr("label= picks a CSV column; in a LIBSVM file the label is "
                                  "always the first item of a line"))
    points = []
    for line, content in enumerate(LINE_BREAK.split(text), start=1):
        items = content.split("#", 1)[0].split()
        if items:
            points.append((line, _libsvm_label(items[0], path, line),
                           _libsvm_features(items[1:], path, line)))
    if not points:
        raise file_error(path, tr("the file has only comments: no points to load"))
    d = max(max(features, default=0) for _, _, features in points)
    if len(points) * d > MAX_CELLS:
        raise file_error(path, tr("{n} points with {d} features are too many numbers for "
                                  "svmdesk (at most {most}); keep fewer features").format(
                                      n=len(points), d=d, most=f"{MAX_CELLS:,}"))
    X = np.zeros((len(points), d))
    for r, (_, _, features) in enumerate(points):
        for index, value in features.items():
            X[r, index - 1] = value
    names = [f"x{j}" for j in range(1, d + 1)]
    columns = _choose(x, y, names, list(range(d)), None, path, targets)
    return X[:, columns], [lab for _, lab, _ in points], [names[c] for c in columns]


def _libsvm_label(item: str, path: Path, line: int) -> str:
    if ":" in item:
        raise file_error(path, tr("the line starts with {item}; a LIBSVM line starts with its "
                                  "label, as in '+1 1:0.5 2:1.2'").format(item=repr(item)), line)
    value = _to_float(item)
    if value is None or not math.isfinite(value):
        raise file_error(path, tr("label {item} is not a number; LIBSVM labels are numbers such "
                                  "as +1 and -1 (save text labels as CSV instead)").format(
                                      item=repr(item)), line, _item(1))
    return _label_name(value)


def _libsvm_features(items: list, path: Path, line: int) -> dict:
    features = {}
    for k, item in enumerate(items, start=2):
        index, colon, value = item.partition(":")
        if not (colon and index.isascii() and index.isdigit() and int(index) >= 1):
            raise _bad_item(item, path, line, _item(k))
        j = int(index)
        if j in features:
            raise file_error(path, tr("feature {j} appears twice on this line; keep one").format(
                j=j), line, _item(k))
        features[j] = _number(value, path, line, (k, j))
    return features


def _item(k: int) -> str:
    return tr("item {number}").format(number=k)


def _place(where) -> str:
    """`where` as an error says it: a column's place, or for a LIBSVM value its (item,
    feature), said only when an error is raised ("item 3, column 'x2'")."""
    if isinstance(where, tuple):
        return tr("item {number}, column '{name}'").format(number=where[0], name=f"x{where[1]}")
    return where


def _bad_item(item: str, path: Path, line: int, where: str) -> DataError:
    index, colon, _ = item.partition(":")
    if not colon:
        return file_error(path, tr("{item} is not index:value; write features as in "
                                   "'3:0.5'").format(item=repr(item)), line, where)
    if re.fullmatch(r"[+-]?[0-9]+", index):
        return file_error(path, tr("feature index {index} in {item}: indices start at 1").format(
            index=index, item=repr(item)), line, where)
    return file_error(path, tr("{index} in {item} is not a feature index; indices are whole "
                               "numbers 1, 2, 3, ...").format(index=repr(index), item=repr(item)),
                      line, where)


# -- both -----------------------------------------------------------------------------------
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


def _label_name(value: float) -> str:
    """A numeric label as class name: '1' for +1 and 1.0, else the shortest exact float."""
    return str(int(value)) if value.is_integer() and abs(value) < 2**53 else repr(value)


def _label_key(label: str):
    """Numeric labels sort as numbers, text labels alphabetically after them."""
    value = _to_float(label)
    if value is None or not math.isfinite(value):
        return 1, 0.0, label
    return 0, value, label


def match_labels(names: Sequence[str], labels: ArrayLike) -> np.ndarray:
    """For each of `names` (a data file's class names), the index of the equal label in
    `labels` (a model's classes), or -1. Labels compare as numbers when both are finite
    numbers ('+1' is 1, '2.0' is 2), otherwise as text."""
    def key(label):
        value = _to_float(str(label))
        return ("number", value) if value is not None and math.isfinite(value) \
            else ("text", str(label))

    index = {key(label): k for k, label in enumerate(np.asarray(labels).tolist())}
    return np.array([index.get(key(name), -1) for name in names], dtype=np.intp)


def foreign_classes_warning(names: Sequence[str], labels: ArrayLike) -> str:
    """A sentence when none of `labels` (a model's classes) is one of `names` (the class
    names of the points it is shown over), or '' (also when there are no names). The window
    and `svmdesk render` say the same words."""
    names = [str(name) for name in names]
    if not names or (match_labels(names, labels) >= 0).any():
        return ""
    return tr("none of the model's classes ({labels}) is a class of these points ({names}), "
              "so the accuracy compares different labels.").format(
                  labels=", ".join(map(str, np.asarray(labels))), names=", ".join(names))


# -- saving ---------------------------------------------------------------------------------
def save_dataset(dataset: Dataset, path: StrPath, format: str | None = None) -> None:
    """Write ``dataset`` as CSV (header: feature names then 'label'; labels as class names)
    or LIBSVM (numeric class names only).  ``format``: 'csv' or 'libsvm'; by default the
    extension decides (.libsvm .svm .svmlight: LIBSVM, anything else: CSV; .tsv uses tabs).
    Floats are written exactly (shortest repr), so loading gives back the same X.
    """
    path = Path(path)
    fmt = (format or ("libsvm" if path.suffix.lower() in LIBSVM_SUFFIXES else "csv")).lower()
    if fmt not in ("csv", "libsvm"):
        raise ValueError(tr("format must be 'csv' or 'libsvm'; got {value}").format(
            value=repr(format)))
    y = np.asarray(dataset.y)
    if np.issubdtype(y.dtype, np.integer):
        labels = [dataset.class_names[k] for k in y.tolist()]
    else:
        labels = [str(v) for v in y.tolist()]
    X = np.asarray(dataset.X, dtype=np.float64)
    if fmt == "libsvm":
        text = _libsvm_text(X, labels, path)
    else:
        text = _csv_text(X, labels, dataset.feature_names, path,
                         "\t" if path.suffix.lower() == ".tsv" else ",")
    write_atomic(path, text)


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


def _libsvm_text(X: np.ndarray, labels: list, path: Path) -> str:
    names = {}
    for label in dict.fromkeys(labels):
        value = _to_float(label)
        if value is None or not math.isfinite(value):
            raise file_error(path, tr("LIBSVM needs numeric labels, but class {label} is not a "
                                      "number; save as CSV (.csv) instead").format(
                                          label=repr(label)))
        names[label] = _label_name(value)
    if len(set(names.values())) < len(names):
        raise file_error(path, tr("two classes are the same number in LIBSVM (such as '1' and "
                                  "'1.0'); rename one or save as CSV"))
    d = X.shape[1]
    lines = [" ".join([names[lab], *(f"{j}:{v!r}" for j, v in enumerate(row, 1)
                                     if v != 0 or j == d)])
             for row, lab in zip(X.tolist(), labels)]
    return "".join(line + "\n" for line in lines)


def load_unlabelled(path: StrPath) -> tuple[np.ndarray, list[str]]:
    """(X, feature names) of a one-class data file: in a CSV file every column is a feature
    (no label column); a LIBSVM file's labels are read and left aside."""
    path = Path(path)
    text = read_text(path)
    if _is_libsvm(path, text):
        X, _, names = _load_libsvm(text, path, None, None, None)
        return X, names
    return _unlabelled_csv(text, path, None)


def load_points(path: StrPath, n_features: int) -> tuple[np.ndarray, list[str]]:
    """The feature matrix and feature names of a data file for prediction.

    The reader is load_dataset's (its parts, so that errors name the file, line and column
    the same way), without its rule that the file holds two classes: a CSV file with
    exactly n_features columns has no label column, otherwise the last column is the label
    (ignored); a LIBSVM file's missing trailing features are 0."""
    path = Path(path)
    text = read_text(path)
    if _is_libsvm(path, text):
        X, _, names = _load_libsvm(text, path, None, None, None)
        if X.shape[1] < n_features:
            X = np.hstack([X, np.zeros((len(X), n_features - X.shape[1]))])
            names = [f"x{j}" for j in range(1, n_features + 1)]
        return require_features(X, names, n_features, path, "")
    X, names = _unlabelled_csv(text, path, n_features)
    if X is None:
        X, _, names = _load_csv(text, path, None, None, None)
    return require_features(X, names, n_features, path, "label")


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


def require_features(X: np.ndarray, names: Sequence[str], n_features: int, path: Path,
                     where: str) -> tuple[np.ndarray, list[str]]:
    """X and its names when X has n_features columns, else DataError. `where`: "" (all of the
    file's columns are features) or anything else (the last column is the label)."""
    if X.shape[1] != n_features:
        text = (tr("{file} has {n} feature columns besides the label (the last column) ({names}) "
                   "but the model was trained on {needed} features; give the model's features "
                   "in the same order") if where else
                tr("{file} has {n} feature columns ({names}) but the model was trained on "
                   "{needed} features; give the model's features in the same order"))
        raise DataError(text.format(file=path.name, n=X.shape[1], names=", ".join(names),
                                    needed=n_features))
    return X, list(names)
