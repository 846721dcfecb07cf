"""The two live charts under the canvas: objective (primal and dual) and gap, by iteration.

They redraw about ten times a second while the canvas redraws thirty, so they must be cheap:
the history lives in growable numpy arrays (no list-to-array copy of a long run), and the
axes keep fixed ranges that jump in coarse steps instead of following every new point.
pyqtgraph's auto-range would re-lay out the tick labels and paint each chart twice per
update, which used to be the longest pause of the GUI thread during training.
"""
from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from ...i18n import tr
from .canvas import plain_numbers

COLUMNS = ("iteration", "primal", "dual", "gap")
EDGE = 0.02               # decades the gap chart shows beyond the whole decades around the gap


class History:
    """Rows (iteration, primal, dual, gap) in a numpy buffer that doubles when full."""

    def __init__(self):
        self._rows = np.empty((256, len(COLUMNS)))
        self._n = 0

    def __len__(self) -> int:
        return self._n

    def extend(self, rows) -> None:
        rows = np.asarray(rows, dtype=float).reshape(-1, len(COLUMNS))
        need = self._n + len(rows)
        if need > len(self._rows):
            grown = np.empty((max(need, 2 * len(self._rows)), len(COLUMNS)))
            grown[:self._n] = self._rows[:self._n]
            self._rows = grown
        self._rows[self._n:need] = rows
        self._n = need

    def clear(self) -> None:
        self._n = 0

    def rows(self) -> np.ndarray:
        """A copy of every row (what `extend` takes to bring them back)."""
        return self._rows[:self._n].copy()

    def column(self, name: str) -> np.ndarray:
        """A copy of one column, non-finite values as NaN (gaps in the curve)."""
        values = self._rows[:self._n, COLUMNS.index(name)].copy()
        values[~np.isfinite(values)] = np.nan
        return values


class TrainingCharts:
    """The objective chart and the gap chart (log scale) with their curves."""

    def __init__(self):
        self.history = History()
        self.objective_plot = _chart(tr("objective"))
        self.gap_plot = _chart(tr("gap (log scale)"), left=_DecadeAxis("left"))
        self.gap_plot.setLogMode(y=True)
        self.primal_curve = self.objective_plot.plot(pen=pg.mkPen("#D55E00", width=2),
                                                     name=tr("primal"), antialias=False)
        self.dual_curve = self.objective_plot.plot(pen=pg.mkPen("#0072B2", width=2),
                                                   name=tr("dual"), antialias=False)
        self.gap_curve = self.gap_plot.plot(pen=pg.mkPen("#009E73", width=2), name=tr("gap"),
                                            antialias=False)
        self._ranges = {}                  # plot -> (x range, y range) last set
        self.redraw()                      # empty charts with their resting ranges

    def extend(self, rows) -> None:
        self.history.extend(rows)

    def clear(self) -> None:
        self.history.clear()
        self.redraw()

    def show_rows(self, rows: np.ndarray) -> None:
        """The charts of a run that ended earlier: its rows (History.rows) drawn anew."""
        self.history.clear()
        self.history.extend(rows)
        self.redraw()

    def redraw(self) -> None:
        self.redraw_objective()
        self.redraw_gap()

    def redraw_objective(self) -> None:
        it, primal, dual = (self.history.column(c) for c in ("iteration", "primal", "dual"))
        self.primal_curve.setData(it, primal, connect="finite")
        self.dual_curve.setData(it, dual, connect="finite")
        # The first steps of a run can sit thousands of units away from where it settles;
        # scaled to include them, the interesting part would be a flat line.
        late = it >= 0.2 * it[-1] if len(it) > 10 else np.ones(len(it), dtype=bool)
        current = self._ranges.get(self.objective_plot, (None, None))[1]
        self._set_range(self.objective_plot, _iteration_range(it),
                        _padded_range(np.concatenate([primal[late], dual[late]]), current))

    def redraw_gap(self) -> None:
        it, gap = self.history.column("iteration"), self.history.column("gap")
        gap[~(gap > 0)] = np.nan          # a log axis has no room for 0
        self.gap_curve.setData(it, gap, connect="finite")
        with np.errstate(divide="ignore", invalid="ignore"):
            decades = np.log10(gap)
        low, high = _decade_range(decades)
        # the decades at the ends just inside the axis: pyqtgraph labels no tick on its edge
        self._set_range(self.gap_plot, _iteration_range(it), (low - EDGE, high + EDGE))

    def _set_range(self, plot, x_range, y_range) -> None:
        """Move the axes only when the range changes: each change re-lays out the ticks."""
        if self._ranges.get(plot) == (x_range, y_range):
            return
        self._ranges[plot] = (x_range, y_range)
        plot.setRange(xRange=x_range, yRange=y_range, padding=0)
        plot.getViewBox().updateMatrix()     # now, not lazily in the paint (a second paint)


class _DecadeAxis(pg.AxisItem):
    """A log axis that labels whole decades only: within one decade pyqtgraph labels the
    minor ticks too (8e-17 over 7e-17), written over each other on a chart some 150 px
    tall. The minor ticks are still drawn."""

    def tickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph's name
        strings = super().tickStrings(values, scale, spacing)
        return [text if float(value).is_integer() else "" for value, text in zip(values, strings)]


def _chart(title: str, left: pg.AxisItem | None = None) -> pg.PlotWidget:
    """A chart of the training box (`left`: its own left axis, else pyqtgraph's)."""
    axes = {"left": left} if left is not None else None
    plot = pg.PlotWidget(background="w", enableMenu=False, axisItems=axes)   # menus: never built
    plot.setTitle(title, size="9pt")
    plot.setFocusPolicy(Qt.FocusPolicy.NoFocus)     # keys belong to the shortcuts
    plot.setMaximumHeight(230)
    plot.setLabel("bottom", tr("iteration"))
    plain_numbers(plot)
    plot.getAxis("left").setWidth(52)                # new tick labels never re-lay it out
    plot.addLegend(offset=(-5, 5))
    plot.setMouseEnabled(x=False, y=False)           # the ranges follow the data
    plot.hideButtons()
    plot.getPlotItem().setDownsampling(auto=True, mode="peak")
    plot.getPlotItem().setClipToView(True)
    # never narrower than its title and axes: squeezed beside the pair inset, a plot laid
    # out wider than its widget was cut off on the right (its axis, its legend)
    plot.setMinimumWidth(int(plot.getPlotItem().minimumWidth()) + 2)
    return plot


def _iteration_range(it: np.ndarray) -> tuple:
    """At least 100 iterations wide: a run's first second would otherwise move the axis
    (and re-lay out its ticks) at every redraw."""
    return (0.0, _nice_ceiling(max(it[-1] if len(it) else 0.0, 100.0)))


def _nice_ceiling(x: float) -> float:
    """The smallest of 1, 2, 5 times a power of ten that is at least x (and at least 1)."""
    if not x > 1:
        return 1.0
    power = 10.0 ** math.floor(math.log10(x))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= x)


def _padded_range(values: np.ndarray, current) -> tuple:
    """The data's span with 10% to spare; kept while the data fill at least a third of it."""
    finite = values[np.isfinite(values)]
    if not len(finite):
        return (0.0, 1.0)
    lo, hi = float(finite.min()), float(finite.max())
    if current is not None:
        c_lo, c_hi = current
        if c_lo <= lo and hi <= c_hi and (hi - lo) >= (c_hi - c_lo) / 3:
            return current
    pad = 0.1 * (hi - lo) if hi > lo else max(abs(hi), 1.0) * 0.1
    return (lo - pad, hi + pad)


def _decade_range(decades: np.ndarray) -> tuple:
    """Whole decades around the data (log10 units, as pyqtgraph's log axis wants)."""
    finite = decades[np.isfinite(decades)]
    if not len(finite):
        return (-3.0, 0.0)
    return (float(math.floor(finite.min())), float(max(math.ceil(finite.max()),
                                                       math.floor(finite.min()) + 1)))
