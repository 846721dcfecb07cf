"""What a person's clicks, drags and the Data box do to the points: add, move and remove
points, pick the class a click adds, generate a data set, clear, hold points out for
testing. Every edit is an undoable command on the document's points."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QCursor, QUndoStack

from ...core import make_dataset
from ...core.datasets import Samples
from ...core.kinds import KINDS
from ...core.regression_generators import make_samples
from ...i18n import N_, tr
from ..tasks import MARK
from .commands import AddPoint, ChangeTask, MovePoint, RemovePoint, ReplacePoints, Shelf
from .work import Work

if TYPE_CHECKING:
    from ..widgets.canvas import Canvas
    from ..widgets.notices import Notices
    from ..widgets.panel import SidePanel


# The undo step of a change of task, by the task the points become points of
TASK_STEPS = {"classification": N_("Change the task to classification"),
              "novelty": N_("Change the task to novelty detection"),
              "regression": N_("Change the task to regression")}


class Editing(QObject):
    def __init__(self, work: Work, undo: QUndoStack, canvas: Canvas, panel: SidePanel,
                 notices: Notices, discard_model: Callable[[], None], shelf: Shelf,
                 parent: QObject | None = None):
        """`discard_model()`: new points drop the model drawn (and stop its run); `shelf`:
        where a change of task puts the model shown, for its undo to bring back."""
        super().__init__(parent)
        self.work, self.points, self.undo = work, work.points, undo
        self.canvas, self.panel, self.notices = canvas, panel, notices
        self.discard_model, self.shelf = discard_model, shelf
        c, p = self.canvas, self.panel
        c.add_requested.connect(self.add_point)
        c.remove_requested.connect(self.remove_point)
        c.drag_moved.connect(self._drag_moved)
        c.drag_finished.connect(self._drag_finished)
        p.data_box.class_selected.connect(self._select_class)
        p.data_box.generate_requested.connect(self.generate)
        p.data_box.clear_requested.connect(self.clear_points)
        p.data_box.test_fraction_changed.connect(self._mark_test_points)
        p.kind_chosen.connect(self.choose_kind)

    @Slot(float, float, int)
    def add_point(self, x: float, y: float, label: int) -> None:
        if not self._points_locked(tr("A click")):
            self.undo.push(AddPoint(self.points, (x, y), label))

    def remove_point(self, index: int) -> None:
        if not self._points_locked(tr("Removing a point")):
            self.undo.push(RemovePoint(self.points, index))

    def _points_locked(self, action: str) -> bool:
        """Whether an exercise fixes the points (then said: `action` is not done)."""
        refusal = self.work.locks.points_refusal(action)
        if refusal:
            self.notices.say(refusal, 6000)
        return bool(refusal)

    def delete_under_mouse(self) -> None:
        pos = self.canvas.viewport().mapFromGlobal(QCursor.pos())
        index = self.canvas.point_near(self.canvas.mapToScene(pos))
        if index >= 0:
            self.remove_point(index)

    def choose_kind(self, kind: str) -> None:
        """The Task box chose `kind`: the points become points of its task (undoably),
        and the model drawn, of the other task, goes."""
        task = KINDS[kind].task
        if task == self.points.task:
            return
        refusal = self.work.locks.settings_refusal({"kind": kind}, tr("Choosing that task"))
        if refusal:
            self.panel.show_task(self.points.task)      # the Task box as it was
            self.notices.error(refusal)
            return
        marks = self.points.novelty and bool((self.points.y == MARK).any())
        self.undo.push(ChangeTask(self.points, task, tr(TASK_STEPS[task]), self.shelf))
        if task == "novelty":
            said = tr("Novelty detection: every point is a point of the one class. A left "
                      "click adds a point, a right click an outlier mark the model never "
                      "trains on (Ctrl+Z brings the classes back).")
        elif task == "regression":
            said = tr("Regression: every point is a sample (x, y), its height the target. "
                      "A click adds a sample (Ctrl+Z brings the classes back).")
        else:
            said = (tr("Classification: the outlier marks are a class of their own now.")
                    if marks else tr("Classification: clicks add points of the class chosen."))
        self.notices.say(said, 10000)

    def _select_class(self, k: int) -> None:
        if self.points.novelty:
            self.notices.say(tr("Novelty detection has one class: a left click adds a point, "
                                "a right click an outlier mark."), 4000)
            return
        if self.points.regression:
            self.notices.say(tr("Regression has no classes: a click adds a sample."), 4000)
            return
        self.canvas.current_class = k
        self.notices.say(tr("Clicks now add points of class {number}.").format(number=k + 1),
                         3000)

    def _drag_moved(self, index: int, x: float, y: float) -> None:
        if 0 <= index < len(self.points) and not self.work.locks.points:
            self.points.move(index, (x, y))

    def _drag_finished(self, index: int, old, new) -> None:
        if 0 <= index < len(self.points) and not self._points_locked(tr("Moving a point")):
            self.undo.push(MovePoint(self.points, index, old, new))

    def generate(self, name: str, n: int, noise: float, seed: int) -> None:
        """Points made by the generator `name` (regression: samples (x, y))."""
        if self._points_locked(tr("Generating points")):
            return
        make = make_samples if self.points.regression else make_dataset
        try:
            data = make(name, n=n, noise=noise, seed=seed)
        except ValueError as e:
            self.notices.error(str(e))
            return
        self.panel.data_box.choose_generator(name)
        text = tr("Generate {name}").format(name=name)
        if isinstance(data, Samples):
            self.replace_points(np.column_stack([data.x, data.y]), np.zeros(len(data.x), np.intp),
                                None, text)
            self.canvas.set_axis_names(data.names)
        else:
            self.replace_points(data.X, data.y, data.class_names, text)
            self.canvas.set_axis_names(data.feature_names)
        self.canvas.fit_view()

    def clear_points(self) -> None:
        if self._points_locked(tr("Clearing the points")):
            return
        self.replace_points(np.empty((0, 2)), np.empty(0, np.intp), None,
                            tr("Clear points"))

    def replace_points(self, X, y, class_names, text: str) -> None:
        """New points (generated, opened or none), undoably. They are no longer the saved
        session's, so Ctrl+S will ask where to save them, and the model drawn belonged to
        the points replaced: it goes (before a retrain on edit starts on the new ones)."""
        self.work.detach()
        self.discard_model()
        self.undo.push(ReplacePoints(self.points, X, y, self._test_mask(len(y)), class_names,
                                     text))

    def _mark_test_points(self, fraction: float) -> None:
        X, y, _, names, task = self.points.state()
        self.points.replace(X, y, self._test_mask(len(y)), names, task,
                            classes=self.points.classes)

    def _test_mask(self, n: int) -> np.ndarray:
        k = int(round(self.panel.data_box.test_fraction.value() * n))
        mask = np.zeros(n, dtype=bool)
        mask[np.random.default_rng(self.panel.data_box.seed.value()).permutation(n)[:k]] = True
        return mask
