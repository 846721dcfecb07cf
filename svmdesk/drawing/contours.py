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


def vote_borders(machine_values: list, pairs: list, voted: np.ndarray, xs: np.ndarray,
                 ys: np.ndarray) -> np.ndarray:
    """The borders between one-vs-one voted regions as smooth lines: each machine's f = 0
    (pair (a, b): its two classes) where the classes voted on its two sides are a and b,
    polylines with NaN rows between them. `voted`: the class voted at each grid node,
    (ny, nx), with the model's own ties. Traced where the vote changes, not along the
    grid's cells: region_boundaries' staircase, and its slivers where three regions meet,
    are gone; a line stops within a cell of such a meeting."""
    parts = []
    for values, (a, b) in zip(machine_values, pairs):
        lines = contour_paths(values, xs, ys, 0.0)
        if len(lines):
            kept = lines.copy()
            kept[~_between(lines, voted, xs, ys, a, b)] = np.nan
            parts.append(kept)
    parts = [p for p in parts if np.isfinite(p).any()]
    if not parts:
        return NONE
    gap = np.full((1, 2), np.nan)
    return np.vstack([row for p in parts for row in (p, gap)][:-1])


def _between(lines: np.ndarray, voted: np.ndarray, xs: np.ndarray, ys: np.ndarray,
             a: int, b: int) -> np.ndarray:
    """Which vertices of a contour lie between nodes voted a and b. A contour's vertex lies
    on a grid edge (on a column line or on a row line); its two nodes are the edge's ends."""
    fi = (lines[:, 0] - xs[0]) / (xs[1] - xs[0])
    fj = (lines[:, 1] - ys[0]) / (ys[1] - ys[0])
    finite = np.isfinite(fi) & np.isfinite(fj)
    fi, fj = np.where(finite, fi, 0.0), np.where(finite, fj, 0.0)
    on_column = np.abs(fi - np.round(fi)) < 1e-6       # on a column line: a vertical edge
    ny, nx = voted.shape
    i0 = np.clip(np.where(on_column, np.round(fi), np.floor(fi)), 0, nx - 1).astype(np.intp)
    j0 = np.clip(np.where(on_column, np.floor(fj), np.round(fj)), 0, ny - 1).astype(np.intp)
    i1 = np.clip(np.where(on_column, i0, i0 + 1), 0, nx - 1)
    j1 = np.clip(np.where(on_column, j0 + 1, j0), 0, ny - 1)
    first, second = voted[j0, i0], voted[j1, i1]
    return finite & (((first == a) & (second == b)) | ((first == b) & (second == a)))


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
