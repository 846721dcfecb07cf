"""The evaluation view's page for a regression: R², MSE and MAE of the training and held-out
samples beside their residuals against f(x)."""
from __future__ import annotations

import html

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from ....core import metrics
from ....drawing.evaluation import FitEvaluation
from ....i18n import tr
from ..canvas import class_color, plain_numbers


class FitPage(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        body = QHBoxLayout(self)
        body.setContentsMargins(0, 0, 0, 0)
        self.fit_text = QLabel()
        self.fit_text.setTextFormat(Qt.TextFormat.RichText)
        self.fit_text.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.fit_text.setToolTip(tr(
            "R²: the share of the targets' variance the curve explains (1 is perfect, 0 no "
            "better than their mean). MSE: the mean squared residual; MAE: the mean "
            "absolute residual, in the targets' units."))
        body.addWidget(self.fit_text)
        self.residual_plot = pg.PlotWidget(background="w")
        self.residual_plot.setMinimumSize(120, 90)
        self.residual_plot.setLabel("bottom", tr("f(x)"))
        self.residual_plot.setLabel("left", tr("target − f(x)"))
        self.residual_plot.setMenuEnabled(False)
        self.residual_plot.setToolTip(tr(
            "Each sample's residual against the curve's value there: a good fit scatters "
            "them evenly about 0; a bend or a funnel is what the curve missed."))
        plain_numbers(self.residual_plot)
        self.residual_plot.addItem(pg.InfiniteLine(pos=0.0, angle=0,
                                                   pen=pg.mkPen("#777777", width=1)))
        colour = class_color(0)
        self.train_residuals = pg.ScatterPlotItem(size=7, brush=pg.mkBrush(colour),
                                                  pen=pg.mkPen("#202020"))
        self.test_residuals = pg.ScatterPlotItem(size=7, brush=None,
                                                 pen=pg.mkPen(colour, width=1.5))
        self.residual_plot.addItem(self.train_residuals)
        self.residual_plot.addItem(self.test_residuals)
        body.addWidget(self.residual_plot, 1)

    def draw(self, e: FitEvaluation) -> None:
        """Each split's R², MSE and MAE, and its residuals."""
        lines = []
        for name, f, z in ((tr("train"), e.fitted, e.targets),
                           (tr("test"), e.fitted_test, e.targets_test)):
            if not len(z):
                continue
            lines.append(tr("<b>{split}</b> ({n} samples)<br>R² {r2}<br>MSE {mse}<br>"
                            "MAE {mae}").format(
                split=html.escape(name), n=len(z), r2=f"{metrics.r2(z, f):.4f}",
                mse=f"{metrics.mse(z, f):.4g}", mae=f"{metrics.mae(z, f):.4g}"))
        self.fit_text.setText("<br><br>".join(lines))
        self.train_residuals.setData(e.fitted, e.targets - e.fitted)
        self.test_residuals.setData(e.fitted_test, e.targets_test - e.fitted_test)
