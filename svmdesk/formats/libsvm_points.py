"""The LIBSVM/svmlight text format of points: telling it from CSV, reading its
``label index:value ...`` lines and writing them.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np

from ..core.errors import DataError
from ..i18n import tr
from .point_cells import LINE_BREAK, _choose, _number, _to_float
from .text_file import file_error

MAX_CELLS = 25_000_000       # a dense LIBSVM matrix of at most 200 MB
LIBSVM_LINE = re.compile(r"\s*\S+\s+\d+:")


def _looks_libsvm(text: str) -> bool:
    """Whether the first line that is not blank or a comment reads like '+1 1:0.5 ...'."""
    for line in LINE_BREAK.split(text[:65536]):
        if line.strip() and not line.lstrip().startswith("#"):
            return bool(LIBSVM_LINE.match(line)) and "," not in line and ";" not in line
    return False


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


def _label_name(value: float) -> str:
    """A numeric label as class name: '1' for +1 and 1.0, else the shortest exact float."""
    return str(int(value)) if value.is_integer() and abs(value) < 2**53 else repr(value)


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
