"""SMO knows when it is not getting anywhere: past its patience, it stops a run whose
projected time to tol is far beyond what it has spent, and says why and what to do; runs
that converge on their own are never stopped."""
import time
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_moons

from svmdesk.core import SVC, ConvergenceWarning
from svmdesk.core.solvers.smo import progress
from svmdesk.core.solvers.smo.progress import ProgressWatch


def _watch(samples, tol=1e-3, patience=10.0):
    """What the watch says after the (seconds, violation, dual) samples, in order."""
    watch = ProgressWatch(tol, patience=patience)
    return [watch.note(*s) for s in samples]


def test_a_violation_falling_steadily_to_tol_is_left_to_finish():
    # tenfold per 3 s from 10: tol in 12 s, well within FAR times the time spent
    said = _watch([(t, 10.0 * 10 ** (-t / 3), 100.0 + t) for t in np.arange(0.25, 12, 0.25)])
    assert said == [None] * len(said)


def test_a_violation_that_barely_moves_is_stopped_once_patience_is_spent_and_not_before():
    said = _watch([(t, 0.3 - 0.001 * t, 1000.0 + t) for t in np.arange(0.25, 12, 0.25)])
    first = next(k for k, s in enumerate(said) if s is not None)
    assert (first + 1) * 0.25 == 10.0                        # at the patience, not before
    assert "maximal violation is 0.29" in said[first] and "s more at its recent rate" in said[first]


def test_neither_violation_nor_objective_moving_is_said_so():
    said = _watch([(t, 0.5, 7.0) for t in np.arange(0.25, 11, 0.25)])
    assert "neither the maximal violation (0.5) nor the dual objective improved" in said[-1]


@pytest.fixture
def badly_scaled():
    X, y = make_classification(1000, 5, n_informative=3, random_state=0)
    X[:, 0] *= 30
    return X, y


def test_smo_on_badly_scaled_data_stops_with_why_and_what_to_do(badly_scaled, monkeypatch):
    monkeypatch.setattr(progress, "PATIENCE", 1.0)          # the suite cannot wait 10 s
    start = time.perf_counter()
    with pytest.warns(ConvergenceWarning, match="SMO stopped early") as heard:
        svc = SVC(kernel="linear", C=100.0).fit(*badly_scaled)
    assert time.perf_counter() - start < 8.0                # LIBSVM needs about 10 s here
    message = str(heard[0].message)
    for words in ("maximal violation", "tol=0.001", "standardize=True", "smaller C",
                  "C=100", "set max_iter"):
        assert words in message, message
    assert not svc.converged_ and np.isfinite(svc.dual_coef_).all()


def test_an_explicit_max_iter_is_the_users_budget(badly_scaled, monkeypatch):
    monkeypatch.setattr(progress, "PATIENCE", 0.05)
    with pytest.warns(ConvergenceWarning) as heard:
        SVC(kernel="linear", C=100.0, max_iter=20_000).fit(*badly_scaled)
    assert [str(w.message).split(" pair")[0] for w in heard] == [
        "SMO stopped after max_iter=20000"]


def test_time_suspended_at_a_snapshot_is_not_counted(monkeypatch):
    monkeypatch.setattr(progress, "PATIENCE", 0.3)
    X, y = make_moons(1000, noise=0.2, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        steps = []
        for step in SVC(C=1.0).iter_fit(X, y, every=10):
            steps.append(step)
            time.sleep(0.05)                                 # a paused window, a slow draw
    assert len(steps) > 6 and steps[-1].snapshot.converged


@pytest.mark.parametrize("X_scale, C", [(50.0, 1.0), (1.0, 1000.0)])
def test_runs_that_converge_on_their_own_are_never_stopped(X_scale, C):
    X, y = make_moons(500, noise=0.2, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        assert SVC(C=C).fit(X * X_scale, y).converged_
