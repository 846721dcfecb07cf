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
