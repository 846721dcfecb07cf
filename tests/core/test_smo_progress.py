"""SMO knows when it is not getting anywhere: past its patience, it stops a run whose best
violation has not fallen twofold over the last half of its time, and says why and what to
do; a run that is getting somewhere is never stopped, however long it is projected to take
(it says so once); runs that converge on their own are never stopped."""
import time
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_moons

from svmdesk.core import SVC, ConvergenceWarning
from svmdesk.core.solvers.smo import progress
from svmdesk.core.solvers.smo.progress import ProgressWatch


def _watch(samples, tol=1e-3, patience=10.0):
    """What the watch says after the (work, violation, dual) samples, in order (a unit of
    work a second)."""
    watch = ProgressWatch(tol, patience=patience)
    return [watch.note(*s, s[0]) for s in samples]


def test_a_violation_falling_steadily_to_tol_is_left_to_finish():
    # tenfold per 3 s from 10: tol in 12 s, well within FAR times the time spent
    said = _watch([(t, 10.0 * 10 ** (-t / 3), 100.0 + t) for t in np.arange(0.25, 12, 0.25)])
    assert said == [None] * len(said)


def test_a_slow_run_that_is_getting_somewhere_is_said_once_and_never_stopped():
    # twofold and a bit every half of the time spent: tol far away, yet getting there
    watch = ProgressWatch(1e-6, patience=10.0)
    said = [watch.note(t, 10.0 * (t / 0.25) ** -1.1, 100.0 + t, t)
            for t in np.arange(0.25, 200, 0.25)]
    verdicts = [v for v in said if v is not None]
    assert len(verdicts) == 1 and not verdicts[0].stop
    assert "still falling" in verdicts[0].message and "s more at its recent rate" in \
        verdicts[0].message
    assert watch.remaining is not None and watch.remaining > 0


def test_a_climbing_dual_is_progress_while_the_violation_stands_still():
    # as SMO on 40,000 points at C = 100: the violation stands for minutes, the dual climbs
    watch = ProgressWatch(1e-3, patience=10.0)
    said = [watch.note(t, 6.2, 1000.0 * t, t) for t in np.arange(0.25, 60, 0.25)]
    verdicts = [v for v in said if v is not None]
    assert len(verdicts) == 1 and not verdicts[0].stop
    assert "the dual objective still rises" in verdicts[0].message
    assert watch.remaining is None                      # no projection to show yet


def test_a_violation_that_barely_moves_is_stopped_once_patience_is_spent_and_not_before():
    said = _watch([(t, 0.3 - 0.001 * t, 1000.0 + t) for t in np.arange(0.25, 12, 0.25)])
    first = next(k for k, s in enumerate(said) if s is not None)
    assert (first + 1) * 0.25 == 10.0                        # at the patience, not before
    assert said[first].stop
    assert "fell only from 0.295 to 0.29" in said[first].message, said[first].message


def test_neither_violation_nor_objective_moving_is_said_so():
    said = _watch([(t, 0.5, 7.0) for t in np.arange(0.25, 11, 0.25)])
    assert said[-1].stop
    assert "neither the maximal violation (0.5) nor the dual objective improved" in \
        said[-1].message


@pytest.fixture
def badly_scaled():
    X, y = make_classification(1000, 5, n_informative=3, random_state=0)
    X[:, 0] *= 30
    return X, y


@pytest.mark.slow
def test_max_time_bounds_a_slow_run(badly_scaled):
    start = time.perf_counter()
    with pytest.warns(ConvergenceWarning) as heard:
        svc = SVC(kernel="linear", C=100.0, max_time=1.0).fit(*badly_scaled)
    assert time.perf_counter() - start < 6.0                # LIBSVM needs about 10 s here
    assert str(heard[-1].message).startswith("SMO stopped at max_time=1 s after ")
    assert not svc.converged_ and np.isfinite(svc.dual_coef_).all()


@pytest.mark.parametrize("stop", [False, True])
def test_what_the_watch_says_reaches_the_user_with_what_to_do(badly_scaled, monkeypatch,
                                                              stop):
    """A slow run is said once and goes on (here to its max_time); a stalled one stops.
    Either way the advice names standardize=True, the features' scales differing 45-fold."""
    said_once = []

    def verdict(watch, work, violation, dual, seconds):
        if said_once:
            return None
        said_once.append(work)
        return progress.Verdict(stop, "what the watch saw")

    monkeypatch.setattr(ProgressWatch, "note", verdict)
    with pytest.warns(ConvergenceWarning) as heard:
        SVC(kernel="linear", C=100.0, max_time=0.5).fit(*badly_scaled)
    said = [str(w.message) for w in heard]
    first = said[0]
    assert ("SMO stopped early, not getting anywhere: what the watch saw" if stop else
            "SMO is slow: what the watch saw; it goes on") in first
    for words in ("standardize=True", "45-fold", "smaller C", "C=100"):
        assert words in first, first
    assert len(said) == (1 if stop else 2)
    assert stop or said[1].startswith("SMO stopped at max_time=0.5 s")


def test_no_standardize_advice_where_the_scales_agree(monkeypatch):
    monkeypatch.setattr(ProgressWatch, "note",
                        lambda *a: progress.Verdict(True, "what the watch saw"))
    X, y = make_classification(300, n_features=10, n_informative=5, random_state=0)
    with pytest.warns(ConvergenceWarning) as heard:
        SVC(kernel="rbf", C=100.0).fit(X, y)
    assert "standardize" not in str(heard[0].message)


def test_a_run_getting_somewhere_is_not_cut_short(monkeypatch):
    """A real run, judged from 0.4 s on (the running dual dips where F is rebuilt, and the
    violation stands still for long stretches while the dual climbs): it converges."""
    monkeypatch.setattr(progress, "PATIENCE", 0.4e9)
    X, y = make_classification(3000, n_features=10, n_informative=5, random_state=0)
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always")
        svc = SVC(kernel="rbf", C=100.0).fit(X, y)
    assert svc.converged_, [str(w.message) for w in heard]
    assert not [w for w in heard if "stopped" in str(w.message)]


def test_an_explicit_max_iter_is_the_users_budget(badly_scaled, monkeypatch):
    monkeypatch.setattr(progress, "PATIENCE", 0.05e9)
    monkeypatch.setattr(progress, "EVERY", 0.005e9)     # a watch would have judged often
    with pytest.warns(ConvergenceWarning) as heard:     # about 0.2 s: past the patience
        SVC(kernel="linear", C=100.0, max_iter=5_000).fit(*badly_scaled)
    assert [str(w.message).split(" pair")[0] for w in heard] == [
        "SMO stopped after max_iter=5000"]


@pytest.mark.slow
def test_time_suspended_at_a_snapshot_is_not_counted(monkeypatch):
    monkeypatch.setattr(progress, "PATIENCE", 0.3e9)
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
