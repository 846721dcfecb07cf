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
from .atomic import StrPath


def read_json(path: StrPath, kind: str, max_bytes: int) -> object:
    """The parsed JSON document in `path`, a `kind` of file (e.g. "svmdesk model file").
    Empty, oversized, binary, malformed or duplicate-keyed files raise DataError."""
    path = Path(path)
    name = path.name
    try:
        size = path.stat().st_size
    except OSError as e:
        raise DataError(f"cannot open {path}: {e.strerror or e}") from None
    if size > max_bytes:
        raise DataError(f"{name} is {size / 2**20:.0f} MB; svmdesk reads these files up to "
                        f"{max_bytes / 2**20:.0f} MB: it is not a {kind}")
    try:
        with open(path, "rb") as f:
            data = f.read(max_bytes + 1)
    except OSError as e:
        raise DataError(f"cannot read {path}: {e.strerror or e}") from None
    if len(data) > max_bytes:
        raise DataError(f"{name} is larger than {max_bytes / 2**20:.0f} MB: it is not a {kind}")
    if not data.strip():
        raise DataError(f"{name} is empty: not a {kind}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DataError(f"{name} is not a {kind} (not UTF-8 text; is it a binary "
                        "file?)") from None
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except _DuplicateKey as e:
        raise DataError(f"{name}: key {e.args[0]!r} appears twice in one object; the file "
                        "is damaged") from None
    except json.JSONDecodeError as e:
        raise DataError(f"{name} is not valid JSON (line {e.lineno}, column {e.colno}: "
                        f"{e.msg}); the file is damaged or truncated, or not a {kind}") from None
    except RecursionError:
        raise DataError(f"{name} is nested too deeply to be a {kind}") from None
    except ValueError as e:        # e.g. an integer of thousands of digits
        raise DataError(f"{name} cannot be read ({e}); the file is damaged or not a "
                        f"{kind}") from None


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
        return repr(v) if len(v) <= 40 else f"a string of {len(v)} characters"
    if isinstance(v, list):
        return f"a list of {len(v)}"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__


class Checker:
    """Field checks on a parsed document; every failure is a DataError
    "<file>: <field> <problem>"."""

    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, where: str, problem: str) -> NoReturn:
        raise DataError(f"{self.name}: {where} {problem}" if where else f"{self.name} {problem}")

    def obj(self, v: Any, where: str, keys: Sequence[str], optional: Sequence[str] = ()) -> dict:
        if not isinstance(v, dict):
            self.fail(where, f"must be an object with keys {', '.join(keys)}; got {describe(v)}")
        for k in keys:
            if k not in v:
                self.fail(f"{where}.{k}" if where else k, "is missing")
        extra = [k for k in v if k not in keys and k not in optional]
        if extra:
            self.fail(f"{where}.{extra[0]}" if where else extra[0],
                      "is not a field of this format version")
        return v

    def integer(self, v: Any, where: str, lo: int | None = None, hi: int | None = None) -> int:
        if type(v) is not int:
            self.fail(where, f"must be an integer; got {describe(v)}")
        if lo is not None and v < lo:
            self.fail(where, f"must be at least {lo}; got {v}")
        if hi is not None and v > hi:
            self.fail(where, f"must be at most {hi}; got {v}")
        return v

    def real(self, v: Any, where: str, positive: bool = False) -> float:
        if type(v) not in (int, float):
            self.fail(where, f"must be a number; got {describe(v)}")
        try:
            x = float(v)
        except OverflowError:
            self.fail(where, f"is too large a number ({str(v)[:20]}...)")
        if not math.isfinite(x):
            self.fail(where, f"must be a finite number; got {x!r} (NaN or infinity)")
        if positive and not x > 0:
            self.fail(where, f"must be positive; got {x!r}")
        return x

    def boolean(self, v: Any, where: str) -> bool:
        if type(v) is not bool:
            self.fail(where, f"must be true or false; got {describe(v)}")
        return v

    def string(self, v: Any, where: str, allowed: Sequence[str] | None = None) -> str:
        if type(v) is not str:
            self.fail(where, f"must be a string; got {describe(v)}")
        if allowed is not None and v not in allowed:
            self.fail(where, f"must be one of {', '.join(repr(a) for a in allowed)}; got "
                             f"{describe(v)}")
        return v

    def array(self, v: Any, where: str, length: int | None = None, what: str = "values") -> list:
        if not isinstance(v, list):
            self.fail(where, f"must be a list; got {describe(v)}")
        if length is not None and len(v) != length:
            self.fail(where, f"has {len(v)} {what} but {length} are needed")
        return v

    def reals(self, v: Any, where: str, length: int | None = None, positive: bool = False,
              what: str = "values") -> np.ndarray:
        v = self.array(v, where, length, what)
        for k, x in enumerate(v):
            if type(x) is not float:   # the fast path: floats need no further checks here
                self.real(x, f"{where}[{k}]")
        try:
            a = np.array(v, dtype=np.float64)
        except OverflowError:
            self.fail(where, "holds a number too large for a float")
        bad = ~np.isfinite(a)
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            self.fail(f"{where}[{k}]", f"must be a finite number; got {a[k]!r} (NaN or infinity)")
        if positive and not (a > 0).all():
            k = int(np.flatnonzero(~(a > 0))[0])
            self.fail(f"{where}[{k}]", f"must be positive; got {a[k]!r}")
        return a

    def indices(self, v: Any, where: str, length: int | None = None, what: str = "values",
                hi: int = 2**62) -> np.ndarray:
        v = self.array(v, where, length, what)
        for k, x in enumerate(v):
            self.integer(x, f"{where}[{k}]", lo=0, hi=hi)
        return np.array(v, dtype=np.intp).reshape(len(v))

    def matrix(self, v: Any, where: str, n_rows: int | None, n_cols: int,
               rows_what: str) -> np.ndarray:
        self.array(v, where, n_rows, rows_what)
        rows = [self.reals(row, f"{where}[{r}]", n_cols, what="features")
                for r, row in enumerate(v)]
        return np.array(rows, dtype=np.float64).reshape(len(rows), n_cols)
