"""Seeded 2-D toy point sets for trying out SVMs: the classification and novelty
generators, their registries and titles, and make_dataset.

Every generator has the signature ``fn(n=200, noise=<default>, seed=None) -> Dataset``, returns
exactly ``n`` points with balanced classes (when ``n`` does not divide evenly, the first classes
get one point more) and is deterministic for a given ``seed`` (``np.random.default_rng(seed)``).
Points are ordered by class.  Labels are the integers ``0..k-1``; ``class_names`` are their
strings ``"0", "1", ...``.  Where a set is a classic teaching example, class 1 is the
notes' "+1" class and class 0 their "-1" class.

The novelty generators (NOVELTY_GENERATORS, for the one-class SVM) share the signature and
the determinism but not the balance: their classes are ``("inlier", "outlier")``, the
inliers (label 0) first, then about a tenth of ``n`` outliers (label 1) drawn uniformly over
a box somewhat larger than the inliers' extent.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from svmdesk.core.datasets import Dataset
from svmdesk.i18n import N_, tr

MAX_BLOB_CENTERS = 8


def check_generator_args(n: int, noise: float, n_classes: int = 2) -> None:
    """Refuse (ValueError) an n that is no integer or below n_classes, and a noise below 0
    or NaN: what every generator, here and in regression_generators.py, checks first."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise ValueError(tr("n must be an integer number of points; got {n}").format(n=repr(n)))
    if n < n_classes:
        raise ValueError(tr("n must be at least {classes} (one point per class); got {n}").format(
            classes=n_classes, n=str(n)))
    if not noise >= 0:  # also rejects NaN
        raise ValueError(tr("noise must be >= 0; got {noise}").format(noise=str(noise)))


def _counts(n: int, k: int) -> list[int]:
    """Points per class: as equal as possible, the first classes taking the remainder."""
    return [n // k + (i < n % k) for i in range(k)]


def _dataset(parts: list[np.ndarray], name: str) -> Dataset:
    y = np.concatenate([np.full(len(p), i, dtype=np.int64) for i, p in enumerate(parts)])
    return Dataset(np.concatenate(parts), y, tuple(str(i) for i in range(len(parts))), name=name)


def _polar(r, theta) -> np.ndarray:
    return np.column_stack([r * np.cos(theta), r * np.sin(theta)])


def blobs(n: int = 200, noise: float = 1.0, seed: int | None = None, centers: int = 2) -> Dataset:
    """Round gaussian clusters (std ``noise``), one per class: the easy linear case.

    ``centers`` (2..8) classes sit evenly on a circle, neighbours 4*sqrt(2) apart; with two
    classes the centres are (-2, -2) and (2, 2) as in the seed notes.  Raise ``noise`` to make
    the clusters overlap; with 3+ classes it shows one-vs-rest / one-vs-one decisions.
    """
    if isinstance(centers, bool) or not isinstance(centers, (int, np.integer)) \
            or not 2 <= centers <= MAX_BLOB_CENTERS:
        raise ValueError(tr("centers must be an integer from 2 to {most}; got {centers}").format(
            most=MAX_BLOB_CENTERS, centers=repr(centers)))
    check_generator_args(n, noise, centers)
    rng = np.random.default_rng(seed)
    radius = 2 * np.sqrt(2) / np.sin(np.pi / centers)
    angles = 5 * np.pi / 4 + 2 * np.pi * np.arange(centers) / centers
    parts = [_polar(radius, a) + rng.normal(scale=noise, size=(m, 2))
             for a, m in zip(angles, _counts(n, centers))]
    return _dataset(parts, "blobs")


def moons(n: int = 200, noise: float = 0.1, seed: int | None = None) -> Dataset:
    """Two interleaving half circles (as sklearn's make_moons), gaussian noise of std ``noise``.

    Not linearly separable: compare a linear kernel with rbf or poly.
    """
    check_generator_args(n, noise)
    rng = np.random.default_rng(seed)
    m0, m1 = _counts(n, 2)
    t0, t1 = np.linspace(0, np.pi, m0), np.linspace(0, np.pi, m1)
    upper = np.column_stack([np.cos(t0), np.sin(t0)])
    lower = np.column_stack([1 - np.cos(t1), 0.5 - np.sin(t1)])
    parts = [p + rng.normal(scale=noise, size=p.shape) for p in (upper, lower)]
    return _dataset(parts, "moons")


def circles(n: int = 200, noise: float = 0.1, seed: int | None = None) -> Dataset:
    """A circle of radius 1 (class 0) around one of radius 0.5 (class 1), as sklearn's
    make_circles(factor=0.5), gaussian noise of std ``noise``.

    No straight line separates them; an rbf kernel (or a degree-2 poly) does.
    """
    check_generator_args(n, noise)
    rng = np.random.default_rng(seed)
    parts = [_polar(r, np.linspace(0, 2 * np.pi, m, endpoint=False))
             for r, m in zip((1.0, 0.5), _counts(n, 2))]
    parts = [p + rng.normal(scale=noise, size=p.shape) for p in parts]
    return _dataset(parts, "circles")


def xor(n: int = 200, noise: float = 0.35, seed: int | None = None) -> Dataset:
    """Four gaussian clusters (std ``noise``) centred at (+-1, +-1); the class is
    sign(x1 * x2): class 1 in the (+,+) and (-,-) quadrants, class 0 in the other two.

    The classic set no linear model can fit; poly (degree 2) and rbf kernels can.
    """
    check_generator_args(n, noise)
    rng = np.random.default_rng(seed)
    parts = []
    for product_sign, m in zip((-1, 1), _counts(n, 2)):
        s = np.where(np.arange(m) % 2 == 0, 1.0, -1.0)  # alternate between the two quadrants
        centres = np.column_stack([s, product_sign * s])
        parts.append(centres + rng.normal(scale=noise, size=(m, 2)))
    return _dataset(parts, "xor")


def spirals(n: int = 200, noise: float = 0.1, seed: int | None = None) -> Dataset:
    """Two interleaved Archimedean spirals r = theta / (2 pi) of 1.75 turns (radius 0.25 to
    2, arms 0.5 apart), class 1 being class 0 turned by 180 degrees; gaussian noise of std
    ``noise``.

    A hard non-linear case: try rbf kernels and watch gamma and C trade under- for over-fitting.
    """
    check_generator_args(n, noise)
    rng = np.random.default_rng(seed)
    parts = []
    for turn, m in zip((0.0, np.pi), _counts(n, 2)):
        # Evenly spaced in theta**2, so roughly evenly spaced along the curve.
        theta = np.sqrt(np.linspace((np.pi / 2) ** 2, (4 * np.pi) ** 2, m))
        p = _polar(theta / (2 * np.pi), theta + turn)
        parts.append(p + rng.normal(scale=noise, size=p.shape))
    return _dataset(parts, "spirals")


TWO_DISKS_OUTLIER = (-1.5, 4.0)


def two_disks(n: int = 200, noise: float = 0.0, seed: int | None = None) -> Dataset:
    """The seed notes' linearly separable disks with one outlier: shows how C trades margin
    for errors (and why a hard margin fails).

    Class 0: a disk of radius 2 centred (-5, 3); class 1: a disk of radius 2.7 centred (0, 0).
    As in the notes, each point has a uniform angle and radius R * uniform (so points crowd the
    centres).  One class-1 point, the first of its class, is the outlier at exactly (-1.5, 4),
    off both disks and near class 0.  ``noise`` (default 0) adds a gaussian jitter of that std
    to every point except the outlier.
    """
    check_generator_args(n, noise)
    rng = np.random.default_rng(seed)
    parts = []
    for (cx, cy), radius, m in zip(((-5.0, 3.0), (0.0, 0.0)), (2.0, 2.7), _counts(n, 2)):
        r = radius * rng.random(m)
        theta = 2 * np.pi * rng.random(m)
        p = np.column_stack([cx + r * np.sin(theta), cy + r * np.cos(theta)])
        parts.append(p + rng.normal(scale=noise, size=p.shape))
    parts[1][0] = TWO_DISKS_OUTLIER
    return _dataset(parts, "two_disks")


def gaussians(n: int = 200, noise: float = 1.0, seed: int | None = None) -> Dataset:
    """Two overlapping gaussians centred (-1, -1) and (1, 1) with std ``noise`` (default 1, as
    in the seed notes): no line separates them, so a soft margin (finite C) is needed.
    """
    check_generator_args(n, noise)
    rng = np.random.default_rng(seed)
    parts = [c + rng.normal(scale=noise, size=(m, 2)) for c, m in zip((-1.0, 1.0), _counts(n, 2))]
    return _dataset(parts, "gaussians")


NOVELTY_CLASSES = ("inlier", "outlier")
OUTLIER_FRACTION = 0.1
OUTLIER_BOX_PAD = 0.25       # the outliers' box: the inliers' extent grown by this much of it
                             # on every side, so outliers also fall beyond the inliers


def outlier_count(n: int) -> int:
    """About a tenth of n, at least one from n = 10 on (fewer points: inliers only)."""
    return int(n * OUTLIER_FRACTION) if n >= 10 else 0


def _with_outliers(inliers: np.ndarray, n: int, rng: np.random.Generator,
                   name: str) -> Dataset:
    """Inliers (label 0) followed by n - len(inliers) outliers (label 1) uniform over the
    inliers' bounding box padded by OUTLIER_BOX_PAD of its size (at least 0.5, so that
    a degenerate box, one point or no noise on a line, still leaves room)."""
    low, high = inliers.min(axis=0), inliers.max(axis=0)
    pad = np.maximum(OUTLIER_BOX_PAD * (high - low), 0.5)
    outliers = rng.uniform(low - pad, high + pad, size=(n - len(inliers), 2))
    y = np.repeat(np.array([0, 1], dtype=np.int64), [len(inliers), len(outliers)])
    return Dataset(np.vstack([inliers, outliers]), y, NOVELTY_CLASSES, name=name)


def blobs_outliers(n: int = 200, noise: float = 0.5, seed: int | None = None) -> Dataset:
    """Three round gaussian blobs (std ``noise``) centred (-2, -1), (2, -1) and (0, 2) as
    the one class, and about 10% outliers uniform over a box around them.

    A region of several parts: a one-class SVM with an rbf kernel finds each blob; nu
    sets how many training points it leaves outside.
    """
    check_generator_args(n, noise, 1)
    rng = np.random.default_rng(seed)
    centres = np.array([[-2.0, -1.0], [2.0, -1.0], [0.0, 2.0]])
    counts = _counts(n - outlier_count(n), len(centres))
    inliers = np.repeat(centres, counts, axis=0) + rng.normal(scale=noise, size=(sum(counts), 2))
    return _with_outliers(inliers, n, rng, "blobs_outliers")


RING_RADIUS = 2.0


def ring_outliers(n: int = 200, noise: float = 0.15, seed: int | None = None) -> Dataset:
    """Points on a ring of radius 2 (uniform angles, gaussian noise of std ``noise``) as the
    one class, and about 10% outliers uniform over a box around it.

    A non-convex region: its hole is outside, which a gaussian (rbf) kernel with a large
    enough gamma learns and a small gamma fills in.
    """
    check_generator_args(n, noise, 1)
    rng = np.random.default_rng(seed)
    m = n - outlier_count(n)
    inliers = _polar(RING_RADIUS, rng.uniform(0.0, 2 * np.pi, m)) \
        + rng.normal(scale=noise, size=(m, 2))
    return _with_outliers(inliers, n, rng, "ring_outliers")


GENERATORS: dict[str, Callable[..., Dataset]] = {
    "blobs": blobs,
    "moons": moons,
    "circles": circles,
    "xor": xor,
    "spirals": spirals,
    "two_disks": two_disks,
    "gaussians": gaussians,
}

# How the window names each generator (marked for translation): words, not the key above that
# files, sessions and the CLI use (a new user read `two_disks` in the Generator box).
GENERATOR_TITLES: dict[str, str] = {
    "blobs": N_("blobs"),
    "moons": N_("moons"),
    "circles": N_("circles"),
    "xor": N_("xor"),
    "spirals": N_("spirals"),
    "two_disks": N_("two disks with an outlier"),
    "gaussians": N_("gaussians"),
}


# Sets for novelty detection (the one-class SVM), apart from GENERATORS: the classification
# panel lists those.
NOVELTY_GENERATORS: dict[str, Callable[..., Dataset]] = {
    "blobs_outliers": blobs_outliers,
    "ring_outliers": ring_outliers,
}

NOVELTY_GENERATOR_TITLES: dict[str, str] = {
    "blobs_outliers": N_("blobs with outliers"),
    "ring_outliers": N_("ring with outliers"),
}


def make_dataset(name: str, n: int = 200, noise: float | None = None, seed: int | None = None,
                 **kw: float) -> Dataset:
    """Generate the dataset ``name`` (a key of GENERATORS or NOVELTY_GENERATORS);
    ``noise=None`` uses its default."""
    generators = {**GENERATORS, **NOVELTY_GENERATORS}
    if name not in generators:
        raise ValueError(tr("unknown dataset {name}; choose one of {names}").format(
            name=repr(name), names=tr(", ").join(generators)))
    if noise is not None:
        kw["noise"] = noise
    return generators[name](n=n, seed=seed, **kw)
