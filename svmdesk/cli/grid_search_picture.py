"""The picture `svmdesk grid --plot` draws of a grid search: the mean score as a heat map
over log10 C (across) and log10 gamma (up) with its colour scale and the best cell ringed,
or, for a search over C alone, the mean score against log10 C. Qt is imported by the
caller (grid.py), on the offscreen platform."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF

from ..app.widgets.canvas import plain_numbers
from ..app.widgets.pictures import layout_width
from ..core import GridResult
from ..i18n import tr

INK = "#202020"
BEST = "#D62728"


def grid_plot(result: GridResult, axes: tuple, score: str, width: int, title: str):
    """A PlotWidget of `result`'s mean scores, 3/4 as high as wide, laid out for a picture
    `width` pixels wide (pictures.layout_width); `axes` the grid's parameter names ('C',
    and 'gamma' when searched), `score` what the scores are ('mean accuracy')."""
    plot = pg.PlotWidget(background="w")
    laid_out = layout_width(width)
    plot.setFixedSize(laid_out, laid_out * 3 // 4)
    plot.setTitle(tr("{title}: {score} over {k} folds").format(title=title, score=score,
                                                               k=result.folds), color=INK)
    plain_numbers(plot)
    best = result.best
    C = np.log10([float(cell.params["C"]) for cell in result.cells])
    means = np.array([cell.mean for cell in result.cells])
    best_C = np.log10(float(best.params["C"]))
    plot.setLabel("bottom", "log10 C")
    if "gamma" not in axes:
        plot.setLabel("left", score)
        plot.addItem(pg.PlotDataItem(C, means, pen=pg.mkPen(INK, width=2), symbol="o",
                                     symbolSize=7, symbolBrush=INK))
        plot.addItem(pg.ScatterPlotItem([best_C], [best.mean], size=16, symbol="o",
                                        brush=None, pen=pg.mkPen(BEST, width=2.5)))
        return plot
    gamma = np.log10([float(cell.params["gamma"]) for cell in result.cells])
    xs, ys = np.unique(C), np.unique(gamma)
    image = np.full((len(xs), len(ys)), np.nan)      # pyqtgraph: image[x, y]
    image[np.searchsorted(xs, C), np.searchsorted(ys, gamma)] = means
    dx, dy = _step(xs), _step(ys)
    heat = pg.ImageItem(image)
    heat.setRect(QRectF(xs[0] - dx / 2, ys[0] - dy / 2, dx * len(xs), dy * len(ys)))
    plot.addItem(heat)
    low, high = float(np.nanmin(means)), float(np.nanmax(means))
    if high <= low:
        high = low + 1e-9
    bar = pg.ColorBarItem(values=(low, high), colorMap=pg.colormap.get("viridis"),
                          label=score, interactive=False)
    bar.setImageItem(heat, insert_in=plot.getPlotItem())
    plot.setLabel("left", "log10 gamma")
    plot.addItem(pg.ScatterPlotItem([best_C], [np.log10(float(best.params["gamma"]))],
                                    size=max(12, width // 60), symbol="o", brush=None,
                                    pen=pg.mkPen(BEST, width=3)))
    plot.setXRange(xs[0] - dx / 2, xs[-1] + dx / 2, padding=0)
    plot.setYRange(ys[0] - dy / 2, ys[-1] + dy / 2, padding=0)
    return plot


def _step(values: np.ndarray) -> float:
    """The width of a cell along an axis: the smallest gap between its values (1 for one
    value)."""
    return float(np.min(np.diff(values))) if len(values) > 1 else 1.0
