"""Undoable edits of the point set (QUndoStack commands)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import numpy as np
from PySide6.QtGui import QUndoCommand

from ...core import MAX_CLASSES
from ...i18n import tr
from ..tasks import MARK
from .point_set import PointSet


class AddPoint(QUndoCommand):
    def __init__(self, points: PointSet, xy, label: int, test: bool = False):
        super().__init__(_added(points, label))
        self.points, self.xy, self.label, self.test = points, tuple(xy), label, test
        self.index = len(points)

    def redo(self):
        self.points.insert(self.index, self.xy, self.label, self.test)

    def undo(self):
        self.points.remove(self.index)


class RemovePoint(QUndoCommand):
    def __init__(self, points: PointSet, index: int):
        super().__init__(tr("Remove point"))
        self.points, self.index = points, index
        self.item: tuple[np.ndarray, int, bool] | None = None     # what redo removed
        self.klass = 0                                             # and the class it had

    def redo(self):
        self.klass = int(self.points.classes[self.index])
        self.item = self.points.remove(self.index)

    def undo(self):
        assert self.item is not None, "QUndoStack undoes only what it did"
        xy, label, test = self.item
        self.points.insert(self.index, xy, label, test, self.klass)


class MovePoint(QUndoCommand):
    """A drag: the point is already at `new` when the command is pushed."""

    def __init__(self, points: PointSet, index: int, old, new):
        super().__init__(tr("Move point"))
        self.points, self.index, self.old, self.new = points, index, tuple(old), tuple(new)

    def redo(self):
        self.points.move(self.index, self.new)

    def undo(self):
        self.points.move(self.index, self.old)


class ReplacePoints(QUndoCommand):
    """Generate, open or clear: the whole set at once."""

    def __init__(self, points: PointSet, X, y, test=None, class_names=None, text=None,
                 task=None):
        super().__init__(tr("Replace points") if text is None else text)
        self.points = points
        self.before, self.classes_before = points.state(), points.classes
        self.after = (X, y, test, class_names, task)
        # the classes the points have after (None: their y)
        self.classes_after: np.ndarray | None = None

    def redo(self):
        self.points.replace(*self.after, classes=self.classes_after)

    def undo(self):
        self.points.replace(*self.before, classes=self.classes_before)


class Shelf(Protocol):
    """Where a change of task puts the model shown and the panel's settings (the shell's
    ModelShelf: this room knows nothing of training, so what it holds is opaque here)."""

    def take(self) -> Any: ...

    def discard(self) -> None: ...

    def put_back(self, standing: Any, change: Callable[[], None], done: str) -> None: ...


class ChangeTask(ReplacePoints):
    """The points become the points of another task: for novelty detection every point is
    a point of the one class; for regression a sample at its place (x, y); back in
    classification, the outlier marks a class of their own (the class after the points'),
    and samples keep the class they had. Undo brings back what each point was.

    The model shown is of one task: the change discards it, and its undo and redo bring
    back the model and settings that stood before them, without training."""

    def __init__(self, points: PointSet, task: str, text: str, shelf: Shelf):
        X, y, test, names, was = points.state()
        classes = points.classes
        if task == "novelty":             # one class: each point keeps the class it had
            y = np.zeros_like(y)
        elif was == "novelty":
            y = _classes_back(y, classes)
        super().__init__(points, X, y, test, names, text, task)
        self.classes_after = classes if task == "novelty" else None
        self.shelf = shelf
        self.standing_before: Any = None     # taken as each redo starts
        self.standing_after: Any = None      # taken as each undo starts (None: not yet undone)

    def redo(self):
        before = self.shelf.take()
        if self.standing_after is None:      # the change itself: its model goes, and an
            self.shelf.discard()             # edit's retrain may follow as after any edit
            super().redo()
        else:
            self.shelf.put_back(self.standing_after, super().redo,
                                tr("Redone: {step}.").format(step=self.text()))
        self.standing_before = before

    def undo(self):
        self.standing_after = self.shelf.take()
        self.shelf.put_back(self.standing_before, super().undo,
                            tr("Undone: {step}.").format(step=self.text()))


def _classes_back(y: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """The classes of points leaving novelty detection: each the class it had; a point
    added there the first class; the outlier marks added there a class of their own, the
    class after the points'."""
    back = np.where(classes >= 0, classes, 0)
    marks = (y == MARK) & (classes < 0)
    if marks.any():
        points = back[~marks]
        back[marks] = min(int(points.max()) + 1 if len(points) else 0, MAX_CLASSES - 1)
    return back


def _added(points: PointSet, label: int) -> str:
    """The undo step's name of a point added."""
    if points.regression:
        return tr("Add sample")
    if points.novelty:
        return tr("Add outlier mark") if label == MARK else tr("Add point")
    return tr("Add point of class {name}").format(name=points.class_names[label])
