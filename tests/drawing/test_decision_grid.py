"""decision_grid against direct evaluation kernel.matvec(points, sv, coef) + b."""
import numpy as np
import pytest

from svmdesk.core import SVC, Kernel, make_dataset
from svmdesk.core.model import Scaler
from svmdesk.drawing.decision_grid import (
    GridSpec,
    _poly_grid,
    class_grid,
    decision_grid,
    model_grid,
)

SPEC = GridSpec(-3.0, 2.5, -2.0, 3.5, nx=23, ny=17)
SCALER = Scaler(mean=[0.7, -0.4], scale=[1.8, 0.6])


def _problem(S=40, seed=0, spread=1.5):
    rng = np.random.default_rng(seed)
    return rng.normal(scale=spread, size=(S, 2)), rng.normal(size=S), float(rng.normal())


def _direct(kernel, sv, coef, bias, spec, scaler=None, rows=2000):
    """f(x) = sum_s c_s k(x, s) + b and sum_s |c_s k_s(x)| at every grid point, `rows`
    points at a time: the whole kernel matrix of the big-grid test would take 1.2 GB, and
    the first allocation of that much memory cost seconds."""
    points = spec.points if scaler is None else scaler.transform(spec.points)
    f, scale = np.empty(len(points)), np.empty(len(points))
    for start in range(0, len(points), rows):
        K = kernel(points[start:start + rows], sv)
        f[start:start + rows] = K @ coef + bias
        scale[start:start + rows] = np.abs(K) @ np.abs(coef)
    return f.reshape(spec.ny, spec.nx), scale.reshape(spec.ny, spec.nx)


KERNELS = ([Kernel("rbf", gamma=g) for g in (0.05, 0.5, 3.0, 40.0)]
           + [Kernel("poly", gamma=0.7, degree=d, coef0=c0) for d in range(1, 6) for c0 in (0, 1)]
           + [Kernel("linear"), Kernel("sigmoid", gamma=0.3, coef0=-0.5)])


@pytest.mark.parametrize("scaler", [None, SCALER], ids=["raw", "scaled"])
@pytest.mark.parametrize("kernel", KERNELS, ids=repr)
def test_matches_direct_evaluation(kernel, scaler):
    sv, coef, bias = _problem()
    out = decision_grid(kernel, sv, coef, bias, SPEC, scaler=scaler)
    f, scale = _direct(kernel, sv, coef, bias, SPEC, scaler)
    assert out.shape == (17, 23) and out.dtype == np.float32 and out.flags.c_contiguous
    # float32 output: relative rounding of |f|, on top of each method's own error
    tol = 1e-6 * np.maximum(scale, 1) + 1e-7 * np.abs(f)
    if kernel.name == "rbf":
        tol = 1e-4 * np.abs(coef).sum()
    assert np.all(np.abs(out - f) <= tol)


@pytest.mark.parametrize("kernel", [Kernel("rbf", gamma=0.8), Kernel("poly", 0.5, 3, 1.0),
                                    Kernel("linear"), Kernel("sigmoid", 0.2, 3, 0.1)], ids=repr)
@pytest.mark.parametrize("spec", [GridSpec(-1, 1, -1, 1, 2, 2), GridSpec(0, 1, -5, 5, 2, 9),
                                  GridSpec(-4, 4, 0, 0.5, 31, 3)], ids=repr)
def test_tiny_and_non_square_grids(kernel, spec):
    sv, coef, bias = _problem(S=7, seed=1)
    out = decision_grid(kernel, sv, coef, bias, spec)
    f, _ = _direct(kernel, sv, coef, bias, spec)
    assert out.shape == (spec.ny, spec.nx)
    np.testing.assert_allclose(out, f, rtol=1e-5, atol=1e-4 * max(1, np.abs(f).max()))


def test_orientation_out_j_i_is_f_at_xs_i_ys_j():
    spec = GridSpec(0, 4, 10, 12, nx=5, ny=3)
    # linear f = x + 100 y, through the weights and through support vectors
    for kwargs in (dict(w=[1.0, 100.0]), {}):
        out = decision_grid(Kernel("linear"), [[1.0, 0.0], [0.0, 100.0]], [1.0, 1.0], 0.0,
                            spec, **kwargs)
        np.testing.assert_allclose(out, spec.xs[None, :] + 100 * spec.ys[:, None])
    # one narrow rbf bump at grid point (xs[3], ys[1])
    out = decision_grid(Kernel("rbf", gamma=50.0), [[3.0, 11.0]], [1.0], 0.0, spec)
    assert np.unravel_index(out.argmax(), out.shape) == (1, 3)
    assert out[1, 3] == pytest.approx(1.0)


@pytest.mark.parametrize("gamma", [0.01, 1.0, 25.0, 400.0])
@pytest.mark.parametrize("size", [1.0, 1e-30, 1e30])
def test_rbf_many_svs_far_svs_and_extreme_coefficients(gamma, size):
    """Narrow kernels underflow (the float32 factors are floored at e^-25); tiny or huge
    coefficients are normalised: the error stays relative to sum |c|."""
    rng = np.random.default_rng(5)
    sv = np.vstack([rng.normal(size=(3000, 2)), [[40.0, 0.0], [0.0, -60.0]]])
    coef, bias = size * rng.uniform(-1, 1, size=len(sv)), 0.0
    spec = GridSpec(-2, 2, -2, 2, 40, 30)
    kernel = Kernel("rbf", gamma=gamma)
    out = decision_grid(kernel, sv, coef, bias, spec)
    f, _ = _direct(kernel, sv, coef, bias, spec)
    assert np.abs(out - f).max() <= 1e-4 * np.abs(coef).sum()


@pytest.mark.parametrize("degree", [7, 10])
@pytest.mark.parametrize("coef0", [0.0, 1.0, -2.0])
@pytest.mark.parametrize("spec", [GridSpec(-1, 1, -1, 1, 25, 20), GridSpec(-6, 6, -6, 6, 25, 20),
                                  GridSpec(50, 51, -80, -79, 25, 20)], ids=repr)
def test_high_degree_poly_stays_accurate(degree, coef0, spec):
    """Expanded or (when the expansion would round badly) evaluated directly: either way
    close to the direct value, relative to the size of the terms at each point."""
    sv, coef, bias = _problem(S=30, seed=2, spread=1.0)
    kernel = Kernel("poly", gamma=0.4, degree=degree, coef0=coef0)
    out = decision_grid(kernel, sv, coef, bias, spec)
    f, scale = _direct(kernel, sv, coef, bias, spec)
    assert np.all(np.abs(out - f) <= 1e-6 * np.maximum(scale, 1) + 1e-7 * np.abs(f))


def test_poly_expansion_falls_back_when_rounding_would_show():
    sv, coef, _ = _problem(S=30, seed=2)
    u = np.linspace(-1, 1, 9)
    assert _poly_grid(Kernel("poly", 0.4, 3, 1.0), sv, coef, u, u) is not None
    assert _poly_grid(Kernel("poly", 0.4, 10, 1.0), sv, coef, 20 * u, 20 * u) is None


def test_no_support_vectors_gives_the_bias():
    for name in ("rbf", "poly", "linear", "sigmoid"):
        out = decision_grid(Kernel(name), np.empty((0, 2)), np.empty(0), -0.25, SPEC)
        np.testing.assert_array_equal(out, np.full((17, 23), -0.25, np.float32))


@pytest.mark.parametrize("bad", [dict(x_min=1.0), dict(y_max=np.nan), dict(nx=1),
                                 dict(ny=2.5), dict(x_max=np.inf)])
def test_gridspec_validates(bad):
    with pytest.raises(ValueError):
        GridSpec(**{**dict(x_min=0.0, x_max=1.0, y_min=0.0, y_max=1.0), **bad})


def test_gridspec_axes():
    spec = GridSpec(-1, 1, 0, 3, nx=5, ny=4)
    np.testing.assert_array_equal(spec.xs, [-1, -0.5, 0, 0.5, 1])
    np.testing.assert_array_equal(spec.ys, [0, 1, 2, 3])
    assert spec.points.shape == (20, 2) and tuple(spec.points[6]) == (-0.5, 1.0)


def _bounds(X, n=60, ny=45):
    lo, hi = X.min(axis=0) - 0.5, X.max(axis=0) + 0.5
    return GridSpec(lo[0], hi[0], lo[1], hi[1], nx=n, ny=ny)


@pytest.mark.parametrize("params", [dict(kernel="rbf", gamma=0.7), dict(kernel="linear"),
                                    dict(kernel="poly", degree=3, gamma=0.5, coef0=1.0),
                                    dict(kernel="sigmoid", gamma=0.05)], ids=str)
@pytest.mark.parametrize("standardize", [False, True])
def test_fitted_binary_model(params, standardize):
    d = make_dataset("moons", n=120, noise=0.2, seed=1)
    X, y = np.asarray(d.X) * [3.0, 0.5] + [1.0, -2.0], np.asarray(d.y)
    svc = SVC(**params, standardize=standardize).fit(X, y)
    spec = _bounds(X)
    f = svc.decision_function(spec.points).reshape(spec.shape)
    out = model_grid(svc.model_, spec)
    np.testing.assert_allclose(out, f, rtol=1e-5, atol=1e-4 * max(1, np.abs(f).max()))
    classes = class_grid(svc.model_, spec)
    predicted = svc.predict(spec.points).reshape(spec.shape)
    clear = np.abs(f) > 1e-4
    np.testing.assert_array_equal(svc.classes_[classes][clear], predicted[clear])


@pytest.mark.parametrize("kernel", ["rbf", "linear"])
@pytest.mark.parametrize("centers", [3, 4])
def test_multi_class_votes_like_predict(kernel, centers):
    d = make_dataset("blobs", n=40 * centers, noise=2.5, seed=4, centers=centers)
    X, labels = np.asarray(d.X), np.array(list("abcd"))[np.asarray(d.y)]
    svc = SVC(kernel=kernel, standardize=True, decision_function_shape="ovo").fit(X, labels)
    n_machines = centers * (centers - 1) // 2
    assert len(svc.model_.machines) == n_machines
    spec = _bounds(X, 50, 40)
    classes = class_grid(svc.model_, spec)
    assert classes.shape == spec.shape and set(np.unique(classes)) == set(range(centers))
    f = svc.decision_function(spec.points)
    clear = (np.abs(f) > 1e-4).all(axis=1).reshape(spec.shape)
    predicted = svc.predict(spec.points).reshape(spec.shape)
    np.testing.assert_array_equal(svc.classes_[classes][clear], predicted[clear])
    for k in range(n_machines):
        np.testing.assert_allclose(model_grid(svc.model_, spec, k), f[:, k].reshape(spec.shape),
                                   rtol=1e-5, atol=1e-4 * max(1, np.abs(f).max()))


def test_vote_ties_go_to_the_lower_class():
    """Three machines voting 0>1, 1>2, 2>0 everywhere: one vote each, class 0 wins."""
    from svmdesk.core.model import BinaryMachine, SVMModel
    machines = tuple(BinaryMachine([], np.empty((0, 2)), [], bias, pos, neg)
                     for bias, pos, neg in ((1.0, 0, 1), (1.0, 1, 2), (-1.0, 0, 2)))
    model = SVMModel(Kernel("rbf"), np.array([0, 1, 2]), machines)
    np.testing.assert_array_equal(class_grid(model, SPEC), 0)
    np.testing.assert_array_equal(model.predict_indices(SPEC.points), 0)


@pytest.mark.slow
@pytest.mark.parametrize("gamma", [0.05, 1.0])
def test_rbf_many_svs_on_a_big_grid(gamma):
    """5,000 SVs on 200 x 200 (the window's largest case): the separable float32 product's
    error is within 1e-6 sum |c|, far below what a picture shows."""
    rng = np.random.default_rng(2)
    sv, coef = rng.normal(size=(5000, 2)), rng.uniform(-1, 1, size=5000)
    spec = GridSpec(-3, 3, -2, 2, 200, 150)
    kernel = Kernel("rbf", gamma=gamma)
    out = decision_grid(kernel, sv, coef, 0.3, spec)
    f, _ = _direct(kernel, sv, coef, 0.3, spec)
    assert np.abs(out - f).max() <= 1e-6 * np.abs(coef).sum()
