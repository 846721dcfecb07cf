"""The evaluation view, a tab beside the training charts: the confusion matrices of the
training and the held-out points, the ROC and precision-recall curves with their AUC and
average precision (training solid, held out dashed, in the classes' colours), and a
decision threshold on f(x) to drag. Moving the threshold moves the operating points on the
curves and the matrices at once, and the window moves the boundary drawn on the canvas; no
model is trained again.

Each matrix carries its class report in its margins: a row of each predicted class's
precision (the diagonal over the column) under it, a column of each true class's recall (the
diagonal over the row) and its F1 beside it. A regression shows R², MSE and MAE of the
training and held-out samples and their residuals against f(x) instead.

It draws what the frame's evaluation (drawing/evaluation.py, made off the GUI thread) holds;
only what depends on the threshold (a comparison over the points) is computed here.
"""
from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSlider,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core import metrics
from ...drawing.evaluation import Evaluation, FitEvaluation, confusion_at, operating_points
from ...i18n import tr
from .canvas import class_color, plain_numbers
from .evaluation_pictures import curves_figure, residuals_figure, unit_square
from .number_fields import IntField, RealField

UNBOUNDED = 16_777_215        # Qt's QWIDGETSIZE_MAX: no bound on a widget's size
SLIDER_MINIMUM_WIDTH = 120   # pixels
CV_LINES = 3                 # lines the cross-validation results have
SLIDER_STEPS = 400           # slider positions across the threshold's range
CURVE_VERTICES = 400         # a curve drawn in the view has at most these points
CELL_PADDING = 8             # pixels beside a matrix cell's widest text
THRESHOLD_RANGE = 3.0        # the slider spans -3..3 of f (the spin box takes any value)


class EvaluationView(QWidget):
    threshold_changed = Signal(float, object, bool)  # threshold, chosen class index or None,
                                                     # whether it is on P (not f)
    seen = Signal(bool)                          # it came into sight (True) or left it
    save_requested = Signal()                    # "Save picture…" was clicked
    cross_validate_requested = Signal(int)       # "Cross-validate" clicked: its folds
    cancel_requested = Signal()                  # its Cancel clicked
    window_requested = Signal()                  # "Open in a window" / "Back to the tab"

    def __init__(self, parent=None):
        super().__init__(parent)
        self.evaluation: Evaluation | FitEvaluation | None = None
        self.names: list = []
        self._pending = False             # an evaluation kept while out of sight
        self._built = False               # the matrices and plots: made when first seen
        self._kind: tuple | None = None   # the last evaluation's type and classes
        self._cv_results: list = []       # the cross-validations shown, oldest first
        # (metric, settings in words) of the task and settings in the panel: results of
        # another metric are not shown, of other settings marked as earlier (None: shown
        # as they are; a metric None: the task has no labels to score folds by)
        self._cv_judged: tuple | None = None
        self._wanted_class: str | None = None   # a session's class, until its model shows
        self._f_evaluation: Evaluation | FitEvaluation | None = None  # by f (or a fit)
        self._probability: Evaluation | None = None   # by P, if the model has P
        self._draw_soon = QTimer(self)      # coalesces the frames of one event-loop turn
        self._draw_soon.setSingleShot(True)
        self._draw_soon.setInterval(0)
        self._draw_soon.timeout.connect(self._draw_pending)
        self.roomy = False                # in a window of its own: curves under the matrices
        layout = self._layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(self._threshold_row())
        layout.addLayout(self._cross_validation_row())

    def _build(self) -> None:
        """The matrices, the plots and their labels: made the first time the view shows (a
        window makes them in 40 ms, and most sessions never look)."""
        self._built = True
        layout = self._layout
        self.pages = QStackedWidget()
        self.pages.addWidget(self._classification_page())
        self.pages.addWidget(self._regression_page())
        layout.insertWidget(1, self.pages, 1)      # between the threshold and the folds
        # AUC and AP (the plots are too small for legends), or what to do before a model.
        # Two lines high whatever it says: a label that grew laid the tab out again and
        # redrew the curves' axes, 20 ms on the GUI thread as a run's evaluation came
        self.areas = QLabel()
        self.areas.setWordWrap(True)
        self.areas.setStyleSheet("font-size: 11px")
        self.areas.setTextFormat(Qt.TextFormat.RichText)
        self.areas.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        layout.insertWidget(2, self.areas)
        self._lay_out()

    def _cross_validation_row(self) -> QHBoxLayout:
        """k folds, Cross-validate (while it runs: its progress and Cancel) and beside them
        the newest two results, in two lines: one row, which the threshold's controls had
        left too narrow at 1280x720."""
        row = QHBoxLayout()
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
        return row

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

    def set_roomy(self, roomy: bool) -> None:
        """In a window of its own (`roomy`) the curves go under the matrices and the
        AUC/AP lines take the height they need; in the tab, all stand in one row and the
        lines keep two lines' height."""
        self.roomy = roomy
        self.window_button.setText(tr("Back to the tab") if roomy else
                                   tr("Open in a window"))
        if self._built:
            self._lay_out()

    def _lay_out(self) -> None:
        body, line = self._body, self.areas.fontMetrics().lineSpacing()
        for k, plot in enumerate((self.roc_plot, self.pr_plot)):
            body.removeWidget(plot)
            if self.roomy:
                body.addWidget(plot, 1, k)
            else:
                body.addWidget(plot, 0, 1 + k)
        body.removeItem(self._tables)
        body.addLayout(self._tables, 0, 0, 1, 2 if self.roomy else 1)
        for column in range(3):          # the curves share what the tables leave
            body.setColumnStretch(column, int(column < 2 if self.roomy else column > 0))
        body.setRowStretch(1, int(self.roomy))
        if self.roomy:
            self.areas.setMinimumHeight(2 * line + 6)
            self.areas.setMaximumHeight(UNBOUNDED)
        else:
            # Two lines high whatever it says: a label that grew laid the tab out again
            # and redrew the curves' axes, 20 ms on the GUI thread as an evaluation came
            self.areas.setFixedHeight(2 * line + 6)

    def _classification_page(self) -> QWidget:
        """The matrices (side by side) and the ROC and precision-recall curves (placed by
        _lay_out)."""
        page = QWidget()
        body = self._body = QGridLayout(page)
        body.setContentsMargins(0, 0, 0, 0)
        self.train_table, self.test_table = _matrix_table(), _matrix_table()
        tables = QGridLayout()
        self.train_title, self.test_title = QLabel(tr("train")), QLabel(tr("test"))
        tables.addWidget(self.train_title, 0, 0)
        tables.addWidget(self.train_table, 1, 0)
        tables.addWidget(self.test_title, 0, 1)
        tables.addWidget(self.test_table, 1, 1)
        tables.setRowStretch(2, 1)
        self._tables = tables
        body.addLayout(tables, 0, 0)
        self.roc_plot = _curve_plot(tr("false positive rate"), tr("true positive rate"))
        self.pr_plot = _curve_plot(tr("recall"), tr("precision"))
        self._roc_curves: list = []           # curve items, refilled by _draw_curves
        self._pr_curves: list = []
        self.roc_points, self.pr_points = (_operating_dots(plot)
                                           for plot in (self.roc_plot, self.pr_plot))
        return page

    def _regression_page(self) -> QWidget:
        """R², MSE and MAE of each split beside the residuals against f(x)."""
        page = QWidget()
        body = QHBoxLayout(page)
        body.setContentsMargins(0, 0, 0, 0)
        self.fit_text = QLabel()
        self.fit_text.setTextFormat(Qt.TextFormat.RichText)
        self.fit_text.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.fit_text.setToolTip(tr(
            "R²: the share of the targets' variance the curve explains (1 is perfect, 0 no "
            "better than their mean). MSE: the mean squared residual; MAE: the mean "
            "absolute residual, in the targets' units."))
        body.addWidget(self.fit_text)
        self.residual_plot = pg.PlotWidget(background="w")
        self.residual_plot.setMinimumSize(120, 90)
        self.residual_plot.setLabel("bottom", tr("f(x)"))
        self.residual_plot.setLabel("left", tr("target − f(x)"))
        self.residual_plot.setMenuEnabled(False)
        self.residual_plot.setToolTip(tr(
            "Each sample's residual against the curve's value there: a good fit scatters "
            "them evenly about 0; a bend or a funnel is what the curve missed."))
        plain_numbers(self.residual_plot)
        self.residual_plot.addItem(pg.InfiniteLine(pos=0.0, angle=0,
                                                   pen=pg.mkPen("#777777", width=1)))
        colour = class_color(0)
        self.train_residuals = pg.ScatterPlotItem(size=7, brush=pg.mkBrush(colour),
                                                  pen=pg.mkPen("#202020"))
        self.test_residuals = pg.ScatterPlotItem(size=7, brush=None,
                                                 pen=pg.mkPen(colour, width=1.5))
        self.residual_plot.addItem(self.train_residuals)
        self.residual_plot.addItem(self.test_residuals)
        body.addWidget(self.residual_plot, 1)
        return page

    def _threshold_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(-SLIDER_STEPS // 2, SLIDER_STEPS // 2)
        # the thing to drag: at 1280x720 with the P scale and a class to choose, the row's
        # other controls squeezed it to 25 px
        self.slider.setMinimumWidth(SLIDER_MINIMUM_WIDTH)
        self.spin = RealField(tr("threshold"))
        self.spin.setRange(-1e6, 1e6)
        self.spin.setDecimals(3)
        self.spin.setSingleStep(0.05)
        self.chosen = QComboBox()
        self.chosen.setToolTip(tr(
            "With three or more classes the threshold applies to one class against the "
            "rest: it is predicted where it wins each of its one-vs-one duels by more than "
            "the threshold (on P: where its probability against its strongest rival "
            "exceeds it)."))
        self.reset = QPushButton(tr("Reset"))
        self.reset.setToolTip(tr("The threshold back to where the model decides: 0 on f, "
                                 "0.5 on P (the most probable class)."))
        tip = tr("The decision threshold t on f(x): the positive class is predicted where "
                 "f(x) > t. Dragging it trades false positives for false negatives without "
                 "training again; the canvas draws the boundary f = t.")
        for widget in (self.slider, self.spin):
            widget.setToolTip(tip)
        self.threshold_label = QLabel(tr("threshold"))
        self.scale = QComboBox()              # what the threshold is on (with probabilities)
        self.scale.addItem(tr("on f(x)"), "f")
        self.scale.addItem(tr("on P(class | x)"), "P")
        self.scale.setToolTip(tr(
            "A model trained with probabilities can be judged by P(class | x), from Platt's "
            "sigmoids of f. Two classes: the positive class where its probability exceeds "
            "t. Three or more: the chosen class where its probability against its "
            "strongest rival, P(class) / (P(class) + P(rival)), exceeds t. At 0.5 each "
            "point goes to its most probable class."))
        self.scale.setVisible(False)
        self.scale.currentIndexChanged.connect(lambda _: self._scale_changed())
        row.addWidget(self.threshold_label)
        row.addWidget(self.scale)
        row.addWidget(self.slider, 3)
        row.addWidget(self.spin)
        row.addWidget(self.chosen)
        self.shares = QCheckBox(tr("row %"))
        self.shares.setToolTip(tr("Show each cell as its share of the row (the true class): "
                                  "the diagonal is each class's recall."))
        self.shares.toggled.connect(lambda _: self._threshold_moved())
        row.addWidget(self.shares)
        row.addWidget(self.reset)
        self.save = QPushButton(tr("Save picture…"))
        self.save.setToolTip(tr("Save the curves (a regression: its residuals) as a PNG or "
                                "SVG picture, at the threshold shown."))
        self.save.clicked.connect(self.save_requested)
        row.addStretch(1)                     # a regression hides the threshold's widgets
        row.addWidget(self.save)
        self._threshold_widgets = (self.threshold_label, self.slider, self.spin, self.chosen,
                                   self.shares, self.reset)
        self.slider.valueChanged.connect(self._from_slider)
        self.spin.valueChanged.connect(self._from_spin)
        self.chosen.currentIndexChanged.connect(lambda _: self._threshold_moved())
        self.reset.clicked.connect(lambda: self.spin.setValue(self.neutral))
        return row

    # -- state -------------------------------------------------------------------------------
    @property
    def threshold(self) -> float:
        return self.spin.value()

    @property
    def on_probability(self) -> bool:
        """The threshold is on P, not f (a model with probabilities)."""
        return self.scale.currentData() == "P" and self._probability is not None

    @property
    def neutral(self) -> float:
        """Where the model itself decides: f = 0, or P = 0.5 (the most probable class)."""
        return 0.5 if self.on_probability else 0.0

    def _scale_changed(self) -> None:
        """f or P: the evaluation shown and the threshold back to where the model decides."""
        self.evaluation = (self._probability if self.on_probability else
                           self._f_evaluation)
        self._pending = True
        self.spin.blockSignals(True)
        self.spin.setValue(self.neutral)
        self.spin.blockSignals(False)
        self._from_spin(self.neutral)
        self._draw_pending()

    def chosen_class(self) -> int | None:
        """The class the threshold applies to (three or more classes), else None."""
        if not isinstance(self.evaluation, Evaluation) or len(self.evaluation.classes) <= 2:
            return None
        return self.chosen.currentData()

    def state(self) -> dict:
        """What a session keeps of the view: the threshold, the class it applies to (by
        name; None with two classes) and whether the matrices show row shares."""
        chosen = self.chosen_class()
        return {"threshold": self.threshold, "row_shares": self.shares.isChecked(),
                "class": None if chosen is None else self._name(chosen),
                "scale": "P" if self.on_probability else "f"}

    def apply_state(self, state: dict) -> None:
        """A session's view, once its model is shown (a model of other classes first
        resets the threshold: this comes after)."""
        self.shares.setChecked(bool(state.get("row_shares", False)))
        self.scale.setCurrentIndex(max(0, self.scale.findData(state.get("scale", "f"))))
        name = state.get("class")
        if name is not None:
            self._wanted_class = name
            self._fill_classes()
        self.spin.setValue(float(state.get("threshold", 0.0)))
        self._threshold_moved()                 # the canvas too, even if the value was there

    def figure(self, width: int):
        """A picture of what the view shows, `width` pixels wide (pictures.save_picture
        writes it): the curves at the threshold, or a regression's residuals; None before
        there is anything to show."""
        e = self.evaluation
        if isinstance(e, FitEvaluation):
            return residuals_figure(e.fitted, e.targets, e.fitted_test, e.targets_test,
                                    width=width)
        if e is None:
            return None
        return curves_figure(e, self.names, self.threshold, self.chosen_class(), width=width,
                             on_probability=self.on_probability)

    def _from_slider(self, position: int) -> None:
        value = self.neutral + self._span() * position / (SLIDER_STEPS // 2)
        if abs(value - self.spin.value()) > 1e-9:
            self.spin.setValue(round(value, 3))

    def _span(self) -> float:
        """How far from the neutral value the slider's ends lie: f -3..3, P 0..1."""
        return 0.5 if self.on_probability else THRESHOLD_RANGE

    def _from_spin(self, value: float) -> None:
        position = int(round((value - self.neutral) / self._span() * (SLIDER_STEPS // 2)))
        self.slider.blockSignals(True)
        self.slider.setValue(position)
        self.slider.blockSignals(False)
        self._threshold_moved()

    def _threshold_moved(self) -> None:
        if self._built and isinstance(self.evaluation, Evaluation):
            self._show_threshold()
        self.threshold_changed.emit(self.threshold, self.chosen_class(), self.on_probability)

    # -- drawing -------------------------------------------------------------------------------
    def show_evaluation(self, evaluation: Evaluation | FitEvaluation | None,
                        names: list, probability: Evaluation | None = None) -> None:
        """Show a frame's evaluation (None: nothing to evaluate yet) with the class names,
        and its evaluation by probability when the model has them
        (evaluation.probability_split_of). Out of sight (the Training tab in front) it is
        kept and drawn when the view shows: the curves of 20,000 points are no work for a
        view nobody looks at."""
        if (evaluation is self._f_evaluation and probability is self._probability
                and list(names) == self.names and not self._pending):
            return
        self._forget_threshold_of_another_model(evaluation)
        self._take_probability(probability)
        self._f_evaluation = evaluation
        self.evaluation = probability if self.on_probability else evaluation
        self.names = list(names)
        self._fill_classes()        # in sight or not: the threshold's class is asked of it
        self._pending = True
        if self.isVisible() and self._built:
            # drawn on the event loop's next turn, not in the one that draws the canvas:
            # the two together held the GUI thread 25 ms at 20,000 points
            self._draw_soon.start()

    def _take_probability(self, probability: Evaluation | None) -> None:
        """The P scale offered while the model has probabilities; leaving it (a model
        without them) brings the threshold back to f's 0."""
        was = self.on_probability
        self._probability = probability
        self.scale.setVisible(probability is not None)
        if was and probability is None:
            self.scale.blockSignals(True)
            self.scale.setCurrentIndex(0)
            self.scale.blockSignals(False)
            self.spin.setValue(0.0)

    def _forget_threshold_of_another_model(self, evaluation) -> None:
        """The threshold back to 0 when a model of another kind or other classes comes (a
        new task, a new data set): a threshold chosen for moons says nothing of the next
        one-class machine, whose row may not even show it."""
        if evaluation is None:
            return
        kind = (type(evaluation).__name__,
                evaluation.classes if isinstance(evaluation, Evaluation) else ())
        if self._kind is not None and kind != self._kind and self.threshold != self.neutral:
            self.spin.setValue(self.neutral)
        self._kind = kind

    def _draw_pending(self) -> None:
        if self._pending and self.isVisible():
            self._pending = False
            self._draw()

    def hideEvent(self, event) -> None:
        super().hideEvent(event)
        self.seen.emit(False)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._built:
            self._build()
            self._pending = True
        self.seen.emit(True)
        self._draw_pending()

    def _draw(self) -> None:
        evaluation = self.evaluation
        fit = isinstance(evaluation, FitEvaluation)
        self.pages.setCurrentIndex(1 if fit else 0)
        for widget in self._threshold_widgets:      # a regression has no threshold
            widget.setVisible(not fit)
        self.save.setEnabled(evaluation is not None)
        self._fill_classes()
        if isinstance(evaluation, FitEvaluation):
            self._draw_fit(evaluation)
        else:
            self._draw_curves()
            self._show_threshold()
        if evaluation is None:
            self.areas.setText('<span style="color:#555">{}</span>'.format(html.escape(tr(
                "The evaluation shows once a model is drawn (a run of three or more "
                "classes: at its end)."))))
        self.areas.setToolTip(self.areas.text())      # all of it, when two lines are short

    def _draw_fit(self, e: FitEvaluation) -> None:
        """A regression: each split's R², MSE and MAE, and its residuals."""
        self.areas.setText("")
        lines = []
        for name, f, z in ((tr("train"), e.fitted, e.targets),
                           (tr("test"), e.fitted_test, e.targets_test)):
            if not len(z):
                continue
            lines.append(tr("<b>{split}</b> ({n} samples)<br>R² {r2}<br>MSE {mse}<br>"
                            "MAE {mae}").format(
                split=html.escape(name), n=len(z), r2=f"{metrics.r2(z, f):.4f}",
                mse=f"{metrics.mse(z, f):.4g}", mae=f"{metrics.mae(z, f):.4g}"))
        self.fit_text.setText("<br><br>".join(lines))
        self.train_residuals.setData(e.fitted, e.targets - e.fitted)
        self.test_residuals.setData(e.fitted_test, e.targets_test - e.fitted_test)

    def _fill_classes(self) -> None:
        e = self.evaluation
        many = isinstance(e, Evaluation) and len(e.classes) > 2
        kept = self.chosen.currentData()
        self.chosen.blockSignals(True)
        self.chosen.clear()
        if many:
            assert isinstance(e, Evaluation)
            for k in e.classes:
                self.chosen.addItem(self._name(k), k)
            wanted = self.chosen.findText(self._wanted_class or "")   # a session's choice
            self.chosen.setCurrentIndex(wanted if wanted >= 0 else
                                        max(0, self.chosen.findData(kept)))
            self._wanted_class = None
        self.chosen.blockSignals(False)
        self.chosen.setVisible(many)

    def _name(self, k: int) -> str:
        return self.names[k] if 0 <= k < len(self.names) else str(k)

    def _draw_curves(self) -> None:
        """Each class's curves (one pen per class and split) and the AUC/AP line. The curve
        items are kept and refilled frame after frame: making new ones cost 2 ms each."""
        self.areas.setText("")
        e = self.evaluation
        drawn = []
        areas = []
        if isinstance(e, Evaluation):
            positives = e.classes[1:] if len(e.classes) == 2 else e.classes
            for split, style in ((e.train, Qt.PenStyle.SolidLine),
                                 (e.test, Qt.PenStyle.DashLine)):
                if split is None:
                    continue
                which = tr("train") if split is e.train else tr("test")
                for k, curves in zip(positives, split.curves):
                    if curves.auc is None:
                        continue
                    drawn.append((curves, pg.mkPen(class_color(k), width=2, style=style)))
                    colour = class_color(k).name()
                    areas.append(f'<span style="color:{colour}">■</span> '
                                 f"{html.escape(which)} {html.escape(self._name(k))}: "
                                 f"AUC {curves.auc:.3f}, AP {curves.ap:.3f}")
            self.areas.setText(" · ".join(areas) + "  " + tr("(train solid, test dashed)"))
        for plot, pool, xy in ((self.roc_plot, self._roc_curves, ("fpr", "tpr")),
                               (self.pr_plot, self._pr_curves, ("recall", "precision"))):
            while len(pool) < len(drawn):
                pool.append(pg.PlotCurveItem())
                plot.addItem(pool[-1])
            for item, (curves, pen) in zip(pool, drawn):
                item.setData(*_thinned(getattr(curves, xy[0]), getattr(curves, xy[1])),
                             pen=pen)
                item.setVisible(True)
            for item in pool[len(drawn):]:
                item.setVisible(False)

    def _show_threshold(self) -> None:
        """The matrices and the operating points at the threshold."""
        e = self.evaluation if isinstance(self.evaluation, Evaluation) else None
        t, chosen = self.threshold, self.chosen_class()
        train, test = (None, None) if e is None else (e.train, e.test)
        for split, table, title, name in (
                (train, self.train_table, self.train_title, tr("train")),
                (test, self.test_table, self.test_title, tr("test"))):
            table.setVisible(e is None or split is not None)
            if e is None and self.names:      # before a model: empty, of the points' classes
                title.setText(name)           # (the tab keeps its layout when it comes)
                _fill_matrix(table, None, self.names, list(range(len(self.names))),
                             False)
                continue
            if e is None or split is None:
                table.setRowCount(0)
                table.setColumnCount(0)
                title.setText(name if e is None else tr("{name}: no points").format(
                    name=name))
                continue
            matrix = confusion_at(e, split, t, chosen)
            right = int(np.trace(matrix))
            title.setText(tr("{name}: {right} of {n} right").format(
                name=name, right=right, n=int(matrix.sum())))
            _fill_matrix(table, matrix, [self._name(k) for k in e.classes], list(e.classes),
                         self.shares.isChecked())
        self._show_operating_points(t, chosen)

    def _show_operating_points(self, t: float, chosen: int | None) -> None:
        e = self.evaluation
        if not isinstance(e, Evaluation):
            self.roc_points.setData([], [])
            self.pr_points.setData([], [])
            return
        points = np.array([p[1:] for p in operating_points(e, t, chosen)]).reshape(-1, 4)
        self.roc_points.setData(points[:, 0], points[:, 1])
        self.pr_points.setData(points[:, 2], points[:, 3])


def _matrix_table() -> QTableWidget:
    table = QTableWidget()
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    table.setToolTip(tr("Rows: the true class; columns: the predicted class. Each cell: "
                        "how many points, and their share of the row (the class's recall on "
                        "the diagonal). Under the matrix each predicted class's precision, "
                        "beside it each class's recall and F1."))
    table.setStyleSheet("font-size: 11px")
    table.verticalHeader().setDefaultSectionSize(17)
    table.horizontalHeader().setMinimumSectionSize(24)
    # as wide and tall as its cells, the plots beside it taking the rest (the tables are
    # the numbers a student reads); scrolled only when a tab is too small for a matrix of
    # many classes
    table.setSizeAdjustPolicy(QAbstractScrollArea.SizeAdjustPolicy.AdjustToContents)
    table.setSizePolicy(QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Maximum)
    table.setMinimumSize(80, 60)
    return table


def _fill_matrix(table: QTableWidget, matrix: np.ndarray | None, names: list,
                 classes: list, shares_shown: bool) -> None:
    """Counts (or, `shares_shown`, each cell's share of its row), the header in each
    class's colour; darker where more of the row falls; each cell's tooltip says both.
    The class report in the margins: precision under each column, recall and F1 beside
    each row. Without a matrix: the same table with its cells empty."""
    k = len(names)
    if matrix is None:
        _fill_blank(table, names)
        return
    table.setUpdatesEnabled(False)          # one repaint for the whole table
    table.setRowCount(k + 1)
    table.setColumnCount(k + 2)
    table.setHorizontalHeaderLabels([*names, tr("recall"), tr("F1")])
    table.setVerticalHeaderLabels([*names, tr("precision")])
    shares = metrics.normalised_rows(matrix)
    for i in range(k):
        for header in (table.horizontalHeaderItem(i), table.verticalHeaderItem(i)):
            if header is not None:
                header.setForeground(QBrush(class_color(classes[i])))
        for j in range(k):
            count, share = int(matrix[i, j]), f"{100 * shares[i, j]:.0f} %"
            item = _cell(share if shares_shown else str(count),
                         tr("{count} points of class {true} predicted {predicted}: {share} "
                            "of the class").format(count=count, true=names[i],
                                                   predicted=names[j], share=share))
            tint = class_color(classes[j], int(40 + 160 * shares[i, j]))
            item.setBackground(QBrush(tint if shares[i, j] > 0 else QColor("white")))
            table.setItem(i, j, item)
    _plain_report_headers(table, k)
    _fill_report(table, matrix, names)
    _size_columns(table, names, str(int(matrix.sum())))
    table.setUpdatesEnabled(True)


def _size_columns(table: QTableWidget, names: list, widest_count: str) -> None:
    """Each class's column as wide as its name or the widest number it can hold (the
    largest count, or a share), the recall and F1 columns as their headers or "0.00": the
    same widths frame after frame. Sized to the cells instead, the table grew and shrank
    with the counts, and each change laid the tab out again and redrew the curves' axes
    (20 ms at the end of a run)."""
    fits = table.fontMetrics().horizontalAdvance
    number = max(fits(widest_count), fits("100 %"), fits("0.00"))
    widths = [max(fits(name), number) for name in names]
    widths += [max(fits(tr("recall")), number), max(fits(tr("F1")), fits("0.00"))]
    header = table.horizontalHeader()
    for j, width in enumerate(widths[:table.columnCount()]):
        if header.sectionSize(j) != width + CELL_PADDING:
            header.resizeSection(j, width + CELL_PADDING)


def _fill_blank(table: QTableWidget, names: list) -> None:
    k = len(names)
    table.setUpdatesEnabled(False)
    table.setRowCount(k + 1)
    table.setColumnCount(k + 2)
    table.setHorizontalHeaderLabels([*names, tr("recall"), tr("F1")])
    table.setVerticalHeaderLabels([*names, tr("precision")])
    for i in range(k + 1):
        for j in range(k + 2):
            table.setItem(i, j, _cell("", ""))
    for i in range(k):
        for header in (table.horizontalHeaderItem(i), table.verticalHeaderItem(i)):
            if header is not None:
                header.setForeground(QBrush(class_color(i)))
    _plain_report_headers(table, k)
    _size_columns(table, names, "0")
    table.setUpdatesEnabled(True)


def _plain_report_headers(table: QTableWidget, k: int) -> None:
    """The report's headers in the text's colour (a header item keeps the colour it had
    when a larger matrix made it a class's)."""
    ink = QBrush(table.palette().text().color())
    for header in (table.horizontalHeaderItem(k), table.horizontalHeaderItem(k + 1),
                   table.verticalHeaderItem(k)):
        if header is not None:
            header.setForeground(ink)


def _fill_report(table: QTableWidget, matrix: np.ndarray, names: list) -> None:
    """Each class's recall and F1 in the last two columns, its precision in the last row;
    a dash where it is undefined (recall of a class without points, precision of one never
    predicted; scikit-learn reports 0 there)."""
    k = len(names)
    report = metrics.matrix_report(matrix)
    hits, points, called = np.diag(matrix), matrix.sum(axis=1), matrix.sum(axis=0)
    for i in range(k):
        table.setItem(i, k, _cell(_shown(report.recall[i], points[i]), tr(
            "Recall of {name}: {hits} of its {points} points are predicted {name} (the "
            "diagonal over the row).").format(name=names[i], hits=int(hits[i]),
                                               points=int(points[i]))))
        table.setItem(i, k + 1, _cell(_shown(report.f1[i], points[i] + called[i]), tr(
            "F1 of {name}: the harmonic mean of its precision and recall, 2PR / (P + R)."
            ).format(name=names[i])))
        table.setItem(k, i, _cell(_shown(report.precision[i], called[i]), tr(
            "Precision of {name}: the share of the points predicted {name} that are "
            "{name} (the diagonal over the column).").format(name=names[i])))
    for j in (k, k + 1):
        table.setItem(k, j, _cell("", ""))


def _shown(value: float, of: int) -> str:
    return f"{value:.2f}" if of else "–"


def _cell(text: str, tip: str) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setToolTip(tip)
    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
    return item


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


def _thinned(x: np.ndarray, y: np.ndarray, most: int = CURVE_VERTICES) -> tuple:
    """A curve of many points (a ROC curve has one per distinct score) as `most` of them,
    its ends kept: a plot 200 px wide shows no more, and drawing 20,000 antialiased
    vertices took 7 ms a repaint, on every move of the threshold."""
    if len(x) <= most:
        return x, y
    keep = np.unique(np.linspace(0, len(x) - 1, most).astype(np.intp))
    return x[keep], y[keep]


def _operating_dots(plot: pg.PlotWidget) -> pg.ScatterPlotItem:
    dots = pg.ScatterPlotItem(size=9, brush=pg.mkBrush("#111111"), pen=None)
    dots.setZValue(10)                        # above every curve
    plot.addItem(dots)
    return dots


def _curve_plot(x: str, y: str) -> pg.PlotWidget:
    """A small square plot of a curve on [0, 1] x [0, 1] (its axes say which curve)."""
    plot = pg.PlotWidget(background="w")
    plot.setMinimumSize(110, 90)
    unit_square(plot, x, y)
    # three ticks: a plot 150 px wide ran "0.2 0.4 0.6 0.8" together
    for name in ("bottom", "left"):
        plot.getAxis(name).setTicks([[(v, f"{v:g}") for v in (0.0, 0.5, 1.0)], []])
    return plot
