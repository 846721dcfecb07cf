"""The same data and parameters give the same model on a quiet machine and on a loaded one:
SMO's progress watch judges by counted work, never by a clock, so a run it stops stops at the
same step beside two busy processes, and a run it lets go converges to the same multipliers
(here through nu_search's C-form solves, whose turns are taken on counted work too)."""
import math
import subprocess
import sys
import warnings
from contextlib import contextmanager

import numpy as np
import pytest
from sklearn.datasets import load_diabetes

from svmdesk.core import NuSVR
from svmdesk.core.solvers.smo import nu_search, progress

BUSY = "print('busy', flush=True)\nwhile True: pass"


@contextmanager
def two_busy_processes():
    """Two processes spinning on the CPU (a 2-core lab laptop, fully taken) for the block."""
    spinning = [subprocess.Popen([sys.executable, "-c", BUSY], stdout=subprocess.PIPE,
                                 text=True) for _ in range(2)]
    try:
        for process in spinning:
            assert process.stdout.readline().strip() == "busy"     # it spins from here on
        yield
    finally:
        for process in spinning:
            process.kill()
            process.wait(timeout=10)


def _diabetes(n):
    X, y = load_diabetes(return_X_y=True)
    X, y = (X - X.mean(0)) / X.std(0), (y - y.mean()) / y.std()
    return X[:n], y[:n]


def _fit(n, C):
    X, y = _diabetes(n)
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always")
        model = NuSVR(C=C, nu=0.5, kernel="poly", gamma=0.1).fit(X, y)
    return model, [str(w.message) for w in heard]


@pytest.mark.slow
@pytest.mark.parametrize(("n", "C", "stopped"), [(150, 30.0, True), (200, 30.0, False)])
def test_a_loaded_machine_fits_the_same_model(monkeypatch, n, C, stopped):
    monkeypatch.setattr(progress, "PATIENCE", 0.03e9)     # the watch judges within a second
    monkeypatch.setattr(progress, "EVERY", 0.03e9 / 40)
    if stopped:     # the nu form's own pair steps alone, which the watch stops on this one
        monkeypatch.setattr(nu_search, "DIRECT_WORK", math.inf)
    alone, said = _fit(n, C)
    assert alone.converged_ is not stopped
    assert any("not getting anywhere" in words for words in said) is stopped, said
    with two_busy_processes():
        loaded, _said = _fit(n, C)
    assert loaded.n_iter_ == alone.n_iter_
    np.testing.assert_array_equal(loaded.support_, alone.support_)
    np.testing.assert_array_equal(loaded.dual_coef_, alone.dual_coef_)
    np.testing.assert_array_equal(loaded.intercept_, alone.intercept_)
