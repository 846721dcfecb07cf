"""A grid search's records: each cell's fold scores (GridCell), the whole outcome
(GridResult), a worker's task and what it scored (Task, Scored), and the cells gathered as
the tasks report (CellsDone)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from ...i18n import tr
from ..errors import Cancelled
from .folds import Split, read_only


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
        object.__setattr__(self, "scores", read_only(np.array(self.scores, dtype=float)))
        object.__setattr__(self, "fit_times", read_only(np.array(self.fit_times, dtype=float)))
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


@dataclass(frozen=True)
class Task:
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
class Scored:
    """A task's outcome: its column's cells' scores, fit times and convergence on its folds
    (one row per cell, one column per fold)."""

    column: int
    folds: tuple[int, ...]
    scores: np.ndarray
    times: np.ndarray
    converged: np.ndarray


class CellsDone:
    """The cells done so far: each column's folds gathered as their tasks report, and its
    cells made (and heard of) once every fold is in."""

    def __init__(self, tasks: list[Task], progress: Callable[[GridCell], None] | None
                 ) -> None:
        self.columns = {task.column: task for task in tasks}     # one per column suffices
        self.total = sum(len(task.cells) for task in self.columns.values())
        self.parts: dict[int, list[Scored]] = {}
        self.done: list[GridCell] = []
        self.progress = progress

    def add(self, part: Scored) -> None:
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
