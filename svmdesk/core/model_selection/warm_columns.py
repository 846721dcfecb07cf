"""A grid column that shares its work: C-SVC's SMO on a kernel that the folds do not change
(no standardize, gamma a number). The kernel over every point is computed once and each
fold's training block sliced from it, and along C (smallest first) each fold's machines start
from the multipliers of the C before, scaled by the ratio of the Cs (alpha seeding: feasible,
as a_i <= C_old_i gives a_i C_new / C_old <= C_new_i, and y'a stays 0), or unchanged when none
was bounded. A fold's one-vs-one machines step in lockstep where SVC.fit would
(smo/lockstep.py), from their seeds too."""
from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import replace

import numpy as np

from ..estimators.base import NEVER, scaled_data_and_kernel
from ..estimators.labels import encode_labels
from ..estimators.one_vs_one import binary_machine, machine_pairs
from ..estimators.svc import SVC, machine_problem
from ..estimators.weights import point_weights
from ..kernels import Kernel, KernelRows
from ..model import SVMModel
from ..solvers.base import BinaryProblem, Snapshot, square_block
from ..solvers.smo import SharedRows, gains, solve, solve_together
from .grid_cells import Task

SHARED_KERNEL_POINTS = 4096     # up to this many points a column computes k once (128 MB)


def shares_work(column: Task) -> bool:
    """Whether the column is C-SVC's SMO on a kernel the folds leave unchanged."""
    if column.kind is not SVC:
        return False
    params = SVC.table.check(column.base)
    fold_free_gamma = params["kernel"] == "linear" or params["gamma"] != "scale"
    return (params["solver"] == "smo" and not params["standardize"]
            and not params["probability"] and fold_free_gamma
            and all(math.isfinite(C) for C in _Cs(column)))


def _Cs(column: Task) -> list[float]:
    """Each cell's C as training takes it (C = inf for the hard margin)."""
    return [SVC.table.check({**column.base, **values})["C"] for _index, values in column.cells]


def seeded_along_C(task: Task, X: np.ndarray, y: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The column's cells on shared kernel blocks, each fold's machines seeded along C."""
    params = SVC.table.check(task.base)
    _scaler, _Z, kernel = scaled_data_and_kernel(X, params)
    Cs = _Cs(task)
    shape = (len(task.cells), len(task.folds))
    scores, times, converged = np.empty(shape), np.empty(shape), np.ones(shape, dtype=bool)
    for f, (train, test, gram) in enumerate(_fold_grams(task, kernel, X)):
        classes, machines = _fold_problems(params, X[train], y[train], kernel, gram)
        together = gains(len(machines), max(job[1].n for job in machines))
        shared = SharedRows(kernel, X[train], gram) if together else None
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
              shared: SharedRows | None) -> list[Snapshot]:
    """The final states of a fold's machines at one C, each started from its seed: in
    lockstep over the fold's shared kernel rows where that gains (as SVC.fit decides), else
    one after another."""
    starts = [_seed(seed, problem.bounds) for seed, problem in zip(seeds, problems)]
    if shared is not None:
        return solve_together(problems, points, shared, starts)
    return [_last(solve(problem, NEVER, start=start))
            for problem, start in zip(problems, starts)]


def _fold_grams(task: Task, kernel: Kernel, X: np.ndarray) -> Iterator[tuple]:
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
