"""Undoable edits of the point set (QUndoStack commands)."""
from __future__ import annotations

import numpy as np
from PySide6.QtGui import QUndoCommand

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

    def redo(self):
        self.item = self.points.remove(self.index)

    def undo(self):
        assert self.item is not None, "QUndoStack undoes only what it did"
        xy, label, test = self.item
        self.points.insert(self.index, xy, label, test)


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
        self.before = points.state()
        self.after = (X, y, test, class_names, task)

    def redo(self):
        self.points.replace(*self.after)

    def undo(self):
        self.points.replace(*self.before)


class ChangeTask(ReplacePoints):
    """The points become the points of another task: for novelty detection every point is
    a point of the one class; for regression a sample at its place (x, y); back in
    classification, the outlier marks a class of their own (the class after the points'),
    and samples keep the class they had. Undo brings back what each point was."""

    def __init__(self, points: PointSet, task: str, text: str):
        X, y, test, names, _ = points.state()
        y = np.zeros_like(y) if task == "novelty" else y
        super().__init__(points, X, y, test, names, text, task)


def _added(points: PointSet, label: int) -> str:
    """The undo step's name of a point added."""
    if points.regression:
        return tr("Add sample")
    if points.novelty:
        return tr("Add outlier mark") if label == MARK else tr("Add point")
    return tr("Add point of class {name}").format(name=points.class_names[label])
