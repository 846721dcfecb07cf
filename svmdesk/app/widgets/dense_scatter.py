"""The one-marker scatter that draws a marker once per device pixel: the canvas's points and
rings, fast at tens of thousands of points."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg


class DenseScatter(pg.ScatterPlotItem):
    """A scatter whose points all wear the item's one marker, drawn once per device pixel.

    Qt puts the pre-rendered marker on whole device pixels, so of the points that fall on
    one pixel only the top one needs drawing: the others are the same marker in the same
    spot, under it. With 100,000 moons on the canvas a zoom repaints in about 11 ms instead
    of 20. Exports (PNG at another width, SVG) draw every point as pyqtgraph does.
    Points take no styles of their own: the item's symbol, pen and brush are theirs, and
    its size unless setData gives sizes that differ (the support vectors' rings, sized by
    alpha), which pyqtgraph's own drawing then draws; and they change through setData
    only (which makes new records; the positions kept for drawing are keyed to them).
    """

    def __init__(self, **style):
        super().__init__(**style)
        self._positions_of, self._xy = None, None
        self._one_marker = True

    def setData(self, *args, **kargs):
        size = kargs.get("size")
        self._one_marker = (size is None or np.ndim(size) == 0 or not len(size)
                            or bool(np.all(np.asarray(size) == np.asarray(size)[0])))
        super().setData(*args, **kargs)

    def updateSpots(self, dataSet=None):
        data = self.data if dataSet is None else dataSet
        unset = np.flatnonzero(data["sourceRect"]["w"] == 0)
        if self.opts["pxMode"] and self.opts["useCache"] and len(unset) and self._one_marker:
            # every point wears the item's one marker: look it up once, not once per point
            style = list(zip(*self._style(["symbol", "size", "pen", "brush"], data=data,
                                          idx=unset[:1])))
            data["sourceRect"][unset] = self.fragmentAtlas[style][0]
            self.invalidate()
        super().updateSpots(dataSet)

    def paint(self, p, option, widget):
        if (self._exportOpts is not False or not self.opts["pxMode"] or not len(self.data)
                or self.viewRect() is None or not self._one_marker):
            return super().paint(p, option, widget)
        dpr = widget.devicePixelRatioF() if widget is not None else 1.0
        if self.fragmentAtlas.devicePixelRatio() != dpr:
            return super().paint(p, option, widget)      # it renders the atlas anew
        xy = self._one_per_pixel(p.transform(), p.device().devicePixelRatioF())
        p.resetTransform()
        self._pixmapFragments.resize(len(xy))
        fragments = self._pixmapFragments.ndarray()
        fragments[:, 0:2] = xy
        fragments[:, 2:6] = np.frombuffer(self.data["sourceRect"][:1], dtype=int)
        fragments[:, 6:10] = [1 / dpr, 1 / dpr, 0.0, 1.0]
        p.drawPixmapFragments(*self._pixmapFragments.drawargs(), self.fragmentAtlas.pixmap)

    def _one_per_pixel(self, t, ratio: float) -> np.ndarray:
        """Device positions (logical pixels) of the points to draw, in drawing order: of the
        points in view whose markers land on the same device pixels, the last (on top).
        Column by column: numpy is several times slower across the two columns of an
        (n, 2) array, and this runs on every repaint."""
        x, y = self._positions()
        x, y = t.m11() * x + t.m21() * y + t.m31(), t.m12() * x + t.m22() * y + t.m32()
        marker = self.data["sourceRect"][0]
        w, h = int(marker["w"]), int(marker["h"])              # device pixels
        # in view, as pyqtgraph culls: the centre within half a marker of the view
        view = t.mapRect(self.viewRect())
        left, right = view.left() - w / (2 * ratio), view.right() + w / (2 * ratio)
        top, bottom = view.top() - h / (2 * ratio), view.bottom() + h / (2 * ratio)
        shown = np.flatnonzero((x > left) & (x < right) & (y > top) & (y < bottom))
        x, y = x[shown], y[shown]
        # Qt puts a marker's corner on the device pixel qRound(centre - size / 2)
        col0, row0 = int(np.floor(left * ratio)) - w, int(np.floor(top * ratio)) - h
        width = int(np.ceil(right * ratio)) + w - col0
        height = int(np.ceil(bottom * ratio)) + h - row0
        col = _q_round(x * ratio - w / 2).astype(np.int64) - col0
        row = _q_round(y * ratio - h / 2).astype(np.int64) - row0
        pixel = row * width + col
        # of the points on a pixel, the top one (numbered from 1: calloc'd zeros are free)
        number = np.arange(1, len(pixel) + 1)
        last = np.zeros(width * height, dtype=number.dtype)
        np.maximum.at(last, pixel, number)
        top_one = last[pixel] == number
        return np.column_stack([x[top_one], y[top_one]])

    def _positions(self):
        """The points' x and y as contiguous arrays, kept until the points change (the
        scatter's own columns are strided through its records: slow to compute on)."""
        if self._positions_of is not self.data:
            self._positions_of = self.data
            visible = self.data["visible"]
            self._xy = (self.data["x"][visible].copy(), self.data["y"][visible].copy())
        return self._xy


def _q_round(v: np.ndarray) -> np.ndarray:
    """Qt's qRound: halves away from zero."""
    return np.trunc(v + np.copysign(0.5, v))
