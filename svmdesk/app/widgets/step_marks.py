"""What the canvas draws of one SMO pair step while the run stands paused: the two points
of the pair ringed and labelled i and j, and the boundary and margins as they were before
the step, faint under the new ones."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

PAIR_COLOUR = "#FF7F0E"      # the pair's rings and labels: no class colour is orange
BEFORE_COLOUR = (60, 60, 60, 90)   # the lines before the step: the new ones' ink, faint
PAIR_RING = 26               # pixels: wider than a support vector's ring, which it circles


class StepMarks:
    """The pair's rings and labels and the lines before the step, as items of `plot`."""

    def __init__(self, plot: pg.PlotWidget):
        self.rings = pg.ScatterPlotItem(size=PAIR_RING, brush=None,
                                        pen=pg.mkPen(PAIR_COLOUR, width=3))
        self.labels = [pg.TextItem(name, color=PAIR_COLOUR, anchor=(-0.3, 1.1))
                       for name in ("i", "j")]
        for label in self.labels:
            font = label.textItem.font()
            font.setBold(True)
            font.setPointSize(12)
            label.setFont(font)
        self.before_boundary = pg.PlotCurveItem(pen=pg.mkPen(BEFORE_COLOUR, width=2.5))
        self.before_margins = pg.PlotCurveItem(
            pen=pg.mkPen(BEFORE_COLOUR, width=1, style=Qt.PenStyle.DashLine), antialias=False)
        for item in (self.before_boundary, self.before_margins):
            item.setZValue(28)                    # under the new lines (30)
        for item in (self.rings, *self.labels):
            item.setZValue(35)                    # over everything the frame draws
        for item in (self.rings, *self.labels, self.before_boundary, self.before_margins):
            item.mouseClickEvent = lambda ev: ev.ignore()   # clicks are the view's
            plot.addItem(item)
        self.clear()

    def show(self, pair_xy: np.ndarray, boundary: np.ndarray, margins: np.ndarray) -> None:
        """Ring and label the pair at `pair_xy` ((2, 2): i's place, j's), over the lines
        before the step (polylines, NaN rows between their pieces; empty: none)."""
        self.rings.setData(pair_xy[:, 0], pair_xy[:, 1])
        for label, (x, y) in zip(self.labels, pair_xy):
            label.setPos(float(x), float(y))
            label.setVisible(True)
        self.before_boundary.setData(boundary[:, 0], boundary[:, 1], connect="finite")
        self.before_margins.setData(margins[:, 0], margins[:, 1], connect="finite")

    def clear(self) -> None:
        self.rings.setData([], [])
        for label in self.labels:
            label.setVisible(False)
        for curve in (self.before_boundary, self.before_margins):
            curve.setData([], [])

    @property
    def shown(self) -> bool:
        return self.labels[0].isVisible()
