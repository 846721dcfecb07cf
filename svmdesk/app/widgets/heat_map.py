"""The C-gamma heat map of the Tune panel: each cell's mean score over log10 C (across) and
log10 gamma (up), ticks at the powers of ten, a colour bar, the best cell ringed and the
panel's own C and gamma marked. It fills in as cells arrive; a cell not done yet is blank.
Hovering a cell says which (`hovered`), clicking one asks for it (`clicked`)."""
from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt, Signal

from ...formats.tuning_map import TunedCell, TuningMap
from ...i18n import tr
from .canvas import plain_numbers

INK = "#202020"
BEST = "#D62728"
CURRENT = "#FFFFFF"
MOST_TICKS = 4               # labels along an axis at most


class _CellBox(pg.ViewBox):
    """The map's view: no pan or zoom (the map shows its whole grid); a left click asks
    for the cell under it."""

    def __init__(self, heat_map: HeatMap):
        super().__init__(enableMenu=False)
        self.heat_map = heat_map
        self.setMouseEnabled(False, False)

    def mouseClickEvent(self, ev):
        if ev.button() != Qt.MouseButton.LeftButton:
            ev.ignore()
            return
        ev.accept()
        pos = self.mapSceneToView(ev.scenePos())
        cell = self.heat_map.cell_at(pos.x(), pos.y())
        if cell is not None:
            self.heat_map.clicked.emit(cell[0], cell[1])


class _Mark(pg.ScatterPlotItem):
    """A mark drawn over a cell (the best ring, the panel's C and gamma): a click on it is
    a click on the cell under it."""

    def mouseClickEvent(self, ev):
        ev.ignore()


class HeatMap(pg.PlotWidget):
    hovered = Signal(object)           # the TunedCell under the mouse, or None
    clicked = Signal(float, float)     # the C and gamma of the cell clicked (done or not)

    def __init__(self, parent=None):
        super().__init__(parent, background="w", viewBox=_CellBox(self))
        self.tuning: TuningMap | None = None
        self._axes: tuple | None = None    # the values of C and gamma the axes are set for
        self.image = pg.ImageItem()
        self.addItem(self.image)
        self.bar = pg.ColorBarItem(values=(0.0, 1.0), colorMap=pg.colormap.get("viridis"),
                                   interactive=False, width=12)
        self.bar.setImageItem(self.image, insert_in=self.getPlotItem())
        self.best = _Mark(size=16, symbol="o", brush=None,
                                       pen=pg.mkPen(BEST, width=2.5))
        self.current = _Mark(size=13, symbol="+", brush=pg.mkBrush(CURRENT),
                                          pen=pg.mkPen(INK, width=1))
        for item in (self.best, self.current):
            item.setZValue(10)
            self.addItem(item)
        plain_numbers(self)       # the ticks are the map's own powers of ten: no SI scale
        self.setLabel("bottom", tr("C (log scale)"))
        self.setLabel("left", tr("gamma (log scale)"))
        self.hideButtons()
        self._current: tuple | None = None
        self.scene().sigMouseMoved.connect(self._mouse_moved)

    def show_map(self, tuning: TuningMap | None) -> None:
        """Draw `tuning` (None: nothing)."""
        self.tuning = tuning
        if tuning is None:
            self.image.clear()
            self.best.setData([], [])
            self._axes = None
            for side in ("bottom", "left"):          # no grid yet: no numbers to read
                self.getAxis(side).setTicks([[]])
            self.setRange(xRange=(0, 1), yRange=(0, 1), padding=0)
            self._mark()
            return
        xs, ys = np.log10(tuning.C), np.log10(tuning.gamma)
        image = np.full((len(xs), len(ys)), np.nan)          # pyqtgraph: image[x, y]
        for cell in tuning.cells:
            image[tuning.C.index(cell.C), tuning.gamma.index(cell.gamma)] = cell.mean
        dx, dy = _step(xs), _step(ys)
        done = image[np.isfinite(image)]
        low, high = (float(done.min()), float(done.max())) if len(done) else (0.0, 1.0)
        self.image.setImage(image, levels=(low, max(high, low + 1e-9)))
        self.image.setRect(QRectF(xs[0] - dx / 2, ys[0] - dy / 2, dx * len(xs), dy * len(ys)))
        self.bar.setLevels((low, max(high, low + 1e-9)))
        best = tuning.best()
        self.best.setData(*(([math.log10(best.C)], [math.log10(best.gamma)]) if best
                            else ([], [])))
        if self._axes != (tuning.C, tuning.gamma):    # a new grid: its ticks and range
            self._axes = (tuning.C, tuning.gamma)
            self.getAxis("bottom").setTicks([_powers_of_ten(xs)])
            self.getAxis("left").setTicks([_powers_of_ten(ys)])
            self.setXRange(xs[0] - dx / 2, xs[-1] + dx / 2, padding=0)
            self.setYRange(ys[0] - dy / 2, ys[-1] + dy / 2, padding=0)
            self._mark()

    def current_mark(self) -> tuple:
        """(C, gamma) of the panel's own settings marked, or (None, None)."""
        return self._current or (None, None)

    def mark_current(self, C: float | None, gamma: float | None) -> None:
        """Mark the panel's own C and gamma (None: the panel has none to mark)."""
        self._current = None if C is None or gamma is None else (C, gamma)
        self._mark()

    def cell_at(self, x: float, y: float) -> tuple | None:
        """The (C, gamma) of the cell at (x, y) of the view (log10 units), or None."""
        if self.tuning is None:
            return None
        C = _nearest(self.tuning.C, x)
        gamma = _nearest(self.tuning.gamma, y)
        return None if C is None or gamma is None else (C, gamma)

    def done_cell(self, C: float, gamma: float) -> TunedCell | None:
        if self.tuning is None:
            return None
        return next((c for c in self.tuning.cells if c.C == C and c.gamma == gamma), None)

    def _mark(self) -> None:
        if self._current is None or self.tuning is None:
            self.current.setData([], [])
            return
        self.current.setData([math.log10(self._current[0])], [math.log10(self._current[1])])

    def _mouse_moved(self, scene_pos) -> None:
        pos = self.getViewBox().mapSceneToView(scene_pos)
        cell = self.cell_at(pos.x(), pos.y())
        self.hovered.emit(None if cell is None else self.done_cell(*cell))


def _nearest(values: tuple, at: float) -> float | None:
    """The value whose cell (in log10 units) holds `at`, or None beyond the map."""
    logs = np.log10(values)
    k = int(np.argmin(np.abs(logs - at)))
    return values[k] if abs(logs[k] - at) <= _step(logs) / 2 else None


def _step(values: np.ndarray) -> float:
    """The width of a cell along an axis: the smallest gap between its values (1 for one
    value)."""
    return float(np.min(np.diff(values))) if len(values) > 1 else 1.0


def _powers_of_ten(logs: np.ndarray) -> list:
    """Ticks at the whole powers of ten the axis spans, every other or every third when
    there are many (a narrow map's labels would run together), or at the values themselves
    when it spans fewer than two (one tick, '1' on a cell's border, named no cell); each
    written as a plain number."""
    ks = range(math.ceil(logs.min() - 1e-9), math.floor(logs.max() + 1e-9) + 1)
    ticks = [(float(k), format(10.0 ** k, "g")) for k in ks[::_stride(len(ks))]]
    if len(ticks) >= 2:
        return ticks
    return [(float(v), format(10.0 ** v, ".3g")) for v in logs[::_stride(len(logs))]]


def _stride(count: int) -> int:
    """Every value, or every other or third when there are many."""
    return max(1, math.ceil(count / MOST_TICKS))
