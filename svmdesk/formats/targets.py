"""Regression data: points whose label column holds a numeric target (a measurement, not
a class), read and written as CSV or LIBSVM text by the readers and writers of csv_points.py
and libsvm_points.py."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike

from ..core.errors import DataError
from ..i18n import tr
from .atomic import StrPath, write_atomic
from .csv_points import _csv_text, _load_csv
from .libsvm_points import _libsvm_text, _load_libsvm
from .points import LIBSVM_SUFFIXES, _is_libsvm
from .text_file import read_text


def load_targets(path: StrPath) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(X, z, feature names) of a regression data file: the label column (CSV: the last;
    LIBSVM: each line's first item) holds each point's numeric target, a measurement and
    not a class. A target that is no finite number is said with its file, line and column."""
    path = Path(path)
    text = read_text(path)
    if _is_libsvm(path, text):
        X, labels, names = _load_libsvm(text, path, None, None, None, targets=True)
    else:
        X, labels, names = _load_csv(text, path, None, None, None, targets=True)
    return X, np.array(labels, dtype=np.float64), names


def save_targets(X: ArrayLike, z: ArrayLike, names: Sequence[str], path: StrPath) -> None:
    """Write points X and their targets z as CSV (header: the feature names, then the
    target's name, names[-1]) or LIBSVM (by the extension, as save_dataset), exactly:
    load_targets gives back the same X and z."""
    path = Path(path)
    X = np.asarray(X, dtype=np.float64).reshape(len(np.asarray(z)), -1)
    z = np.asarray(z, dtype=np.float64)
    if not (np.isfinite(X).all() and np.isfinite(z).all()):
        raise DataError(tr("{name}: a point or target is NaN or infinite and cannot be "
                           "saved").format(name=path.name))
    targets = [repr(v) for v in z.tolist()]                # repr: read back exactly
    if path.suffix.lower() in LIBSVM_SUFFIXES:
        text = _libsvm_text(X, targets, path)
    else:
        *features, target = (str(n) for n in names)
        text = _csv_text(X, targets, features, path,
                         "\t" if path.suffix.lower() == ".tsv" else ",", label_header=target)
    write_atomic(path, text)
