"""Pictures of how a model does, to save as PNG or SVG (widgets/pictures.py): a classifier's
ROC and precision-recall curves side by side, with their areas in the legends and the
operating points at a threshold; a regressor's residuals against its predictions.

They draw what they are handed (an Evaluation of drawing/evaluation.py, or predictions and
targets) and keep no state; `svmdesk evaluate --plot` saves them.
"""
from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from ...core import metrics
from ...drawing.evaluation import Evaluation, operating_points
from ...i18n import tr
from .canvas import class_color, plain_numbers
from .pictures import layout_width

INK = "#202020"
POINT_BRUSH = "#111111"


def curves_figure(evaluation: Evaluation, names: list, threshold: float = 0.0,
                  chosen: int | None = None, width: int = 1200,
                  titles: tuple | None = None, on_probability: bool = False
                  ) -> pg.GraphicsLayoutWidget:
    """The ROC curve (left) and the precision-recall curve (right) of each split, 3/8 as
    high as wide, laid out for a picture `width` pixels wide (pictures.layout_width): two
    classes one curve per split of the positive class, more one per class against the
    rest in its colour; training solid, held out dashed; black dots at the
    operating points of `threshold` (more classes: of the `chosen` class only; the legend
    says P when `on_probability`). `titles` name the two splits in the legends (default
    "train" and "test")."""
    figure = pg.GraphicsLayoutWidget()
    figure.setBackground("w")
    laid_out = layout_width(width)
    figure.setFixedSize(laid_out, laid_out * 3 // 8)
    roc = _unit_plot(figure, tr("false positive rate"), tr("true positive rate"))
    pr = _unit_plot(figure, tr("recall"), tr("precision"))
    # the chance line: a ranking no better than a coin
    roc.plot([0, 1], [0, 1], pen=pg.mkPen("#999999", width=1, style=Qt.PenStyle.DotLine))
    roc_legend = roc.addLegend(offset=(-8, -8), labelTextColor=INK,
                               brush=pg.mkBrush(255, 255, 255, 210))
    # a PR curve starts top left and ends at the positives' share: bottom left stays clear
    pr_legend = pr.addLegend(offset=(8, -8), labelTextColor=INK,
                             brush=pg.mkBrush(255, 255, 255, 210))
    _draw_curves(roc, pr, evaluation, names, titles or (tr("train"), tr("test")))
    _draw_operating_points(roc, pr, evaluation, threshold, chosen, names, on_probability)
    for legend in (roc_legend, pr_legend):
        legend.setZValue(10)
    return figure


def unit_square(plot, x: str, y: str) -> None:
    """A plot (PlotItem or PlotWidget) of a curve on [0, 1] x [0, 1], its axes named: fixed,
    neither dragged nor zoomed, its numbers plain."""
    plot.setLabel("bottom", x)
    plot.setLabel("left", y)
    plot.setXRange(0, 1, padding=0.02)
    plot.setYRange(0, 1, padding=0.02)
    plot.setMouseEnabled(False, False)
    plot.setMenuEnabled(False)
    plain_numbers(plot)


def _unit_plot(figure: pg.GraphicsLayoutWidget, x: str, y: str) -> pg.PlotItem:
    """A plot on [0, 1] x [0, 1] beside the ones already in `figure`."""
    plot = figure.addPlot()
    unit_square(plot, x, y)
    plot.hideButtons()          # the auto-range "A": no use on paper
    return plot


def _draw_curves(roc: pg.PlotItem, pr: pg.PlotItem, e: Evaluation, names: list,
                 titles: tuple) -> None:
    positives = e.classes[1:] if len(e.classes) == 2 else e.classes
    for split, title, style in ((e.train, titles[0], Qt.PenStyle.SolidLine),
                                (e.test, titles[1], Qt.PenStyle.DashLine)):
        if split is None:
            continue
        for k, curves in zip(positives, split.curves):
            if curves.auc is None:
                continue
            pen = pg.mkPen(class_color(k), width=2, style=style)
            # legends are HTML: a class called "<b>" must read as itself
            split_name, class_name = html.escape(title), html.escape(_name(names, k))
            roc.plot(curves.fpr, curves.tpr, pen=pen, name=tr(
                "{split} {name}: AUC {auc}").format(split=split_name, name=class_name,
                                                    auc=f"{curves.auc:.3f}"))
            pr.plot(curves.recall, curves.precision, pen=pen, name=tr(
                "{split} {name}: AP {ap}").format(split=split_name, name=class_name,
                                                  ap=f"{curves.ap:.3f}"))


def _draw_operating_points(roc: pg.PlotItem, pr: pg.PlotItem, e: Evaluation,
                           threshold: float, chosen: int | None, names: list,
                           on_probability: bool) -> None:
    points = operating_points(e, threshold, chosen)
    if not points:
        return
    t = f"{threshold:g}"
    if chosen is None:
        label = (tr("threshold P = {t}") if on_probability else tr("threshold {t}")).format(t=t)
    else:                               # more classes: say which class it moves
        label = (tr("threshold P = {t} on {name}") if on_probability
                 else tr("threshold {t} on {name}")).format(
            t=t, name=html.escape(_name(names, chosen)))
    _, fpr, tpr, recall, precision = (np.array(v) for v in zip(*points))
    for plot, x, y in ((roc, fpr, tpr), (pr, recall, precision)):
        plot.plot(x, y, pen=None, symbol="o", symbolSize=9, symbolBrush=POINT_BRUSH,
                  symbolPen=pg.mkPen("w"), name=label)


def _name(names: list, k: int) -> str:
    return str(names[k]) if 0 <= k < len(names) else str(k)


def residuals_figure(fitted: np.ndarray, targets: np.ndarray,
                     fitted_test: np.ndarray | None = None,
                     targets_test: np.ndarray | None = None, width: int = 1200,
                     titles: tuple | None = None) -> pg.PlotWidget:
    """A regressor's residuals, target - f(x), against f(x), 3/4 as high as wide, laid out
    for a picture `width` pixels wide (pictures.layout_width): training
    points filled, held-out ones hollow, a line at 0; the legend gives each split's R² and
    MSE. `titles` name the two splits (default "train" and "test")."""
    plot = pg.PlotWidget(background="w")
    laid_out = layout_width(width)
    plot.setFixedSize(laid_out, laid_out * 3 // 4)
    plot.setLabel("bottom", tr("f(x)"))
    plot.setLabel("left", tr("target − f(x)"))
    plot.hideButtons()
    plain_numbers(plot)
    legend = plot.plotItem.addLegend(offset=(8, 8), labelTextColor=INK,
                                     brush=pg.mkBrush(255, 255, 255, 210))
    # a model without bias scatters its residuals evenly about this line
    plot.addItem(pg.InfiniteLine(pos=0.0, angle=0, pen=pg.mkPen("#777777", width=1)))
    colour = class_color(0)
    titles = titles or (tr("train"), tr("test"))
    for f, z, title, brush in ((fitted, targets, titles[0], pg.mkBrush(colour)),
                               (fitted_test, targets_test, titles[1], None)):
        if f is None or z is None or not len(f):
            continue
        f, z = np.asarray(f, dtype=np.float64), np.asarray(z, dtype=np.float64)
        name = tr("{split}: R² {r2}, MSE {mse}").format(
            split=html.escape(title), r2=f"{metrics.r2(z, f):.3f}", mse=f"{metrics.mse(z, f):.3g}")
        plot.addItem(pg.ScatterPlotItem(f, z - f, size=8, brush=brush,
                                        pen=pg.mkPen(colour if brush is None else INK,
                                                     width=1.5 if brush is None else 1),
                                        name=name))
    legend.setZValue(10)
    return plot
