"""The form a teacher fills to save the work as an exercise (File > Save as exercise...): its
title and instructions in English and Japanese, the controls it fixes at their values now
(check boxes), and its goals (a measure, at least or at most, a number). It checks what it is
given and says what is missing; the File menu writes the file."""
from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...core.goals import COMPARISONS, METRICS, SIGNS, Goal
from ...formats.exercise import Exercise
from ...i18n import LANGUAGES, language, tr
from .number_fields import RealField
from .tabs import whole_titles

GOAL_ROWS = 4                # goals the form offers (an exercise file may hold more)
LOCK_COLUMNS = 4
TEXT_LINES = 8               # the instructions' box shows this many lines at least


class ExerciseForm(QDialog):
    def __init__(self, lockable: dict, data: dict | None, start: Exercise | None = None,
                 parent: QWidget | None = None):
        """`lockable`: {setting name: words} of the controls it may fix (POINTS among them);
        `data`: where the points came from (a generator and its seed; None: fixed points);
        `start`: the exercise the work is on, to edit (None: a new one)."""
        super().__init__(parent)
        self.setWindowTitle(tr("Save as exercise"))
        self.data = data
        self.titles = {code: QLineEdit() for code in LANGUAGES}
        self.texts = {code: QPlainTextEdit() for code in LANGUAGES}
        pages = whole_titles(QTabWidget())
        for code, name in LANGUAGES.items():
            page = QWidget()
            form = QFormLayout(page)
            form.addRow(tr("Title"), self.titles[code])
            self.texts[code].setPlaceholderText(tr("What the students do, in plain text: "
                                                   "*a word* is emphasised, an empty line "
                                                   "starts a paragraph."))
            form.addRow(tr("Instructions"), self.texts[code])
            pages.addTab(page, name)
            # room for a paragraph or two (the form opened at its least height: 3 lines)
            self.texts[code].setMinimumHeight(TEXT_LINES * self.fontMetrics().lineSpacing())
        pages.setCurrentIndex(list(LANGUAGES).index(language()))   # the teacher's first
        self.locks = {name: QCheckBox(words) for name, words in lockable.items()}
        fixed = QGroupBox(tr("Fixed at their values now (the students cannot change them)"))
        grid = QGridLayout(fixed)
        for k, box in enumerate(self.locks.values()):
            grid.addWidget(box, k // LOCK_COLUMNS, k % LOCK_COLUMNS)
        goals = QGroupBox(tr("Goals the window checks (a tick when the model drawn meets "
                             "one)"))
        rows = QVBoxLayout(goals)
        self.goal_rows = [_GoalRow() for _ in range(GOAL_ROWS)]
        for row in self.goal_rows:
            rows.addWidget(row)
        self.said = QLabel()
        self.said.setWordWrap(True)
        self.said.setStyleSheet("color: #922B21")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.save_button = buttons.button(QDialogButtonBox.StandardButton.Save)
        column = QVBoxLayout(self)
        column.addWidget(pages, 1)
        column.addWidget(QLabel(tr("Points: made by {source}.").format(
            source=_source(data))))
        column.addWidget(fixed)
        column.addWidget(goals)
        column.addWidget(self.said)
        column.addWidget(buttons)
        if start is not None:
            self._show(start)
        self.resize(self.sizeHint())

    def _show(self, exercise: Exercise) -> None:
        for code, text in exercise.title.items():
            self.titles[code].setText(text)
        for code, text in exercise.instructions.items():
            self.texts[code].setPlainText(text)
        for name, box in self.locks.items():
            box.setChecked(name in exercise.locks)
        for row, goal in zip(self.goal_rows, exercise.goals):
            row.show_goal(goal)

    def exercise(self) -> Exercise:
        """The exercise the form describes; a ValueError says what is missing."""
        titles = {c: t.text().strip() for c, t in self.titles.items() if t.text().strip()}
        texts = {c: t.toPlainText().strip() for c, t in self.texts.items()
                 if t.toPlainText().strip()}
        if not titles:
            raise ValueError(tr("Give the exercise a title (in English, Japanese or both)."))
        for code in set(titles) ^ set(texts):
            raise ValueError(tr("Write the title and the instructions in the same "
                                "languages: {language} has only one of them.").format(
                language=LANGUAGES[code]))
        return Exercise(title=titles, instructions=texts,
                        locks=tuple(n for n, box in self.locks.items() if box.isChecked()),
                        goals=tuple(g for g in (row.goal() for row in self.goal_rows)
                                    if g is not None),
                        data=self.data)

    def accept(self) -> None:
        """Closes only on a whole exercise; else says what is missing."""
        try:
            self.exercise()
        except ValueError as e:
            self.said.setText(str(e))
            return
        super().accept()


class _GoalRow(QWidget):
    """A goal: a measure (or none), at least or at most, a number."""

    def __init__(self) -> None:
        super().__init__()
        self.measure = QComboBox()
        self.measure.addItem(tr("(no goal)"), "")
        for name, words in METRICS.items():
            self.measure.addItem(tr(words), name)
        self.comparison = QComboBox()
        for comparison in COMPARISONS:
            self.comparison.addItem(SIGNS[comparison], comparison)
        self.number = _GoalNumber(tr("The goal's number"))
        self.number.setRange(-1e9, 1e9)
        self.number.setDecimals(6)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.measure, 2)
        row.addWidget(self.comparison)
        row.addWidget(self.number, 1)

    def show_goal(self, goal: Goal) -> None:
        self.measure.setCurrentIndex(self.measure.findData(goal.metric))
        self.comparison.setCurrentIndex(self.comparison.findData(goal.comparison))
        self.number.setValue(goal.value)

    def goal(self) -> Goal | None:
        metric = self.measure.currentData()
        if not metric:
            return None
        return Goal(metric, self.comparison.currentData(), self.number.value())


class _GoalNumber(RealField):
    """A goal's number as the pane shows it: 0.9, 60 (not 0.900000, 60.000000)."""

    def textFromValue(self, value: float) -> str:  # noqa: N802 - Qt's name
        return format(value, "g")


def _source(data: dict | None) -> str:
    if data is None:
        return tr("hand or a file (saved as they are)")
    return tr("the {generator} generator, {n} points, noise {noise}, seed {seed}").format(
        **data)
