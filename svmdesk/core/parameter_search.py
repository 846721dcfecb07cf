"""Grid search: every combination of the parameter values a grid lists, each scored by
cross-validation on the same folds, and the best of them (LIBSVM's grid.py, scikit-learn's
GridSearchCV).

The cells are taken in scikit-learn's order (ParameterGrid: parameter names sorted, the last
varying fastest), and the best cell is the first of those with the highest mean score, as
GridSearchCV's best_index_ is.

Work is handed out by column: the cells that differ only in C. For C-SVC's SMO with a kernel
that the folds do not change (no standardize, gamma a number), a column shares what
cross-validating its cells one by one would repeat: the kernel over every point is computed
once and each fold's training block sliced from it, and along C (smallest first) each fold's
machines start from the multipliers of the C before, scaled by the ratio of the Cs (alpha
seeding: feasible, as a_i <= C_old_i gives a_i C_new / C_old <= C_new_i, and y'a stays 0),
or unchanged when none was bounded. A fold's one-vs-one machines step in lockstep where SVC.fit
would (smo/lockstep.py), from their seeds too. Any other estimator's cells are
cross-validated one by one (validation.cross_validate's folds and scores).
"""
from __future__ import annotations

import ctypes
import functools
import itertools
import math
import os
import sys
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..i18n import tr
from .cluster_executor import for_tasks, shared_points
from .errors import Cancelled, ConvergenceWarning
from .estimators.base import NEVER, scaled_data_and_kernel
from .estimators.labels import check_data, encode_labels
from .estimators.one_vs_one import binary_machine, machine_pairs
from .estimators.regression import check_targets
from .estimators.svc import SVC, machine_problem
from .estimators.weights import point_weights
from .kernels import Kernel, KernelRows
from .local_pool import local_pool, worker_count, worker_deaths_said
from .model import SVMModel
from .solvers.base import BinaryProblem, Snapshot, square_block
from .solvers.problems import c_svc
from .solvers.smo import lockstep, solve_problem
from .validation import (
    Split,
    _check_seed,
    _check_training_classes,
    _fresh_seed,
    _is_classifier,
    _one_fold,
    _read_only,
    fold_indices,
)

M_MMAP_THRESHOLD = -3            # glibc's mallopt parameter
HEAP_ARRAYS_UP_TO = 32 * 2**20   # bytes: see _arrays_on_the_heap
CANCEL_POLL = 0.1              # seconds between two looks at `cancelled` while tasks run
SHARED_KERNEL_POINTS = 4096     # up to this many points a column computes k once (128 MB)
NOT_GIVEN: Any = object()       # a deprecated parameter left out


@dataclass(frozen=True, eq=False)
class GridCell:
    """One combination of the grid's values: `params` names each grid parameter's value,
    `index` its place in the grid's order; `scores` and `fit_times` (seconds) hold one value
    per fold, `mean` and `std` (ddof=0, as GridSearchCV's) summarise the scores; `converged`
    is False when a fit of the cell stopped before its tolerance was met. Where a column
    shares work, a fit time is its solve alone, from its seed: the kernel computed once for
    the column is not in it."""

    index: int
    params: Mapping[str, Any]
    scores: np.ndarray
    fit_times: np.ndarray
    converged: bool
    mean: float = field(init=False)
    std: float = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))
        object.__setattr__(self, "scores", _read_only(np.array(self.scores, dtype=float)))
        object.__setattr__(self, "fit_times", _read_only(np.array(self.fit_times, dtype=float)))
        object.__setattr__(self, "mean", float(np.mean(self.scores)))
        object.__setattr__(self, "std", float(np.std(self.scores)))

    def __reduce__(self):       # a mapping proxy does not pickle: a pool sends cells back
        return (GridCell, (self.index, dict(self.params), self.scores, self.fit_times,
                           self.converged))


@dataclass(frozen=True, eq=False)
class GridResult:
    """A grid search's outcome: every cell in the grid's order, the seed the folds were
    dealt with (drawn afresh when none was given, so the run can be repeated), and each
    fold's (train, test) indices. `best` is the first cell of the highest mean score."""

    cells: tuple[GridCell, ...]
    seed: int
    indices: tuple[Split, ...]

    @property
    def folds(self) -> int:
        return len(self.indices)

    @property
    def best(self) -> GridCell:
        means = np.array([cell.mean for cell in self.cells])
        return self.cells[int(np.argmax(means))]      # the first of equal maxima


def grid_search(estimator: Any, X: ArrayLike, y: ArrayLike,
                param_grid: Mapping[str, Sequence | np.ndarray], folds: int = 5,
                seed: int | None = None, executor: Executor | None = None,
                n_jobs: int | None = -1, cancelled: Callable[[], bool] | None = None,
                progress: Callable[[GridCell], None] | None = None,
                jobs: Any = NOT_GIVEN) -> GridResult:
    """Cross-validate `estimator` with every combination of the values in `param_grid`
    (parameter name: the values to try; the estimator's other parameters stay as they are)
    on one set of folds (validation.fold_indices: stratified for a classifier), scored by
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
    stratified = _is_classifier(estimator)
    X, y = (check_data(X, y) if stratified
            else check_targets(X, y, type(estimator).__name__))
    seed = _fresh_seed() if seed is None else _check_seed(seed)
    splits = tuple(fold_indices(y, folds, seed, stratified))
    if stratified:
        _check_training_classes(y, splits)
    columns = _columns(estimator, grid)
    by_fold = executor is not None or workers > 1
    parts = [(f,) for f in range(len(splits))] if by_fold else [tuple(range(len(splits)))]
    tasks = [_Task(c, type(estimator), base, cells, splits, part)
             for c, (base, cells) in enumerate(columns) for part in parts]
    cells = _Cells(tasks, progress)
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


# -- a column's folds ---------------------------------------------------------------------------
@dataclass(frozen=True)
class _Task:
    """Some folds of one column to score: what a worker needs besides the points, which
    travel apart (a cluster holds them once for every task: `shared_points`).
    A run in this thread takes a column's folds in one task (the kernel over every point is
    computed once for them); an executor takes them one by one (its workers share the
    load more evenly), each computing the kernel over its fold's training points once."""

    column: int
    kind: type
    base: dict
    cells: list                     # [(cell index, the cell's grid values), ...] by C
    splits: tuple[Split, ...]
    folds: tuple[int, ...]          # which of splits this task scores


@dataclass(frozen=True)
class _Scored:
    """A task's outcome: its column's cells' scores, fit times and convergence on its folds
    (one row per cell, one column per fold)."""

    column: int
    folds: tuple[int, ...]
    scores: np.ndarray
    times: np.ndarray
    converged: np.ndarray


def run_task(task: _Task, X: np.ndarray, y: np.ndarray) -> _Scored:
    """Score a column's cells on some folds (module-level: a process pool's entry point; its
    module imports the core alone). A fit that stops short of its tolerance marks its cell
    not converged; its ConvergenceWarning is not repeated."""
    _arrays_on_the_heap()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        scores, times, converged = (_seeded_along_C if _shares_work(task) else _one_by_one)(
            task, X, y)
    return _Scored(task.column, task.folds, scores, times, converged)


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


def _one_by_one(column: _Task, X: np.ndarray, y: np.ndarray
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


def _shares_work(column: _Task) -> bool:
    """Whether the column is C-SVC's SMO on a kernel the folds leave unchanged."""
    if column.kind is not SVC:
        return False
    params = SVC.table.check(column.base)
    fold_free_gamma = params["kernel"] == "linear" or params["gamma"] != "scale"
    return (params["solver"] == "smo" and not params["standardize"]
            and not params["probability"] and fold_free_gamma
            and all(math.isfinite(C) for C in _Cs(column)))


def _Cs(column: _Task) -> list[float]:
    """Each cell's C as training takes it (C = inf for the hard margin)."""
    return [SVC.table.check({**column.base, **values})["C"] for _index, values in column.cells]


def _seeded_along_C(task: _Task, X: np.ndarray, y: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The column's cells on shared kernel blocks, each fold's machines seeded along C."""
    params = SVC.table.check(task.base)
    _scaler, _Z, kernel = scaled_data_and_kernel(X, params)
    Cs = _Cs(task)
    shape = (len(task.cells), len(task.folds))
    scores, times, converged = np.empty(shape), np.empty(shape), np.ones(shape, dtype=bool)
    for f, (train, test, gram) in enumerate(_fold_grams(task, kernel, X)):
        classes, machines = _fold_problems(params, X[train], y[train], kernel, gram)
        together = lockstep.gains(len(machines), max(job[1].n for job in machines))
        shared = lockstep.SharedRows(kernel, X[train], gram) if together else None
        seeds: list = [None] * len(machines)        # each machine's (a, bounds) at the C before
        for k, C in enumerate(Cs):
            started = time.perf_counter()
            problems = [replace(problem, C=C) for _points, problem, _pair in machines]
            finals = _solve_at(problems, [job[0] for job in machines], seeds, shared)
            seeds = [(problem.y * final.dual_coef, problem.bounds)   # a_i = y_i (y_i a_i)
                     for problem, final in zip(problems, finals)]
            fitted = tuple(binary_machine(final, problem, points, *pair)
                           for final, (points, problem, pair) in zip(finals, machines))
            times[k, f] = time.perf_counter() - started
            model = SVMModel(kernel, classes, fitted, None)
            scores[k, f] = float(np.mean(model.predict(X[test]) == y[test]))
            converged[k, f] = all(final.converged for final in finals)
    return scores, times, converged


def _solve_at(problems: list[BinaryProblem], points: list[np.ndarray], seeds: list,
              shared: lockstep.SharedRows | None) -> list[Snapshot]:
    """The final states of a fold's machines at one C, each started from its seed: in
    lockstep over the fold's shared kernel rows where that gains (as SVC.fit decides), else
    one after another."""
    starts = [_seed(seed, problem.bounds) for seed, problem in zip(seeds, problems)]
    if shared is not None:
        return lockstep.solve_together(problems, points, shared, starts)
    duals = [c_svc(problem) for problem in problems]
    return [_last(solve_problem(dual if start is None else replace(dual, start=start), NEVER))
            for dual, start in zip(duals, starts)]


def _fold_grams(task: _Task, kernel: Kernel, X: np.ndarray) -> Iterator[tuple]:
    """(train, test, k over the training points or None) of each of the task's folds: the
    kernel over every point computed once and sliced for each fold, or for a single fold
    its training points' own; None beyond SHARED_KERNEL_POINTS (the solver's row cache)."""
    splits = [task.splits[fold] for fold in task.folds]
    if len(X) > SHARED_KERNEL_POINTS:
        yield from ((train, test, None) for train, test in splits)
    elif len(splits) == 1:
        train, test = splits[0]
        yield train, test, KernelRows(kernel, X[train], np.float64).matrix()
    else:
        every = KernelRows(kernel, X, np.float64).matrix()
        yield from ((train, test, square_block(every, train)) for train, test in splits)


def _seed(before: tuple | None, upper: np.ndarray) -> np.ndarray | None:
    """Where a machine starts at the next C, from (its multipliers a, their bounds) at the C
    before: when no multiplier was bounded, a itself, the optimum at any larger C too (the
    box no longer binds); else a scaled by C_new / C_old (DeCoste and Wagstaff's alpha
    seeding: the bounded multipliers, most of which stay bounded, move to the new bound).
    None: start from 0."""
    if before is None:
        return None
    a, bounds = before
    if not (a >= bounds).any():
        return a
    return np.minimum(a * (upper[0] / bounds[0]), upper)    # C_i = C w_i: one ratio


def _fold_problems(params: dict, X: np.ndarray, y: np.ndarray, kernel: Kernel,
                   gram: np.ndarray | None) -> tuple[np.ndarray, list]:
    """A fold's classes (those its training part (X, y) holds) and its machines: (the
    training points each holds, its problem at the column's first C, its pair of
    classes); `gram`: k over the training points, or None."""
    classes, codes = encode_labels(y)
    _class_weight, weights = point_weights(params["class_weight"], None, classes, codes)
    weighted = not np.all(weights == 1.0)
    machines = []
    for pair in machine_pairs(len(classes)):
        points, problem = machine_problem(X, codes, weights if weighted else None,
                                          pair, kernel, params, gram)
        machines.append((points, problem, pair))
    return classes, machines


def _last(stream: Iterator[Snapshot]) -> Snapshot:
    """A solver's final state: it yields it last."""
    return deque(stream, maxlen=1)[0]


# -- running the tasks --------------------------------------------------------------------------
class _Cells:
    """The cells done so far: each column's folds gathered as their tasks report, and its
    cells made (and heard of) once every fold is in."""

    def __init__(self, tasks: list[_Task], progress: Callable[[GridCell], None] | None
                 ) -> None:
        self.columns = {task.column: task for task in tasks}     # one per column suffices
        self.total = sum(len(task.cells) for task in self.columns.values())
        self.parts: dict[int, list[_Scored]] = {}
        self.done: list[GridCell] = []
        self.progress = progress

    def add(self, part: _Scored) -> None:
        parts = self.parts.setdefault(part.column, [])
        parts.append(part)
        task = self.columns[part.column]
        if sum(len(p.folds) for p in parts) < len(task.splits):
            return
        order = np.argsort(np.concatenate([p.folds for p in parts]))
        scores, times, converged = (np.hstack([getattr(p, name) for p in parts])[:, order]
                                    for name in ("scores", "times", "converged"))
        for k, (index, values) in enumerate(task.cells):
            cell = GridCell(index, values, scores[k], times[k], bool(converged[k].all()))
            self.done.append(cell)
            if self.progress is not None:
                self.progress(cell)

    def stop_if(self, cancelled: Callable[[], bool] | None) -> None:
        if cancelled is not None and cancelled():
            raise Cancelled(tr("Grid search cancelled with {done} of {cells} cells done"
                               ).format(done=len(self.done), cells=self.total),
                            tuple(sorted(self.done, key=lambda cell: cell.index)))


def _serially(tasks: list[_Task], X: np.ndarray, y: np.ndarray, cells: _Cells,
              cancelled: Callable[[], bool] | None) -> None:
    for task in tasks:
        cells.stop_if(cancelled)
        cells.add(run_task(task, X, y))


def _on_executor(executor: Executor, tasks: list[_Task], points: tuple, cells: _Cells,
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
