"""Contour lines of a gridded function, by contourpy (matplotlib's contouring engine).

The canvas draws each level as one array of polylines with NaN rows between them, the shape
pyqtgraph draws with connect="finite" (a dash pattern runs along each polyline): contourpy's
LineType.ChunkCombinedNan, in one chunk.
"""
from __future__ import annotations

import contourpy
import numpy as np

NONE = np.empty((0, 2))


def contour_path_levels(values: np.ndarray, xs: np.ndarray, ys: np.ndarray,
                        levels: tuple = (-1.0, 0.0, 1.0)) -> dict:
    """{level: polylines of f = level} for each level; values is (len(ys), len(xs))."""
    generator = _generator(values, xs, ys)
    return {float(level): _polylines(generator, level) for level in levels}


def contour_paths(values: np.ndarray, xs: np.ndarray, ys: np.ndarray,
                  level: float) -> np.ndarray:
    """The contour f = level as polylines, (m, 2), consecutive polylines separated by one row
    of NaN. A closed curve comes out closed (its first vertex repeated at the end); an open
    one runs between the grid's boundary or cells left out for non-finite values. No
    crossing: (0, 2)."""
    return _polylines(_generator(values, xs, ys), level)


def region_boundaries(regions: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """The borders between the classes of a region map ((ny, nx) class indices) as
    polylines, NaN rows between them: the edge of each class's region, traced at half way
    between grid nodes (a border between two classes is traced from both sides, on the
    same line)."""
    paths = [contour_paths((regions == k).astype(np.float32), xs, ys, 0.5)
             for k in np.unique(regions)[:-1]]        # the last class's edges are the others'
    paths = [p for p in paths if len(p)]
    if not paths:
        return NONE
    gap = np.full((1, 2), np.nan)
    return np.vstack([row for p in paths for row in (p, gap)][:-1])


def vote_borders(machine_values: list, pairs: list, xs: np.ndarray,
                 ys: np.ndarray) -> np.ndarray:
    """The borders between one-vs-one voted regions as smooth lines, polylines with NaN
    rows between them. `machine_values`: each machine's f on the grid, (ny, nx); `pairs`:
    each machine's (class f > 0 votes for, class f < 0 votes for). The vote changes only
    where some machine's f changes sign: each machine's f = 0 (linearly interpolated) is
    kept where flipping that machine's vote alone changes the class voted (ties to the
    lowest class index, as the model's). Traced where the vote changes, not along the
    grid's cells: region_boundaries' staircase, and its slivers where three regions meet,
    are gone."""
    n_classes = 1 + max(max(pair) for pair in pairs)
    signs = np.stack([np.asarray(v) > 0 for v in machine_values])       # (machines, ny, nx)
    parts = []
    for m, values in enumerate(machine_values):
        lines = contour_paths(values, xs, ys, 0.0)
        if not len(lines):
            continue
        node = _node_of(lines, xs, ys, values.shape)
        voting = signs[:, node[0], node[1]].T                   # (vertices, machines)
        flipped = voting.copy()
        flipped[:, m] = ~flipped[:, m]
        changes = np.isfinite(lines).all(axis=1) & (
            _voted(voting, pairs, n_classes) != _voted(flipped, pairs, n_classes))
        kept = lines.copy()
        kept[~changes] = np.nan
        if changes.any():
            parts.append(kept)
    if not parts:
        return NONE
    gap = np.full((1, 2), np.nan)
    return np.vstack([row for p in parts for row in (p, gap)][:-1])


def _node_of(lines: np.ndarray, xs: np.ndarray, ys: np.ndarray, shape: tuple) -> tuple:
    """(row, column) of a grid node beside each vertex: a contour's vertex lies on a grid
    edge, this is the edge's lower end (a NaN row: node 0, 0)."""
    fi = (lines[:, 0] - xs[0]) / (xs[1] - xs[0])
    fj = (lines[:, 1] - ys[0]) / (ys[1] - ys[0])
    fi, fj = np.nan_to_num(fi), np.nan_to_num(fj)
    return (np.clip(np.floor(fj + 1e-9), 0, shape[0] - 1).astype(np.intp),
            np.clip(np.floor(fi + 1e-9), 0, shape[1] - 1).astype(np.intp))


def _voted(positive: np.ndarray, pairs: list, n_classes: int) -> np.ndarray:
    """The class each row of machine votes (True: f > 0) elects, ties to the lowest index."""
    votes = np.zeros((len(positive), n_classes), dtype=np.int32)
    for m, (if_positive, if_negative) in enumerate(pairs):
        votes[:, if_positive] += positive[:, m]
        votes[:, if_negative] += ~positive[:, m]
    return votes.argmax(axis=1)


def _generator(values, xs, ys):
    values = np.asarray(values, dtype=np.float64)
    if not np.isfinite(values).all():
        values = np.ma.masked_invalid(values)
    # corner_mask=False: a cell with a non-finite corner is left out whole
    return contourpy.contour_generator(np.asarray(xs, dtype=np.float64),
                                       np.asarray(ys, dtype=np.float64), values,
                                       line_type=contourpy.LineType.ChunkCombinedNan,
                                       corner_mask=False)


def _polylines(generator, level: float) -> np.ndarray:
    (chunks,) = generator.lines(level)
    lines = [c for c in chunks if c is not None and len(c)]
    return np.vstack(lines) if lines else NONE
