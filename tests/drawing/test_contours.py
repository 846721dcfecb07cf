"""Contours: known curves, closed and open polylines, saddles, holes, every vertex on a grid
edge at the level."""
from collections import Counter

import numpy as np
import pytest

from svmdesk.drawing.contours import contour_path_levels, contour_paths


def _grid(f, xs, ys):
    X, Y = np.meshgrid(xs, ys)          # X[j, i] = xs[i], Y[j, i] = ys[j]
    return f(X, Y)


def _pieces(paths):
    """The polylines of a contour_paths array, split at its NaN rows."""
    assert paths.ndim == 2 and paths.shape[1] == 2 and paths.dtype == np.float64
    if len(paths) == 0:
        return []
    gap = np.isnan(paths).any(axis=1)
    assert np.all(np.isnan(paths[gap]))                         # whole rows of NaN
    assert not gap[0] and not gap[-1] and not np.any(gap[1:] & gap[:-1])
    pieces = np.split(paths, np.flatnonzero(gap))
    pieces = [pieces[0]] + [p[1:] for p in pieces[1:]]
    assert all(len(p) >= 2 for p in pieces)
    return pieces


def _closed(piece):
    return np.array_equal(piece[0], piece[-1])


def _path_segments(paths):
    """Counter of the unordered vertex pairs of consecutive polyline vertices."""
    out = Counter()
    for p in _pieces(paths):
        for a, b in zip(map(tuple, p[:-1]), map(tuple, p[1:])):
            out[tuple(sorted((a, b)))] += 1
    return out


def _on_boundary(point, xs, ys):
    x, y = point
    return x in (xs[0], xs[-1]) or y in (ys[0], ys[-1])


def _signed_area(piece):
    x, y = piece.T
    return 0.5 * np.sum(x[:-1] * y[1:] - x[1:] * y[:-1])


@pytest.mark.parametrize("n", [50, 200])
def test_paths_circle_is_one_closed_polyline(n):
    xs, ys = np.linspace(-2, 2, n), np.linspace(-1.5, 1.7, n + 7)
    r, h = 1.2, 4 / (n - 1)
    paths = contour_paths(_grid(lambda x, y: x**2 + y**2 - r**2, xs, ys), xs, ys, 0.0)
    assert np.isfinite(paths).all()                             # a single piece
    (piece,) = _pieces(paths)
    assert _closed(piece)
    assert len(np.unique(piece[:-1], axis=0)) == len(piece) - 1  # each vertex once
    assert np.abs(np.hypot(*piece.T) - r).max() <= h**2
    length = np.linalg.norm(np.diff(piece, axis=0), axis=1).sum()
    assert length == pytest.approx(2 * np.pi * r, rel=1e-3 if n == 200 else 5e-3)
    # the samples above the level (outside) on the left: clockwise
    assert _signed_area(piece) == pytest.approx(-np.pi * r**2, rel=1e-2)
    # consecutive vertices run around the circle in small steps, never jumping across it
    assert np.linalg.norm(np.diff(piece, axis=0), axis=1).max() <= 1.5 * h


def test_paths_two_circles_give_two_closed_pieces():
    xs, ys = np.linspace(-3, 3, 120), np.linspace(-2, 2, 90)
    values = _grid(lambda x, y: np.minimum(np.hypot(x + 1.5, y), np.hypot(x - 1.2, y - 0.3)) - 0.8,
                   xs, ys)
    paths = contour_paths(values, xs, ys, 0.0)
    assert np.isnan(paths).any(axis=1).sum() == 1
    pieces = _pieces(paths)
    assert len(pieces) == 2 and all(_closed(p) for p in pieces)
    centres = sorted(tuple(np.round(p[:-1].mean(axis=0), 1)) for p in pieces)
    assert centres == [(-1.5, 0.0), (1.2, 0.3)]
    for p in pieces:
        c = p[:-1].mean(axis=0)
        np.testing.assert_allclose(np.hypot(*(p - c).T), 0.8, atol=0.01)


def test_paths_straight_line_is_one_open_polyline_across_the_grid():
    xs, ys = np.linspace(0, 3, 31), np.linspace(-1, 1, 23)
    values = _grid(lambda x, y: 2 * x - 3 * y - 1, xs, ys)
    for level in (-0.5, 0.037, 0.9):   # (0.0 runs through a sample: a repeated vertex)
        paths = contour_paths(values, xs, ys, level)
        (piece,) = _pieces(paths)
        assert not _closed(piece)
        assert _on_boundary(piece[0], xs, ys) and _on_boundary(piece[-1], xs, ys)
        assert not any(_on_boundary(p, xs, ys) for p in piece[1:-1])
        np.testing.assert_allclose(2 * piece[:, 0] - 3 * piece[:, 1] - 1, level, atol=1e-12)
        assert np.all(np.diff(piece[:, 0]) >= 0) or np.all(np.diff(piece[:, 0]) <= 0)  # monotone
        # above (2x - 3y - 1 > level, i.e. towards +x) on the left: the line runs towards -y
        assert piece[-1, 1] < piece[0, 1]


def test_paths_saddle_cell_joins_or_separates_two_bumps():
    # high samples at (1, 1) and (2, 2), diagonal across the saddle cell (1, 1)-(2, 2)
    xs, ys = np.arange(4.0), np.arange(4.0)
    values = -np.ones((4, 4))
    values[1, 1] = values[2, 2] = 1.0
    # level 0: centre average 0 is not above: two diamonds of half-diagonal 0.5
    pieces = _pieces(contour_paths(values, xs, ys, 0.0))
    assert len(pieces) == 2 and all(_closed(p) and len(p) == 5 for p in pieces)
    for p in pieces:
        c = np.round(p[:-1].mean(axis=0))
        assert tuple(c) in {(1.0, 1.0), (2.0, 2.0)}
        np.testing.assert_allclose(np.abs(p - c).sum(axis=1), 0.5)
    # level -0.5: centre 0 is above: one loop around both high samples, 8 crossings
    (piece,) = _pieces(contour_paths(values, xs, ys, -0.5))
    assert _closed(piece) and len(piece) == 9
    assert len(np.unique(piece[:-1], axis=0)) == 8
    # the mirrored field, two low samples: joined when the centre is below, else separate
    for level, count in ((0.0, 1), (0.5, 1), (-0.5, 2)):
        pieces = _pieces(contour_paths(-values, xs, ys, level))
        assert len(pieces) == count and all(_closed(p) for p in pieces)


def test_paths_saddle_of_a_hyperbola_gives_two_branches():
    xs, ys = np.linspace(-1, 1, 41), np.linspace(-1, 1.2, 45)
    values = _grid(lambda x, y: (x - 0.013) * (y + 0.021), xs, ys)
    for level in (0.0, 0.2, -0.2):
        paths = contour_paths(values, xs, ys, level)
        pieces = _pieces(paths)
        assert len(pieces) == 2, level
        for p in pieces:
            assert not _closed(p)
            assert _on_boundary(p[0], xs, ys) and _on_boundary(p[-1], xs, ys)
            assert np.linalg.norm(np.diff(p, axis=0), axis=1).max() < 0.08  # no jumps
        vertices = np.vstack(pieces)
        np.testing.assert_allclose((vertices[:, 0] - 0.013) * (vertices[:, 1] + 0.021), level,
                                   atol=1e-12)


@pytest.mark.parametrize("level", [5.0, -5.0, 1.0])
def test_paths_level_not_crossed_gives_empty(level):
    xs, ys = np.linspace(0, 1, 6), np.linspace(0, 1, 4)
    paths = contour_paths(_grid(lambda x, y: x + y - 1, xs, ys), xs, ys, level)
    assert paths.shape == (0, 2) and paths.dtype == np.float64
    assert contour_paths(np.ones((4, 6)), xs, ys, 1.0).shape == (0, 2)


@pytest.mark.parametrize("seed", range(6))
def test_every_vertex_is_the_level_on_a_grid_edge_and_no_open_ends_could_join(seed):
    rng = np.random.default_rng(seed)
    ny, nx = rng.integers(5, 60, 2)
    xs, ys = np.cumsum(rng.uniform(0.5, 1.5, nx)), np.cumsum(rng.uniform(0.5, 1.5, ny))
    if seed % 2:                    # coarse integers: samples exactly at the level, many saddles
        values = rng.integers(-2, 3, size=(ny, nx)).astype(float)
    else:
        values = rng.normal(size=(ny, nx))
    if seed >= 4:
        values[rng.integers(ny, size=3), rng.integers(nx, size=3)] = np.nan
    for level in (0.0, 0.5, -1.0):
        pieces = _pieces(contour_paths(values, xs, ys, level))
        for x, y in np.vstack(pieces) if pieces else []:
            assert _level_on_an_edge(values, xs, ys, x, y) == pytest.approx(level, abs=1e-9)
        if seed % 2 == 0:           # (with exact hits distinct edges can share a point)
            ends = Counter(tuple(e) for p in pieces if not _closed(p) for e in (p[0], p[-1]))
            assert all(c == 1 for c in ends.values())


def _level_on_an_edge(values, xs, ys, x, y) -> float:
    """f at (x, y), a point on a grid edge (to rounding), interpolated linearly between the
    edge's ends."""
    i, j = int(np.abs(xs - x).argmin()), int(np.abs(ys - y).argmin())
    if abs(xs[i] - x) <= 1e-12 * abs(xs).max():     # on a vertical edge, x = xs[i]
        j = min(max(int(np.searchsorted(ys, y)), 1), len(ys) - 1)
        return _between(values[j - 1, i], values[j, i], (y - ys[j - 1]) / (ys[j] - ys[j - 1]))
    assert abs(ys[j] - y) <= 1e-12 * abs(ys).max(), (x, y)     # else horizontal, y = ys[j]
    i = min(max(int(np.searchsorted(xs, x)), 1), len(xs) - 1)
    return _between(values[j, i - 1], values[j, i], (x - xs[i - 1]) / (xs[i] - xs[i - 1]))


def _between(a, b, t):
    """a to b at t (0..1); at an end, that end's value (the other may be non-finite)."""
    t = round(t, 12)
    return a if t == 0 else b if t == 1 else a + t * (b - a)


def test_paths_around_non_finite_values_end_at_the_hole():
    xs = ys = np.linspace(-1, 1, 21)
    values = _grid(lambda x, y: x**2 + y**2 - 0.5, xs, ys)
    values[3, 10] = np.nan          # on the circle, at the bottom: the loop is cut open there
    pieces = _pieces(contour_paths(values, xs, ys, 0.0))
    assert len(pieces) == 1 and not _closed(pieces[0])
    assert np.all(np.abs(pieces[0][[0, -1], 0]) <= 0.1 + 1e-12)


def test_path_levels_of_a_decision_like_surface():
    xs, ys = np.linspace(-3, 3, 200), np.linspace(-3, 3, 200)
    values = _grid(lambda x, y: x - 0.5 * y, xs, ys)
    out = contour_path_levels(values, xs, ys)
    assert list(out) == [-1.0, 0.0, 1.0]
    for level, paths in out.items():
        (piece,) = _pieces(paths)
        np.testing.assert_allclose(piece[:, 0] - 0.5 * piece[:, 1], level, atol=1e-12)
    assert set(contour_path_levels(values, xs, ys, levels=[2])) == {2.0}
