"""Solvers side by side (numpy only): the runs of a comparison (each a solver and a C on the
same points, the other settings shared), and the line of the comparison's table each earns.

The five solvers train the same C-SVC: on the same points and settings, each converges to
the same optimum, by its own road. A row says how far down that road a run got (its
objectives, how long it took) and how its model compares: its support vectors, its
accuracies, and how often it predicts as SMO's solution of the same settings does (LIBSVM's
algorithm is the reference; it trains for that column whether or not it is compared).

The iterations of a run count on across its one-vs-one machines, as the training charts
count them: a machine's final iteration and one for each machine before it.
"""
from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ..i18n import tr
from .catalog import TABLE
from .estimators import SVC
from .estimators.base import NEVER
from .solvers.base import Snapshot

MOST_RUNS = 5                # canvases side by side: more would be too small to read
FEWEST_RUNS = 2


@dataclass(frozen=True)
class Entry:
    """One run of a comparison: the solver and the C it trains with."""

    solver: str
    C: float

    def params(self, shared: dict) -> dict:
        """The run's parameters: the shared settings with its solver and C."""
        return {**shared, "solver": self.solver, "C": self.C}

    def title(self) -> str:
        """How the run is named over its canvas and in the table (the solver's short
        name: a canvas is a fifth of the window)."""
        return tr("{solver} · C = {C:g}").format(solver=tr(TABLE.solvers[self.solver].short),
                                                 C=self.C)


@dataclass(frozen=True)
class Row:
    """What one run of a comparison came to (None: does not apply, or not known)."""

    seconds: float
    iterations: int
    primal: float
    dual: float | None              # None for the primal solvers (they have no dual)
    gap: float | None
    support: int | None             # support vectors of its model (None: stopped, no model)
    train_accuracy: float | None
    test_accuracy: float | None     # None without held-out points
    agreement: float | None         # share of every point predicted as SMO's solution does
    converged: bool
    stopped: bool = False           # stopped by the user before its end


def offered(kernel: str, C: float) -> dict:
    """Each solver, with why it cannot train `kernel` with this C ('' when it can)."""
    reasons = {}
    for name in TABLE.solvers:
        try:
            TABLE.check_pairing(name, kernel, C)
            reasons[name] = ""
        except ValueError as e:
            reasons[name] = str(e)
    return reasons


def entries_for(solvers: Sequence[str], Cs: Sequence[float], shared: dict) -> list:
    """The runs of `solvers` at every C of `Cs` (solver by solver), each checked with the
    shared settings: a ValueError says what cannot be compared."""
    runs = [Entry(solver, float(C)) for solver in solvers for C in Cs]
    if not FEWEST_RUNS <= len(runs) <= MOST_RUNS:
        raise ValueError(tr(
            "A comparison runs {fewest} to {most} trainings (the solvers chosen times the "
            "values of C); these settings make {n}.").format(
            fewest=FEWEST_RUNS, most=MOST_RUNS, n=len(runs)))
    if len(set(runs)) < len(runs):
        raise ValueError(tr("A value of C is given twice: each run must differ."))
    for run in runs:
        TABLE.check(run.params(shared))
    return runs


def totals(finals: Sequence[Snapshot]) -> tuple:
    """(iterations, primal, dual, gap) of a run from its machines' final snapshots: the sums
    over the machines, as the charts add them (dual and gap None for a primal solver)."""
    last = finals[-1]
    iterations = last.iteration + sum(s.iteration + 1 for s in finals[:-1])
    primal = float(sum(s.primal_objective for s in finals))
    if any(s.dual_objective is None for s in finals):
        return iterations, primal, None, None
    dual = float(sum(s.dual_objective for s in finals))   # type: ignore[misc]
    return iterations, primal, dual, primal - dual


def reference_predictions(params: dict, X: ArrayLike, labels: ArrayLike,
                          X_all: ArrayLike) -> np.ndarray:
    """SMO's predictions on `X_all`, trained on the points with the run's settings."""
    smo = SVC(**{**params, "solver": "smo"}).fit(X, labels)
    return smo.predict(X_all)


def row_of(estimator: SVC, summed: tuple, seconds: float, X: ArrayLike,
           labels: ArrayLike, X_test: ArrayLike, labels_test: ArrayLike) -> Row:
    """The table's line of a run that ended with its fitted `estimator`: `summed` its
    (iterations, primal, dual, gap) (`totals`); its agreement with SMO's solution of its
    settings (trained now) on the training points and the held-out ones."""
    X, X_test = np.asarray(X), np.asarray(X_test)
    labels, labels_test = np.asarray(labels), np.asarray(labels_test)
    iterations, primal, dual, gap = summed
    X_all = np.vstack([X, X_test]) if len(X_test) else X
    predicted = estimator.predict(X_all)
    reference = reference_predictions(estimator.get_params(), X, labels, X_all)
    train, test = predicted[:len(X)], predicted[len(X):]
    return Row(float(seconds), int(iterations), primal, dual, gap,
               int(np.sum(estimator.n_support_)), float(np.mean(train == labels)),
               float(np.mean(test == labels_test)) if len(test) else None,
               float(np.mean(predicted == reference)), bool(estimator.converged_))


def stopped_row(summed: tuple, seconds: float) -> Row:
    """The line of a run stopped before its end: how far it got (`summed`: its iterations,
    primal, dual and gap), no model."""
    iterations, primal, dual, gap = summed
    return Row(float(seconds), int(iterations), primal, dual, gap, None, None, None, None,
               False, stopped=True)


@dataclass(frozen=True)
class Trained:
    """A run of a comparison trained to its end: its row, its model, and its objectives
    as it went (rows of seconds, iteration, primal, dual; NaN: no dual), one per
    snapshot asked for."""

    entry: Entry
    row: Row
    model: SVC
    curve: np.ndarray


def train_run(entry: Entry, shared: dict, X: ArrayLike, labels: ArrayLike,
              X_test: ArrayLike, labels_test: ArrayLike, every: int = NEVER) -> Trained:
    """The run trained on the points, a snapshot every `every` iterations (NEVER: its
    final ones only, and no curve); its seconds are its own fit's."""
    estimator, finals, machine, curve = SVC(**entry.params(shared)), [], -1, []
    started = time.perf_counter()
    for step in estimator.iter_fit(X, labels, every=every):
        if step.machine.index != machine:
            finals.append(step.snapshot)
            machine = step.machine.index
        finals[-1] = step.snapshot
        if every != NEVER:
            iteration, primal, dual, _gap = totals(finals)
            curve.append((time.perf_counter() - started, iteration, primal,
                          np.nan if dual is None else dual))
    seconds = time.perf_counter() - started
    row = row_of(estimator, totals(finals), seconds, X, labels, X_test, labels_test)
    return Trained(entry, row, estimator, np.array(curve, dtype=float).reshape(-1, 4))


def compare(entries: Sequence[Entry], shared: dict, X: ArrayLike, labels: ArrayLike,
            X_test: ArrayLike, labels_test: ArrayLike) -> list:
    """Each run trained in turn, and its row (its seconds are its own fit's)."""
    return [train_run(entry, shared, X, labels, X_test, labels_test).row
            for entry in entries]


def row_texts(row: Row) -> tuple:
    """A row's numbers as the table shows them, from time to agreement ('—': does not
    apply, or not known)."""
    def number(value, form):
        return "—" if value is None or not math.isfinite(value) else format(value, form)

    def share(value):
        return "—" if value is None else f"{100 * value:.1f} %"

    return (f"{row.seconds:.3f}", str(row.iterations), number(row.primal, ".6g"),
            number(row.dual, ".6g"), number(row.gap, ".3g"),
            "—" if row.support is None else str(row.support),
            share(row.train_accuracy), share(row.test_accuracy), share(row.agreement))


def state_words(row: Row) -> str:
    """How a run ended, in the table's last column."""
    return (tr("stopped") if row.stopped else tr("converged") if row.converged
            else tr("budget spent"))
