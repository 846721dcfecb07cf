"""The exercise's pane: its title and instructions, what it fixes, and its goals, each ticked
while the model drawn meets it. It draws what it is handed; the window decides."""
from __future__ import annotations

import html
import re

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QPushButton, QTextBrowser, QVBoxLayout, QWidget

from ...formats.exercise import Exercise
from ...i18n import both, tr

MET, OPEN = "✓", "○"
MET_COLOUR, OPEN_COLOUR = "#1E8449", "#555"
MINIMUM_WIDTH = 180          # px: the goals' lines stay whole


def instructions_html(text: str) -> str:
    """Plain text with simple emphasis as HTML: *word* emphasised, **word** bold, an empty
    line a new paragraph; everything else shown as written (no markup of the file's own)."""
    paragraphs = re.split(r"\n\s*\n", html.escape(text.strip()))
    shown = []
    for paragraph in paragraphs:
        paragraph = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", paragraph)
        paragraph = re.sub(r"\*(.+?)\*", r"<i>\1</i>", paragraph)
        shown.append("<p>" + paragraph.replace("\n", "<br>") + "</p>")
    return "".join(shown)


class ExercisePane(QWidget):
    leave_requested = Signal()          # "Leave the exercise" was clicked

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setMinimumWidth(MINIMUM_WIDTH)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setStyleSheet("font-weight: bold")
        self.instructions = QTextBrowser()
        self.instructions.setOpenLinks(False)
        self.fixed = QLabel()
        self.fixed.setWordWrap(True)
        self.fixed.setStyleSheet("color: #555")
        self.goals_title = QLabel(tr("Goals"))
        self.goals_title.setStyleSheet("font-weight: bold")
        self.goal_labels: list[QLabel] = []
        self._words: list[str] = []           # each goal in words
        self._goals_box = QVBoxLayout()
        self.done = QLabel(tr("Every goal is met."))
        self.done.setStyleSheet(f"color: {MET_COLOUR}; font-weight: bold")
        self.done.hide()
        self.leave = QPushButton(tr("Leave the exercise"))
        self.leave.setToolTip(tr("Unlock every control and close this pane; the points and "
                                 "the model stay."))
        self.leave.clicked.connect(self.leave_requested)
        column = QVBoxLayout(self)
        column.addWidget(self.title)
        column.addWidget(self.instructions, 1)
        column.addWidget(self.fixed)
        column.addWidget(self.goals_title)
        column.addLayout(self._goals_box)
        column.addWidget(self.done)
        column.addWidget(self.leave)

    def show_exercise(self, exercise: Exercise, fixed: list) -> None:
        """`fixed`: what the exercise fixes, each in words ('Kernel: rbf')."""
        self.title.setText(exercise.shown_title())
        self.instructions.setHtml(instructions_html(exercise.shown_instructions()))
        names = fixed
        self.fixed.setText(tr("Fixed by the exercise: {names}.").format(names=both(names))
                           if names else "")
        self.fixed.setVisible(bool(names))
        for label in self.goal_labels:
            label.deleteLater()
        self.goal_labels = [QLabel(goal.words()) for goal in exercise.goals]
        for label in self.goal_labels:
            self._goals_box.addWidget(label)
        self.goals_title.setVisible(bool(exercise.goals))
        self._words = [goal.words() for goal in exercise.goals]
        self.show_met((False,) * len(exercise.goals))

    def show_met(self, met: tuple) -> None:
        """Each goal ticked when met (in the goals' order)."""
        for label, words, done in zip(self.goal_labels, self._words, met):
            label.setText(f"{MET if done else OPEN} {words}")
            label.setStyleSheet(f"color: {MET_COLOUR if done else OPEN_COLOUR}")
            label.setToolTip(tr("Met by the model drawn.") if done else
                             tr("Not met yet by the model drawn."))
        self.done.setVisible(bool(met) and all(met))
