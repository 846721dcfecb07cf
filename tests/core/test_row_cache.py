"""SMO's kernel-row cache answers K v exactly (float64, as the final reconstruction needs)
whichever way it holds its rows: computed rows in float64, float32 rows, rows over a shrunk
prefix, a whole matrix handed to it."""
import numpy as np
import pytest

from svmdesk.core import Kernel
from svmdesk.core.kernels import KernelRows
from svmdesk.core.solvers.smo.row_cache import KernelRowCache

X = np.random.default_rng(0).normal(size=(60, 3))
VARIABLES = np.array([3, 17, 42, 59])
V = np.array([0.5, -1.0, 2.0, 0.25])


@pytest.mark.parametrize("kernel", [Kernel("rbf", gamma=0.5), Kernel("linear"),
                                    Kernel("poly", gamma=0.2, coef0=1.0)], ids=str)
@pytest.mark.parametrize("held", ["float64", "float32", "prefix", "whole"])
def test_the_product_is_exact_whichever_rows_are_held(kernel, held):
    budget = 2 * 60 * 60 * 8 if held != "float32" else 2 * 60 * 60 * 4
    gram = KernelRows(kernel, X, np.float64).matrix() if held == "whole" else None
    cache = KernelRowCache(X, kernel, kernel.diag(X), budget, gram=gram)
    assert cache.dtype == (np.float32 if held == "float32" else np.float64)
    for now, i in enumerate(VARIABLES[:3]):          # three of the four rows held
        cache.fetch(i, now + 1)
    expected = kernel(X, X[VARIABLES]) @ V
    if held == "prefix":                             # rows over the first 40 only
        order = np.arange(60)
        cache.permute(order, 40)
        for now, i in enumerate(VARIABLES[:3]):
            cache.fetch(i, now + 10)
    got = cache.matvec(VARIABLES, V)
    assert got.dtype == np.float64 and got.shape == (60,)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
