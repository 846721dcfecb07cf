"""The work of a grid search's worker: scoring a task (grid_cells.Task: some folds of one
column of cells, the cells that differ only in C) through its entry point `run_task`
(module-level, for a process pool; its module imports the core alone). A column of C-SVC's
SMO on a kernel the folds leave unchanged shares its work (warm_columns.py); any other is
cross-validated cell by cell."""
from __future__ import annotations

import ctypes
import functools
import os
import sys
import warnings

import numpy as np

from .errors import ConvergenceWarning
from .grid_cells import Scored, Task
from .validation import _one_fold
from .warm_columns import seeded_along_C, shares_work

M_MMAP_THRESHOLD = -3            # glibc's mallopt parameter
HEAP_ARRAYS_UP_TO = 32 * 2**20   # bytes: see _arrays_on_the_heap


def run_task(task: Task, X: np.ndarray, y: np.ndarray) -> Scored:
    """Score a column's cells on some folds (module-level: a process pool's entry point; its
    module imports the core alone). A fit that stops short of its tolerance marks its cell
    not converged; its ConvergenceWarning is not repeated."""
    _arrays_on_the_heap()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        scores, times, converged = (seeded_along_C if shares_work(task) else _one_by_one)(
            task, X, y)
    return Scored(task.column, task.folds, scores, times, converged)


@functools.cache
def _arrays_on_the_heap() -> None:
    """Undo, in a Dask worker, what made it score a grid 1.5-1.8 times slower than a plain
    process: Dask's nanny starts its workers with MALLOC_TRIM_THRESHOLD_=65536, which also
    pins glibc's mmap threshold at 128 KiB, so every larger array (a kernel block, a Newton
    step's matrices, the reordered kernel of each shrink) is mapped and zero-filled afresh.
    Arrays up to 32 MiB come from the heap again (glibc's own ceiling when it adjusts the
    threshold itself); the trim threshold stays, so freed memory still returns to the
    system. Only where that variable is set, on glibc."""
    if "MALLOC_TRIM_THRESHOLD_" not in os.environ or not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(M_MMAP_THRESHOLD, HEAP_ARRAYS_UP_TO)
    except (OSError, AttributeError):          # not glibc: nothing to undo
        pass


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
                scores[k, f], times[k, f] = _one_fold(
                    estimator, X[train], y[train], X[test], y[test], None)
            converged[k, f] = not any(issubclass(w.category, ConvergenceWarning)
                                      for w in caught)
    return scores, times, converged
