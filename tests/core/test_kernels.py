"""Kernel evaluation: the one-row fast path (SMO's row cache) equals the general one."""
import numpy as np
import pytest

from svmdesk.core import Kernel


@pytest.mark.parametrize("d", [1, 2, 5])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_one_rbf_row_with_known_norms_equals_the_blocked_matrix(d, dtype):
    rng = np.random.default_rng(d)
    A, B = rng.normal(size=(1, d)), rng.normal(size=(3000, d)) * 3
    kernel = Kernel("rbf", gamma=0.7)
    general = kernel(np.vstack([A, A]), B)[:1]          # two rows: the blocked path
    out = np.empty((1, len(B)), dtype=dtype)
    fast = kernel(A, B, out=out, B_sq=kernel.sq_norms(B))
    assert fast is out
    single = dtype == np.float32                        # underflows below ~1e-38
    np.testing.assert_allclose(fast, general, rtol=1e-6 if single else 1e-12,
                               atol=1e-37 if single else 1e-300)
    assert (fast <= 1).all() and kernel(B[:1], B[:1], B_sq=kernel.sq_norms(B[:1]))[0, 0] == 1
