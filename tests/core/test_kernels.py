"""Kernel evaluation: SMO's one-row path and the blocked matrix agree with the formulas."""
import numpy as np
import pytest

from svmdesk.core import Kernel
from svmdesk.core.kernels import KernelRows

KERNELS = [Kernel("rbf", gamma=0.7), Kernel("linear"), Kernel("poly", gamma=0.3, degree=3,
                                                                   coef0=1.0),
           Kernel("sigmoid", gamma=0.1, coef0=-0.5)]


def formula(kernel, A, B):
    dots = A @ B.T
    if kernel.name == "rbf":
        return np.exp(-kernel.gamma * ((A[:, None, :] - B[None, :, :]) ** 2).sum(-1))
    if kernel.name == "linear":
        return dots
    if kernel.name == "poly":
        return (kernel.gamma * dots + kernel.coef0) ** kernel.degree
    return np.tanh(kernel.gamma * dots + kernel.coef0)


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
def test_blocked_matrix_and_matvec_follow_the_formula(kernel):
    rng = np.random.default_rng(0)
    A, B = rng.normal(size=(300, 3)), rng.normal(size=(700, 3))
    np.testing.assert_allclose(kernel(A, B), formula(kernel, A, B), rtol=1e-10, atol=1e-12)
    v = rng.normal(size=700)
    np.testing.assert_allclose(kernel.matvec(A, B, v), formula(kernel, A, B) @ v,
                               rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("d", [1, 2, 5, 12])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
def test_one_row_equals_the_blocked_matrix(kernel, d, dtype):
    """Rows over a prefix of the points, in either precision; far from the origin too (the
    rbf difference form centres the points, so the offset costs no precision)."""
    rng = np.random.default_rng(d)
    B = rng.normal(size=(3000, d)) * 3 + (1000.0 if kernel.name == "rbf" else 0.0)
    rows = KernelRows(kernel, B, dtype)
    general = kernel(B[:40], B[:2500])
    single = dtype == np.float32
    for i in (0, 17, 39):
        out = np.empty(2500, dtype=dtype)
        assert rows(i, out) is out
        np.testing.assert_allclose(out, general[i], rtol=2e-6 if single else 1e-9,
                                   atol=1e-6 * np.abs(general).max() if single else 1e-9)
    if kernel.name == "rbf" and d <= KernelRows.MAX_DIFF_FEATURES:
        far = B.copy()
        far[1250:] += 1e5                # two clusters 1e5 kernel widths apart
        far_rows, far_exact = KernelRows(kernel, far, dtype), formula(kernel, far[1240:1260], far)
        for i in (1240, 1255):
            out = np.empty(3000, dtype=dtype)
            np.testing.assert_allclose(far_rows(i, out), far_exact[i - 1240],
                                       rtol=2e-6 if single else 1e-9,
                                       atol=1e-6 if single else 1e-15)
    if kernel.name == "rbf":
        out = np.empty(2500, dtype=dtype)
        rows(5, out)
        assert (out <= 1).all() and out[5] == pytest.approx(1.0, abs=1e-12)
        if d <= KernelRows.MAX_DIFF_FEATURES:
            assert out[5] == 1                          # the difference form is exact here


@pytest.mark.parametrize("d", [2, 12])
@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
def test_the_whole_matrix_holds_each_row_as_one_row_is_written(kernel, d):
    """KernelRows.matrix: every row at once, within rounding of the row __call__ writes (the
    one-vs-one machines share it), the formula's values, and rbf's k(b, b) = 1 exactly where
    a row has it so."""
    B = np.random.default_rng(d).normal(size=(120, d))
    rows = KernelRows(kernel, B, np.float64)
    whole = rows.matrix()
    assert whole.shape == (120, 120) and whole.dtype == np.float64
    for i in (0, 57, 119):
        np.testing.assert_allclose(whole[i], rows(i, np.empty(120)), rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(whole, formula(kernel, B, B), rtol=1e-10, atol=1e-12)
    if kernel.name == "rbf" and d <= KernelRows.MAX_DIFF_FEATURES:
        assert (whole.diagonal() == 1.0).all() and (whole <= 1.0).all()   # as a row has it


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("d", [2, 12])
@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
def test_rows_of_some_points_taken_from_rows_over_all(kernel, d, dtype):
    """KernelRows.of_points: a machine's rows from the operands of every point (taken, not
    made again) are the rows of its own points."""
    B = np.random.default_rng(d).normal(size=(200, d)) + 5.0
    which = np.flatnonzero(np.arange(200) % 3 != 1)[::-1]      # any order
    taken = KernelRows(kernel, B, np.float64).of_points(which, dtype)
    own = KernelRows(kernel, B[which], dtype)
    tolerance = dict(rtol=2e-6, atol=1e-6) if dtype == np.float32 else dict(rtol=1e-12,
                                                                             atol=1e-12)
    for i in (0, 40, len(which) - 1):
        np.testing.assert_allclose(taken(i, np.empty(len(which), dtype=dtype)),
                                   own(i, np.empty(len(which), dtype=dtype)), **tolerance)
