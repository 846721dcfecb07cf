"""The exercise the work is on, in the window: its pane (beside the canvas), its locks
on the panel, and its goals checked live against the model drawn. The document holds the
exercise and its locks (document/work.py, document/locks.py); the paths that would change a
locked value ask the locks themselves (editing, opening, a tuned cell)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from ...core.goals import all_met
from ...drawing.goal_measures import goal_measures
from ...formats.exercise import POINTS
from ...i18n import tr
from ..document.locks import shown_value

if TYPE_CHECKING:
    from ..document.work import Work
    from ..widgets.canvas import Canvas
    from ..widgets.exercise_pane import ExercisePane
    from ..widgets.notices import Notices
    from ..widgets.panel import SidePanel

class ExerciseRoom(QObject):
    def __init__(self, pane: ExercisePane, work: Work, panel: SidePanel, canvas: Canvas,
                 notices: Notices, parent: QObject | None = None):
        """`pane`: the exercise's pane, beside the canvas (the window lays it out)."""
        super().__init__(parent)
        self.work, self.panel, self.canvas, self.notices = work, panel, canvas, notices
        self.pane = pane
        self.met: tuple = ()                    # each goal met by the model drawn
        work.exercise_replaced.connect(self._show)
        self.pane.leave_requested.connect(self.leave)
        canvas.painted.connect(self.judge)

    def _show(self) -> None:
        exercise = self.work.exercise
        locks = self.work.locks
        self.panel.lock(set(locks.values), locks.points)
        if exercise is None:
            self.pane.hide()
            self.met = ()
            return
        words = self.panel.lockable()
        fixed = [words[POINTS] if name == POINTS else
                 tr("{name}: {value}").format(name=words.get(name, name),
                                              value=shown_value(name, locks.values[name]))
                 for name in exercise.locks]
        self.pane.show_exercise(exercise, fixed)
        self.pane.show()
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
