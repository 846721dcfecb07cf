"""The evaluation view's page for a classifier: the confusion matrices of the training and the
held-out points side by side, and the ROC and precision-recall curves with the operating
points at the threshold (training solid, held out dashed, in the classes' colours)."""
from __future__ import annotations

import html
from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QLabel, QWidget

from ....drawing.evaluation import Evaluation, confusion_at, operating_points
from ....i18n import tr
from ..canvas import class_color
from ..evaluation_pictures import unit_square
from .confusion_tables import fill_matrix, matrix_table

CURVE_VERTICES = 400         # a curve drawn in the view has at most these points


class ClassificationPage(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        body = self._body = QGridLayout(self)
        body.setContentsMargins(0, 0, 0, 0)
        self.train_table, self.test_table = matrix_table(), matrix_table()
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
        self._roc_curves: list = []           # curve items, refilled by draw_curves
        self._pr_curves: list = []
        self.roc_points, self.pr_points = (_operating_dots(plot)
                                           for plot in (self.roc_plot, self.pr_plot))

    def lay_out(self, roomy: bool) -> None:
        """`roomy` (a window of its own): the curves under the matrices; else all in a row."""
        body = self._body
        for k, plot in enumerate((self.roc_plot, self.pr_plot)):
            body.removeWidget(plot)
            if roomy:
                body.addWidget(plot, 1, k)
            else:
                body.addWidget(plot, 0, 1 + k)
        body.removeItem(self._tables)
        body.addLayout(self._tables, 0, 0, 1, 2 if roomy else 1)
        for column in range(3):          # the curves share what the tables leave
            body.setColumnStretch(column, int(column < 2 if roomy else column > 0))
        body.setRowStretch(1, int(roomy))

    def draw_curves(self, e: Evaluation | None, name: Callable[[int], str]) -> str:
        """Each class's curves (one pen per class and split); returns the AUC/AP line (rich
        text; empty without an evaluation). The curve items are kept and refilled frame
        after frame: making new ones cost 2 ms each."""
        drawn = []
        areas = []
        text = ""
        if e is not None:
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
                                 f"{html.escape(which)} {html.escape(name(k))}: "
                                 f"AUC {curves.auc:.3f}, AP {curves.ap:.3f}")
            text = " · ".join(areas) + "  " + tr("(train solid, test dashed)")
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
        return text

    def show_threshold(self, e: Evaluation | None, t: float, chosen: int | None,
                       names: list, name: Callable[[int], str], shares: bool) -> None:
        """The matrices (`shares`: as row shares) and the operating points at the threshold
        `t` of the class `chosen` (None: two classes); before a model (`e` None), empty
        matrices of the points' classes `names`."""
        train, test = (None, None) if e is None else (e.train, e.test)
        for split, table, title, split_name in (
                (train, self.train_table, self.train_title, tr("train")),
                (test, self.test_table, self.test_title, tr("test"))):
            table.setVisible(e is None or split is not None)
            if e is None and names:           # before a model: empty, of the points' classes
                title.setText(split_name)     # (the tab keeps its layout when it comes)
                fill_matrix(table, None, names, list(range(len(names))), False)
                continue
            if e is None or split is None:
                table.setRowCount(0)
                table.setColumnCount(0)
                title.setText(split_name if e is None else tr("{name}: no points").format(
                    name=split_name))
                continue
            matrix = confusion_at(e, split, t, chosen)
            right = int(np.trace(matrix))
            title.setText(tr("{name}: {right} of {n} right").format(
                name=split_name, right=right, n=int(matrix.sum())))
            fill_matrix(table, matrix, [name(k) for k in e.classes], list(e.classes), shares)
        self._show_operating_points(e, t, chosen)

    def _show_operating_points(self, e: Evaluation | None, t: float,
                               chosen: int | None) -> None:
        if e is None:
            self.roc_points.setData([], [])
            self.pr_points.setData([], [])
            return
        points = np.array([p[1:] for p in operating_points(e, t, chosen)]).reshape(-1, 4)
        self.roc_points.setData(points[:, 0], points[:, 1])
        self.pr_points.setData(points[:, 2], points[:, 3])


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
