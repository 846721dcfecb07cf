"""Shared fixtures for the core tests: small seeded datasets and a libsvm oracle."""
import numpy as np
import pytest

sklearn = pytest.importorskip("sklearn")
from sklearn.svm import SVC as LibSVC  # noqa: E402

from svmdesk.core import make_dataset  # noqa: E402


def libsvm(X, y, **params):
    """scikit-learn's SVC (libsvm), the oracle."""
    return LibSVC(**params).fit(X, y)


def libsvm_dual_objective(ref, kernel) -> float:
    """D(a) = sum a - 1/2 a'Qa of a fitted libsvm binary model."""
    dc = ref.dual_coef_[0]
    K = kernel(ref.support_vectors_, ref.support_vectors_)
    return float(np.abs(dc).sum() - 0.5 * dc @ K @ dc)


@pytest.fixture(scope="session")
def sets():
    """Named binary datasets with their points and labels."""
    out = {}
    for name, n, noise in (("moons", 200, 0.2), ("blobs", 150, 1.5), ("circles", 200, 0.1),
                           ("xor", 200, 0.35), ("gaussians", 120, 1.0)):
        d = make_dataset(name, n=n, noise=noise, seed=3)
        out[name] = (np.asarray(d.X), np.asarray(d.y))
    return out
