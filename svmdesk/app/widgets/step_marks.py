"""What the canvas draws of one SMO pair step while the run stands paused: the two points
of the pair ringed and labelled i and j, the boundary and margins as they were before the
step, faint under the new ones, and every point's KKT state: a green ring where its
multiplier is free, a red square where it is at C, and under each point that breaks the
conditions a magenta disc, wider as it breaks them more (at 0 and satisfied: nothing)."""
from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from ...core.solvers.smo.trace import AT_BOUND, FREE
from ...i18n import N_, tr

PAIR_COLOUR = "#FF7F0E"      # the pair's rings and labels: no class colour is orange
BEFORE_COLOUR = (60, 60, 60, 90)   # the lines before the step: the new ones' ink, faint
PAIR_RING = 26               # pixels: wider than a support vector's ring, which it circles
FREE_COLOUR = "#2CA02C"
BOUND_COLOUR = "#D62728"
VIOLATOR_COLOUR = (214, 39, 200, 110)
KKT_RING = 15                # pixels: around a point's marker, inside a support vector's ring
VIOLATOR_SIZES = (12, 40)    # pixels: the disc of the least and of the worst violator
SIZE_STEPS = 8               # the discs' sizes between those
MET = 1e-3                   # a violation below the solvers' default tol is none
# the canvas's legend while a step is marked (its entries are what is drawn)
LEGEND = (N_("the pair i, j"), N_("before the step"), N_("α free (0 < α < C)"),
          N_("α at its bound C"), N_("breaks the KKT conditions (wider: more)"))


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
        self.free = pg.ScatterPlotItem(size=KKT_RING, brush=None,
                                       pen=pg.mkPen(FREE_COLOUR, width=2))
        self.bound = pg.ScatterPlotItem(size=KKT_RING, brush=None, symbol="s",
                                        pen=pg.mkPen(BOUND_COLOUR, width=2))
        self.violators = pg.ScatterPlotItem(brush=pg.mkBrush(VIOLATOR_COLOUR), pen=None)
        self.violators.setZValue(5)               # under the points (10)
        for item in (self.free, self.bound):
            item.setZValue(22)                    # over the points and the SV rings
        self.before_boundary = pg.PlotCurveItem(pen=pg.mkPen(BEFORE_COLOUR, width=2.5))
        self.before_margins = pg.PlotCurveItem(
            pen=pg.mkPen(BEFORE_COLOUR, width=1, style=Qt.PenStyle.DashLine), antialias=False)
        for item in (self.before_boundary, self.before_margins):
            item.setZValue(28)                    # under the new lines (30)
        for item in (self.rings, *self.labels):
            item.setZValue(35)                    # over everything the frame draws
        for item in (self.rings, *self.labels, self.before_boundary, self.before_margins,
                     self.free, self.bound, self.violators):
            item.mouseClickEvent = lambda ev: ev.ignore()   # clicks are the view's
            plot.addItem(item)
        # A legend of its own, in the bottom right corner: the classes' legend sits in the
        # top left, and more entries there covered the points under it (the pair among them).
        # Its samples: the items' own styles at one size (the discs' vary).
        self.legend = pg.LegendItem(offset=(-8, -8), labelTextSize="9pt",
                                    labelTextColor="#202020",
                                    brush=pg.mkBrush(255, 255, 255, 200))
        self.legend.setParentItem(plot.getPlotItem().vb)
        samples = (
            pg.ScatterPlotItem(size=16, brush=None, pen=pg.mkPen(PAIR_COLOUR, width=3)),
            pg.PlotCurveItem(pen=pg.mkPen(BEFORE_COLOUR, width=2.5)),
            pg.ScatterPlotItem(size=12, brush=None, pen=pg.mkPen(FREE_COLOUR, width=2)),
            pg.ScatterPlotItem(size=12, brush=None, symbol="s",
                               pen=pg.mkPen(BOUND_COLOUR, width=2)),
            pg.ScatterPlotItem(size=14, brush=pg.mkBrush(VIOLATOR_COLOUR), pen=None))
        for sample, name in zip(samples, LEGEND):     # the legend reads its labels as HTML
            self.legend.addItem(sample, html.escape(tr(name), quote=False))
        self.clear()

    def show(self, pair_xy: np.ndarray, boundary: np.ndarray, margins: np.ndarray,
             kkt=None, kkt_xy: np.ndarray | None = None) -> None:
        """Ring and label the pair at `pair_xy` ((2, 2): i's place, j's), over the lines
        before the step (polylines, NaN rows between their pieces; empty: none), and mark
        the KKT state (core.solvers.smo.trace.KKTStates) of the points at `kkt_xy`; the
        legend says what each mark means."""
        self._show_kkt(kkt, kkt_xy)
        self.legend.setVisible(True)
        self.rings.setData(pair_xy[:, 0], pair_xy[:, 1])
        self.rings.setVisible(True)
        for label, (x, y) in zip(self.labels, pair_xy):
            label.setPos(float(x), float(y))
            label.setVisible(True)
        self.before_boundary.setData(boundary[:, 0], boundary[:, 1], connect="finite")
        self.before_margins.setData(margins[:, 0], margins[:, 1], connect="finite")

    def _show_kkt(self, kkt, xy: np.ndarray | None) -> None:
        if kkt is None or xy is None:
            for item in (self.free, self.bound, self.violators):
                item.setData([], [])
                item.setVisible(False)          # an empty item still costs a paint
            return
        for item, state in ((self.free, FREE), (self.bound, AT_BOUND)):
            at = xy[kkt.state == state]
            item.setData(at[:, 0], at[:, 1])
            item.setVisible(len(at) > 0)
        breaking = kkt.violation > MET
        worst = float(kkt.violation.max(initial=0.0))
        low, high = VIOLATOR_SIZES
        # a few sizes only: pyqtgraph renders each size's disc once into its atlas (a size
        # per point rendered a disc per point: 100-250 ms a Step at 1,000 points)
        share = np.sqrt(kkt.violation[breaking] / worst) if worst else np.empty(0)
        sizes = low + (high - low) / (SIZE_STEPS - 1) * np.round(share * (SIZE_STEPS - 1))
        at = xy[breaking]
        self.violators.setData(at[:, 0], at[:, 1], size=sizes)
        self.violators.setVisible(len(at) > 0)

    def clear(self) -> None:
        self.legend.setVisible(False)
        self._show_kkt(None, None)
        self.rings.setData([], [])
        self.rings.setVisible(False)
        for label in self.labels:
            label.setVisible(False)
        for curve in (self.before_boundary, self.before_margins):
            curve.setData([], [])

    @property
    def shown(self) -> bool:
        return self.labels[0].isVisible()
