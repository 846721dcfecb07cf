"""Marching squares: geometry of known contours, saddles, orientation, edge crossings."""
from collections import Counter

import numpy as np
import pytest

from svmdesk.view.contours import (contour_levels, contour_path_levels, contour_paths,
                                   contour_segments)


def _grid(f, xs, ys):
    X, Y = np.meshgrid(xs, ys)          # X[j, i] = xs[i], Y[j, i] = ys[j]
    return f(X, Y)


def _lengths(segments):
    return np.linalg.norm(segments[1::2] - segments[::2], axis=1)


@pytest.mark.parametrize("n", [50, 200])
def test_circle(n):
    xs, ys = np.linspace(-2, 2, n), np.linspace(-1.5, 1.7, n + 7)
    r, h = 1.2, 4 / (n - 1)
    seg = contour_segments(_grid(lambda x, y: x**2 + y**2 - r**2, xs, ys), xs, ys, 0.0)
    assert seg.shape[1] == 2 and len(seg) % 2 == 0 and len(seg) > 0
    assert np.abs(np.hypot(*seg.T) - r).max() <= h**2  # interpolation error along an edge
    assert _lengths(seg).sum() == pytest.approx(2 * np.pi * r, rel=1e-3 if n == 200 else 5e-3)
    # a closed curve: every endpoint is shared by exactly two segments, bit for bit
    _, counts = np.unique(seg, axis=0, return_counts=True)
    assert np.all(counts == 2)


def test_plane_gives_an_exact_straight_line():
    xs, ys = np.linspace(0, 3, 13), np.linspace(-1, 1, 9)
    values = _grid(lambda x, y: 2 * x - 3 * y - 1, xs, ys)
    for level in (-0.5, 0.0, 0.9):
        seg = contour_segments(values, xs, ys, level)
        assert len(seg) > 0
        np.testing.assert_allclose(2 * seg[:, 0] - 3 * seg[:, 1] - 1, level, atol=1e-12)


@pytest.mark.parametrize("level", [5.0, -5.0, 1.0])
def test_level_not_crossed_gives_empty(level):
    xs, ys = np.linspace(0, 1, 6), np.linspace(0, 1, 4)
    values = _grid(lambda x, y: x + y - 1, xs, ys)  # range [-1, 1]: 1.0 touches, never crosses
    seg = contour_segments(values, xs, ys, level)
    assert seg.shape == (0, 2) and seg.dtype == np.float64


def test_constant_grid_gives_empty():
    xs = np.linspace(0, 1, 5)
    for level in (0.0, 1.0, 2.0):
        assert contour_segments(np.ones((5, 5)), xs, xs, level).shape == (0, 2)


def _segment_set(seg):
    return {tuple(sorted(map(tuple, np.round(seg[k:k + 2], 12)))) for k in range(0, len(seg), 2)}


def test_saddle_cells_resolved_by_the_centre_average():
    xs = ys = np.array([0.0, 1.0])
    values = np.array([[1.0, -1.0],     # corners (0,0)=1, (1,0)=-1
                       [-1.0, 1.0]])    # corners (0,1)=-1, (1,1)=1: case 5
    # level 0.5: centre 0 is below, the high corners (0,0) and (1,1) are cut off
    high = contour_segments(values, xs, ys, 0.5)
    assert _segment_set(high) == {((0.0, 0.25), (0.25, 0.0)), ((0.75, 1.0), (1.0, 0.75))}
    # level -0.5: centre 0 is above, the low corners (1,0) and (0,1) are cut off instead
    low = contour_segments(values, xs, ys, -0.5)
    assert _segment_set(low) == {((0.75, 0.0), (1.0, 0.25)), ((0.0, 0.75), (0.25, 1.0))}
    # the mirrored saddle (case 10) at level -0.5: centre above, low corners (0,0), (1,1) cut
    mirrored = contour_segments(-values, xs, ys, -0.5)
    assert _segment_set(mirrored) == {((0.0, 0.25), (0.25, 0.0)), ((0.75, 1.0), (1.0, 0.75))}
    # ... and at 0.5: centre below, high corners (1,0), (0,1) cut off
    mirrored = contour_segments(-values, xs, ys, 0.5)
    assert _segment_set(mirrored) == {((0.75, 0.0), (1.0, 0.25)), ((0.0, 0.75), (0.25, 1.0))}
    at = contour_segments(values, xs, ys, 0.0)
    assert _segment_set(at) == {((0.0, 0.5), (0.5, 0.0)), ((0.5, 1.0), (1.0, 0.5))}


def test_saddle_grid_contour_of_xy():
    xs, ys = np.linspace(-1, 1, 21), np.linspace(-1, 1.3, 24)
    values = _grid(lambda x, y: x * y, xs, ys)
    for level in (0.3, -0.3):
        seg = contour_segments(values, xs, ys, level)
        assert len(seg) > 0
        np.testing.assert_allclose(seg[:, 0] * seg[:, 1], level, atol=0.02)
        # the branches stay in their quadrants: no segment jumps across the saddle
        assert np.all(np.sign(seg[::2]) == np.sign(seg[1::2]))


def test_orientation_non_square():
    xs, ys = np.linspace(0, 1, 7), np.linspace(10, 20, 11)
    vertical = contour_segments(_grid(lambda x, y: x + 0 * y, xs, ys), xs, ys, 0.3)
    np.testing.assert_allclose(vertical[:, 0], 0.3)
    assert vertical[:, 1].min() == 10 and vertical[:, 1].max() == 20
    assert len(vertical) == 2 * (len(ys) - 1)
    horizontal = contour_segments(_grid(lambda x, y: y + 0 * x, xs, ys), xs, ys, 12.5)
    np.testing.assert_allclose(horizontal[:, 1], 12.5)
    assert horizontal[:, 0].min() == 0 and horizontal[:, 0].max() == 1
    assert len(horizontal) == 2 * (len(xs) - 1)
    with pytest.raises(ValueError):
        contour_segments(np.zeros((7, 11)), xs, ys, 0.0)


def test_endpoints_lie_on_straddling_cell_edges():
    rng = np.random.default_rng(0)
    xs, ys = np.cumsum(rng.uniform(0.5, 1.5, 30)), np.cumsum(rng.uniform(0.5, 1.5, 25))
    values = rng.normal(size=(25, 30))
    values[3, 4] = 0.0                  # a sample exactly at the level
    seg = contour_segments(values, xs, ys, 0.0)
    assert len(seg) > 0 and np.isfinite(seg).all()
    for x, y in seg:
        i, j = np.searchsorted(xs, x), np.searchsorted(ys, y)
        on_x, on_y = i < len(xs) and xs[i] == x, j < len(ys) and ys[j] == y
        assert on_x or on_y
        if on_x and on_y:               # the endpoint is a sample: exactly at the level
            assert values[j, i] == 0.0
        elif on_x:                      # on the vertical edge (i, j-1)-(i, j)
            a, b = values[j - 1, i], values[j, i]
            assert min(a, b) <= 0 <= max(a, b) and (a > 0) != (b > 0)
            t = (y - ys[j - 1]) / (ys[j] - ys[j - 1])
            assert a + t * (b - a) == pytest.approx(0.0, abs=1e-9)
        else:                           # on the horizontal edge (i-1, j)-(i, j)
            a, b = values[j, i - 1], values[j, i]
            assert (a > 0) != (b > 0)
            t = (x - xs[i - 1]) / (xs[i] - xs[i - 1])
            assert a + t * (b - a) == pytest.approx(0.0, abs=1e-9)


def test_non_finite_values_are_skipped():
    xs = ys = np.linspace(-1, 1, 11)
    values = _grid(lambda x, y: x + y, xs, ys)
    values[5, 5], values[2, 8] = np.nan, np.inf
    seg = contour_segments(values, xs, ys, 0.0)
    assert len(seg) > 0 and np.isfinite(seg).all()


def test_contour_levels_of_a_decision_like_surface():
    xs, ys = np.linspace(-3, 3, 200), np.linspace(-3, 3, 200)
    values = _grid(lambda x, y: x - 0.5 * y, xs, ys)
    out = contour_levels(values, xs, ys)
    assert list(out) == [-1.0, 0.0, 1.0]
    for level, seg in out.items():
        np.testing.assert_allclose(seg[:, 0] - 0.5 * seg[:, 1], level, atol=1e-12)
    assert set(contour_levels(values, xs, ys, levels=[2])) == {2.0}


# ---- contour_paths: the segments joined into NaN-separated polylines ----

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


def _segment_counter(seg):
    return Counter(tuple(sorted((tuple(seg[k]), tuple(seg[k + 1])))) for k in range(0, len(seg), 2))


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
        assert len(piece) == len(contour_segments(values, xs, ys, level)) // 2 + 1
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
        assert _path_segments(paths) == _segment_counter(contour_segments(values, xs, ys, level))


@pytest.mark.parametrize("level", [5.0, -5.0, 1.0])
def test_paths_level_not_crossed_gives_empty(level):
    xs, ys = np.linspace(0, 1, 6), np.linspace(0, 1, 4)
    paths = contour_paths(_grid(lambda x, y: x + y - 1, xs, ys), xs, ys, level)
    assert paths.shape == (0, 2) and paths.dtype == np.float64
    assert contour_paths(np.ones((4, 6)), xs, ys, 1.0).shape == (0, 2)


@pytest.mark.parametrize("seed", range(6))
def test_paths_hold_exactly_the_segments(seed):
    rng = np.random.default_rng(seed)
    ny, nx = rng.integers(5, 60, 2)
    xs, ys = np.cumsum(rng.uniform(0.5, 1.5, nx)), np.cumsum(rng.uniform(0.5, 1.5, ny))
    if seed % 2:                    # coarse integers: samples exactly at the level, many saddles
        values = rng.integers(-2, 3, size=(ny, nx)).astype(float)
    else:
        values = rng.normal(size=(ny, nx))
    holes = seed >= 4
    if holes:
        values[rng.integers(ny, size=3), rng.integers(nx, size=3)] = np.nan
    for level in (0.0, 0.5, -1.0):
        seg = contour_segments(values, xs, ys, level)
        paths = contour_paths(values, xs, ys, level)
        assert _path_segments(paths) == _segment_counter(seg)
        pieces = _pieces(paths)
        assert sum(len(p) - 1 for p in pieces) == len(seg) // 2
        for p in pieces:
            if not holes and not _closed(p):
                assert _on_boundary(p[0], xs, ys) and _on_boundary(p[-1], xs, ys)
        # no two open pieces could be joined: an open end is met by no other piece's end
        ends = Counter(tuple(e) for p in pieces if not _closed(p) for e in (p[0], p[-1]))
        if seed % 2 == 0:           # (with exact hits distinct edges can share a point)
            assert all(c == 1 for c in ends.values())


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
