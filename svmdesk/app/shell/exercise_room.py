"""The exercise the work is on, in the window: its pane (a dock beside the canvas), its locks
on the panel, and its goals checked live against the model drawn. The document holds the
exercise and its locks (document/work.py, document/locks.py); the paths that would change a
locked value ask the locks themselves (editing, opening, a tuned cell)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow

from ...core.goals import all_met
from ...drawing.goal_measures import goal_measures
from ...i18n import tr
from ..widgets.exercise_pane import ExercisePane

if TYPE_CHECKING:
    from ..document.work import Work
    from ..widgets.canvas import Canvas
    from ..widgets.notices import Notices
    from ..widgets.panel import SidePanel

PANE_WIDTH = 270             # the dock's width at first: the canvas keeps the rest


class ExerciseRoom(QObject):
    def __init__(self, window: QMainWindow, work: Work, panel: SidePanel, canvas: Canvas,
                 notices: Notices):
        super().__init__(window)
        self.work, self.panel, self.canvas, self.notices = work, panel, canvas, notices
        self.pane = ExercisePane()
        self.dock = QDockWidget(tr("Exercise"), window)
        self.dock.setObjectName("exercise")
        self.dock.setWidget(self.pane)
        self.dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                              | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.dock)
        window.resizeDocks([self.dock], [PANE_WIDTH], Qt.Orientation.Horizontal)
        self.dock.hide()
        self.met: tuple = ()                    # each goal met by the model drawn
        work.exercise_replaced.connect(self._show)
        self.pane.leave_requested.connect(self.leave)
        canvas.painted.connect(self.judge)

    def _show(self) -> None:
        exercise = self.work.exercise
        locks = self.work.locks
        self.panel.lock(set(locks.values), locks.points)
        if exercise is None:
            self.dock.hide()
            self.met = ()
            return
        self.pane.show_exercise(exercise)
        self.dock.show()
        self.met = ()
        self.judge()

    def judge(self) -> None:
        """The goals against the model drawn now (called as the canvas paints: every path
        that changes the model drawn repaints it)."""
        exercise = self.work.exercise
        if exercise is None:
            return
        met = all_met(exercise.goals, goal_measures(self.canvas.frame))
        if met != self.met:
            self.met = met
            self.pane.show_met(met)

    def leave(self) -> None:
        """The work leaves its exercise: every control free, the pane closed."""
        self.work.replace_exercise(None, {})
        self.notices.say(tr("The exercise is left: every control is free again."), 6000)
