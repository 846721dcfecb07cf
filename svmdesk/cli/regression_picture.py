"""The picture `svmdesk render` draws of a regressor of one feature: the points (x, y), the
curve f(x), its tube f(x) +- epsilon (dashed) and the support vectors (rings: circles on
the tube's edge, red squares outside it), in the canvas's style. Qt is imported by the
caller (render.py), on the offscreen platform."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from ..drawing.curves import CURVE_POINTS, outside_tube
from ..drawing.shading import PALETTE
from ..i18n import tr


def regression_plot(x: np.ndarray, z: np.ndarray, names: tuple, model, width: int):
    """A PlotWidget, 3/4 as high as wide, laid out for a picture `width` pixels wide
    (pictures.layout_width), showing the points, the model's curve, tube and support
    vectors; `model` a fitted SVR or NuSVR of one feature."""
    from ..app.widgets.pictures import layout_width

    plot = pg.PlotWidget(background="w")
    laid_out = layout_width(width)
    plot.setFixedSize(laid_out, laid_out * 3 // 4)
    plot.setLabel("bottom", names[0])
    plot.setLabel("left", names[1])
    legend = plot.plotItem.addLegend(offset=(8, 8), labelTextColor="#202020",
                                     brush=pg.mkBrush(255, 255, 255, 200))
    pad = 0.05 * max(float(np.ptp(x)), 1e-9)
    xs = np.linspace(x.min() - pad, x.max() + pad, CURVE_POINTS)
    f = model.predict(xs[:, None])
    eps = float(model.epsilon_)
    tube = pg.mkPen("#333333", width=1, style=Qt.PenStyle.DashLine)
    plot.addItem(pg.PlotCurveItem(xs, f + eps, pen=tube, name=tr("tube f(x) ± {epsilon}").format(
        epsilon=f"{eps:.3g}")))
    plot.addItem(pg.PlotCurveItem(xs, f - eps, pen=tube))
    plot.addItem(pg.PlotCurveItem(xs, f, pen=pg.mkPen("#111111", width=2.5), name="f(x)"))
    plot.addItem(pg.ScatterPlotItem(x, z, size=8, brush=pg.mkBrush(PALETTE[0]),
                                    pen=pg.mkPen("#202020"), name=tr("points")))
    support = np.asarray(model.support_)
    # the window's rule (drawing.curves): both ring the same support vectors as outside
    outside = outside_tube(z[support] - model.predict(x[support, None]), eps, z)
    for ring, symbol, pen in ((~outside, "o", pg.mkPen("#111111", width=1.5)),
                              (outside, "s", pg.mkPen("#C0392B", width=1.5))):
        plot.addItem(pg.ScatterPlotItem(x[support[ring]], z[support[ring]], size=16,
                                        symbol=symbol, brush=None, pen=pen))
    legend.setZValue(10)
    return plot
