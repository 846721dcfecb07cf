"""A multi-class model's borders are lines where its one-vs-one vote changes: each vertex
has the model's predicted classes differ on its two sides (the model's own predict, a
small step either way across the line), and the lines are smooth, not the grid's
staircase; at any zoom."""
from __future__ import annotations

import numpy as np
import pytest

from svmdesk.core import SVC
from svmdesk.core.estimators.one_vs_one import machine_pairs
from svmdesk.drawing.contours import vote_borders
from svmdesk.drawing.decision_grid import GridSpec, machine_grids


def _five_blobs(seed=0):
    rng = np.random.default_rng(seed)
    centres = [(3 * np.cos(2 * np.pi * k / 5), 3 * np.sin(2 * np.pi * k / 5)) for k in range(5)]
    X = np.vstack([rng.normal(c, 1.0, (40, 2)) for c in centres])
    return X, np.repeat(np.arange(5), 40)


def _borders(svc, spec):
    model = svc.model_
    grids = machine_grids(model, spec)
    return vote_borders(grids, machine_pairs(len(model.classes)), spec.xs, spec.ys)


def _segments(lines):
    a, b = lines[:-1], lines[1:]
    whole = np.isfinite(a).all(axis=1) & np.isfinite(b).all(axis=1)
    return a[whole], b[whole]


@pytest.mark.parametrize("spec", [GridSpec(-6, 6, -6, 6, 200, 200),
                                  GridSpec(-0.5, 1.5, -0.4, 1.6, 200, 200)],   # zoomed in
                         ids=["whole", "zoomed"])
@pytest.mark.parametrize("kernel", ["linear", "rbf"])
def test_each_border_vertex_has_other_classes_on_its_two_sides(spec, kernel):
    X, y = _five_blobs()
    model = SVC(kernel=kernel, C=1.0).fit(X, y)
    a, b = _segments(_borders(model, spec))
    assert len(a) > 50
    middle, along = (a + b) / 2, b - a
    normal = np.column_stack([-along[:, 1], along[:, 0]])
    normal /= np.linalg.norm(normal, axis=1, keepdims=True)
    step = 0.25 * (spec.xs[1] - spec.xs[0])
    left, right = model.predict(middle + step * normal), model.predict(middle - step * normal)
    assert np.mean(left != right) >= 0.97        # a few may sit where three classes meet
    # smooth: the old staircase ran along the grid's rows and columns, segment by segment
    axis_aligned = (np.abs(along[:, 0]) < 1e-12) | (np.abs(along[:, 1]) < 1e-12)
    assert np.mean(axis_aligned) < 0.2


def test_a_machine_s_line_is_drawn_only_where_it_decides_the_vote():
    """Ten machines' lines cross the whole plane; the borders keep the parts of each where
    the vote changes across it."""
    from svmdesk.drawing.contours import contour_paths

    X, y = _five_blobs(1)
    model = SVC(kernel="linear").fit(X, y)
    spec = GridSpec(-6, 6, -6, 6, 120, 120)
    kept = np.isfinite(_borders(model, spec)).all(axis=1).sum()
    every = sum(np.isfinite(contour_paths(g, spec.xs, spec.ys, 0.0)).all(axis=1).sum()
                for g in machine_grids(model.model_, spec))
    assert 0 < kept < every / 2
