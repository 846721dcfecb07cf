"""What every svmdesk JSON file shares: a guarded read, and field checks.

Model files and session files are JSON documents that other people hand us; they are read
with `json` only (never pickle or eval), under a size cap, with duplicate keys refused, and
then checked field by field so that a damaged or foreign file fails with a DataError that
names the file and the field.
"""
from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from ..core.errors import DataError
from ..i18n import N_, tr
from .atomic import StrPath

MODEL_FILE = N_("svmdesk model file")
SESSION_FILE = N_("svmdesk session file")


def read_json(path: StrPath, kind: str, max_bytes: int) -> object:
    """The parsed JSON document in `path`, a `kind` of file (MODEL_FILE, SESSION_FILE: its
    English name, translated here). Empty, oversized, binary, malformed or duplicate-keyed
    files raise DataError."""
    path = Path(path)
    name = path.name
    kind = tr(kind)
    most = f"{max_bytes / 2**20:.0f}"
    try:
        size = path.stat().st_size
    except OSError as e:
        raise DataError(tr("cannot open {path}: {error}").format(
            path=path, error=e.strerror or e)) from None
    if size > max_bytes:
        raise DataError(tr("{name} is {size} MB; svmdesk reads these files up to {most} MB: it "
                           "is not a {kind}").format(name=name, size=f"{size / 2**20:.0f}",
                                                     most=most, kind=kind))
    try:
        with open(path, "rb") as f:
            data = f.read(max_bytes + 1)
    except OSError as e:
        raise DataError(tr("cannot read {path}: {error}").format(
            path=path, error=e.strerror or e)) from None
    if len(data) > max_bytes:
        raise DataError(tr("{name} is larger than {most} MB: it is not a {kind}").format(
            name=name, most=most, kind=kind))
    if not data.strip():
        raise DataError(tr("{name} is empty: not a {kind}").format(name=name, kind=kind))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DataError(tr("{name} is not a {kind} (not UTF-8 text; is it a binary "
                           "file?)").format(name=name, kind=kind)) from None
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except _DuplicateKey as e:
        raise DataError(tr("{name}: key {key} appears twice in one object; the file is "
                           "damaged").format(name=name, key=repr(e.args[0]))) from None
    except json.JSONDecodeError as e:
        raise DataError(tr("{name} is not valid JSON (line {line}, column {column}: {error}); "
                           "the file is damaged or truncated, or not a {kind}").format(
                               name=name, line=e.lineno, column=e.colno, error=e.msg,
                               kind=kind)) from None
    except RecursionError:
        raise DataError(tr("{name} is nested too deeply to be a {kind}").format(
            name=name, kind=kind)) from None
    except ValueError as e:        # e.g. an integer of thousands of digits
        raise DataError(tr("{name} cannot be read ({error}); the file is damaged or not a "
                           "{kind}").format(name=name, error=e, kind=kind)) from None


class _DuplicateKey(Exception):
    pass


def _no_duplicates(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def describe(v: object) -> str:
    """A short description of a JSON value for an error message."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return repr(v) if len(v) <= 40 else tr("a string of {n} characters").format(n=len(v))
    if isinstance(v, list):
        return tr("a list of {n}").format(n=len(v))
    if isinstance(v, dict):
        return tr("an object")
    return type(v).__name__


# How many items a list has, and how many it needs: a whole sentence for each kind of item
# (the `what` of Checker.array), translated when it is said.
VALUES = N_("{field} has {n} values but {length} are needed")
FEATURES = N_("{field} has {n} features but {length} are needed")
ROWS = N_("{field} has {n} rows but {length} are needed")
VALUES_PER_MACHINE = N_("{field} has {n} values (one per machine) but {length} are needed")
VALUES_PER_FEATURE = N_("{field} has {n} values (one per feature) but {length} are needed")
VALUES_PER_CLASS = N_("{field} has {n} values (one per class) but {length} are needed")


class Checker:
    """Field checks on a parsed document; every failure is a DataError
    "<file>: <field> <problem>"."""

    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, where: str, problem: str, **values: object) -> NoReturn:
        """Refuse the document: `problem` is a translated sentence about `{field}` (the
        field `where`, or the file when `where` is ''), its other placeholders `values`."""
        if where:
            raise DataError(tr("{file}: {problem}").format(
                file=self.name, problem=problem.format(field=where, **values)))
        raise DataError(problem.format(field=self.name, **values))

    def obj(self, v: Any, where: str, keys: Sequence[str], optional: Sequence[str] = ()) -> dict:
        if not isinstance(v, dict):
            self.fail(where, tr("{field} must be an object with keys {keys}; got {value}"),
                      keys=tr(", ").join(keys), value=describe(v))
        for k in keys:
            if k not in v:
                self.fail(f"{where}.{k}" if where else k, tr("{field} is missing"))
        extra = [k for k in v if k not in keys and k not in optional]
        if extra:
            self.fail(f"{where}.{extra[0]}" if where else extra[0],
                      tr("{field} is not a field of this format version"))
        return v

    def integer(self, v: Any, where: str, lo: int | None = None, hi: int | None = None) -> int:
        if type(v) is not int:
            self.fail(where, tr("{field} must be an integer; got {value}"), value=describe(v))
        if lo is not None and v < lo:
            self.fail(where, tr("{field} must be at least {lo}; got {value}"), lo=lo, value=v)
        if hi is not None and v > hi:
            self.fail(where, tr("{field} must be at most {hi}; got {value}"), hi=hi, value=v)
        return v

    def real(self, v: Any, where: str, positive: bool = False) -> float:
        if type(v) not in (int, float):
            self.fail(where, tr("{field} must be a number; got {value}"), value=describe(v))
        try:
            x = float(v)
        except OverflowError:
            self.fail(where, tr("{field} is too large a number ({digits}...)"),
                      digits=str(v)[:20])
        if not math.isfinite(x):
            self.fail(where, tr("{field} must be a finite number; got {value} (NaN or "
                                "infinity)"), value=repr(x))
        if positive and not x > 0:
            self.fail(where, tr("{field} must be positive; got {value}"), value=repr(x))
        return x

    def boolean(self, v: Any, where: str) -> bool:
        if type(v) is not bool:
            self.fail(where, tr("{field} must be true or false; got {value}"), value=describe(v))
        return v

    def string(self, v: Any, where: str, allowed: Sequence[str] | None = None) -> str:
        if type(v) is not str:
            self.fail(where, tr("{field} must be a string; got {value}"), value=describe(v))
        if allowed is not None and v not in allowed:
            self.fail(where, tr("{field} must be one of {choices}; got {value}"),
                      choices=tr(", ").join(repr(a) for a in allowed), value=describe(v))
        return v

    def array(self, v: Any, where: str, length: int | None = None, what: str = VALUES) -> list:
        """`v` when it is a list (of `length` items); `what`: the sentence for a list of
        another length, with {field}, {n} and {length} (VALUES, ROWS, ...; English)."""
        if not isinstance(v, list):
            self.fail(where, tr("{field} must be a list; got {value}"), value=describe(v))
        if length is not None and len(v) != length:
            self.fail(where, tr(what), n=len(v), length=length)
        return v

    def reals(self, v: Any, where: str, length: int | None = None, positive: bool = False,
              what: str = VALUES) -> np.ndarray:
        v = self.array(v, where, length, what)
        for k, x in enumerate(v):
            if type(x) is not float:   # the fast path: floats need no further checks here
                self.real(x, f"{where}[{k}]")
        try:
            a = np.array(v, dtype=np.float64)
        except OverflowError:
            self.fail(where, tr("{field} holds a number too large for a float"))
        bad = ~np.isfinite(a)
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            self.fail(f"{where}[{k}]", tr("{field} must be a finite number; got {value} (NaN or "
                                          "infinity)"), value=repr(a[k]))
        if positive and not (a > 0).all():
            k = int(np.flatnonzero(~(a > 0))[0])
            self.fail(f"{where}[{k}]", tr("{field} must be positive; got {value}"),
                      value=repr(a[k]))
        return a

    def indices(self, v: Any, where: str, length: int | None = None, what: str = VALUES,
                hi: int = 2**62) -> np.ndarray:
        v = self.array(v, where, length, what)
        for k, x in enumerate(v):
            self.integer(x, f"{where}[{k}]", lo=0, hi=hi)
        return np.array(v, dtype=np.intp).reshape(len(v))

    def matrix(self, v: Any, where: str, n_rows: int | None, n_cols: int,
               rows_what: str) -> np.ndarray:
        self.array(v, where, n_rows, rows_what)
        rows = [self.reals(row, f"{where}[{r}]", n_cols, what=FEATURES)
                for r, row in enumerate(v)]
        return np.array(rows, dtype=np.float64).reshape(len(rows), n_cols)
