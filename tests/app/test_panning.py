"""Dragging the canvas pans unless the press is on a point: at 20,000 points a press on the
empty canvas between the markers pans and moves no point; zoomed in, a press on a point
still moves it."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF

from svmdesk.app.widgets.canvas import marker_size

from .test_window import drag


def _screen_points(window) -> np.ndarray:
    view = window.canvas.view
    return np.array([[p.x(), p.y()] for p in (view.mapViewToScene(QPointF(*xy))
                                              for xy in window.points.X)])


def _empty_place(window, nearest_between: tuple) -> tuple:
    """A place of the view (data coordinates) whose nearest point lies, on the screen,
    between the two distances (pixels): empty canvas between the markers."""
    view = window.canvas.view
    screen = _screen_points(window)
    (x0, x1), (y0, y1) = view.viewRange()
    for x in np.linspace(x0, x1, 120)[10:-10]:
        for y in np.linspace(y0, y1, 80)[10:-10]:
            at = view.mapViewToScene(QPointF(x, y))
            d = np.hypot(*(screen - [at.x(), at.y()]).T).min()
            if nearest_between[0] <= d <= nearest_between[1]:
                return x, y
    raise AssertionError("no such place in the view")


def test_a_drag_on_empty_canvas_at_20000_points_pans_and_moves_no_point(window, qtbot):
    window.editing.generate("moons", 20_000, 0.3, 0)
    assert marker_size(20_000) < 5
    start = _empty_place(window, (6.0, 9.0))        # visibly no marker there (4 px ones)
    X = window.points.X.copy()
    before = window.canvas.view.viewRange()
    (x0, x1), _ = before
    drag(window, start, (start[0] + 0.2 * (x1 - x0), start[1]))
    np.testing.assert_array_equal(window.points.X, X)
    assert window.canvas.view.viewRange()[0] != before[0]          # it panned


def test_zoomed_in_a_press_on_a_point_still_moves_it(window, qtbot):
    window.editing.generate("moons", 20_000, 0.3, 0)
    view = window.canvas.view
    k = 123
    x, y = window.points.X[k]
    view.setRange(xRange=(x - 0.05, x + 0.05), yRange=(y - 0.05, y + 0.05), padding=0)
    qtbot.waitUntil(lambda: abs(view.viewRange()[0][1] - view.viewRange()[0][0] - 0.1) < 1e-3,
                    timeout=2000)
    screen = _screen_points(window)
    at = view.mapViewToScene(QPointF(x, y))
    nearest = np.argsort(np.hypot(*(screen - [at.x(), at.y()]).T))[:2]
    assert nearest[0] == k
    drag(window, (x, y), (x + 0.02, y))
    assert abs(window.points.X[k][0] - (x + 0.02)) < 0.005
