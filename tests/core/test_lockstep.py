"""A fit of many classes solves its one-vs-one machines in lockstep (solvers/smo/lockstep.py):
each machine's result is the one SMO gives it alone (solver.solve), the fit is LIBSVM's (the
oracle), and max_iter, the progress watch and the warnings are SMO's own."""
import warnings

import numpy as np
import pytest
from sklearn.svm import SVC as LibSVC

from svmdesk.core import SVC, ConvergenceWarning, Kernel, NuSVC
from svmdesk.core.estimators.one_vs_one import machine_pairs
from svmdesk.core.kernels import KernelRows
from svmdesk.core.solvers.base import BinaryProblem
from svmdesk.core.solvers.smo import lockstep, lockstep_batch, progress, solve
from svmdesk.core.solvers.smo.progress import ProgressWatch


def _blobs(classes: int, per_class: int, d: int, seed: int, spread: float = 1.5):
    """Overlapping Gaussian blobs, one per class."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(scale=spread, size=(classes, d))
    X = np.vstack([c + rng.normal(size=(per_class, d)) for c in centres])
    return X, np.repeat(np.arange(classes), per_class)


def _machines(X, y, kernel, C, weights=None, tol=1e-3):
    """The one-vs-one problems of (X, y) and each one's points, as SVC.iter_fit makes them."""
    problems, points = [], []
    for pos, neg in machine_pairs(int(y.max()) + 1):
        own = np.flatnonzero((y == pos) | (y == neg))
        problems.append(BinaryProblem(X=X[own], y=np.where(y[own] == pos, 1.0, -1.0),
                                      kernel=kernel, C=C, tol=tol,
                                      weights=None if weights is None else weights[own]))
        points.append(own)
    return problems, points


def _alone(problem):
    *_, final = solve(problem, every=2**62)
    return final


def _each_as_alone(problems, together, atol):
    """Each machine solved in lockstep is the one SMO gives alone, to a tight tol."""
    for problem, mine in zip(problems, together):
        alone = _alone(problem)
        assert mine.converged
        assert mine.dual_objective == pytest.approx(alone.dual_objective, rel=1e-6)
        np.testing.assert_array_equal(mine.support, alone.support)
        np.testing.assert_allclose(mine.dual_coef, alone.dual_coef, atol=atol)


@pytest.mark.parametrize("seed, classes, d, kernel, C, weighted", [
    (0, 6, 2, Kernel("rbf", 0.5), 1.0, False),
    (1, 6, 5, Kernel("rbf", 0.2), 10.0, True),
    (2, 7, 2, Kernel("linear"), 0.5, False),
    (3, 6, 3, Kernel("poly", 0.5, 3, 1.0), 1.0, False),
    (4, 8, 10, Kernel("rbf", 0.1), 100.0, True),
])
@pytest.mark.parametrize("whole", [True, False], ids=["whole matrix", "rows on demand"])
def test_each_machine_solved_in_lockstep_is_the_machine_solved_alone(seed, classes, d, kernel,
                                                                      C, weighted, whole):
    X, y = _blobs(classes, 30, d, seed)
    weights = np.random.default_rng(seed).uniform(0.2, 3.0, len(y)) if weighted else None
    # at SMO's default tol the two stop within it of the optimum, on paths that part once
    # the solo solver shrinks (a multiplier near 0 may be left on either side of it); at a
    # tight one they reach the same solution
    gram = KernelRows(kernel, X, np.float64).matrix() if whole else None
    for tol in (1e-3, 1e-7):
        problems, points = _machines(X, y, kernel, C, weights, tol)
        together = lockstep.solve_together(problems, points,
                                           lockstep.SharedRows(kernel, X, gram))
        for problem, mine in zip(problems, together):
            alone = _alone(problem)
            assert mine.converged and alone.converged
            assert mine.dual_objective == pytest.approx(alone.dual_objective, rel=1e-6)
            assert mine.kkt_violation < tol
            if tol < 1e-3:
                np.testing.assert_array_equal(mine.support, alone.support)
                np.testing.assert_allclose(mine.dual_coef, alone.dual_coef, atol=1e-5 * C)
                assert mine.bias == pytest.approx(alone.bias, abs=1e-5)
            assert mine.gap == pytest.approx(mine.primal_objective - mine.dual_objective)
    # the final decision values come from the support vectors' kernel values afresh
    for problem, mine in zip(problems, together):
        sv = mine.support
        np.testing.assert_allclose(
            mine.decision, kernel(problem.X, problem.X[sv]) @ mine.dual_coef[sv], atol=1e-9)


@pytest.mark.parametrize("whole", [True, False], ids=["whole matrix", "rows on demand"])
def test_machines_started_from_given_multipliers_reach_the_machines_solved_alone(whole):
    """Each machine from a feasible start (the solution at C = 1 scaled to C = 3, as a grid
    search seeds the next C; one machine from 0): the optimum the solo solver reaches from
    0, with the start's F, I_up and I_low."""
    X, y = _blobs(6, 30, 3, 5)
    kernel = Kernel("rbf", 0.3)
    gram = KernelRows(kernel, X, np.float64).matrix() if whole else None
    problems, points = _machines(X, y, kernel, 1.0, tol=1e-7)
    first = lockstep.solve_together(problems, points, lockstep.SharedRows(kernel, X, gram))
    starts = [None, *(3.0 * problem.y * final.dual_coef
                      for problem, final in zip(problems[1:], first[1:]))]
    problems, points = _machines(X, y, kernel, 3.0, tol=1e-7)
    seeded = lockstep.solve_together(problems, points, lockstep.SharedRows(kernel, X, gram),
                                     starts)
    _each_as_alone(problems, seeded, atol=3e-5)


@pytest.mark.parametrize("kernel, C, class_weight", [
    ("rbf", 1.0, None), ("rbf", 100.0, None), ("linear", 10.0, None),
    ("rbf", 1.0, {-1: 3.0, 2: 0.5, 1: 1.0, 3: 1.0, 4: 1.0, 5: 1.0, 6: 1.0, 7: 1.0})])
def test_a_fit_of_many_classes_is_libsvms(kernel, C, class_weight):
    X, y = _blobs(8, 25, 4, seed=5)
    labels = np.array([-1, 1, 2, 3, 4, 5, 6, 7])[y]
    ours = SVC(kernel=kernel, C=C, tol=1e-6, class_weight=class_weight).fit(X, labels)
    ref = LibSVC(kernel=kernel, C=C, tol=1e-6, class_weight=class_weight).fit(X, labels)
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    np.testing.assert_array_equal(ours.support_, ref.support_)
    np.testing.assert_allclose(ours.dual_coef_, ref.dual_coef_, atol=1e-4 * C)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-3)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    assert ours.converged_


def _spy(monkeypatch):
    calls = []
    real = lockstep.solve_together

    def spy(problems, points, rows):
        calls.append(len(problems))
        return real(problems, points, rows)

    monkeypatch.setattr(lockstep, "solve_together", spy)
    return calls


@pytest.mark.parametrize("classes, per_class, expected", [
    (6, 20, [15]), (6, 200, [15]), (6, 201, []), (5, 20, []), (2, 20, [])])
def test_lockstep_where_the_machines_are_many_and_small(monkeypatch, classes, per_class,
                                                         expected):
    calls = _spy(monkeypatch)
    SVC().fit(*_blobs(classes, per_class, 2, seed=0))
    assert calls == expected


@pytest.mark.parametrize("how", ["stream", "hard margin", "nu-SVC", "max_time",
                                 "dual-gradient"])
def test_machine_after_machine_where_lockstep_does_not_apply(monkeypatch, how):
    calls = _spy(monkeypatch)
    X, y = _blobs(6, 15, 2, seed=1, spread=6.0)
    if how == "stream":
        list(SVC().iter_fit(X, y, every=50))
    else:
        estimator = {"hard margin": SVC(C=None), "nu-SVC": NuSVC(nu=0.1),
                     "max_time": SVC(max_time=60.0),
                     "dual-gradient": SVC(solver="dual-gradient", max_iter=50)}[how]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            estimator.fit(X, y)
    assert calls == []


def test_platts_sigmoids_are_those_of_the_machines_solved_one_after_another(monkeypatch):
    """The sigmoids come from each machine's folds, solved alone either way: the same but
    for the kernel's rounding (the folds of machines solved apart read the shared matrix,
    in lockstep their own rows)."""
    X, y = _blobs(6, 25, 2, seed=6)
    together = SVC(probability=True, random_state=0).fit(X, y)
    monkeypatch.setattr(lockstep, "gains", lambda *args: False)
    apart = SVC(probability=True, random_state=0).fit(X, y)
    np.testing.assert_allclose(together.probA_, apart.probA_, rtol=1e-3)
    np.testing.assert_allclose(together.probB_, apart.probB_, rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(together.predict_proba(X), apart.predict_proba(X), atol=1e-3)


def test_a_stream_and_a_fit_give_the_same_model():
    X, y = _blobs(6, 30, 3, seed=2)
    fitted = SVC(C=10.0).fit(X, y)
    streamed = SVC(C=10.0)
    for _ in streamed.iter_fit(X, y, every=100):
        pass
    np.testing.assert_allclose(fitted.objective_, streamed.objective_, rtol=1e-6)
    np.testing.assert_array_equal(fitted.support_, streamed.support_)
    np.testing.assert_array_equal(fitted.predict(X), streamed.predict(X))
    np.testing.assert_allclose(fitted.decision_function(X), streamed.decision_function(X),
                               atol=1e-2)


def test_max_iter_bounds_every_machine_and_is_said_once():
    X, y = _blobs(6, 30, 2, seed=3)
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always")
        svc = SVC(C=10.0, max_iter=3).fit(X, y)
    said = [str(w.message) for w in heard if issubclass(w.category, ConvergenceWarning)]
    assert said == ["SMO stopped after max_iter=3 pair updates before reaching tol=0.001"]
    assert (svc.n_iter_ <= 3).all() and (svc.n_iter_ == 3).any() and not svc.converged_
    assert np.isfinite(svc.dual_coef_).all() and np.isfinite(svc.intercept_).all()


@pytest.mark.parametrize("stop", [False, True])
def test_the_progress_watch_judges_the_machines_together(monkeypatch, stop):
    """A stalled batch stops, saying why and what to do; a slow one is said once and goes on
    to converge."""
    monkeypatch.setattr(lockstep, "WATCH_EVERY", 1)
    looked = []

    def verdict(watch, work, violation, dual, seconds):
        looked.append((violation, dual))
        return progress.Verdict(stop, "what the watch saw") if len(looked) == 1 else None

    monkeypatch.setattr(ProgressWatch, "note", verdict)
    X, y = _blobs(6, 30, 2, seed=4)
    X[:, 0] *= 40                                   # scales 40-fold apart: the advice says so
    with pytest.warns(ConvergenceWarning) as heard:
        svc = SVC(kernel="linear", C=10.0).fit(X, y)
    said = [str(w.message) for w in heard]
    assert len(said) == 1
    assert ("SMO stopped early, not getting anywhere: what the watch saw" if stop else
            "SMO is slow: what the watch saw; it goes on") in said[0]
    assert "standardize=True" in said[0] and "C=10" in said[0]
    assert svc.converged_ is not stop and np.isfinite(svc.dual_coef_).all()
    assert all(np.isfinite(v) and v >= 0 and np.isfinite(d) for v, d in looked)


def _watch_shrinking(monkeypatch):
    """Spies on the batch's shrinking and on the solves: the (rows, width) of each batch
    a shrink leaves, and each solve's number of problems and whether it shrinks."""
    shrinks, solves = [], []
    real_shrink, real_solve = lockstep_batch.Batch.shrink, lockstep._solve

    def shrink(batch):
        parts = real_shrink(batch)
        shrinks.append([part.ya.shape for part in parts])
        return parts

    def solve(problems, *args, **kwargs):
        solves.append((len(problems), kwargs["shrinking"]))
        return real_solve(problems, *args, **kwargs)

    monkeypatch.setattr(lockstep_batch.Batch, "shrink", shrink)
    monkeypatch.setattr(lockstep, "_solve", solve)
    return shrinks, solves


@pytest.mark.parametrize("kernel, C", [(Kernel("rbf", 0.5), 10.0), (Kernel("linear"), 1.0)])
def test_shrunk_machines_are_the_machines_solved_alone(monkeypatch, kernel, C):
    """Bounded points that cannot join a violating pair leave their rows and the batch
    narrows; a machine found optimal over the points it kept but not over all goes on
    unshrunk (seed 0 has such machines at either kernel), and every machine is the one
    SMO gives alone."""
    shrinks, solves = _watch_shrinking(monkeypatch)
    X, y = _blobs(8, 50, 3, seed=0)
    for tol in (1e-3, 1e-7):
        shrinks.clear(), solves.clear()
        problems, points = _machines(X, y, kernel, C, tol=tol)
        together = lockstep.solve_together(problems, points, lockstep.SharedRows(kernel, X))
        assert min(width for parts in shrinks for _, width in parts) < 100 / 2
        if tol == 1e-3:
            assert solves[0] == (28, True) and solves[1][1] is False and solves[1][0] >= 1
        for problem, mine in zip(problems, together):
            alone = _alone(problem)
            assert mine.converged and mine.kkt_violation < tol
            assert mine.dual_objective == pytest.approx(alone.dual_objective, rel=1e-6)
            if tol < 1e-3:
                np.testing.assert_array_equal(mine.support, alone.support)
                np.testing.assert_allclose(mine.dual_coef, alone.dual_coef, atol=1e-5 * C)


def test_rows_left_narrow_by_a_shrink_step_apart_from_the_wide_ones(monkeypatch):
    """With the rows' widths apart (a batch of its own costs nothing here, where on small
    machines it does not pay: on digits it does), a shrink sets the narrow rows apart, and
    every machine is still the one solved alone."""
    shrinks, _ = _watch_shrinking(monkeypatch)
    monkeypatch.setattr(lockstep_batch, "SPLIT_COST", 0)
    X, y = _blobs(7, 60, 3, seed=1)
    kernel = Kernel("rbf", 0.3)
    problems, points = _machines(X, y, kernel, 1.0, tol=1e-7)
    together = lockstep.solve_together(problems, points, lockstep.SharedRows(kernel, X))
    (wide, narrow), *_ = [parts for parts in shrinks if len(parts) == 2]
    assert wide[0] + narrow[0] <= 21 and narrow[1] < wide[1]
    _each_as_alone(problems, together, atol=1e-5)


def test_a_machine_that_goes_on_unshrunk_counts_its_own_steps(monkeypatch):
    """The steps a machine reports are its own: those of its first run, plus, if it goes
    on unshrunk, those it took then (the count goes on from the first run's last step, for
    the Newton steps' schedule, and is not the machine's own)."""
    runs = []
    real = lockstep._solve

    def solve(problems, *args, **kwargs):
        finals = real(problems, *args, **kwargs)
        runs.append(([id(problem) for problem in problems], kwargs.get("steps", 0),
                     [final[1] for final in finals]))
        return finals

    monkeypatch.setattr(lockstep, "_solve", solve)
    X, y = _blobs(8, 50, 3, seed=0)
    kernel = Kernel("linear")
    problems, points = _machines(X, y, kernel, 1.0)
    together = lockstep.solve_together(problems, points, lockstep.SharedRows(kernel, X))
    (_, _, first), (again, start, then) = runs
    assert len(again) >= 2 and start == max(first[[id(p) for p in problems].index(k)]
                                             for k in again)
    went_on = dict(zip(again, then))
    for b, problem in enumerate(problems):
        own = first[b] + (went_on[id(problem)] - start if id(problem) in went_on else 0)
        assert together[b].iteration == own
        assert id(problem) not in went_on or own > first[b]
