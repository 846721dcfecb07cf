"""Seeded 2-D toy datasets for trying out SVMs.

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

The regression generators (REGRESSION_GENERATORS, for SVR and nu-SVR) share the signature
and the determinism and return ``Samples``: one feature ``x`` and a target ``y`` per
sample, sorted by x.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from svmdesk.core.errors import DataError
from svmdesk.i18n import N_, tr

MAX_BLOB_CENTERS = 8


@dataclass(frozen=True, eq=False)
class Dataset:
    """A labelled point set; ``X`` and ``y`` are read-only copies of what was passed in.

    ``y`` holds integer labels ``0..k-1`` indexing ``class_names``, or the class names
    themselves (strings, e.g. from a CSV file).
    """

    X: np.ndarray
    y: np.ndarray
    class_names: tuple[str, ...]
    feature_names: tuple[str, ...] = ("x1", "x2")
    name: str = ""

    def __post_init__(self):
        X = np.array(self.X, dtype=np.float64)
        y = np.array(self.y)
        if X.ndim != 2:
            raise DataError(tr("X must be a 2-D array (points x features); got shape {shape}"
                               ).format(shape=X.shape))
        if y.ndim != 1:
            raise DataError(tr("y must be a 1-D array of labels; got shape {shape}").format(
                shape=y.shape))
        if len(X) != len(y):
            raise DataError(tr("X has {points} points but y has {labels} labels").format(
                points=len(X), labels=len(y)))
        if not np.isfinite(X).all():
            raise DataError(tr("X contains NaN or infinite values"))
        class_names = tuple(str(c) for c in self.class_names)
        feature_names = tuple(str(f) for f in self.feature_names)
        if len(feature_names) != X.shape[1]:
            raise DataError(tr("{names} feature names for {features} features").format(
                names=len(feature_names), features=X.shape[1]))
        if np.issubdtype(y.dtype, np.integer):
            unknown = y[(y < 0) | (y >= len(class_names))].tolist()
        else:
            unknown = [label for label in y.tolist() if str(label) not in class_names]
        if len(unknown):
            raise DataError(tr("label {label} is not one of the classes {classes}").format(
                label=repr(unknown[0]), classes=str(class_names)))
        X.setflags(write=False)
        y.setflags(write=False)
        for field, value in (("X", X), ("y", y), ("class_names", class_names),
                             ("feature_names", feature_names), ("name", str(self.name))):
            object.__setattr__(self, field, value)

    @property
    def n(self) -> int:
        return len(self.X)

    @property
    def n_classes(self) -> int:
        return len(self.class_names)


def class_labels(class_names: Sequence[str]) -> np.ndarray:
    """The labels a machine trains on, one per class name: integers when every name is one
    ('-1', '+1', '2'), so that LIBSVM export works and predictions print back as the data
    wrote them; otherwise the names themselves (text stays text). The window and the
    command line both train on these, never on class indices."""
    names = [str(n) for n in class_names]
    if all(n.lstrip("+-").isdigit() and n.isascii() and len(n) <= 18 for n in names):
        values = [int(n) for n in names]
        if len(set(values)) == len(values):
            return np.array(values, dtype=np.int64)
    return np.array(names)


def _check(n: int, noise: float, n_classes: int = 2) -> None:
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
    _check(n, noise, centers)
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
    _check(n, noise)
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
    _check(n, noise)
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
    _check(n, noise)
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
    _check(n, noise)
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
    _check(n, noise)
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
    _check(n, noise)
    rng = np.random.default_rng(seed)
    parts = [c + rng.normal(scale=noise, size=(m, 2)) for c, m in zip((-1.0, 1.0), _counts(n, 2))]
    return _dataset(parts, "gaussians")


NOVELTY_CLASSES = ("inlier", "outlier")
OUTLIER_FRACTION = 0.1
OUTLIER_BOX_PAD = 0.25       # the outliers' box: the inliers' extent grown by this much of it
                             # on every side, so outliers also fall beyond the inliers


def _outlier_count(n: int) -> int:
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
    _check(n, noise, 1)
    rng = np.random.default_rng(seed)
    centres = np.array([[-2.0, -1.0], [2.0, -1.0], [0.0, 2.0]])
    counts = _counts(n - _outlier_count(n), len(centres))
    inliers = np.repeat(centres, counts, axis=0) + rng.normal(scale=noise, size=(sum(counts), 2))
    return _with_outliers(inliers, n, rng, "blobs_outliers")


RING_RADIUS = 2.0


def ring_outliers(n: int = 200, noise: float = 0.15, seed: int | None = None) -> Dataset:
    """Points on a ring of radius 2 (uniform angles, gaussian noise of std ``noise``) as the
    one class, and about 10% outliers uniform over a box around it.

    A non-convex region: its hole is outside, which a gaussian (rbf) kernel with a large
    enough gamma learns and a small gamma fills in.
    """
    _check(n, noise, 1)
    rng = np.random.default_rng(seed)
    m = n - _outlier_count(n)
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


@dataclass(frozen=True, eq=False)
class Samples:
    """Regression data of one feature: ``x`` the feature and ``y`` the target of each
    sample (float64, read-only copies, finite, as many of each); ``names`` the feature's
    and the target's."""

    x: np.ndarray
    y: np.ndarray
    names: tuple[str, str] = ("x", "y")
    name: str = ""

    def __post_init__(self):
        x = np.array(self.x, dtype=np.float64)
        y = np.array(self.y, dtype=np.float64)
        for values, what in ((x, "x"), (y, "y")):
            if values.ndim != 1:
                raise DataError(tr("{what} must be a 1-D array, one value per sample; got "
                                   "shape {shape}").format(what=what, shape=values.shape))
            if not np.isfinite(values).all():
                raise DataError(tr("{what} contains NaN or infinite values").format(what=what))
        if len(x) != len(y):
            raise DataError(tr("x has {samples} samples but y has {targets} targets").format(
                samples=len(x), targets=len(y)))
        names = tuple(str(n) for n in self.names)
        if len(names) != 2:
            raise DataError(tr("give two names, the feature's and the target's; got {names}"
                               ).format(names=str(names)))
        x.setflags(write=False)
        y.setflags(write=False)
        for field, value in (("x", x), ("y", y), ("names", names), ("name", str(self.name))):
            object.__setattr__(self, field, value)

    @property
    def n(self) -> int:
        return len(self.x)

    @property
    def X(self) -> np.ndarray:  # noqa: N802 - the estimators' name for the (n, 1) features
        """The feature as the (n, 1) matrix a regressor trains on."""
        return self.x[:, None]


def _sorted_samples(x: np.ndarray, y: np.ndarray, name: str) -> Samples:
    """Samples ordered by x (the curve and the residuals read left to right)."""
    order = np.argsort(x, kind="stable")
    return Samples(x[order], y[order], name=name)


def sine(n: int = 200, noise: float = 0.2, seed: int | None = None) -> Samples:
    """y = sin(x) over about one and a half periods (x uniform in [0, 3 pi]), gaussian
    noise of std ``noise``: the tube follows a curve; gamma sets how closely."""
    _check(n, noise, 1)
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.0, 3 * np.pi, n)
    return _sorted_samples(x, np.sin(x) + rng.normal(scale=noise, size=n), "sine")


def step(n: int = 200, noise: float = 0.1, seed: int | None = None) -> Samples:
    """y = 0 left of x = 0 and 1 right of it (x uniform in [-2, 2]), gaussian noise of std
    ``noise``: a jump no smooth curve follows; a large gamma comes closer."""
    _check(n, noise, 1)
    rng = np.random.default_rng(seed)
    x = rng.uniform(-2.0, 2.0, n)
    return _sorted_samples(x, (x > 0).astype(np.float64) + rng.normal(scale=noise, size=n),
                           "step")


TREND_OUTLIER_OFFSET = 3.0   # the outliers' distance from the trend, at least (in y)


def trend_outliers(n: int = 200, noise: float = 0.2, seed: int | None = None) -> Samples:
    """y = 0.5 x + 1 (x uniform in [-3, 3]), gaussian noise of std ``noise``, with about
    10% of the samples moved 3 to 5 above or below the trend: the tube's linear cost lets
    them pull the curve less than least squares would."""
    _check(n, noise, 1)
    rng = np.random.default_rng(seed)
    x = rng.uniform(-3.0, 3.0, n)
    y = 0.5 * x + 1.0 + rng.normal(scale=noise, size=n)
    off = rng.choice(n, size=_outlier_count(n), replace=False)
    y[off] += rng.choice([-1.0, 1.0], size=len(off)) * rng.uniform(
        TREND_OUTLIER_OFFSET, TREND_OUTLIER_OFFSET + 2.0, size=len(off))
    return _sorted_samples(x, y, "trend_outliers")


def heteroscedastic(n: int = 200, noise: float = 0.3, seed: int | None = None) -> Samples:
    """y = x (x uniform in [0, 4]) with gaussian noise of std ``noise`` * x / 2, growing
    with x (0 at the left, 2 ``noise`` at the right): one tube's width cannot fit both
    ends."""
    _check(n, noise, 1)
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.0, 4.0, n)
    return _sorted_samples(x, x + rng.normal(size=n) * noise * x / 2, "heteroscedastic")


# Sets for regression (SVR, nu-SVR), apart from the classification and novelty ones.
REGRESSION_GENERATORS: dict[str, Callable[..., Samples]] = {
    "sine": sine,
    "step": step,
    "trend_outliers": trend_outliers,
    "heteroscedastic": heteroscedastic,
}

REGRESSION_GENERATOR_TITLES: dict[str, str] = {
    "sine": N_("noisy sine"),
    "step": N_("step"),
    "trend_outliers": N_("trend with outliers"),
    "heteroscedastic": N_("growing noise"),
}


def make_samples(name: str, n: int = 200, noise: float | None = None,
                 seed: int | None = None) -> Samples:
    """Generate the regression set ``name`` (a key of REGRESSION_GENERATORS);
    ``noise=None`` uses its default."""
    if name not in REGRESSION_GENERATORS:
        raise ValueError(tr("unknown regression set {name}; choose one of {names}").format(
            name=repr(name), names=tr(", ").join(REGRESSION_GENERATORS)))
    kw = {} if noise is None else {"noise": noise}
    return REGRESSION_GENERATORS[name](n=n, seed=seed, **kw)


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
