"""A comparison as one picture: each run's model over the points, titled in its colour, side
by side, and under them every run's primal (solid) and dual (dashed) objectives against
wall time and against iteration. The Compare solvers window exports it, and `svmdesk
compare --plot` draws it.

A ComparisonView made off screen draws the runs as the window does (its canvases and
charts); their plots then move into one GraphicsLayoutWidget, which pictures.save_picture
writes as it writes any figure."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg

from ...core.comparison import Entry
from ...drawing.decision_grid import GridSpec
from ...drawing.model_frames import model_frame
from ...formats.comparison_record import ComparisonRecord
from .comparison_view import ComparisonView, colour_of
from .pictures import layout_width

GRID = 200                   # a picture's decision grid per axis (the window's canvases: 100)
INK = "#202020"


@dataclass(frozen=True)
class Points:
    """The points a comparison trained on, as the canvases draw them."""

    X: np.ndarray                # (n, 2)
    y: np.ndarray                # each point's class index into `class_names`
    test: np.ndarray             # held out for testing (bool)
    class_names: tuple
    axis_names: tuple = ("x1", "x2")


def run_frame(model, points: Points, labels: list, spec: GridSpec):
    """A kept model's frame over the points (None: no model, or one of other classes than
    the points'); `labels` the points' class labels. ValueError or ArithmeticError: it
    cannot be drawn."""
    if model is None or not all(c in labels for c in model.classes_.tolist()):
        return None
    colours = np.array([labels.index(c) for c in model.classes_.tolist()])
    return model_frame(model, points.X, points.y, spec, colours, held_out=points.test)


def comparison_figure(record: ComparisonRecord, points: Points, labels: list, width: int,
                      title: str, view_range: tuple | None = None) -> pg.GraphicsLayoutWidget:
    """The comparison's picture, laid out for a picture `width` pixels wide
    (pictures.layout_width): `labels` the points' class labels, `view_range` ((x0, x1),
    (y0, y1)) the canvases' (None: fit to the points)."""
    view = ComparisonView()
    n = len(record.runs)
    view.show_runs([run_title(run) for run in record.runs])
    view.renew_charts()
    view.show_curves({k: (run.curve[:, 0], run.curve[:, 1:])
                      for k, run in enumerate(record.runs) if len(run.curve)})
    for canvas in view.canvases[:n]:
        canvas.set_points(points.X, points.y, points.test, list(points.class_names))
        canvas.set_axis_names(points.axis_names)
    first = view.canvases[0]
    first.legend.show()     # the window's main canvas names the classes; a picture, its first run
    if view_range is None:
        first.fit_view()
    else:
        first.view.setRange(xRange=view_range[0], yRange=view_range[1], padding=0)
    (x0, x1), (y0, y1) = first.view.viewRange()
    spec = GridSpec(x0, x1, y0, y1, GRID, GRID)
    for k, run in enumerate(record.runs):
        frame = run_frame(run.model, points, labels, spec)
        if frame is not None:
            view.canvases[k].show_frame(frame)
    return _laid_out(view, record, width, title)


def run_title(run) -> str:
    return Entry(run.solver, run.C).title()


def _laid_out(view: ComparisonView, record: ComparisonRecord, width: int,
              title: str) -> pg.GraphicsLayoutWidget:
    """The view's plots moved into one figure: the title, the runs' canvases in a row, the
    two charts under them."""
    n = len(record.runs)
    for canvas in view.canvases[1:]:      # each plot on its own in the figure: a link to a
        canvas.view.setXLink(None)        # plot deleted with another figure would be read
        canvas.view.setYLink(None)
    figure = pg.GraphicsLayoutWidget()
    figure.setBackground("w")
    wide = layout_width(width)
    figure.setFixedSize(wide, int(40 + 1.15 * wide / n + 0.32 * wide))
    figure.addLabel(title, row=0, col=0, colspan=n, color=INK, size="11pt")
    for k in range(n):
        plot = _taken(view.canvases[k])
        plot.setTitle(run_title(record.runs[k]), color=colour_of(k), bold=True)
        figure.addItem(plot, row=1, col=k)
    charts = figure.addLayout(row=2, col=0, colspan=n)
    for c, chart in enumerate(view.charts):
        charts.addItem(_taken(chart), row=0, col=c)
    grid = figure.ci.layout
    grid.setRowStretchFactor(1, 3)
    grid.setRowStretchFactor(2, 2)
    # the runs' canvases one width: by their size hints, a canvas whose axis labels are
    # wider took more of the row (SMO's two 225 px beside two 310 px)
    left, _top, right, _bottom = grid.getContentsMargins()
    room = wide - left - right - (n - 1) * grid.horizontalSpacing()
    for k in range(n):
        grid.setColumnFixedWidth(k, room / n)
    for c in range(len(view.charts)):
        charts.layout.setColumnFixedWidth(c, (room - charts.layout.horizontalSpacing()) / 2)
    view.setParent(figure)     # the canvases and charts the plots came from go with it
    view.hide()
    return figure


def _taken(widget: pg.PlotWidget) -> pg.PlotItem:
    """The widget's plot, out of the widget's scene (Qt crashes moving an item between
    scenes while the first still holds it)."""
    plot = widget.plotItem
    widget.scene().removeItem(plot)
    return plot
