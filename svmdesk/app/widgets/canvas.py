"""The plot: points per class, decision regions, boundary, margins and support vectors.

It draws what it is handed (points, frames) and turns mouse gestures into requests; the
window decides what they do (undoable commands).
"""
from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsItem

from ...drawing.frame_views import at_probability, at_threshold
from ...drawing.shading import PALETTE
from ...i18n import N_, tr
from .dense_scatter import DenseScatter
from .step_marks import StepMarks

SYMBOLS = ["o", "s", "t", "d", "star", "h", "t1", "p"]
SYMBOL_NAMES = [N_("circle"), N_("square"), N_("triangle"), N_("diamond"), N_("star"),
                N_("hexagon"), N_("triangle up"), N_("pentagon")]     # shown with tr()
PICK_SLACK = 3               # pixels beyond a marker's edge where a press still grabs it
MARKER_SIZE = 10             # a point's marker (pixels) while the points are few
TERM_COLOUR = "#E6AB02"      # gold: the points of the largest terms of f under the cursor
RING_SIZE = 19               # a support vector's ring around it, then
RING_GROWTH = 5              # a ring of alpha = C is this much wider than a plain ring
RING_GAP = 2                 # the smallest ring (alpha near 0) hugs its marker this much
# What the rings' sizes say (Scene.ring_basis), in the plot's legend
BATCH_COLOUR = "#1F4E9E"     # blue: the points of Pegasos' last mini-batch
BATCH_WORDS = N_("the last step's mini-batch")
RING_BASES = {"bound": N_("ring area around the point ∝ α/C_i"),
              "largest": N_("ring area around the point ∝ α/largest α"),
              "": N_("rings one size: this solver has no α")}
FULL_SIZE_UP_TO = 1000       # points shown at full size; more shrink the markers
SMALLEST_MARKER = 3
MARK_COLOUR = "#303030"      # novelty: the user's outlier marks (crosses)
OUTSIDE_COLOUR = "#C0392B"   # novelty: what the model leaves outside its region (f < 0)
SLACK_COLOUR = "#7D3C98"     # purple: each margin violator's slack, a line to its margin


def _shrink(n: int) -> float:
    """How much markers shrink with n points shown: 1 up to FULL_SIZE_UP_TO points, then
    as n ** -0.3 (half size at 10,000 points, 0.4 at 20,000)."""
    return min(1.0, (FULL_SIZE_UP_TO / max(n, 1)) ** 0.3)


def marker_size(n: int) -> float:
    """The class markers' size (pixels) with n points shown: at 20,000 points markers of
    full size cover the model (the boundary under them showed only when zoomed in)."""
    return round(max(SMALLEST_MARKER, MARKER_SIZE * _shrink(n)), 1)


def marker_pen(n: int):
    """The markers' outline, thinning with their size (a 4-pixel marker in a 0.8-pixel
    dark outline is mostly outline: its class colour would not show)."""
    return pg.mkPen("#202020", width=round(0.8 * _shrink(n) ** 2, 2))


def ring_style(n: int) -> tuple[float, float, int]:
    """(size, pen width, pen alpha) of the support-vector rings with n points shown: around
    a marker still (a few pixels wider), thinner and fainter as they shrink: the 1,636
    bounded ones of 20,000 moons pile up in the margin band, and full-size rings there
    would hide the points and the band's shading under them."""
    f = _shrink(n)
    size = round(max(marker_size(n) + 3, RING_SIZE * f), 1)
    return size, round(max(1.0, 2 * f), 2), round(255 * max(0.5, f ** 0.5))


def ring_sizes(shares: np.ndarray, inner: float, full: float) -> np.ndarray:
    """Ring diameters (pixels) whose areas around their points are proportional to the
    shares (|alpha| over its bound, 0..1): the area between the ring and a circle of
    diameter `inner` (just around the marker), from none to full's at a share of 1. A ring
    sized by its whole area vanished inside its marker below a share of 1/4 (half the free
    support vectors of 200 moons, seen); half a pixel the step (pyqtgraph keeps a marker
    picture per size)."""
    return np.round(2 * np.sqrt(inner ** 2 + (full ** 2 - inner ** 2) * shares)) / 2


def plain_numbers(plot) -> None:
    """Every axis of `plot` labels its ticks with the values themselves: pyqtgraph's
    automatic SI prefix scales them instead (0.0001..0.0009 as ticks 100..900 and a label
    'x1 (x1e-06)'), which students read wrong."""
    for name in ("bottom", "left", "top", "right"):
        axis = plot.getAxis(name)
        axis.enableAutoSIPrefix(False)
        axis.autoSIPrefixScale = 1.0     # the scale enableAutoSIPrefix may leave behind


def class_color(k: int, alpha: int = 255) -> QColor:
    c = QColor(PALETTE[k % len(PALETTE)])
    c.setAlpha(alpha)
    return c


class _EditingViewBox(pg.ViewBox):
    """Clicks add or remove points, a drag that starts on a point moves it; other drags pan."""

    def __init__(self, canvas: Canvas):
        super().__init__(enableMenu=False)    # never built: its menu cost 4 ms a window
        self.canvas = canvas
        self._dragged = -1
        self._drag_start: tuple[float, ...] | None = None   # the dragged point's place

    def mouseClickEvent(self, ev):
        pos = self.mapSceneToView(ev.scenePos())
        xy = (pos.x(), pos.y())
        if ev.button() == Qt.MouseButton.LeftButton:
            if ev.modifiers() & Qt.KeyboardModifier.ControlModifier:
                index = self.canvas.point_near(ev.scenePos())
                if index >= 0:
                    self.canvas.remove_requested.emit(index)
            else:
                self.canvas.add_requested.emit(xy[0], xy[1], self.canvas.current_class)
            ev.accept()
        elif ev.button() == Qt.MouseButton.RightButton:   # quick binary workflow; a mark
            self.canvas.add_requested.emit(xy[0], xy[1], self.canvas.right_class)
            ev.accept()
        else:
            super().mouseClickEvent(ev)

    def mouseDragEvent(self, ev, axis=None):
        if ev.button() != Qt.MouseButton.LeftButton:
            ev.ignore()                  # no right-drag zoom: right click adds points
            return
        if ev.isStart():
            self._dragged = self.canvas.point_near(ev.buttonDownScenePos())
            if self._dragged >= 0:
                self._drag_start = tuple(self.canvas.points_xy[self._dragged])
        if self._dragged < 0:
            super().mouseDragEvent(ev, axis)
            return
        ev.accept()
        pos = self.mapSceneToView(ev.scenePos())
        self.canvas.drag_moved.emit(self._dragged, pos.x(), pos.y())
        if ev.isFinish():
            self.canvas.drag_finished.emit(self._dragged, self._drag_start, (pos.x(), pos.y()))
            self._dragged = -1


class Canvas(pg.PlotWidget):
    add_requested = Signal(float, float, int)       # x, y, class index
    remove_requested = Signal(int)                  # point index
    drag_moved = Signal(int, float, float)          # point index, x, y (live)
    drag_finished = Signal(int, object, object)     # point index, old (x, y), new (x, y)
    hovered = Signal(float, float)                  # data coordinates under the mouse
    painted = Signal()                              # the plot was painted on the screen
    probabilities_available = Signal(bool)          # whether the frame shown has class
                                                    # probabilities (at every frame shown)

    def __init__(self, parent=None):
        self.view = _EditingViewBox(self)
        super().__init__(parent, viewBox=self.view, background="w")
        self.current_class = 0
        self.right_class = 1         # the class a right click adds (novelty: a mark)
        self.points_xy = np.empty((0, 2))
        self.hard_regions = False
        self.by_probability = False     # shade and bound the regions by class probability
        self.threshold = 0.0        # the boundary drawn: f = threshold (two classes), or
        self.chosen: int | None = None  # the chosen class's region at it (more classes)
        self.on_probability = False     # the threshold is on P (frame_views.at_probability)
        self._last_frame = None
        self.hovered_point = -1         # the point under the cursor (-1: none)
        # the boundary and margins drawn (polylines), and those of the moment before
        self._lines: tuple | None = None
        self._lines_before: tuple | None = None
        self.setMenuEnabled(False)              # the plot's own menu (the view's has none)
        # Keys (Esc, Space, Delete, 1-8) are the window's shortcuts; a focused graphics view
        # would swallow some of them.
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        plain_numbers(self)
        self.set_axis_names(("x1", "x2"))
        self.legend = self.plotItem.addLegend(offset=(8, 8), labelTextSize="10pt",
                                              labelTextColor="#202020",
                                              brush=pg.mkBrush(255, 255, 255, 200))
        # what the rings' sizes say: a legend of its own in the bottom right corner, where
        # it hides no class's entry (the class legend grows with the classes, top left)
        self.ring_legend = pg.LegendItem(offset=(-8, -8), labelTextSize="9pt",
                                         labelTextColor="#202020",
                                         brush=pg.mkBrush(255, 255, 255, 200))
        self.ring_legend.setParentItem(self.plotItem.vb)
        self.ring_legend.hide()
        self.corner_legend = True       # False: a small canvas, whose corner has no room
        self.view.setAspectLocked(False)

        # the pictures' rows run along y (row-major), said here rather than left to
        # pyqtgraph's global option, which a window made outside main() does not set
        self.regions = pg.ImageItem(axisOrder="row-major")
        self.regions.setZValue(-10)
        self.addItem(self.regions)
        # Dashed antialiased paths are the costliest thing on the canvas; hairline dashes
        # without antialiasing look the same at this size and draw three times faster.
        self.margins = pg.PlotCurveItem(pen=pg.mkPen("#333333", width=1,
                                                     style=Qt.PenStyle.DashLine),
                                        antialias=False)
        self.boundary = pg.PlotCurveItem(pen=pg.mkPen("#111111", width=2.5))
        for curve in (self.margins, self.boundary):
            curve.setZValue(30)                     # over the points and the rings
            self.addItem(curve)
        # sized one by one (by alpha): drawn fast while their sizes agree (the bounded
        # ones', all alpha = C: thousands at 20,000 moons), by pyqtgraph where they differ
        self.free_rings = DenseScatter(size=RING_SIZE, brush=None,
                                       pen=pg.mkPen("#111111", width=2))
        self.bounded_rings = DenseScatter(size=RING_SIZE, brush=None, symbol="s",
                                          pen=pg.mkPen("#C0392B", width=2))
        # a run of Pegasos: its last step's mini-batch, crossed
        self.batch_marks = pg.ScatterPlotItem(size=MARKER_SIZE + 2, symbol="+",
                                              brush=pg.mkBrush(BATCH_COLOUR), pen=None)
        self.batch_marks.setZValue(27)
        self._batch_sample = pg.ScatterPlotItem(size=MARKER_SIZE + 2, symbol="+",
                                                brush=pg.mkBrush(BATCH_COLOUR), pen=None)
        self.ring_size = float(RING_SIZE)           # a plain ring's, with the points shown
        self.ring_inner = float(MARKER_SIZE + RING_GAP)     # the smallest sized ring's
        self.ring_basis: str | None = None          # what the rings' sizes say (legend)
        self._batch_shown = False                   # ... and whether a batch is marked
        self._ring_sample = pg.ScatterPlotItem(size=MARKER_SIZE + 4, brush=None,
                                               pen=pg.mkPen("#111111", width=1.5))
        for item in (self.free_rings, self.bounded_rings):
            item.setZValue(20)                      # over the points: outlines only
        self.scatter = []                           # one item per class
        # The legend shows each class's marker at full size, whatever the points' size: a
        # click on it shows or hides the class as it would on the class's own item.
        self._samples = []
        for k in range(len(PALETTE)):
            style = dict(symbol=SYMBOLS[k], brush=pg.mkBrush(class_color(k)))
            item = DenseScatter(size=MARKER_SIZE, pen=marker_pen(0), **style)
            item.setZValue(10)
            self.addItem(item)
            self.scatter.append(item)
            sample = pg.ScatterPlotItem(size=MARKER_SIZE, pen=marker_pen(0), **style)
            sample.visibleChanged.connect(
                lambda item=item, sample=sample: item.setVisible(sample.isVisible()))
            self._samples.append(sample)
        self.held_out = pg.ScatterPlotItem(size=MARKER_SIZE, brush=None)
        self.held_out.setZValue(10)
        # novelty detection: the user's outlier marks (never trained on), and a red cross
        # over every point the model leaves outside its region
        self.marks = pg.ScatterPlotItem(size=MARKER_SIZE + 2, symbol="x",
                                        brush=pg.mkBrush(MARK_COLOUR), pen=marker_pen(0))
        self.marks.setZValue(10)
        self.outside = pg.ScatterPlotItem(size=RING_SIZE, symbol="x", brush=None,
                                          pen=pg.mkPen(OUTSIDE_COLOUR, width=1.5))
        self.outside.setZValue(25)
        self._marks_sample = pg.ScatterPlotItem(size=MARKER_SIZE + 2, symbol="x",
                                                brush=pg.mkBrush(MARK_COLOUR),
                                                pen=marker_pen(0))
        self._outside_sample = pg.ScatterPlotItem(size=MARKER_SIZE + 4, symbol="x", brush=None,
                                                  pen=pg.mkPen(OUTSIDE_COLOUR, width=1.5))
        # The points stay put while a model is trained under them: each class is painted
        # once into a pixmap and copied on every frame after (20,000 points: 5 ms a frame
        # less), until the points or the view change.
        for item in (*self.scatter, self.held_out):
            item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        # A pan would scroll the pixmaps and paint only what it uncovers within them,
        # leaving out the markers beyond their old edges or cutting them in half: a moved
        # view paints the points anew.
        self.view.sigRangeChanged.connect(self._repaint_points)
        # regression: each sample's residual, a thin line to the curve
        self.residuals = pg.PlotCurveItem(pen=pg.mkPen("#7F7F7F", width=1), antialias=False)
        self.residuals.setZValue(5)
        self.show_residuals = True
        # a linear classifier's slacks: a thin line from each margin violator to its margin
        # a hairline: thousands of segments at 20,000 points (1.5 pixels wide: 20 ms a
        # repaint, measured)
        self.slack = pg.PlotCurveItem(pen=pg.mkPen(SLACK_COLOUR, width=1), antialias=False)
        self.slack.setZValue(26)                    # over the rings, under the lines
        self.show_slack = False
        for item in (self.free_rings, self.bounded_rings, self.held_out, self.marks,
                     self.outside, self.residuals, self.slack, self.batch_marks):
            self.addItem(item)
        self.step_marks = StepMarks(self)
        # the points of the largest terms of f under the cursor (the hover's)
        self.term_marks = pg.ScatterPlotItem(size=RING_SIZE + 8, symbol="o", brush=None,
                                             pen=pg.mkPen(TERM_COLOUR, width=2.5))
        self.term_marks.setZValue(30)
        self.addItem(self.term_marks)
        for item in self.plotItem.items:       # clicks and drags are the view box's to handle
            item.mouseClickEvent = _ignore
        self.view.disableAutoRange()           # the view must not jump while points are placed
        self.scene().sigMouseMoved.connect(self._mouse_moved)

    # -- points ---------------------------------------------------------------------------
    def set_points(self, X: np.ndarray, y: np.ndarray, test: np.ndarray, names,
                   task: str = "classification") -> None:
        """Draw the points: each class in its colour and marker, held-out ones hollow; in
        novelty detection y is 0 for a point of the one class and 1 for an outlier mark,
        drawn as a cross; in regression every point is a sample, in one colour (app/tasks.py
        says what y holds in each task)."""
        self.points_xy = np.asarray(X)
        novelty = task == "novelty"
        if task == "regression":
            y = np.zeros(len(y), dtype=np.intp)          # the classes kept are not shown
        marks = (np.asarray(y) == 1) if novelty else np.zeros(len(y), dtype=bool)
        train = ~np.asarray(test, dtype=bool) & ~marks
        self.legend.clear()
        # markers shrink as the points grow many, the rings with them
        size, pen = marker_size(len(X)), marker_pen(len(X))
        for k, item in enumerate(self.scatter):
            mine = (y == k) & train
            item.setSize(size, update=False)
            item.setPen(pen, update=False)
            item.setData(X[mine, 0], X[mine, 1])
            present = bool((y[~marks] == k).any())
            self._samples[k].setVisible(present)
            item.setVisible(present)               # an empty item still costs a paint call
            if present:
                self.legend.addItem(self._samples[k], _label(
                    tr("points") if novelty else tr("samples") if task == "regression"
                    else names[k]))
        self.marks.setSize(size + 2)
        self.marks.setData(X[marks, 0], X[marks, 1])
        self.marks.setVisible(bool(marks.any()))
        if marks.any():
            self.legend.addItem(self._marks_sample, _label(tr("outlier marks (never trained on)")))
        if novelty:
            self.legend.addItem(self._outside_sample, _label(tr("outside the region (f < 0)")))
        ring, width, alpha = ring_style(len(X))
        self.ring_size, self.ring_inner = ring, size + RING_GAP
        for item in (self.free_rings, self.bounded_rings):
            pen = pg.mkPen(item.opts["pen"])
            colour = pen.color()
            colour.setAlpha(alpha)
            pen.setColor(colour)
            pen.setWidthF(width)
            if item.opts["size"] != ring or item.opts["pen"] != pen:
                item.setSize(ring, update=False)   # a plain ring's
                item.setPen(pen)                   # the rings drawn now take it at once
        if self._last_frame is not None:           # their sizes follow the points' too
            self._show_rings(self._last_frame.scene)
        self.held_out.setSize(size, update=False)
        held = np.flatnonzero(~train & ~marks)
        # Held-out points: hollow, outlined in their class colour.
        self.held_out.setData(
            [{"pos": (X[i, 0], X[i, 1]), "symbol": SYMBOLS[y[i] % 8],
              "pen": pg.mkPen(class_color(int(y[i])), width=2), "brush": None} for i in held])
        self.held_out.setVisible(len(held) > 0)

    def _repaint_points(self) -> None:
        # (update() keeps the scrolled pixmap: only a change of cache mode drops it)
        for item in (*self.scatter, self.held_out):
            item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
            item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def set_axis_names(self, names) -> None:
        self.axis_names = (str(names[0]), str(names[1]))
        self.setLabel("bottom", names[0])
        self.setLabel("left", names[1])

    def point_near(self, scene_pos) -> int:
        """Index of the point whose marker is under a scene position (within PICK_SLACK
        pixels of its edge), or -1. The reach is the marker's, not a fixed 10 px: at
        20,000 points (4 px markers) a press between them grabbed one instead of panning."""
        if not len(self.points_xy):
            return -1
        # the view's map to the scene is a scale and a shift (no rotation): all points at once
        origin = self.view.mapViewToScene(QPointF(0.0, 0.0))
        unit = self.view.mapViewToScene(QPointF(1.0, 1.0)) - origin
        scene = self.points_xy * [unit.x(), unit.y()] + [origin.x(), origin.y()]
        d = np.hypot(*(scene - [scene_pos.x(), scene_pos.y()]).T)
        k = int(d.argmin())
        reach = marker_size(len(self.points_xy)) / 2 + PICK_SLACK
        return k if d[k] <= reach else -1

    def paintEvent(self, ev) -> None:
        super().paintEvent(ev)
        self.painted.emit()

    # -- model ----------------------------------------------------------------------------
    @property
    def frame(self):
        """The frame drawn (None: no model)."""
        return self._last_frame

    def show_frame(self, frame) -> None:
        """Draw the frame's scene (the frame is kept: the window reads the moment drawn);
        a paused SMO run's pair step marked over the lines of the moment drawn before."""
        last = self._last_frame
        if last is None or frame.reading.snapshot is not last.reading.snapshot:
            self._lines_before = self._lines      # a new moment (not the same redrawn)
        self._last_frame = frame
        self._show_scene(frame)
        self._show_step(frame)

    def _show_scene(self, frame) -> None:
        self.probabilities_available.emit(frame.scene.class_probabilities is not None)
        scene = (at_probability(frame.scene, self.threshold, self.chosen)
                 if self.on_probability else
                 at_threshold(frame.scene, self.threshold, self.chosen))
        if scene.regression:
            self._show_curve(scene)
            return
        self.residuals.setData([], [])
        spec = scene.spec
        none = np.empty((0, 2))
        zero = scene.probability_boundary
        if self.by_probability and zero is not None:
            picture = scene.probability_picture
        else:
            picture = scene.hard_picture if self.hard_regions else scene.picture
            zero = scene.contours.get(0.0, none)
        # an RGBA picture made with the frame: shown as it is
        self.regions.setImage(picture, autoLevels=False, levels=(0, 255), lut=None)
        self.regions.setRect(spec.x_min, spec.y_min, spec.x_max - spec.x_min,
                             spec.y_max - spec.y_min)
        margins = np.vstack([scene.contours.get(-1.0, none), np.full((1, 2), np.nan),
                             scene.contours.get(1.0, none)])
        self.boundary.setData(zero[:, 0], zero[:, 1], connect="finite")
        self.margins.setData(margins[:, 0], margins[:, 1], connect="finite")
        self._lines = (zero, margins)
        slack = scene.slack if self.show_slack else np.empty((0, 2))
        self.slack.setData(slack[:, 0], slack[:, 1], connect="finite")
        self._show_rings(scene)
        outside = scene.outside_xy
        self.outside.setData(outside[:, 0], outside[:, 1])
        self.outside.setVisible(len(outside) > 0)

    def _show_step(self, frame) -> None:
        """While the run is paused, SMO's last pair step: i and j ringed and labelled, the
        boundary and margins before it faint under the new ones."""
        pair = frame.scene.pair_xy
        if not (frame.run.paused and len(pair) == 2):
            self.step_marks.clear()
            return
        none = np.empty((0, 2))
        boundary, margins = self._lines_before or (none, none)
        self.step_marks.show(pair, boundary, margins, frame.scene.kkt, frame.scene.kkt_xy)

    def _show_rings(self, scene) -> None:
        """The support vectors ringed: free ones in black circles, bounded ones (inside
        their margin, outside the region or the tube) in red squares."""
        sv, bounded = scene.support_xy, scene.bounded
        batch = scene.batch_xy
        self.batch_marks.setData(batch[:, 0], batch[:, 1])
        self.batch_marks.setVisible(len(batch) > 0)   # an empty item still costs a paint
        sizes = np.full(len(sv), self.ring_size)
        if scene.ring_share is not None:
            sizes = ring_sizes(scene.ring_share, self.ring_inner,
                               self.ring_size + RING_GROWTH)
        self.free_rings.setData(sv[~bounded, 0], sv[~bounded, 1], size=sizes[~bounded])
        self.bounded_rings.setData(sv[bounded, 0], sv[bounded, 1], size=sizes[bounded])
        self._show_ring_basis(scene.ring_basis if len(sv) else None, len(batch) > 0)
        self.free_rings.setVisible(bool((~bounded).any()))
        self.bounded_rings.setVisible(bool(bounded.any()))

    def _show_ring_basis(self, basis: str | None, batch: bool = False) -> None:
        """The corner legend: what the rings' sizes say (None: no rings, no line), and the
        mini-batch's marks while they are drawn."""
        if (basis, batch) == (self.ring_basis, self._batch_shown):
            return
        self.ring_legend.clear()
        self.ring_basis, self._batch_shown = basis, batch
        if basis is not None:
            self.ring_legend.addItem(self._ring_sample, _label(tr(RING_BASES[basis])))
        if batch:
            self.ring_legend.addItem(self._batch_sample, _label(tr(BATCH_WORDS)))
        self.ring_legend.setVisible(self.corner_legend and (basis is not None or batch))

    def _show_curve(self, scene) -> None:
        """A regression's scene: the curve f(x) solid, the tube f(x) +- its half-width
        dashed, each sample's residual (when shown), the support vectors ringed."""
        self.regions.clear()
        self.slack.setData([], [])
        x, f = scene.curve[:, 0], scene.curve[:, 1]
        gap = np.array([np.nan])
        tube = np.column_stack([np.concatenate([x, gap, x]),
                                np.concatenate([f + scene.tube, gap, f - scene.tube])])
        self.boundary.setData(x, f)
        self.margins.setData(tube[:, 0], tube[:, 1], connect="finite")
        self._lines = (scene.curve, tube)
        residuals = scene.residuals if self.show_residuals else np.empty((0, 2))
        self.residuals.setData(residuals[:, 0], residuals[:, 1], connect="finite")
        self._show_rings(scene)
        self.outside.setData([], [])
        self.outside.setVisible(False)

    def set_residuals(self, shown: bool) -> None:
        self.show_residuals = shown
        if self._last_frame is not None:
            self.show_frame(self._last_frame)

    def set_slack(self, shown: bool) -> None:
        self.show_slack = shown
        if self._last_frame is not None:
            self.show_frame(self._last_frame)

    def set_threshold(self, threshold: float, chosen: int | None = None,
                      on_probability: bool = False) -> None:
        """Draw the sides and the boundary at the evaluation's threshold on f (two classes
        and novelty detection), or the chosen class's region against the rest at its
        threshold (more classes: frame_views.at_threshold); on_probability: t is on P
        (frame_views.at_probability)."""
        self.on_probability = on_probability        # t is on P, not f
        self.threshold, self.chosen = float(threshold), chosen
        if self._last_frame is not None:
            self.show_frame(self._last_frame)

    def set_hard_regions(self, hard: bool) -> None:
        self.hard_regions = hard
        if self._last_frame is not None:
            self.show_frame(self._last_frame)

    def set_by_probability(self, shaded: bool) -> None:
        self.by_probability = shaded
        if self._last_frame is not None:
            self.show_frame(self._last_frame)

    def show_terms(self, where: np.ndarray) -> None:
        """Ring the points of f's largest terms under the cursor ((k, 2); none: no rings)."""
        self.term_marks.setData(where[:, 0], where[:, 1])
        self.term_marks.setVisible(len(where) > 0)

    def leaveEvent(self, ev) -> None:
        super().leaveEvent(ev)
        self.hovered_point = -1
        self.show_terms(np.empty((0, 2)))     # the cursor left: no place, no terms

    def clear_model(self) -> None:
        self.show_terms(np.empty((0, 2)))
        self._last_frame = None
        self._lines = self._lines_before = None
        self.step_marks.clear()
        self.probabilities_available.emit(False)
        self.regions.clear()
        for item in (self.boundary, self.margins):
            item.setData([], [])
        for item in (self.free_rings, self.bounded_rings, self.outside, self.residuals,
                     self.slack, self.batch_marks):
            item.setData([], [])
        self._show_ring_basis(None)

    def fit_view(self) -> None:
        if len(self.points_xy):
            lo, hi = self.points_xy.min(axis=0), self.points_xy.max(axis=0)
            # a tenth of the spread on each side, in each axis's own units (a feature of
            # 0.07 to 0.23 fills the canvas as one of 7 to 36 does); points in one line or
            # one point get half a unit, or a tenth of where they lie
            span = hi - lo
            pad = np.where(span > 0, 0.1 * span, np.maximum(0.5, 0.1 * np.abs(lo)))
            self.view.setRange(xRange=(lo[0] - pad[0], hi[0] + pad[0]),
                               yRange=(lo[1] - pad[1], hi[1] + pad[1]), padding=0)

    def _mouse_moved(self, scene_pos) -> None:
        if self.view.sceneBoundingRect().contains(scene_pos):
            self.hovered_point = self.point_near(scene_pos)
            p = self.view.mapSceneToView(scene_pos)
            self.hovered.emit(p.x(), p.y())


def _label(text: str) -> str:
    """A legend entry's text as written: the legend reads its labels as HTML, where a class
    named '<5' or 'f < 0' would lose what follows the '<'."""
    return html.escape(str(text), quote=False)


def _ignore(ev) -> None:
    ev.ignore()
