import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from svmdesk.core.datasets import Dataset, Samples
from svmdesk.core.errors import DataError
from svmdesk.core.point_generators import (
    GENERATORS,
    NOVELTY_GENERATOR_TITLES,
    NOVELTY_GENERATORS,
    make_dataset,
)
from svmdesk.core.regression_generators import (
    REGRESSION_GENERATOR_TITLES,
    REGRESSION_GENERATORS,
    make_samples,
)

NAMES = ["blobs", "moons", "circles", "xor", "spirals", "two_disks", "gaussians"]
NOVELTY_NAMES = ["blobs_outliers", "ring_outliers"]
REGRESSION_NAMES = ["sine", "step", "trend_outliers", "heteroscedastic"]
ROOT = Path(__file__).resolve().parents[2]


def test_registry_has_all_generators_with_docstrings():
    assert list(GENERATORS) == NAMES
    assert all(fn.__doc__ and fn.__doc__.strip() for fn in GENERATORS.values())


@pytest.mark.parametrize("name", NAMES)
def test_deterministic_per_seed_and_different_across_seeds(name):
    a, b, c = (make_dataset(name, n=50, seed=s) for s in (1, 1, 2))
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.y, b.y)
    assert not np.array_equal(a.X, c.X)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("n", [2, 3, 7, 200, 201])
def test_exact_n_and_balanced(name, n):
    ds = make_dataset(name, n=n, seed=0)
    assert ds.n == n == len(ds.X) == len(ds.y)
    counts = np.bincount(ds.y, minlength=2)
    assert counts.sum() == n and counts[0] - counts[1] == n % 2


@pytest.mark.parametrize("name", NAMES)
def test_shapes_dtypes_and_names(name):
    ds = make_dataset(name, n=20, seed=0)
    assert ds.X.shape == (20, 2) and ds.X.dtype == np.float64
    assert ds.y.shape == (20,) and np.issubdtype(ds.y.dtype, np.integer)
    assert ds.class_names == ("0", "1") and ds.n_classes == 2
    assert ds.feature_names == ("x1", "x2") and ds.name == name
    assert np.isfinite(ds.X).all()


@pytest.mark.parametrize("name", NAMES)
def test_arrays_are_read_only(name):
    ds = make_dataset(name, n=10, seed=0)
    assert not ds.X.flags.writeable and not ds.y.flags.writeable
    with pytest.raises(ValueError):
        ds.X[0, 0] = 1.0
    with pytest.raises(ValueError):
        ds.y[0] = 1


def test_dataset_copies_input_and_is_frozen():
    X, y = np.zeros((2, 2)), np.array([0, 1])
    ds = Dataset(X, y, ("0", "1"))
    X[0, 0] = 5.0
    assert ds.X[0, 0] == 0.0 and X.flags.writeable
    with pytest.raises(AttributeError):
        ds.name = "other"


def test_dataset_validation():
    with pytest.raises(ValueError, match="3 points but y has 2"):
        Dataset(np.zeros((3, 2)), [0, 1], ("0", "1"))
    with pytest.raises(ValueError, match="2-D"):
        Dataset(np.zeros(3), [0, 1, 0], ("0", "1"))
    with pytest.raises(ValueError, match="1-D"):
        Dataset(np.zeros((2, 2)), [[0], [1]], ("0", "1"))
    with pytest.raises(ValueError, match="feature names"):
        Dataset(np.zeros((2, 3)), [0, 1], ("0", "1"))
    with pytest.raises(ValueError, match="not one of the classes"):
        Dataset(np.zeros((2, 2)), [0, 2], ("0", "1"))
    with pytest.raises(ValueError, match="NaN"):
        Dataset(np.full((2, 2), np.nan), [0, 1], ("0", "1"))


def test_dataset_accepts_string_labels():
    ds = Dataset([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], ["cat", "dog", "cat"], ("cat", "dog"),
                 feature_names=("w", "h"), name="pets")
    assert ds.n == 3 and ds.n_classes == 2 and list(ds.y) == ["cat", "dog", "cat"]
    with pytest.raises(ValueError, match="bird"):
        Dataset([[0.0, 1.0]], ["bird"], ("cat", "dog"))


@pytest.mark.parametrize("seed", range(5))
def test_two_disks_has_the_seed_outlier_and_points_in_their_disks(seed):
    ds = make_dataset("two_disks", n=201, seed=seed)
    is_outlier = np.all(ds.X == (-1.5, 4.0), axis=1)
    assert is_outlier.sum() == 1
    assert ds.y[is_outlier][0] == 1  # the (0, 0)-disk's class
    X, y = ds.X[~is_outlier], ds.y[~is_outlier]
    assert np.all(np.hypot(*(X[y == 1] - (0.0, 0.0)).T) <= 2.7)
    assert np.all(np.hypot(*(X[y == 0] - (-5.0, 3.0)).T) <= 2.0)


def test_two_disks_noise_jitters_all_but_the_outlier():
    ds = make_dataset("two_disks", n=40, noise=0.01, seed=0)
    assert np.all(ds.X == (-1.5, 4.0), axis=1).sum() == 1
    assert not np.array_equal(ds.X, make_dataset("two_disks", n=40, seed=0).X)


def _class_stats(X, y):
    return np.array([np.r_[X[y == k].mean(axis=0), X[y == k].std(axis=0)] for k in (0, 1)])


@pytest.mark.parametrize("name", ["moons", "circles"])
def test_moons_and_circles_match_sklearn_statistically(name):
    sk = pytest.importorskip("sklearn.datasets")
    ours = make_dataset(name, n=4000, noise=0.1, seed=0)
    if name == "moons":
        X, y = sk.make_moons(n_samples=4000, noise=0.1, random_state=0)
    else:
        X, y = sk.make_circles(n_samples=4000, noise=0.1, factor=0.5, random_state=0)
    np.testing.assert_allclose(_class_stats(ours.X, ours.y), _class_stats(X, y), atol=0.03)


def test_circles_radii():
    ds = make_dataset("circles", n=400, noise=0.0, seed=0)
    r = np.hypot(*ds.X.T)
    np.testing.assert_allclose(r[ds.y == 0], 1.0)
    np.testing.assert_allclose(r[ds.y == 1], 0.5)
    noisy = make_dataset("circles", n=4000, noise=0.05, seed=0)
    r = np.hypot(*noisy.X.T)
    assert abs(np.median(r[noisy.y == 0]) - 1.0) < 0.02
    assert abs(np.median(r[noisy.y == 1]) - 0.5) < 0.02


@pytest.mark.parametrize("seed", range(5))
def test_xor_labels_follow_sign_of_product_for_small_noise(seed):
    ds = make_dataset("xor", n=400, noise=0.1, seed=seed)
    np.testing.assert_array_equal(ds.y, (ds.X[:, 0] * ds.X[:, 1] > 0).astype(int))
    # all four quadrants are used
    assert len({(a, b) for a, b in np.sign(ds.X).astype(int)}) == 4


def test_spirals_are_point_reflections_of_each_other_without_noise():
    ds = make_dataset("spirals", n=100, noise=0.0, seed=0)
    np.testing.assert_allclose(ds.X[ds.y == 1], -ds.X[ds.y == 0], atol=1e-12)
    r = np.hypot(*ds.X.T)
    assert r.min() == pytest.approx(0.25) and r.max() == pytest.approx(2.0)


def test_gaussians_centres_and_noise_scales_std():
    for noise in (0.5, 1.0):
        ds = make_dataset("gaussians", n=4000, noise=noise, seed=0)
        stats = _class_stats(ds.X, ds.y)
        np.testing.assert_allclose(stats[:, :2], [[-1, -1], [1, 1]], atol=0.1)
        np.testing.assert_allclose(stats[:, 2:], noise, rtol=0.05)
    np.testing.assert_array_equal(make_dataset("gaussians", seed=3).X,
                                  make_dataset("gaussians", noise=1.0, seed=3).X)


@pytest.mark.parametrize("k", range(2, 9))
def test_blobs_centers_gives_k_balanced_classes(k):
    ds = make_dataset("blobs", n=10 * k + 1, seed=0, centers=k)
    assert ds.n_classes == k and ds.class_names == tuple(str(i) for i in range(k))
    counts = np.bincount(ds.y)
    assert len(counts) == k and counts[0] == 11 and set(counts[1:]) == {10}
    means = np.array([ds.X[ds.y == i].mean(axis=0) for i in range(k)])
    gaps = np.linalg.norm(means[:, None] - means[None], axis=-1)[~np.eye(k, dtype=bool)]
    assert gaps.min() > 4  # centres 4*sqrt(2) apart, so clusters stay distinguishable


def test_make_dataset_errors():
    with pytest.raises(ValueError, match="'nope'") as err:
        make_dataset("nope")
    assert all(name in str(err.value) for name in NAMES + NOVELTY_NAMES)
    with pytest.raises(ValueError, match="at least 2"):
        make_dataset("moons", n=1)
    with pytest.raises(ValueError, match="at least 5"):
        make_dataset("blobs", n=4, centers=5)
    with pytest.raises(ValueError, match="noise must be >= 0"):
        make_dataset("circles", noise=-0.1)
    with pytest.raises(ValueError, match="noise"):
        make_dataset("circles", noise=float("nan"))
    with pytest.raises(ValueError, match="integer"):
        make_dataset("xor", n=10.5)
    for bad in (1, 9):
        with pytest.raises(ValueError, match="centers must be an integer from 2 to 8"):
            make_dataset("blobs", centers=bad)


def test_novelty_registry_is_apart_from_the_classification_one():
    assert list(NOVELTY_GENERATORS) == list(NOVELTY_GENERATOR_TITLES) == NOVELTY_NAMES
    assert not set(NOVELTY_GENERATORS) & set(GENERATORS)
    assert all(fn.__doc__ and fn.__doc__.strip() for fn in NOVELTY_GENERATORS.values())


@pytest.mark.parametrize("name", NOVELTY_NAMES)
@pytest.mark.parametrize("n, outliers", [(1, 0), (9, 0), (10, 1), (19, 1), (200, 20), (205, 20)])
def test_novelty_sets_have_n_points_inliers_first_and_a_tenth_outliers(name, n, outliers):
    ds = make_dataset(name, n=n, seed=0)
    assert ds.n == n and ds.X.shape == (n, 2) and ds.name == name
    assert ds.class_names == ("inlier", "outlier")
    np.testing.assert_array_equal(ds.y, [0] * (n - outliers) + [1] * outliers)


@pytest.mark.parametrize("name", NOVELTY_NAMES)
def test_novelty_sets_are_deterministic_per_seed(name):
    a, b, c = (make_dataset(name, n=60, seed=s) for s in (4, 4, 5))
    np.testing.assert_array_equal(a.X, b.X)
    assert not np.array_equal(a.X, c.X)


@pytest.mark.parametrize("name", NOVELTY_NAMES)
def test_outliers_are_uniform_over_a_box_larger_than_the_inliers(name):
    ds = make_dataset(name, n=4000, seed=1)
    inliers, outliers = ds.X[ds.y == 0], ds.X[ds.y == 1]
    low, high = inliers.min(axis=0), inliers.max(axis=0)
    pad = np.maximum(0.25 * (high - low), 0.5)
    assert (outliers >= low - pad).all() and (outliers <= high + pad).all()
    beyond = (outliers < low) | (outliers > high)
    assert beyond.any(axis=1).mean() > 0.2             # many fall beyond the inliers
    # uniform: each quarter of the box along each axis holds about a quarter of them
    quarter = np.floor((outliers - (low - pad)) / (high - low + 2 * pad) * 4).astype(int)
    for axis in (0, 1):
        np.testing.assert_allclose(np.bincount(quarter[:, axis], minlength=4) / 400, 0.25,
                                   atol=0.08)


def test_ring_inliers_lie_on_the_ring_and_blobs_inliers_around_three_centres():
    ring = make_dataset("ring_outliers", n=2000, noise=0.0, seed=0)
    np.testing.assert_allclose(np.hypot(*ring.X[ring.y == 0].T), 2.0)
    noisy = make_dataset("ring_outliers", n=2000, noise=0.1, seed=0)
    assert abs(np.median(np.hypot(*noisy.X[noisy.y == 0].T)) - 2.0) < 0.02
    blobs = make_dataset("blobs_outliers", n=3000, noise=0.3, seed=0)
    inliers = blobs.X[blobs.y == 0]
    centres = np.array([[-2.0, -1.0], [2.0, -1.0], [0.0, 2.0]])
    nearest = np.linalg.norm(inliers[:, None] - centres[None], axis=-1).argmin(axis=1)
    np.testing.assert_array_equal(np.bincount(nearest), [900, 900, 900])
    for k in range(3):
        np.testing.assert_allclose(inliers[nearest == k].std(axis=0), 0.3, rtol=0.1)


@pytest.mark.parametrize("name", NOVELTY_NAMES)
def test_novelty_sets_check_n_and_noise(name):
    with pytest.raises(ValueError, match="at least 1"):
        make_dataset(name, n=0)
    with pytest.raises(ValueError, match="noise must be >= 0"):
        make_dataset(name, noise=-1.0)
    with pytest.raises(ValueError, match="integer"):
        make_dataset(name, n=20.0)


def test_regression_registry_is_apart_from_the_others():
    assert list(REGRESSION_GENERATORS) == list(REGRESSION_GENERATOR_TITLES) == REGRESSION_NAMES
    assert not set(REGRESSION_GENERATORS) & (set(GENERATORS) | set(NOVELTY_GENERATORS))
    assert REGRESSION_GENERATOR_TITLES["sine"] == "noisy sine"
    assert all(fn.__doc__ and fn.__doc__.strip() for fn in REGRESSION_GENERATORS.values())


@pytest.mark.parametrize("name", REGRESSION_NAMES)
@pytest.mark.parametrize("n", [1, 2, 9, 10, 200])
def test_regression_sets_have_n_finite_samples_sorted_by_x(name, n):
    samples = make_samples(name, n=n, seed=0)
    assert isinstance(samples, Samples) and samples.n == n
    assert samples.x.shape == samples.y.shape == (n,)
    assert samples.x.dtype == samples.y.dtype == np.float64
    assert np.all(np.diff(samples.x) >= 0)
    assert np.isfinite(samples.x).all() and np.isfinite(samples.y).all()
    assert samples.names == ("x", "y") and samples.name == name
    assert samples.X.shape == (n, 1)
    assert not samples.x.flags.writeable and not samples.y.flags.writeable


@pytest.mark.parametrize("name", REGRESSION_NAMES)
def test_regression_sets_are_deterministic_per_seed(name):
    a, b, c = (make_samples(name, n=50, seed=s) for s in (1, 1, 2))
    np.testing.assert_array_equal(a.x, b.x)
    np.testing.assert_array_equal(a.y, b.y)
    assert not np.array_equal(a.y, c.y)


def test_sine_follows_one_and_a_half_periods_of_the_sine():
    samples = make_samples("sine", n=4000, noise=0.2, seed=0)
    assert samples.x.min() >= 0 and samples.x.max() <= 3 * np.pi
    assert samples.x.max() > 0.99 * 3 * np.pi       # the whole span is covered
    np.testing.assert_allclose(np.std(samples.y - np.sin(samples.x)), 0.2, rtol=0.05)
    exact = make_samples("sine", n=50, noise=0.0, seed=0)
    np.testing.assert_allclose(exact.y, np.sin(exact.x))


def test_step_jumps_by_one_at_zero():
    samples = make_samples("step", n=50, noise=0.0, seed=3)
    np.testing.assert_array_equal(samples.y, (samples.x > 0).astype(float))
    assert samples.x.min() < 0 < samples.x.max()


def test_trend_outliers_lie_far_off_the_trend_about_one_in_ten():
    samples = make_samples("trend_outliers", n=200, noise=0.1, seed=0)
    off = np.abs(samples.y - (0.5 * samples.x + 1.0))
    assert np.sum(off > 2.5) == 20
    assert off[off <= 2.5].max() < 0.5


def test_heteroscedastic_noise_grows_with_x():
    samples = make_samples("heteroscedastic", n=4000, noise=0.3, seed=0)
    residual = samples.y - samples.x
    left, right = residual[samples.x < 1.0], residual[samples.x > 3.0]
    assert right.std() > 3 * left.std()
    np.testing.assert_allclose(right.std(), 0.3 * 3.5 / 2, rtol=0.1)


def test_make_samples_errors():
    with pytest.raises(ValueError, match="'nope'") as err:
        make_samples("nope")
    assert all(name in str(err.value) for name in REGRESSION_NAMES)
    with pytest.raises(ValueError, match="at least 1"):
        make_samples("sine", n=0)
    with pytest.raises(ValueError, match="noise must be >= 0"):
        make_samples("step", noise=-0.1)
    with pytest.raises(ValueError, match="noise"):
        make_samples("step", noise=float("nan"))
    with pytest.raises(ValueError, match="integer"):
        make_samples("sine", n=10.5)


def test_samples_are_checked_copies():
    x, y = np.array([0.0, 1.0]), np.array([2.0, 3.0])
    samples = Samples(x, y, name="mine")
    x[0] = 9.0
    assert samples.x[0] == 0.0 and samples.name == "mine"
    with pytest.raises(DataError, match="2 samples but y has 3"):
        Samples([0.0, 1.0], [1.0, 2.0, 3.0])
    with pytest.raises(DataError, match="NaN"):
        Samples([0.0, 1.0], [1.0, np.nan])
    with pytest.raises(DataError, match="infinite"):
        Samples([0.0, np.inf], [1.0, 2.0])
    with pytest.raises(DataError, match="1-D"):
        Samples(np.zeros((2, 2)), [1.0, 2.0])
    with pytest.raises(DataError, match="two names"):
        Samples([0.0], [1.0], names=("x",))


def test_import_does_not_pull_in_gui_libraries():
    code = ("import svmdesk.core.datasets, sys; "
            "assert not any(m in sys.modules for m in ('PySide6', 'pyqtgraph', 'qasync'))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
