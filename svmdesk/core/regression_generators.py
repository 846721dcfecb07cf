"""Seeded regression sets for SVR and nu-SVR: the generators of Samples, their registry
and titles, and make_samples.

The regression generators (REGRESSION_GENERATORS) share the classification generators'
signature ``fn(n=200, noise=<default>, seed=None)`` and their determinism for a given
``seed``, and return ``Samples``: one feature ``x`` and a target ``y`` per sample, sorted
by x.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from svmdesk.core.datasets import Samples
from svmdesk.core.point_generators import check_generator_args, outlier_count
from svmdesk.i18n import N_, tr


def _sorted_samples(x: np.ndarray, y: np.ndarray, name: str) -> Samples:
    """Samples ordered by x (the curve and the residuals read left to right)."""
    order = np.argsort(x, kind="stable")
    return Samples(x[order], y[order], name=name)


def sine(n: int = 200, noise: float = 0.2, seed: int | None = None) -> Samples:
    """y = sin(x) over about one and a half periods (x uniform in [0, 3 pi]), gaussian
    noise of std ``noise``: the tube follows a curve; gamma sets how closely."""
    check_generator_args(n, noise, 1)
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.0, 3 * np.pi, n)
    return _sorted_samples(x, np.sin(x) + rng.normal(scale=noise, size=n), "sine")


def step(n: int = 200, noise: float = 0.1, seed: int | None = None) -> Samples:
    """y = 0 left of x = 0 and 1 right of it (x uniform in [-2, 2]), gaussian noise of std
    ``noise``: a jump no smooth curve follows; a large gamma comes closer."""
    check_generator_args(n, noise, 1)
    rng = np.random.default_rng(seed)
    x = rng.uniform(-2.0, 2.0, n)
    return _sorted_samples(x, (x > 0).astype(np.float64) + rng.normal(scale=noise, size=n),
                           "step")


TREND_OUTLIER_OFFSET = 3.0   # the outliers' distance from the trend, at least (in y)


def trend_outliers(n: int = 200, noise: float = 0.2, seed: int | None = None) -> Samples:
    """y = 0.5 x + 1 (x uniform in [-3, 3]), gaussian noise of std ``noise``, with about
    10% of the samples moved 3 to 5 above or below the trend: the tube's linear cost lets
    them pull the curve less than least squares would."""
    check_generator_args(n, noise, 1)
    rng = np.random.default_rng(seed)
    x = rng.uniform(-3.0, 3.0, n)
    y = 0.5 * x + 1.0 + rng.normal(scale=noise, size=n)
    off = rng.choice(n, size=outlier_count(n), replace=False)
    y[off] += rng.choice([-1.0, 1.0], size=len(off)) * rng.uniform(
        TREND_OUTLIER_OFFSET, TREND_OUTLIER_OFFSET + 2.0, size=len(off))
    return _sorted_samples(x, y, "trend_outliers")


def heteroscedastic(n: int = 200, noise: float = 0.3, seed: int | None = None) -> Samples:
    """y = x (x uniform in [0, 4]) with gaussian noise of std ``noise`` * x / 2, growing
    with x (0 at the left, 2 ``noise`` at the right): one tube's width cannot fit both
    ends."""
    check_generator_args(n, noise, 1)
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
