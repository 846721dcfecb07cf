"""The Compare solvers window's last comparison as a session keeps it: the settings the runs
shared, and for each run its solver and C, its row of the table (or why it failed), its
objectives' curve and its model, so that a reopened session shows the same table, charts
and canvases.

In a session (version 6, optional)::

    "comparison": {"settings": text,
                   "runs": [{"solver": name, "C": number or null (the hard margin),
                             "row": {"seconds": s, "iterations": k, "primal": P,
                                     "dual": D or null, "gap": G or null,
                                     "support": count or null,
                                     "train_accuracy": share or null,
                                     "test_accuracy": share or null,
                                     "agreement": share or null,
                                     "converged": bool, "stopped": bool} or null,
                             "error": text ('' unless the run failed),
                             "curve": {"seconds": [...], "iteration": [...],
                                       "primal": [...], "dual": [...] or null},
                             "model": a model document (see model_json) or null}, ...]}

A curve keeps at most MOST_CURVE_POINTS of its run's rows (spread evenly over the log of the
iteration, as its chart draws them, the first and the last kept): a long SMO run has tens of
thousands.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.catalog import TABLE
from ..core.comparison import MOST_RUNS, Row
from ..core.estimators import TableEstimator
from ..core.kinds import C_SVC
from ..i18n import tr
from .checked_json import Checker
from .model_json import model_document
from .model_json_reading import model_from_document

MOST_CURVE_POINTS = 1000
CURVE_COLUMNS = ("seconds", "iteration", "primal", "dual")
_ROW_SHARES = ("train_accuracy", "test_accuracy", "agreement")


@dataclass(frozen=True)
class ComparedRun:
    solver: str
    C: float
    row: Row | None                 # None: the run failed (error says why)
    error: str = ""
    # rows (seconds, iteration, primal, dual), dual NaN for a primal solver
    curve: np.ndarray = field(default_factory=lambda: np.empty((0, 4)), compare=False)
    model: TableEstimator | None = field(default=None, compare=False)


@dataclass(frozen=True)
class ComparisonRecord:
    settings: str                   # the settings the runs shared, in words
    runs: tuple                     # ComparedRun, in the table's order


def thinned(curve: np.ndarray, most: int = MOST_CURVE_POINTS) -> np.ndarray:
    """At most `most` rows of `curve`, spread evenly over the log of the iteration (its
    chart's x), the first and the last kept."""
    curve = np.asarray(curve, dtype=np.float64).reshape(-1, 4)
    if len(curve) <= most:
        return curve
    where = np.log1p(np.maximum(curve[:, 1], 0.0))
    marks = np.linspace(where[0], where[-1], most)
    keep = np.unique(np.concatenate([[0, len(curve) - 1],
                                     np.searchsorted(where, marks).clip(0, len(curve) - 1)]))
    return curve[keep]


def comparison_document(record: ComparisonRecord) -> dict:
    return {"settings": record.settings,
            "runs": [_run_document(run) for run in record.runs]}


def _run_document(run: ComparedRun) -> dict:
    curve = thinned(run.curve)
    dual = curve[:, 3]
    return {"solver": run.solver, "C": None if run.C == math.inf else float(run.C),
            "row": None if run.row is None else _row_document(run.row),
            "error": run.error,
            "curve": {"seconds": curve[:, 0].tolist(), "iteration": curve[:, 1].tolist(),
                      "primal": curve[:, 2].tolist(),
                      "dual": dual.tolist() if np.isfinite(dual).all() else None},
            "model": None if run.model is None else model_document(run.model)}


def _row_document(row: Row) -> dict:
    def maybe(value):
        return None if value is None else float(value)

    return {"seconds": float(row.seconds), "iterations": int(row.iterations),
            "primal": float(row.primal), "dual": maybe(row.dual), "gap": maybe(row.gap),
            "support": None if row.support is None else int(row.support),
            **{name: maybe(getattr(row, name)) for name in _ROW_SHARES},
            "converged": bool(row.converged), "stopped": bool(row.stopped)}


def read_comparison(check: Checker, v: Any) -> ComparisonRecord:
    """The record of a session's "comparison" field, every value checked (a DataError
    names the field)."""
    v = check.obj(v, "comparison", ("settings", "runs"))
    listed = check.array(v["runs"], "comparison.runs")
    if not 1 <= len(listed) <= MOST_RUNS:
        check.fail("comparison.runs", tr("{field} must hold 1 to {most} runs; got {n}"),
                   most=MOST_RUNS, n=len(listed))
    runs = tuple(_run(check, item, f"comparison.runs[{k}]") for k, item in enumerate(listed))
    return ComparisonRecord(check.string(v["settings"], "comparison.settings"), runs)


def _run(check: Checker, v: Any, where: str) -> ComparedRun:
    v = check.obj(v, where, ("solver", "C", "row", "error", "curve", "model"))
    solver = check.string(v["solver"], f"{where}.solver", tuple(TABLE.solvers))
    C = math.inf if v["C"] is None else check.real(v["C"], f"{where}.C", positive=True)
    row = None if v["row"] is None else _row(check, v["row"], f"{where}.row")
    model = None if v["model"] is None else model_from_document(
        v["model"], f"{check.name}: {where}.model")
    if model is not None and model.model_.kind != C_SVC.key:     # what a comparison trains
        check.fail(f"{where}.model", tr("{field} must be a C-SVC model; got a {kind} model"),
                   kind=model.model_.kind)
    return ComparedRun(solver, float(C), row, check.string(v["error"], f"{where}.error"),
                       _curve(check, v["curve"], f"{where}.curve"), model)


def _row(check: Checker, v: Any, where: str) -> Row:
    keys = ("seconds", "iterations", "primal", "dual", "gap", "support", *_ROW_SHARES,
            "converged", "stopped")
    v = check.obj(v, where, keys)

    def maybe(name):
        return None if v[name] is None else check.real(v[name], f"{where}.{name}")

    def share(name):
        value = maybe(name)
        if value is not None and not 0 <= value <= 1:
            check.fail(f"{where}.{name}", tr("{field} must lie between 0 and 1; got {value}"),
                       value=value)
        return value

    seconds = check.real(v["seconds"], f"{where}.seconds")
    if seconds < 0:
        check.fail(f"{where}.seconds", tr("{field} must not be negative; got {value}"),
                   value=seconds)
    support = None if v["support"] is None else check.integer(v["support"],
                                                              f"{where}.support", lo=0)
    return Row(seconds, check.integer(v["iterations"], f"{where}.iterations", lo=0),
               check.real(v["primal"], f"{where}.primal"), maybe("dual"), maybe("gap"),
               support, share("train_accuracy"), share("test_accuracy"), share("agreement"),
               check.boolean(v["converged"], f"{where}.converged"),
               check.boolean(v["stopped"], f"{where}.stopped"))


def _curve(check: Checker, v: Any, where: str) -> np.ndarray:
    v = check.obj(v, where, CURVE_COLUMNS)
    seconds = check.reals(v["seconds"], f"{where}.seconds")
    n = len(seconds)
    columns = [seconds] + [check.reals(v[name], f"{where}.{name}", n)
                           for name in ("iteration", "primal")]
    columns.append(np.full(n, np.nan) if v["dual"] is None
                   else check.reals(v["dual"], f"{where}.dual", n))
    return np.column_stack(columns) if n else np.empty((0, 4))
