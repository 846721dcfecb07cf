"""SMO's pair subproblem as a picture, beside the training charts while a run stands paused
at a pair step: the box [0, C_i] x [0, C_j] the two multipliers must stay in, the line
y_i a_i + y_j a_j = const the step moves along, where the pair stood, the pair's optimum on
the line (the box aside) and where the step ended (clipped to the box when the optimum lies
outside it), with the dual's level lines across the line: ticks where the step would raise
the dual by a quarter, a half and three quarters of its most."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from ...i18n import N_, tr

BOX_COLOUR = "#555555"
LINE_COLOUR = "#1F77B4"
BEFORE_COLOUR = "#7F7F7F"
OPTIMUM_COLOUR = "#9467BD"
AFTER_COLOUR = "#FF7F0E"             # the pair's own colour on the canvas
LEVELS = (0.25, 0.5, 0.75)           # the dual's rise at the ticks, as shares of its most
TICK = 0.04                          # a tick's half-length, as a share of the view
ZOOM_AT = 10.0       # the step's points spread over less than 1/10 of the box: zoom on them
TIP = N_("The pair's subproblem: the box 0 ≤ α ≤ C both multipliers must stay in, and the "
         "line y_i α_i + y_j α_j = const the step moves along. Grey ●: where the pair "
         "stood; purple ✕: the pair's optimum on the line; orange ★: where the step ended, "
         "in the box (clipped when the optimum lies outside it). The ticks across the line "
         "mark where a step would raise the dual by 1/4, 1/2 and 3/4 of its most. A step small "
         "beside the box is shown zoomed in, the top left corner says how far.")


class PairInset(pg.PlotWidget):
    def __init__(self, parent=None):
        super().__init__(parent, background="w")
        self.setMenuEnabled(False)
        self.setMouseEnabled(False, False)
        self.hideButtons()
        self.getPlotItem().setTitle(tr("pair subproblem"), size="9pt")
        # as narrow as its title and axes allow: the charts beside it keep their room
        self.setMinimumWidth(int(self.getPlotItem().minimumWidth()) + 2)
        self.box = pg.PlotCurveItem(pen=pg.mkPen(BOX_COLOUR, width=1.5))
        self.line = pg.PlotCurveItem(pen=pg.mkPen(LINE_COLOUR, width=1.5))
        self.levels = pg.PlotCurveItem(pen=pg.mkPen(LINE_COLOUR, width=1), connect="finite")
        for item in (self.box, self.line, self.levels):
            self.addItem(item)
        # no legend: at this size it covered the points; the tooltip says what each is
        self.setToolTip(tr(TIP))
        self.points = []
        for colour, symbol in zip((BEFORE_COLOUR, OPTIMUM_COLOUR, AFTER_COLOUR),
                                  ("o", "x", "star")):
            item = pg.ScatterPlotItem(size=11, symbol=symbol, brush=pg.mkBrush(colour),
                                      pen=pg.mkPen(colour))
            self.addItem(item)
            self.points.append(item)
        # on white: the box's edge or the line may pass under it
        self.zoom_text = pg.TextItem(color=BOX_COLOUR, anchor=(0, 0),
                                     fill=pg.mkBrush(255, 255, 255, 220))
        self.addItem(self.zoom_text, ignoreBounds=True)
        self.step = None
        self.zoom = 1.0                  # how far the view is zoomed in from the whole box

    def show_step(self, step) -> None:
        """Draw a pair step's subproblem (core.solvers.smo.trace.PairStep; None: nothing)."""
        self.step = step
        if step is None:
            for item in (self.box, self.line, self.levels, *self.points):
                item.setData([], [])
            self.zoom_text.setText("")
            return
        before = np.array(step.along(0.0))
        optimum, after = np.array(step.along(step.unclipped)), np.array(step.along(step.taken))
        for item, (x, y) in zip(self.points, (before, optimum, after)):
            item.setData([x], [y])
        ci, cj = step.bounds
        seen = np.vstack([before, optimum, after])
        far = np.where(np.isfinite((ci, cj)), (ci, cj), seen.max(axis=0))
        self.box.setData([0, far[0], far[0], 0, 0], [0, 0, far[1], far[1], 0])
        low, high, self.zoom = _view(seen, far)
        span = high - low
        self.setRange(xRange=(low[0], high[0]), yRange=(low[1], high[1]), padding=0)
        # in the view's top left corner: a longer title would widen the plot past the inset
        self.zoom_text.setText(tr("zoomed ×{zoom}").format(zoom=f"{self.zoom:.0f}")
                               if self.zoom > 1.0 else "")
        self.zoom_text.setPos(low[0], high[1])
        # the line across the view: t from where it leaves the view on one side to the other
        reach = float(np.hypot(*(high - low)))
        ends = np.array([step.along(t) for t in (-reach, reach)])
        self.line.setData(ends[:, 0], ends[:, 1])
        self.levels.setData(*_level_ticks(step, span).T, connect="finite")
        self.getPlotItem().setLabels(bottom=f"α{_sub(step.i)}", left=f"α{_sub(step.j)}")


def _view(seen: np.ndarray, far: np.ndarray) -> tuple:
    """The view's corners and its zoom: the box and the step's points (`seen`: before,
    optimum, after), or around the points alone when they spread over less than 1/ZOOM_AT
    of the box (a step of 0.01 in a box of 100 would be one dot)."""
    low, high = np.minimum(seen.min(axis=0), 0.0), np.maximum(seen.max(axis=0), far)
    whole = float(np.max(high - low))
    reach = max(float(np.max(np.ptp(seen, axis=0))), 1e-12 * max(whole, 1.0))
    zoom = 1.0
    if reach * ZOOM_AT < whole:
        centre = (seen.min(axis=0) + seen.max(axis=0)) / 2
        low, high = centre - reach, centre + reach
        zoom = whole / (2 * reach)
    span = np.maximum(high - low, 1e-12)
    return low - 0.08 * span, high + 0.08 * span, zoom


def _level_ticks(step, span: np.ndarray) -> np.ndarray:
    """Short ticks across the line where the step would raise the dual by LEVELS of its
    most (two for each: either side of the optimum), NaN rows between them."""
    direction = np.array(step.direction, dtype=float) / np.sqrt(2.0)
    across = np.array([-direction[1], direction[0]]) * TICK * span
    rows = []
    for share in LEVELS:          # rise(t) = share * rise(unclipped): t = t* (1 +- sqrt(1 - s))
        for side in (-1.0, 1.0):
            t = step.unclipped * (1.0 + side * np.sqrt(1.0 - share))
            centre = np.array(step.along(t))
            rows += [centre - across, centre + across, (np.nan, np.nan)]
    return np.array(rows)


def _sub(k: int) -> str:
    return str(k).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))
