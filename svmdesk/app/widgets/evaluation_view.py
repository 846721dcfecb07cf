"""The evaluation view, a tab beside the training charts: the confusion matrices of the
training and the held-out points, the ROC and precision-recall curves with their AUC and
average precision (training solid, held out dashed, in the classes' colours), and a
decision threshold on f(x) to drag. Moving the threshold moves the operating points on the
curves and the matrices at once, and the window moves the boundary drawn on the canvas; no
model is trained again.

It draws what the frame's evaluation (drawing/evaluation.py, made off the GUI thread) holds;
only what depends on the threshold (a comparison over the points) is computed here.
"""
from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSlider,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...drawing.evaluation import Evaluation, confusion_at, operating_point
from ...i18n import tr
from .canvas import class_color, plain_numbers

SLIDER_STEPS = 400           # slider positions across the threshold's range
THRESHOLD_RANGE = 3.0        # the slider spans -3..3 of f (the spin box takes any value)


class EvaluationView(QWidget):
    threshold_changed = Signal(float, object)    # threshold, chosen class index or None
    seen = Signal(bool)                          # it came into sight (True) or left it

    def __init__(self, parent=None):
        super().__init__(parent)
        self.evaluation: Evaluation | None = None
        self.names: list = []
        self._pending = False             # an evaluation kept while out of sight
        self._built = False               # the matrices and plots: made when first seen
        layout = self._layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(self._threshold_row())

    def _build(self) -> None:
        """The matrices, the plots and their labels: made the first time the view shows (a
        window makes them in 40 ms, and most sessions never look)."""
        self._built = True
        layout = self._layout
        body = QHBoxLayout()
        self.train_table, self.test_table = _matrix_table(), _matrix_table()
        tables = QGridLayout()
        self.train_title, self.test_title = QLabel(tr("train")), QLabel(tr("test"))
        tables.addWidget(self.train_title, 0, 0)
        tables.addWidget(self.train_table, 1, 0)
        tables.addWidget(self.test_title, 0, 1)
        tables.addWidget(self.test_table, 1, 1)
        body.addLayout(tables, 3)
        self.roc_plot = _curve_plot(tr("false positive rate"), tr("true positive rate"))
        self.pr_plot = _curve_plot(tr("recall"), tr("precision"))
        body.addWidget(self.roc_plot, 2)
        body.addWidget(self.pr_plot, 2)
        layout.addLayout(body, 1)
        self.areas = QLabel()                 # AUC and AP: the plots are too small for legends
        self.areas.setWordWrap(True)
        self.areas.setStyleSheet("font-size: 11px")
        self.areas.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.areas)
        self.note = QLabel()
        self.note.setStyleSheet("color: #555; font-size: 11px")
        self.note.setWordWrap(True)
        layout.addWidget(self.note)

    def _threshold_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(-SLIDER_STEPS // 2, SLIDER_STEPS // 2)
        self.spin = QDoubleSpinBox()
        self.spin.setRange(-1e6, 1e6)
        self.spin.setDecimals(3)
        self.spin.setSingleStep(0.05)
        self.chosen = QComboBox()
        self.chosen.setToolTip(tr("With three or more classes the threshold applies to one "
                                  "class against the rest: it is predicted where its "
                                  "one-vs-rest value exceeds the threshold."))
        self.reset = QPushButton(tr("Reset"))
        self.reset.setToolTip(tr("The threshold back to 0, where the model decides."))
        tip = tr("The decision threshold t on f(x): the positive class is predicted where "
                 "f(x) > t. Dragging it trades false positives for false negatives without "
                 "training again; the canvas draws the boundary f = t.")
        for widget in (self.slider, self.spin):
            widget.setToolTip(tip)
        row.addWidget(QLabel(tr("threshold")))
        row.addWidget(self.slider, 3)
        row.addWidget(self.spin, 1)
        row.addWidget(self.chosen, 1)
        self.shares = QCheckBox(tr("row %"))
        self.shares.setToolTip(tr("Show each cell as its share of the row (the true class): "
                                  "the diagonal is each class's recall."))
        self.shares.toggled.connect(lambda _: self._threshold_moved())
        row.addWidget(self.shares)
        row.addWidget(self.reset)
        self.slider.valueChanged.connect(self._from_slider)
        self.spin.valueChanged.connect(self._from_spin)
        self.chosen.currentIndexChanged.connect(lambda _: self._threshold_moved())
        self.reset.clicked.connect(lambda: self.spin.setValue(0.0))
        return row

    # -- state -------------------------------------------------------------------------------
    @property
    def threshold(self) -> float:
        return self.spin.value()

    def chosen_class(self) -> int | None:
        """The class the threshold applies to (three or more classes), else None."""
        if self.evaluation is None or len(self.evaluation.classes) <= 2:
            return None
        return self.chosen.currentData()

    def _from_slider(self, position: int) -> None:
        value = THRESHOLD_RANGE * position / (SLIDER_STEPS // 2)
        if abs(value - self.spin.value()) > 1e-9:
            self.spin.setValue(round(value, 3))

    def _from_spin(self, value: float) -> None:
        position = int(round(value / THRESHOLD_RANGE * (SLIDER_STEPS // 2)))
        self.slider.blockSignals(True)
        self.slider.setValue(position)
        self.slider.blockSignals(False)
        self._threshold_moved()

    def _threshold_moved(self) -> None:
        if self._built:
            self._show_threshold()
        self.threshold_changed.emit(self.threshold, self.chosen_class())

    # -- drawing -------------------------------------------------------------------------------
    def show_evaluation(self, evaluation: Evaluation | None, names: list) -> None:
        """Show a frame's evaluation (None: nothing to evaluate yet) with the class names.
        Out of sight (the Training tab in front) it is kept and drawn when the view shows:
        the curves of 20,000 points are no work for a view nobody looks at."""
        if evaluation is self.evaluation and list(names) == self.names and not self._pending:
            return
        self.evaluation, self.names = evaluation, list(names)
        self._pending = not (self.isVisible() and self._built)
        if not self._pending:
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
        if self._pending:
            self._pending = False
            self._draw()

    def _draw(self) -> None:
        evaluation = self.evaluation
        self._fill_classes()
        self._draw_curves()
        self._show_threshold()
        self.note.setText("" if evaluation is not None else tr(
            "The evaluation shows once a model is drawn (a run of three or more classes: "
            "at its end)."))

    def _fill_classes(self) -> None:
        e = self.evaluation
        many = e is not None and len(e.classes) > 2
        kept = self.chosen.currentData()
        self.chosen.blockSignals(True)
        self.chosen.clear()
        if many:
            assert e is not None
            for k in e.classes:
                self.chosen.addItem(self._name(k), k)
            self.chosen.setCurrentIndex(max(0, self.chosen.findData(kept)))
        self.chosen.blockSignals(False)
        self.chosen.setVisible(many)

    def _name(self, k: int) -> str:
        return self.names[k] if 0 <= k < len(self.names) else str(k)

    def _draw_curves(self) -> None:
        for plot in (self.roc_plot, self.pr_plot):
            plot.clear()
        self.areas.setText("")
        e = self.evaluation
        if e is None:
            return
        areas = []
        positives = e.classes[1:] if len(e.classes) == 2 else e.classes
        for split, style in ((e.train, Qt.PenStyle.SolidLine), (e.test, Qt.PenStyle.DashLine)):
            if split is None:
                continue
            which = tr("train") if split is e.train else tr("test")
            for k, curves in zip(positives, split.curves):
                if curves.auc is None:
                    continue
                pen = pg.mkPen(class_color(k), width=2, style=style)
                self.roc_plot.plot(curves.fpr, curves.tpr, pen=pen)
                self.pr_plot.plot(curves.recall, curves.precision, pen=pen)
                colour = class_color(k).name()
                areas.append(f'<span style="color:{colour}">■</span> {html.escape(which)} '
                             f"{html.escape(self._name(k))}: AUC {curves.auc:.3f}, "
                             f"AP {curves.ap:.3f}")
        self.areas.setText(" · ".join(areas) + "  " + tr("(train solid, test dashed)"))
        self.roc_points = self.roc_plot.plot([], [], pen=None, symbol="o", symbolSize=9,
                                             symbolBrush="#111111")
        self.pr_points = self.pr_plot.plot([], [], pen=None, symbol="o", symbolSize=9,
                                           symbolBrush="#111111")

    def _show_threshold(self) -> None:
        """The matrices and the operating points at the threshold."""
        e = self.evaluation
        t, chosen = self.threshold, self.chosen_class()
        train, test = (None, None) if e is None else (e.train, e.test)
        for split, table, title, name in (
                (train, self.train_table, self.train_title, tr("train")),
                (test, self.test_table, self.test_title, tr("test"))):
            if e is None or split is None:
                table.setRowCount(0)
                table.setColumnCount(0)
                title.setText(name)
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
        if e is None or not hasattr(self, "roc_points"):
            return
        roc, pr = [], []
        column = 1 if len(e.classes) == 2 else e.classes.index(chosen) if chosen is not None \
            else None
        for split in (e.train, e.test):
            if split is None or column is None:
                continue
            positive_class = e.classes[column]
            curves = split.curves[0] if len(e.classes) == 2 else split.curves[column]
            if curves.auc is None:
                continue
            scores = split.scores if split.scores.ndim == 1 else split.scores[:, column]
            fpr, tpr, recall, precision = operating_point(curves, scores,
                                                          split.truth == positive_class, t)
            roc.append((fpr, tpr))
            pr.append((recall, precision))
        for item, points in ((self.roc_points, roc), (self.pr_points, pr)):
            xy = np.array(points).reshape(-1, 2)
            item.setData(xy[:, 0], xy[:, 1])


def _matrix_table() -> QTableWidget:
    table = QTableWidget()
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    table.setToolTip(tr("Rows: the true class; columns: the predicted class. Each cell: "
                        "how many points, and their share of the row (the class's recall on "
                        "the diagonal)."))
    table.verticalHeader().setDefaultSectionSize(18)
    table.horizontalHeader().setDefaultSectionSize(58)
    table.setMinimumSize(80, 60)
    return table


def _fill_matrix(table: QTableWidget, matrix: np.ndarray, names: list, classes: list,
                 shares_shown: bool) -> None:
    """Counts (or, `shares_shown`, each cell's share of its row), the header in each
    class's colour; darker where more of the row falls; each cell's tooltip says both."""
    k = len(names)
    table.setRowCount(k)
    table.setColumnCount(k)
    table.setHorizontalHeaderLabels(names)
    table.setVerticalHeaderLabels(names)
    rows = matrix.sum(axis=1, keepdims=True)
    shares = np.divide(matrix, rows, out=np.zeros(matrix.shape), where=rows > 0)
    for i in range(k):
        for header in (table.horizontalHeaderItem(i), table.verticalHeaderItem(i)):
            if header is not None:
                header.setForeground(QBrush(class_color(classes[i])))
        for j in range(k):
            count, share = int(matrix[i, j]), f"{100 * shares[i, j]:.0f} %"
            item = QTableWidgetItem(share if shares_shown else str(count))
            item.setToolTip(tr("{count} points of class {true} predicted {predicted}: {share} "
                               "of the class").format(count=count, true=names[i],
                                                      predicted=names[j], share=share))
            item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            tint = class_color(classes[j], int(40 + 160 * shares[i, j]))
            item.setBackground(QBrush(tint if shares[i, j] > 0 else QColor("white")))
            table.setItem(i, j, item)


def _curve_plot(x: str, y: str) -> pg.PlotWidget:
    """A small square plot of a curve on [0, 1] x [0, 1] (its axes say which curve)."""
    plot = pg.PlotWidget(background="w")
    plot.setMinimumSize(90, 90)
    plot.setLabel("bottom", x)
    plot.setLabel("left", y)
    plot.setXRange(0, 1, padding=0.02)
    plot.setYRange(0, 1, padding=0.02)
    plot.setMouseEnabled(False, False)
    plot.setMenuEnabled(False)
    plain_numbers(plot)
    return plot
