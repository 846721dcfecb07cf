"""Contour lines of a gridded function by marching squares, vectorised over all cells.

Each cell of the grid has corners 0 = (i, j), 1 = (i+1, j), 2 = (i+1, j+1), 3 = (i, j+1)
(i along x, j along y) and edges e0 = 0-1 (bottom), e1 = 1-2 (right), e2 = 3-2 (top),
e3 = 0-3 (left). Its case is the bitmask of the corners above the level (bit k: corner k),
and the case fixes which edges the contour crosses and how they pair up into segments:

    case  corners above   segments            case  corners above   segments
    0     -               -                   15    all             -
    1     0               e3-e0               14    1 2 3           e3-e0
    2     1               e0-e1               13    0 2 3           e0-e1
    3     0 1             e3-e1               12    2 3             e3-e1
    4     2               e1-e2               11    0 1 3           e1-e2
    6     1 2             e0-e2               9     0 3             e0-e2
    7     0 1 2           e3-e2               8     3               e3-e2
    5     0 2 (saddle)    e3-e0, e1-e2        10    1 3 (saddle)    e0-e1, e2-e3

The saddles are ambiguous: the table above separates the corners that are above the level;
when the average of the four corners is above the level they are joined instead, which
separates the ones below, i.e. cases 5 and 10 swap their segments. The crossing on an edge
is the linear interpolation between its two corner values, computed from the same two samples
in the same order by both cells sharing the edge, so segments meet exactly.

contour_paths joins the segments into polylines. Every crossed grid edge has an integer id
(horizontal edges, sample (j, i) to (j, i+1): j * (nx - 1) + i; vertical edges, (j, i) to
(j+1, i): ny * (nx - 1) + j * nx + i), and two segments are consecutive exactly when they
cross the same edge. Each segment is oriented with the samples above the level on its left
(in index space: i to the right, j up), which a per-case table fixes, so every crossed edge
starts at most one segment and ends at most one, and chaining is following a successor array.
"""
from __future__ import annotations

import numpy as np

# per case: number of segments and their (edge, edge) pairs (unused slots: 0)
_N_SEGMENTS = np.array([0, 1, 1, 1, 1, 2, 1, 1, 1, 1, 2, 1, 1, 1, 1, 0])
_SEGMENTS = np.zeros((16, 2, 2), dtype=np.intp)
for _case, _pairs in {1: [(3, 0)], 2: [(0, 1)], 3: [(3, 1)], 4: [(1, 2)], 5: [(3, 0), (1, 2)],
                      6: [(0, 2)], 7: [(3, 2)], 10: [(0, 1), (2, 3)]}.items():
    _SEGMENTS[_case, : len(_pairs)] = _pairs
    if _case not in (5, 10):
        _SEGMENTS[15 - _case, : len(_pairs)] = _pairs
# the two grid samples (dj, di) at the ends of each edge, offsets from the cell's corner 0
_EDGE_ENDS = np.array([[(0, 0), (0, 1)], [(0, 1), (1, 1)], [(1, 0), (1, 1)],
                       [(0, 0), (1, 0)]])


def _orientation_table() -> np.ndarray:
    """_FLIP[case, slot]: True when the segment (e_a, e_b) of _SEGMENTS must run e_b -> e_a to
    keep the corners above the level on its left (for a saddle whose segments were swapped by
    the centre rule, the above corners are the complement of the case's: the opposite)."""
    mid = np.array([(0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5)])    # edge midpoints (x, y)
    corner = np.array([(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)])
    flip = np.zeros((16, 2), dtype=bool)
    for case in range(16):
        for slot in range(_N_SEGMENTS[case]):
            a, b = mid[_SEGMENTS[case, slot]]
            d, r = b - a, corner - a
            side = d[0] * r[:, 1] - d[1] * r[:, 0]                   # > 0: left of a -> b
            left, right = np.flatnonzero(side > 0), np.flatnonzero(side < 0)
            # a corner of the smaller side (the one a saddle segment cuts off alone)
            k, on_left = (left[0], True) if len(left) <= len(right) else (right[0], False)
            flip[case, slot] = bool(case >> k & 1) != on_left
    return flip


_FLIP = _orientation_table()


def contour_segments(values: np.ndarray, xs: np.ndarray, ys: np.ndarray,
                     level: float) -> np.ndarray:
    """The contour f = level as segments, (2k, 2): rows 2m and 2m+1 are the ends of segment
    m (pyqtgraph's connect="pairs"), in data coordinates. values is (ny, nx) with
    values[j, i] at (xs[i], ys[j]). Cells touching a non-finite value are skipped."""
    return _crossings(values, xs, ys, level)[0]


def _crossings(values, xs, ys, level):
    """contour_segments' (2k, 2) endpoints, plus the grid-edge id of every endpoint (2k,) and
    whether each segment must be reversed to keep the above side on its left (k,)."""
    values = np.asarray(values, dtype=np.float64)
    xs, ys = np.asarray(xs, dtype=np.float64), np.asarray(ys, dtype=np.float64)
    if values.ndim != 2 or values.shape != (len(ys), len(xs)):
        raise ValueError(f"values must have shape (len(ys), len(xs)) = {(len(ys), len(xs))};"
                         f" got {values.shape}")
    level = float(level)
    above = (values > level).view(np.uint8)
    case = above[:-1, :-1] | above[:-1, 1:] << 1 | above[1:, 1:] << 2 | above[1:, :-1] << 3
    finite = np.isfinite(values)
    case[~(finite[:-1, :-1] & finite[:-1, 1:] & finite[1:, 1:] & finite[1:, :-1])] = 0
    saddle = (case == 5) | (case == 10)
    if saddle.any():
        js, is_ = np.nonzero(saddle)
        centre = (values[js, is_] + values[js, is_ + 1] + values[js + 1, is_ + 1]
                  + values[js + 1, is_]) / 4
        case[js[centre > level], is_[centre > level]] ^= 15  # 5 <-> 10
        swapped = np.zeros(case.shape, dtype=bool)
        swapped[js[centre > level], is_[centre > level]] = True
    # one row per segment: its cell (j, i) and its two edges
    n = _N_SEGMENTS[case]
    j, i = np.divmod(np.flatnonzero(n), case.shape[1])     # row-major, as np.nonzero
    j2, i2 = np.divmod(np.flatnonzero(n == 2), case.shape[1])
    cj, ci = np.concatenate([j, j2]), np.concatenate([i, i2])
    slot = np.repeat([0, 1], [len(j), len(j2)])
    edges = _SEGMENTS[case[cj, ci], slot]                   # (k, 2)
    flip = _FLIP[case[cj, ci], slot]
    if saddle.any():
        flip ^= swapped[cj, ci]
    # both ends of every segment, as (cell, edge) crossings, interleaved: (2k, ...)
    cj, ci, edges = np.repeat(cj, 2), np.repeat(ci, 2), edges.reshape(-1)
    ends = _EDGE_ENDS[edges]                                # (2k, 2 samples, (dj, di))
    ja, ia = cj + ends[:, 0, 0], ci + ends[:, 0, 1]
    jb, ib = cj + ends[:, 1, 0], ci + ends[:, 1, 1]
    va, vb = values[ja, ia], values[jb, ib]
    t = np.clip((level - va) / (vb - va), 0.0, 1.0)         # vb != va: they straddle level
    x = xs[ia] + t * (xs[ib] - xs[ia])
    y = ys[ja] + t * (ys[jb] - ys[ja])
    nx = values.shape[1]
    edge_id = np.where(ja == jb, ja * (nx - 1) + ia, values.shape[0] * (nx - 1) + ja * nx + ia)
    return np.column_stack([x, y]), edge_id, flip


def contour_levels(values: np.ndarray, xs: np.ndarray, ys: np.ndarray,
                   levels=(-1.0, 0.0, 1.0)) -> dict:
    """{level: contour_segments(values, xs, ys, level)} for each level."""
    return {float(level): contour_segments(values, xs, ys, level) for level in levels}


def contour_paths(values: np.ndarray, xs: np.ndarray, ys: np.ndarray,
                  level: float) -> np.ndarray:
    """The contour f = level as polylines, (m, 2), consecutive polylines separated by one row
    of NaN (pyqtgraph's connect="finite", so a dash pattern runs along each polyline).

    The polylines are contour_segments' segments joined where they cross the same grid edge
    (same vertices, bit for bit). A closed curve comes out closed (its first vertex repeated at
    the end); an open one runs between the grid boundary or cells skipped for non-finite
    values. Each polyline keeps the samples above the level on its left (when xs and ys
    increase), e.g. clockwise around a minimum. Open polylines come first, in no promised
    order. A sample exactly at the level can give a repeated vertex (two edges crossed at the
    same point). No crossing: (0, 2)."""
    points, edge_id, flip = _crossings(values, xs, ys, level)
    k = len(flip)
    if k == 0:
        return np.empty((0, 2))
    start_edge = np.where(flip, edge_id[1::2], edge_id[::2])
    end_edge = np.where(flip, edge_id[::2], edge_id[1::2])
    starting = np.full(int(max(start_edge.max(), end_edge.max())) + 1, -1, dtype=np.intp)
    starting[start_edge] = np.arange(k)
    succ = starting[end_edge]                               # next segment, or -1
    has_pred = np.zeros(k, dtype=bool)
    has_pred[succ[succ >= 0]] = True
    nxt = succ.tolist()
    # vertex indices into [start points (k); end points (k); NaN row]: each polyline is the
    # start points of its segments then the end point of its last one, then the NaN row
    order = []
    append = order.append
    for head in np.flatnonzero(~has_pred).tolist():         # open: from a segment without one
        s = head
        while s >= 0:
            append(s)
            last, s = s, nxt[s]
        append(k + last)
        append(2 * k)
    seen = np.zeros(k + 1, dtype=bool)                      # slot k: any end point or NaN
    seen[np.minimum(np.array(order, dtype=np.intp), k)] = True
    rest, seen = np.flatnonzero(~seen[:k]).tolist(), bytearray(seen)
    for head in rest:                                       # loops: every segment has one
        if seen[head]:
            continue
        s = head
        while s >= 0 and not seen[s]:
            seen[s] = 1
            append(s)
            last, s = s, nxt[s]
        append(k + last)
        append(2 * k)
    del order[-1]
    first, second = points[::2], points[1::2]
    start = np.where(flip[:, None], second, first)
    end = np.where(flip[:, None], first, second)
    return np.vstack([start, end, np.full((1, 2), np.nan)])[np.array(order, dtype=np.intp)]


def contour_path_levels(values: np.ndarray, xs: np.ndarray, ys: np.ndarray,
                        levels=(-1.0, 0.0, 1.0)) -> dict:
    """{level: contour_paths(values, xs, ys, level)} for each level."""
    return {float(level): contour_paths(values, xs, ys, level) for level in levels}


def region_boundaries(regions: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """The borders between the classes of a region map ((ny, nx) class indices) as
    polylines, NaN rows between them: the edge of each class's region, traced at half way
    between grid nodes (a border between two classes is traced from both sides, on the
    same line)."""
    none = np.empty((0, 2))
    paths = [contour_paths((regions == k).astype(np.float32), xs, ys, 0.5)
             for k in np.unique(regions)[:-1]]        # the last class's edges are the others'
    paths = [p for p in paths if len(p)]
    if not paths:
        return none
    gap = np.full((1, 2), np.nan)
    return np.vstack([row for p in paths for row in (p, gap)][:-1])
