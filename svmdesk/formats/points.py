"""Reading and writing labelled points, the entry points: load_dataset and save_dataset,
load_points and load_unlabelled, each choosing CSV or LIBSVM/svmlight text by the file's
suffix or content (the formats themselves: csv_points.py and libsvm_points.py).

Loading is strict: a bad file raises DataError naming the file, the line and the column, what
is wrong and what to do, and loads nothing.  Saving is atomic: a crash mid-save leaves the old
file (or none), never half a file.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..core.catalog import MAX_CLASSES
from ..core.datasets import Dataset
from ..core.errors import DataError, continuous_labels
from ..i18n import tr
from .atomic import StrPath, write_atomic
from .csv_points import _csv_text, _load_csv, _unlabelled_csv
from .libsvm_points import _libsvm_text, _load_libsvm, _looks_libsvm
from .point_cells import _to_float
from .text_file import file_error, read_text

CSV_SUFFIXES = (".csv", ".tsv")
LIBSVM_SUFFIXES = (".libsvm", ".svm", ".svmlight")
TEXT_SUFFIXES = (".txt", ".dat", ".data")   # either format: read by their content
DATA_SUFFIXES = CSV_SUFFIXES + TEXT_SUFFIXES + LIBSVM_SUFFIXES


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


def _label_key(label: str):
    """Numeric labels sort as numbers, text labels alphabetically after them."""
    value = _to_float(label)
    if value is None or not math.isfinite(value):
        return 1, 0.0, label
    return 0, value, label


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
