"""The evaluation view's cross-validation row: k folds, Cross-validate (while it runs: its
progress and Cancel), the newest two results beside them, judged against the panel's
settings and points, and the button that moves the view into a window of its own."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from ....i18n import tr
from ..number_fields import IntField

CV_LINES = 3                 # lines the cross-validation results have


class CrossValidationRow(QWidget):
    cross_validate_requested = Signal(int)       # "Cross-validate" clicked: its folds
    cancel_requested = Signal()                  # its Cancel clicked
    window_requested = Signal()                  # "Open in a window" / "Back to the tab"

    def __init__(self, parent=None):
        super().__init__(parent)
        self._cv_results: list = []       # the cross-validations shown, oldest first
        # (metric, settings in words, points) of the task, settings and points in the
        # panel: results of another metric are not shown, of other settings or points
        # marked as earlier (None: shown as they are; a metric None: the task has no
        # labels to score folds by)
        self._cv_judged: tuple | None = None
        # one row, the newest two results in its lines: the threshold's controls had left
        # the results too narrow at 1280x720
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.folds = IntField(tr("folds"))
        self.folds.setRange(2, 20)
        self.folds.setValue(5)
        self.folds.setSuffix(tr(" folds"))
        self.folds.setToolTip(tr("How many parts the training points are dealt into: each "
                                 "part is held out once while the others train."))
        self.cross_validate = QPushButton(tr("Cross-validate"))
        self.cross_validate.setToolTip(tr(
            "Train the current settings k times, each time holding out one part of the "
            "training points, and score each on the part it never saw: how well these "
            "settings do on new points, and how much that varies (the held-out test points "
            "are not used). The same points fall into the same folds every time, so two "
            "settings are compared on the same splits."))
        self.cross_validate.clicked.connect(
            lambda: self.cross_validate_requested.emit(self.folds.value()))
        self.cv_progress = QProgressBar()
        self.cv_progress.setMaximumWidth(100)
        self.cv_progress.setFormat(tr("fold %v of %m"))
        self.cv_cancel = QPushButton(tr("Cancel"))
        self.cv_cancel.clicked.connect(self.cancel_requested)
        self.cv_results = QLabel()
        self.cv_results.setStyleSheet("font-size: 11px")
        self.cv_results.setTextFormat(Qt.TextFormat.PlainText)
        # wrapped, never cut at the view's edge (a laptop's 1280x720, a longer language):
        # the newest result, and the one before it where the lines have room
        self.cv_results.setWordWrap(True)
        self.cv_results.setFixedHeight(CV_LINES * self.cv_results.fontMetrics().lineSpacing()
                                       + 4)
        for widget in (self.folds, self.cross_validate, self.cv_progress, self.cv_cancel):
            row.addWidget(widget, 0, Qt.AlignmentFlag.AlignTop)
        row.addWidget(self.cv_results, 1)
        # on this row: the threshold's row has no room to spare at 1280x720
        self.window_button = QPushButton(tr("Open in a window"))
        self.window_button.setToolTip(tr(
            "Show the evaluation in a window of its own, as large as the screen: every "
            "number of the matrices, the curves and each class's AUC and AP in sight. Close "
            "it to bring it back here."))
        self.window_button.clicked.connect(self.window_requested)
        row.addWidget(self.window_button, 0, Qt.AlignmentFlag.AlignTop)
        self.show_cv_running(None)
        self.show_cv_results(self._cv_results)

    def show_cv_running(self, done: tuple | None) -> None:
        """A cross-validation's progress, (folds done, folds), or None when none runs."""
        running = done is not None
        self.cv_progress.setVisible(running)
        self.cv_cancel.setVisible(running)
        self.cross_validate.setEnabled(not running)
        self.cross_validate.setVisible(not running)     # the progress and Cancel take its room
        if done is not None:
            self.cv_progress.setRange(0, done[1])
            self.cv_progress.setValue(done[0])

    def show_cv_results(self, records: list) -> None:
        """The newest cross-validation and the one before it (every kept one in the
        tooltip): a student compares two settings side by side."""
        self._cv_results = list(records)
        self._show_cv_lines()

    def judge_cv_by(self, metric: str | None, settings: str | None,
                    points: str | None) -> None:
        """The panel's task scores folds by `metric` (None: it cannot), its settings are
        `settings` (in words; None: they cannot be trained) and the training points
        `points` (a digest, CVRecord.points): results show beside the settings and points
        they scored, or marked as earlier settings' or points'."""
        self._cv_judged = (metric, settings, points)
        self._show_cv_lines()

    def _show_cv_lines(self) -> None:
        if self._cv_judged is not None and self._cv_judged[0] is None:
            self.cv_results.setText(tr("Novelty detection has no labels to score folds by: "
                                       "cross-validation needs a classifier or a "
                                       "regressor."))
            self.cv_results.setToolTip("")
            return
        records = [r for r in reversed(self._cv_results)
                   if self._cv_judged is None or r.metric == self._cv_judged[0]]
        lines = [self._judged_line(r) for r in records]
        shown = "\n".join(lines[:2])
        if len(lines) > 1 and not self._cv_fits(shown):
            shown = lines[0]
        self.cv_results.setText(shown if lines else tr(
            "No cross-validation yet: it scores the current settings on folds of the "
            "training points."))
        self.cv_results.setToolTip("\n".join(f"{line}\n    {cv_folds(r)}"
                                             for line, r in zip(lines, records)))

    def _cv_fits(self, text: str) -> bool:
        """`text` wrapped at the results' width fits their lines (before the first layout,
        the width unknown, it is taken to)."""
        label = self.cv_results
        if label.width() <= 1:
            return True
        flags = int(Qt.TextFlag.TextWordWrap)
        needed = label.fontMetrics().boundingRect(0, 0, label.width(), 10_000, flags, text)
        return needed.height() <= label.height() - 4

    def set_roomy(self, roomy: bool) -> None:
        """The window button says where the view goes: back to the tab when `roomy`."""
        self.window_button.setText(tr("Back to the tab") if roomy else
                                   tr("Open in a window"))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._show_cv_lines()          # the second result where the new width has room

    def _judged_line(self, record) -> str:
        if self._cv_judged is None:
            return cv_line(record)
        _, settings, points = self._cv_judged
        if record.settings != settings:
            return tr("Earlier settings: {result}").format(result=cv_line(record))
        if None not in (record.points, points) and record.points != points:
            return tr("Earlier points: {result}").format(result=cv_line(record))
        return cv_line(record)


def cv_line(record) -> str:
    """One cross-validation in a line: its mean and spread over its folds, and the
    settings it judged (each fold's score: cv_folds)."""
    metric = tr("accuracy") if record.metric == "accuracy" else record.metric
    return tr("{metric} {mean} ± {std} over {folds} folds · {settings}").format(
        folds=record.folds, metric=metric, mean=f"{record.mean:.3f}",
        std=f"{record.std:.3f}", settings=record.settings)


def cv_folds(record) -> str:
    """Each fold's score of a cross-validation."""
    return tr("each fold: {scores}").format(scores=" ".join(f"{v:.3f}" for v in record.scores))

