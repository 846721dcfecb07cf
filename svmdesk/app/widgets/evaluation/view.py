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

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSlider,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ....drawing.evaluation import Evaluation, FitEvaluation
from ....i18n import tr
from ..evaluation_pictures import curves_figure, residuals_figure
from ..number_fields import RealField
from .classification_page import ClassificationPage
from .cross_validation_row import CrossValidationRow
from .fit_page import FitPage

UNBOUNDED = 16_777_215        # Qt's QWIDGETSIZE_MAX: no bound on a widget's size
SLIDER_MINIMUM_WIDTH = 120   # pixels
SLIDER_STEPS = 400           # slider positions across the threshold's range
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
        self.cv_row = CrossValidationRow()
        self.cv_row.cross_validate_requested.connect(self.cross_validate_requested)
        self.cv_row.cancel_requested.connect(self.cancel_requested)
        self.cv_row.window_requested.connect(self.window_requested)
        # the cross-validation's part of the view's interface (cross_validation.py)
        self.show_cv_running = self.cv_row.show_cv_running
        self.show_cv_results = self.cv_row.show_cv_results
        self.judge_cv_by = self.cv_row.judge_cv_by
        layout.addWidget(self.cv_row)

    def _build(self) -> None:
        """The matrices, the plots and their labels: made the first time the view shows (a
        window makes them in 40 ms, and most sessions never look)."""
        self._built = True
        layout = self._layout
        self.pages = QStackedWidget()
        self.classification = ClassificationPage()
        self.fit = FitPage()
        self.pages.addWidget(self.classification)
        self.pages.addWidget(self.fit)
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

    def set_roomy(self, roomy: bool) -> None:
        """In a window of its own (`roomy`) the curves go under the matrices and the
        AUC/AP lines take the height they need; in the tab, all stand in one row and the
        lines keep two lines' height."""
        self.roomy = roomy
        self.cv_row.set_roomy(roomy)
        if self._built:
            self._lay_out()

    def _lay_out(self) -> None:
        self.classification.lay_out(self.roomy)
        line = self.areas.fontMetrics().lineSpacing()
        if self.roomy:
            self.areas.setMinimumHeight(2 * line + 6)
            self.areas.setMaximumHeight(UNBOUNDED)
        else:
            # Two lines high whatever it says: a label that grew laid the tab out again
            # and redrew the curves' axes, 20 ms on the GUI thread as an evaluation came
            self.areas.setFixedHeight(2 * line + 6)

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
            self.areas.setText("")
            self.fit.draw(evaluation)
        else:
            self.areas.setText(self.classification.draw_curves(
                evaluation if isinstance(evaluation, Evaluation) else None, self._name))
            self._show_threshold()
        if evaluation is None:
            self.areas.setText('<span style="color:#555">{}</span>'.format(html.escape(tr(
                "The evaluation shows once a model is drawn (a run of three or more "
                "classes: at its end)."))))
        self.areas.setToolTip(self.areas.text())      # all of it, when two lines are short

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

    def _show_threshold(self) -> None:
        """The matrices and the operating points at the threshold."""
        e = self.evaluation if isinstance(self.evaluation, Evaluation) else None
        self.classification.show_threshold(e, self.threshold, self.chosen_class(), self.names,
                                           self._name, self.shares.isChecked())
