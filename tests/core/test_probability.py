"""The probability maths, each part where it is deterministic: Platt's sigmoid fit equals
the optimum scipy finds of the same regularised objective, and the pairwise coupling equals
LIBSVM's own `svm_predict_probability` (libsvm-official) on model files written by hand with
chosen probA and probB."""
import numpy as np
import pytest
from scipy.optimize import minimize

from svmdesk.core.probability import probabilities, sigmoid, sigmoid_fit

svmutil = pytest.importorskip("libsvm.svmutil")


def _platt_objective(theta, f, first):
    """Platt's cross-entropy against the regularised targets, and its gradient."""
    n1, n0 = first.sum(), (~first).sum()
    t = np.where(first, (n1 + 1) / (n1 + 2), 1 / (n0 + 2))
    x = theta[0] * f + theta[1]
    p = 1 / (1 + np.exp(x))
    return float(t @ x + np.logaddexp(0, -x).sum()), np.array([f @ (t - p), (t - p).sum()])


@pytest.mark.parametrize("seed, shift, n", [(0, 1.0, 200), (1, 0.2, 60), (2, 3.0, 500),
                                            (3, 1.5, 41)])
def test_the_sigmoid_fit_is_the_optimum_of_platts_objective(seed, shift, n):
    rng = np.random.default_rng(seed)
    first = rng.random(n) < 0.3 + 0.4 * rng.random()           # classes of unequal size
    f = np.where(first, shift, -shift) + rng.normal(0, 1, n)
    A, B = sigmoid_fit(f, first)
    best = minimize(_platt_objective, np.zeros(2), args=(f, first), jac=True,
                    method="BFGS", options={"gtol": 1e-12})
    assert A == pytest.approx(best.x[0], abs=1e-6)
    assert B == pytest.approx(best.x[1], abs=1e-6)
    assert A < 0                                   # larger f, more likely the first class


def test_the_sigmoid_of_separable_values_stays_finite():
    """Perfectly separated values: the regularised targets keep A and B finite."""
    f = np.r_[np.linspace(1, 3, 20), -np.linspace(1, 3, 20)]
    A, B = sigmoid_fit(f, np.r_[np.ones(20, bool), np.zeros(20, bool)])
    assert np.isfinite([A, B]).all()
    p = sigmoid(np.array([-1e6, 0.0, 1e6]), A, B)
    assert p[0] == 0.0 and p[2] == 1.0 and 0 < p[1] < 1


def _model_file(path, labels, rho, prob_a, prob_b, svs):
    """A linear C-SVC LIBSVM model with one support vector per class: svs[c] = (coefs
    (k - 1 of them), point)."""
    k = len(labels)
    lines = ["svm_type c_svc", "kernel_type linear", f"nr_class {k}", f"total_sv {k}",
             "rho " + " ".join(map(repr, rho)), "label " + " ".join(map(str, labels)),
             "probA " + " ".join(map(repr, prob_a)), "probB " + " ".join(map(repr, prob_b)),
             "nr_sv " + " ".join(["1"] * k), "SV"]
    for coefs, point in svs:
        lines.append(" ".join(map(repr, coefs)) + " "
                     + " ".join(f"{d + 1}:{v!r}" for d, v in enumerate(point)))
    path.write_text("\n".join(lines) + "\n")
    return svmutil.svm_load_model(str(path))


@pytest.mark.parametrize("k", [2, 3, 4, 6])
def test_coupling_equals_libsvms_predict_probability(k, tmp_path):
    """LIBSVM's decision values of a hand-made model, made probabilities by our sigmoid and
    coupling, equal the probabilities LIBSVM itself gives on the same model to 1e-9."""
    rng = np.random.default_rng(k)
    M = k * (k - 1) // 2
    prob_a, prob_b = -rng.uniform(0.5, 3.0, M), rng.normal(0, 0.5, M)
    svs = [(rng.normal(0, 1, k - 1).tolist(), rng.normal(0, 1, 2).tolist()) for _ in range(k)]
    model = _model_file(tmp_path / "m.model", list(range(k)), rng.normal(0, 0.3, M).tolist(),
                        prob_a.tolist(), prob_b.tolist(), svs)
    X = rng.normal(0, 2, (300, 2))
    _, _, values = svmutil.svm_predict([], X, model, "-q")
    _, _, theirs = svmutil.svm_predict([], X, model, "-b 1 -q")
    ours = probabilities(np.asarray(values), prob_a, prob_b, k)
    np.testing.assert_allclose(ours, np.asarray(theirs), rtol=0, atol=1e-9)
    np.testing.assert_allclose(ours.sum(axis=1), 1.0, atol=1e-12)
