"""The colours of the classes and the pictures of the decision regions (numpy only).

A frame's pictures are made where the frame is made, off the GUI thread: the canvas only
swaps them in.
"""
from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

# Okabe-Ito: distinguishable with every common colour-vision deficiency.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442",
           "#7F7F7F"]
LEVEL = 2.0                  # |f| at which the region colour saturates (margins sit at 1)
WHITE = np.array([255.0, 255.0, 255.0])
SOFT = 0.55                  # the soft pictures' strongest tint: pale, for points and lines
                             # to stay readable on it


def class_rgb(k: int) -> np.ndarray:
    """Class k's colour as three floats 0-255."""
    code = PALETTE[k % len(PALETTE)]
    return np.array([int(code[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)


def diverging_lut(negative: int, positive: int) -> np.ndarray:
    """256 RGBA colours from the negative class's colour through white to the positive's."""
    t = np.linspace(-1.0, 1.0, 256)[:, None]
    strength = SOFT * np.abs(t)
    rgb = np.where(t < 0, WHITE + strength * (class_rgb(negative) - WHITE),
                   WHITE + strength * (class_rgb(positive) - WHITE))
    return np.hstack([rgb, np.full((256, 1), 255.0)]).astype(np.uint8)


def sides_pictures(values: np.ndarray, classes: tuple) -> tuple:
    """RGBA pictures (rows of the grid) of f's sides: each class's colour, paler towards
    the boundary; and at full strength on either side ("hard regions")."""
    values = np.asarray(values, dtype=np.float32)
    # 256 steps over [-LEVEL, LEVEL], as pyqtgraph's ImageItem indexes a lookup table
    steps = np.float32(256 / (2 * LEVEL))
    soft = np.clip(np.floor((values + np.float32(LEVEL)) * steps), 0, 255).astype(np.uint8)
    hard = (np.sign(values) * 127.5 + 128).astype(np.uint8)     # steps 0, 128 (f = 0), 255
    colours = diverging_lut(*classes).view(np.uint32)[:, 0]      # one RGBA word a colour
    return tuple(colours[index][..., None].view(np.uint8) for index in (soft, hard))


def inside_pictures(values: np.ndarray, colour: int) -> tuple:
    """RGBA pictures of a one-class machine's region f >= 0: class `colour`'s tint, paler
    towards the edge, and flat ("hard regions"); outside white in both, not another
    class's colour: outside is no class, only where the learnt region is not.

    The soft tint saturates at the grid's highest f, not at LEVEL: a one-class f is in
    LIBSVM's units (multipliers up to 1 summing to nu n), where the inside spans a few
    hundredths while outside falls to -rho, several units; a fixed level would leave the
    inside all but white."""
    values = np.asarray(values, dtype=np.float32)
    top = max(float(values.max(initial=0.0)), np.finfo(np.float32).tiny)
    depth = np.minimum(np.maximum(values, 0) / np.float32(top), 1.0)     # 0 outside
    # the upper half of the diverging table: white (128, the edge) to the full tint (255)
    soft = np.where(values >= 0, 128 + np.floor(depth * 127), 0).astype(np.uint8)
    hard = np.where(values >= 0, 255, 0).astype(np.uint8)
    lut = diverging_lut(colour, colour)
    lut[:128] = 255                                # outside: white
    colours = lut.view(np.uint32)[:, 0]
    return tuple(colours[index][..., None].view(np.uint8) for index in (soft, hard))


def regions_picture(regions: np.ndarray) -> np.ndarray:
    """RGBA picture of class regions (a class index per grid cell), each a pale tint."""
    tints = np.array([WHITE + 0.45 * (class_rgb(k) - WHITE) for k in range(len(PALETTE))])
    rgba = np.hstack([tints, np.full((len(PALETTE), 1), 255.0)]).astype(np.uint8)
    return rgba[regions]


def probability_picture(probabilities: np.ndarray, colours: ArrayLike) -> np.ndarray:
    """RGBA picture (rows of the grid) of class probabilities (K, ny, nx): each cell in the
    colour of its most probable class (`colours[k]`: the class index of the model's class
    k), white where the classes tie (P = 1/K) and as strong as the soft pictures get where
    that class is certain (P = 1). For two classes it shades P(positive) as sides_pictures
    shades f: through white at P = 0.5."""
    k = len(probabilities)
    top = probabilities.argmax(axis=0)
    certainty = (probabilities.max(axis=0) - 1.0 / k) / (1.0 - 1.0 / k)
    tints = np.array([class_rgb(int(c)) for c in np.asarray(colours)]) - WHITE
    rgb = WHITE + SOFT * certainty[..., None] * tints[top]
    alpha = np.full(top.shape + (1,), 255.0)
    return np.rint(np.concatenate([rgb, alpha], axis=-1)).astype(np.uint8)
