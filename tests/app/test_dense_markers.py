"""The canvas draws each device pixel's markers once: what it shows is what pyqtgraph's own
scatter shows, for the class markers and for the support-vector rings."""
import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QGraphicsItem

from svmdesk.app.widgets.canvas import SYMBOLS, class_color
from svmdesk.app.widgets.dense_scatter import DenseScatter
from svmdesk.core import make_dataset

MARKERS = {"class marker": dict(size=10, symbol=SYMBOLS[1], pen=pg.mkPen("#202020", width=0.8),
                                brush=pg.mkBrush(class_color(1))),
           "ring": dict(size=19, brush=None, pen=pg.mkPen("#111111", width=2))}
NO_CACHE, CACHED = QGraphicsItem.CacheMode.NoCache, QGraphicsItem.CacheMode.DeviceCoordinateCache


def _pictures(qtbot, X, style, view=((-1.2, 2.3), (-0.8, 1.3)), cache=NO_CACHE):
    """The points drawn by pyqtgraph's scatter and by DenseScatter, on plots of one size
    (with the item painted into a cached pixmap first, as the canvas does, or not)."""
    pictures = []
    for kind in (pg.ScatterPlotItem, DenseScatter):
        plot = pg.PlotWidget(background="w")
        qtbot.addWidget(plot)
        plot.resize(500, 420)
        item = kind(**style)
        item.setData(X[:, 0], X[:, 1])
        item.setCacheMode(cache)
        plot.addItem(item)
        plot.setRange(xRange=view[0], yRange=view[1], padding=0)
        plot.show()
        qtbot.waitExposed(plot)
        image = plot.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
        rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), -1)
        pictures.append(rows[:, :4 * image.width()].reshape(image.height(), -1, 4).astype(int))
    return pictures


@pytest.mark.parametrize("marker", MARKERS)
def test_a_few_points_look_exactly_as_pyqtgraph_draws_them(qtbot, marker):
    X = make_dataset("moons", n=300, noise=0.2, seed=0).X
    ours, theirs = _pictures(qtbot, X, MARKERS[marker])
    assert (np.abs(theirs - ours).max(axis=2) > 0).sum() == 0
    assert (ours[..., :3].sum(axis=2) < 600).sum() > 300 * 20      # the markers are there


@pytest.mark.parametrize("cache", [NO_CACHE, CACHED])
@pytest.mark.parametrize("marker", MARKERS)
def test_piled_up_points_look_as_pyqtgraph_draws_them(qtbot, marker, cache):
    """20,000 points on a 500-pixel plot: where several markers land on the same pixels only
    the top one is drawn, so a soft edge under it is shaded once instead of several times
    (64 levels lighter at most where two piled up, a few more under more); nothing else
    differs (a marker missing or out of place leaves pixels 150 and more levels apart)."""
    X = make_dataset("moons", n=20_000, noise=0.2, seed=1).X
    for view in (((-1.2, 2.3), (-0.8, 1.3)), ((-0.7, 1.8), (-0.3, 0.9))):
        ours, theirs = _pictures(qtbot, X, MARKERS[marker], view=view, cache=cache)
        difference = np.abs(theirs - ours).max(axis=2)
        assert difference.max() <= 100
        assert (difference > 3).mean() < 0.003


def test_points_on_the_views_edge_and_far_beyond_it(qtbot):
    """Markers cut by the view's edge are drawn as far as they show; points far outside
    (a billion units away too) draw nothing."""
    X = np.array([[0.0, 0.0], [1.0, 0.5], [-1.2, 0.2], [2.3, 1.3], [50.0, 50.0], [-1e9, 3.0]])
    ours, theirs = _pictures(qtbot, X, MARKERS["ring"])
    assert np.abs(theirs - ours).max() == 0
