"""SVR and NuSVR against LIBSVM's (scikit-learn's SVR and NuSVR) at tol 1e-8 on both sides:
diabetes (standardised), a noisy sine and a linear trend with outliers, four kernels, SVR by
SMO and by dual gradient ascent, NuSVR by SMO. Compared: the dual objective, predictions,
intercept and R^2, and the support sets up to points on the tube's edge. The sigmoid kernel
is not positive semi-definite (the dual may have several stationary points): there the
objective is compared, ours no worse than LIBSVM's, and predictions where both end at one
optimum."""

import numpy as np
import pytest
from sklearn.datasets import load_diabetes
from sklearn.svm import SVR as LibSVR
from sklearn.svm import NuSVR as LibNuSVR

from svmdesk.core import SVR, Kernel, NuSVR

TOL = 1e-8


def _diabetes():
    X, z = load_diabetes(return_X_y=True)
    return (X - X.mean(axis=0)) / X.std(axis=0), (z - z.mean()) / z.std()


def _noisy_sine():
    rng = np.random.default_rng(0)
    x = np.sort(rng.uniform(-3, 3, 120))
    return x[:, None], np.sin(x) + 0.2 * rng.standard_normal(120)


def _trend_with_outliers():
    rng = np.random.default_rng(1)
    x = rng.uniform(-2, 2, 100)
    z = 1.5 * x + 0.3 * rng.standard_normal(100)
    z[rng.choice(100, 8, replace=False)] += rng.choice([-4.0, 4.0], 8)
    return x[:, None], z


SETS = {"diabetes": _diabetes(), "noisy sine": _noisy_sine(),
        "trend with outliers": _trend_with_outliers()}
MACHINES = {"SVR smo": (SVR, LibSVR, dict(solver="smo")),
            "SVR dual-gradient": (SVR, LibSVR, dict(solver="dual-gradient", max_iter=200_000)),
            "NuSVR smo": (NuSVR, LibNuSVR, dict(solver="smo"))}


def _min_objective(model, X, z, kernel, epsilon) -> float:
    """1/2 b'Kb + eps |b|_1 - z'b over the support vectors, b = a - a* (nu-SVR: eps 0)."""
    b = model.dual_coef_[0]
    K = kernel(X[model.support_], X[model.support_])
    return float(0.5 * b @ K @ b + epsilon * np.abs(b).sum() - z[model.support_] @ b)


def _primal_at(model, X, z, kernel, C, epsilon, b) -> float:
    """The primal objective of the model's w with the intercept b: 1/2 ||w||^2 + C (sum of
    the residuals beyond the tube + nu l eps); nu-SVR (epsilon 0 here): at its best eps."""
    coef, sv = model.dual_coef_[0], model.support_
    f = kernel(X, X[sv]) @ coef + b
    w2 = coef @ kernel(X[sv], X[sv]) @ coef
    res = np.abs(z - f)
    nu = model.get_params().get("nu")
    if nu is None:
        return float(0.5 * w2 + C * np.maximum(0.0, res - epsilon).sum())
    return min(float(0.5 * w2 + C * (np.maximum(0.0, res - eps).sum() + nu * len(z) * eps))
               for eps in np.r_[0.0, res])


def _fit_both(machine, name, kernel, C):
    ours_class, ref_class, solver = MACHINES[machine]
    X, z = SETS[name]
    params = dict(kernel=kernel, C=C, gamma=0.1 if kernel == "sigmoid" else "scale")
    ours = ours_class(tol=TOL, **solver, **params).fit(X, z)
    ref = ref_class(tol=TOL, **params).fit(X, z)
    return X, z, ours, ref


# dual gradient ascent takes seconds at C = 10 and on diabetes' linear and poly kernels (an
# ill-conditioned K, a step of 1 / its largest eigenvalue): SMO covers those
CASES = [(machine, name, kernel, C) for machine in MACHINES for name in SETS
         for kernel in ("rbf", "linear", "poly", "sigmoid") for C in (1.0, 10.0)
         if not (machine == "SVR dual-gradient"
                 and (C > 1 or name == "diabetes" and kernel in ("linear", "poly")))]
RESIDUE = 1e-12     # a multiplier below RESIDUE * C is what rounding left of a zero


@pytest.mark.parametrize("machine, name, kernel, C", CASES)
def test_regression_matches_libsvm(machine, name, kernel, C):
    X, z, ours, ref = _fit_both(machine, name, kernel, C)
    assert ours.converged_
    k = Kernel(kernel, gamma=ours.gamma_, degree=3, coef0=0.0)
    eps = ours.get_params().get("epsilon", 0.0)
    mine, theirs = (_min_objective(m, X, z, k, eps) for m in (ours, ref))
    if kernel == "sigmoid":
        # not PSD: ours no worse; below LIBSVM's, the two ended at different stationary
        # points (seen: diabetes C=1 for NuSVR and dual gradient ascent, the trend C=10)
        assert mine <= theirs + 1e-9 * abs(theirs)
        if mine < theirs - 1e-9 * abs(theirs):
            return
    else:
        assert mine == pytest.approx(theirs, rel=1e-9)
    # LIBSVM may keep a rounding residue (|a_i - a*_i| ~ 1e-16) as a support vector and, in
    # nu-SVR, as a free one whose F enters the mean that makes the intercept: then its b (and
    # f) moves by up to 4e-3 here, with the same objective; compare f without the intercept
    residue = [m.support_[np.abs(m.dual_coef_[0]) < RESIDUE * C] for m in (ours, ref)]
    residue = np.concatenate(residue)
    atol = 2e-3 * z.std()           # the objectives' agreement bounds f's to this (see note)
    shift = ours.intercept_[0] - ref.intercept_[0]
    b_unpinned = False
    if not len(residue) and abs(shift) > atol:
        # the primal flat in b around ours (seen: nu-SVR on the sine, poly, C 10: one w,
        # every b in [0.092, 0.097] optimal): LIBSVM's b is then as good as ours
        flat = [_primal_at(ours, X, z, k, C, eps, b) for b in (ours.intercept_[0],
                                                                  ref.intercept_[0])]
        assert flat[1] == pytest.approx(flat[0], rel=1e-12)
        b_unpinned = True
    if not len(residue) and not b_unpinned:
        shift = 0.0
        assert ours.intercept_[0] == pytest.approx(ref.intercept_[0], abs=atol)
        assert ours.score(X, z) == pytest.approx(ref.score(X, z), abs=1e-4)
    np.testing.assert_allclose(ours.predict(X) - shift, ref.predict(X), atol=atol)
    # the support sets differ only by residues and by points on the tube's edge
    odd = np.setdiff1d(np.setxor1d(ours.support_, ref.support_), residue)
    edge = np.abs(np.abs(z - ref.predict(X))[odd] - ours.epsilon_)
    assert np.all(edge <= atol), (odd, edge)
