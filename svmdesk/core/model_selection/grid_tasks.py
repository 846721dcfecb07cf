"""The work of a grid search's worker: scoring a task (grid_cells.Task: some folds of one
column of cells, the cells that differ only in C) through its entry point `run_task`
(module-level, for a process pool; its module imports the core alone). A column of C-SVC's
SMO on a kernel the folds leave unchanged shares its work (warm_columns.py); any other is
cross-validated cell by cell."""
from __future__ import annotations

import warnings

import numpy as np

from ..errors import ConvergenceWarning
from .cross_validation import one_fold
from .grid_cells import Scored, Task
from .warm_columns import seeded_along_C, shares_work


def run_task(task: Task, X: np.ndarray, y: np.ndarray) -> Scored:
    """Score a column's cells on some folds (module-level: a process pool's entry point; its
    module imports the core alone). A fit that stops short of its tolerance marks its cell
    not converged; its ConvergenceWarning is not repeated."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        scores, times, converged = (seeded_along_C if shares_work(task) else _one_by_one)(
            task, X, y)
    return Scored(task.column, task.folds, scores, times, converged)


def _one_by_one(column: Task, X: np.ndarray, y: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each cell's folds fitted by a fresh estimator and scored by its own score."""
    shape = (len(column.cells), len(column.folds))
    scores, times, converged = np.empty(shape), np.empty(shape), np.ones(shape, dtype=bool)
    for k, (_index, values) in enumerate(column.cells):
        for f, fold in enumerate(column.folds):
            train, test = column.splits[fold]
            estimator = column.kind(**{**column.base, **values})
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", ConvergenceWarning)
                scores[k, f], times[k, f] = one_fold(
                    estimator, X[train], y[train], X[test], y[test], None)
            converged[k, f] = not any(issubclass(w.category, ConvergenceWarning)
                                      for w in caught)
    return scores, times, converged
