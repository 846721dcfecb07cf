"""The labelled points on the canvas: one owner, edited only through undoable commands."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, Signal

from ...core import MAX_CLASSES
from ...formats.label_matching import match_labels
from ..tasks import TASKS

NO_CLASS = -1      # `classes` of a point added in novelty detection: it never had one


class PointSet(QObject):
    """2-D points with, per point, what it is in the task and whether it is held out for
    testing. `task` "classification": y is a class index 0..7; "novelty": y is 0 for a
    point of the one class and MARK for an outlier mark, which no model ever trains on
    (the class names are kept for a return to classification); "regression": each point
    is a sample whose target is its second coordinate (y is kept, unused: app/tasks.py).

    Each point also keeps the class it has or had (`classes`): its y in classification
    and regression, and through novelty detection, where y says only point or mark, the
    class it had before (NO_CLASS for a point added there), so that a return to
    classification gives each point its class back.

    Every change emits `changed`; the arrays handed out are read-only copies.
    """

    changed = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self._X = np.empty((0, 2))
        self._y = np.empty(0, dtype=np.intp)
        self._test = np.empty(0, dtype=bool)
        self._classes = np.empty(0, dtype=np.intp)
        self.class_names = _padded([])
        self.task = "classification"

    @property
    def novelty(self) -> bool:
        return self.task == "novelty"

    @property
    def regression(self) -> bool:
        return self.task == "regression"

    def __len__(self) -> int:
        return len(self._y)

    @property
    def X(self) -> np.ndarray:
        return _readonly(self._X)

    @property
    def y(self) -> np.ndarray:
        return _readonly(self._y)

    @property
    def test_mask(self) -> np.ndarray:
        return _readonly(self._test)

    @property
    def classes(self) -> np.ndarray:
        """The class each point has or had (NO_CLASS: none yet)."""
        return _readonly(self._classes)

    def insert(self, index: int, xy, label: int, test: bool = False,
               klass: int | None = None) -> None:
        """A point at `index`; `klass`: the class it had (by default its label, or none
        for a point added in novelty detection)."""
        if klass is None:
            klass = NO_CLASS if self.novelty else label
        self._X = np.insert(self._X, index, xy, axis=0)
        self._y = np.insert(self._y, index, label)
        self._test = np.insert(self._test, index, test)
        self._classes = np.insert(self._classes, index, klass)
        self.changed.emit()

    def remove(self, index: int) -> tuple[np.ndarray, int, bool]:
        """Remove point `index`; returns (xy, label, test) so the removal can be undone
        (with the class it had: `classes[index]` before)."""
        item = (self._X[index].copy(), int(self._y[index]), bool(self._test[index]))
        self._X = np.delete(self._X, index, axis=0)
        self._y = np.delete(self._y, index)
        self._test = np.delete(self._test, index)
        self._classes = np.delete(self._classes, index)
        self.changed.emit()
        return item

    def move(self, index: int, xy) -> None:
        self._X = self._X.copy()
        self._X[index] = xy
        self.changed.emit()

    def replace(self, X, y, test=None, class_names=None, task=None, classes=None) -> None:
        """Every point at once; `task` (None: as it is) says what y holds; `classes` the
        class each point had (None: its y)."""
        if task is not None:
            assert task in TASKS, task
            self.task = task
        self._X = np.asarray(X, dtype=np.float64).reshape(-1, 2).copy()
        self._y = np.asarray(y, dtype=np.intp).copy()
        self._test = (np.zeros(len(self._y), dtype=bool) if test is None
                      else np.asarray(test, dtype=bool).copy())
        self._classes = (self._y.copy() if classes is None
                         else np.asarray(classes, dtype=np.intp).copy())
        if class_names is not None:
            self.class_names = _padded(class_names)
        self.changed.emit()

    def name_class(self, index: int, name: str) -> None:
        """Call class `index` `name` (a class a model brings); later classes keep names
        distinct from it."""
        self.class_names = _padded(self.class_names[:index] + [str(name)])

    def state(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list, str]:
        """(X, y, test, class names, task): what `replace` takes to bring it all back."""
        return (self._X.copy(), self._y.copy(), self._test.copy(), list(self.class_names),
                self.task)


def _padded(names) -> list:
    """`names`, then a name for each further class up to MAX_CLASSES: its index, or the
    next number no class is called yet. Names stay distinct, because a class's name is its
    label: classes named '1' and '2' get a third class '3', never a second '2'."""
    names = [str(c) for c in names]
    number = len(names)
    while len(names) < MAX_CLASSES:
        while match_labels([str(number)], names)[0] >= 0:
            number += 1
        names.append(str(number))
        number += 1
    return names


def _readonly(a: np.ndarray) -> np.ndarray:
    a = a.copy()
    a.flags.writeable = False
    return a
