"""Grid search: every combination of the parameter values a grid lists, each scored by
cross-validation on the same folds, and the best of them (LIBSVM's grid.py, scikit-learn's
GridSearchCV).

The cells are taken in scikit-learn's order (ParameterGrid: parameter names sorted, the last
varying fastest), and the best cell is the first of those with the highest mean score, as
GridSearchCV's best_index_ is.

Work is handed out by column: the cells that differ only in C, as tasks of some of its folds
(grid_tasks.py). A column of C-SVC's SMO with a kernel that the folds do not change shares
what cross-validating its cells one by one would repeat (warm_columns.py: the kernel computed
once, each fold's machines seeded along C); any other estimator's cells are cross-validated
one by one (cross_validation.cross_validate's folds and scores). The cells and the outcome are
grid_cells.py's records.
"""
from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ...i18n import tr
from ..cluster_executor import for_tasks, shared_points
from ..estimators.labels import check_data
from ..estimators.regression import check_targets
from ..local_pool import local_pool, worker_count, worker_deaths_said
from .cross_validation import is_classifier
from .folds import check_seed, check_training_classes, fold_indices, fresh_seed
from .grid_cells import CellsDone, GridCell, GridResult, Task
from .grid_tasks import run_task

CANCEL_POLL = 0.1              # seconds between two looks at `cancelled` while tasks run
NOT_GIVEN: Any = object()       # a deprecated parameter left out


def grid_search(estimator: Any, X: ArrayLike, y: ArrayLike,
                param_grid: Mapping[str, Sequence | np.ndarray], folds: int = 5,
                seed: int | None = None, executor: Executor | None = None,
                n_jobs: int | None = -1, cancelled: Callable[[], bool] | None = None,
                progress: Callable[[GridCell], None] | None = None,
                jobs: Any = NOT_GIVEN) -> GridResult:
    """Cross-validate `estimator` with every combination of the values in `param_grid`
    (parameter name: the values to try; the estimator's other parameters stay as they are)
    on one set of folds (folds.fold_indices: stratified for a classifier), scored by
    the estimator's own score: accuracy for a classifier, R^2 for a regressor.

    `executor`, any concurrent.futures.Executor (a Dask client's), runs the grid's columns
    fold by fold; without one, `n_jobs` says how, as scikit-learn's n_jobs: -1 (the
    default) on a pool of one process per core, 1 or None one after another in this
    thread, n on n processes, -2 on every core but one (local_pool: loky's reusable pool,
    which needs no main guard in a script). `jobs`, its former name, is deprecated (None
    meant every core). `progress(cell)` hears of each cell as soon as its column's folds
    are done, in the order they finish; `cancelled()` is asked before each task is handed
    over and, while tasks run, every CANCEL_POLL seconds (serially: between tasks): on True
    the pending ones are withdrawn (a cluster's futures cancelled) and Cancelled is raised
    with the cells done so far; tasks already running finish unheard.

    Every cell's parameters, the data and the folds are checked before the first fit."""
    workers = worker_count(_n_jobs(n_jobs, jobs))
    grid = _checked_grid(estimator, param_grid)
    stratified = is_classifier(estimator)
    X, y = (check_data(X, y) if stratified
            else check_targets(X, y, type(estimator).__name__))
    seed = fresh_seed() if seed is None else check_seed(seed)
    splits = tuple(fold_indices(y, folds, seed, stratified))
    if stratified:
        check_training_classes(y, splits)
    columns = _columns(estimator, grid)
    by_fold = executor is not None or workers > 1
    parts = [(f,) for f in range(len(splits))] if by_fold else [tuple(range(len(splits)))]
    tasks = [Task(c, type(estimator), base, cells, splits, part)
             for c, (base, cells) in enumerate(columns) for part in parts]
    cells = CellsDone(tasks, progress)
    if executor is None and workers == 1:
        _serially(tasks, X, y, cells, cancelled)
    elif executor is None:
        with worker_deaths_said():
            _on_executor(local_pool(workers), tasks, (X, y), cells, cancelled)
    else:
        executor = for_tasks(executor)
        _on_executor(executor, tasks, shared_points(executor, X, y), cells, cancelled)
    return GridResult(tuple(sorted(cells.done, key=lambda cell: cell.index)), seed, splits)


# -- the grid -----------------------------------------------------------------------------------
def _checked_grid(estimator: Any, param_grid: Mapping) -> list[dict]:
    """Every cell's values, in scikit-learn's order, each combination checked by the
    estimator's own rules (its parameter table) before anything is fitted."""
    if not isinstance(param_grid, Mapping) or not param_grid:
        raise ValueError(tr("param_grid must map parameter names to the values to try, such "
                            "as {{'C': [1, 10], 'gamma': [0.1, 1]}}; got {grid}"
                            ).format(grid=repr(param_grid)))
    names = sorted(param_grid)
    known = estimator.get_params(deep=False)
    for name in names:
        if name not in known:
            raise ValueError(tr("{estimator} has no parameter {name}: its parameters are "
                                "{known}").format(estimator=type(estimator).__name__,
                                                  name=repr(name), known=tr(", ").join(known)))
        values = param_grid[name]
        if isinstance(values, (str, bytes)) or not isinstance(values, Iterable) or not len(
                list(values)):
            raise ValueError(tr("param_grid[{name}] must be a non-empty list of values; "
                                "got {values}").format(name=repr(name), values=repr(values)))
    cells = [dict(zip(names, values))
             for values in itertools.product(*(list(param_grid[name]) for name in names))]
    table = getattr(estimator, "table", None)
    if table is not None:
        for cell in cells:
            table.check({**known, **cell})
    return cells


def _columns(estimator: Any, grid: list[dict]) -> list[tuple[dict, list]]:
    """The cells grouped by every value but C, in order of first appearance: (the group's
    full parameters but C, [(cell index, the cell's values), ...] by increasing C)."""
    known = estimator.get_params(deep=False)
    groups: dict[tuple, tuple[dict, list]] = {}
    for index, cell in enumerate(grid):
        rest = {name: value for name, value in cell.items() if name != "C"}
        key = tuple(sorted((name, repr(value)) for name, value in rest.items()))
        groups.setdefault(key, ({**known, **rest}, []))[1].append((index, cell))
    for _base, cells in groups.values():
        cells.sort(key=lambda item: _c_order(item[1].get("C", known.get("C"))))
    return list(groups.values())


def _c_order(C: Any) -> float:
    return math.inf if C is None else float(C)


def _n_jobs(n_jobs: int | None, jobs: Any) -> int | None:
    """n_jobs, or what the deprecated `jobs` said (its rules: 1 or more, None every core)."""
    if jobs is NOT_GIVEN:
        return n_jobs
    if n_jobs != -1:
        raise TypeError(tr("give n_jobs alone: jobs is its former name"))
    warnings.warn(tr("jobs is deprecated and will be removed in the next release: use n_jobs "
                     "(-1 for every core, as scikit-learn's)"), FutureWarning, stacklevel=3)
    if jobs is None:
        return -1
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(tr("jobs must be a whole number of 1 or more, or None for every "
                            "core; got {jobs}").format(jobs=repr(jobs)))
    return jobs


# -- running the tasks --------------------------------------------------------------------------
def _serially(tasks: list[Task], X: np.ndarray, y: np.ndarray, cells: CellsDone,
              cancelled: Callable[[], bool] | None) -> None:
    for task in tasks:
        cells.stop_if(cancelled)
        cells.add(run_task(task, X, y))


def _on_executor(executor: Executor, tasks: list[Task], points: tuple, cells: CellsDone,
                 cancelled: Callable[[], bool] | None) -> None:
    futures: list[Future] = []
    try:
        for task in tasks:
            cells.stop_if(cancelled)
            futures.append(executor.submit(run_task, task, *points))
        pending = set(futures)
        while pending:
            # asked at least every CANCEL_POLL seconds: a task may take minutes on a cluster
            done, pending = wait(pending, CANCEL_POLL, return_when=FIRST_COMPLETED)
            cells.stop_if(cancelled)
            for future in done:
                cells.add(future.result())
    except BaseException:
        for future in futures:      # a task failed or the run was cancelled: none is left
            future.cancel()
        raise
