"""SMO against libsvm: objective, support set, decision values and predictions."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from svmdesk.core import SVC, ConvergenceWarning, Kernel, make_dataset
from svmdesk.core.solvers import smo
from svmdesk.core.solvers.problems import c_svc
from svmdesk.core.solvers.smo import newton, row_cache
from svmdesk.core.solvers.smo import solver as smo_solver
from svmdesk.core.solvers.smo import state as smo_state

from .conftest import libsvm, libsvm_dual_objective

KERNEL_PARAMS = {
    "linear": dict(kernel="linear"),
    "poly": dict(kernel="poly", degree=3, gamma=0.5, coef0=1.0),
    "rbf": dict(kernel="rbf", gamma=0.7),
    "sigmoid": dict(kernel="sigmoid", gamma=0.05, coef0=0.0),
}


def _pair(sets, name, kernel, C, tol=1e-3, **extra):
    X, y = sets[name]
    params = dict(KERNEL_PARAMS[kernel], C=C, tol=tol)
    ours = SVC(solver="smo", **params, **extra).fit(X, y)
    ref = libsvm(X, y, **params)
    return X, y, ours, ref


@pytest.mark.parametrize("kernel", sorted(KERNEL_PARAMS))
@pytest.mark.parametrize("name", ["moons", "blobs", "circles", "xor"])
@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_objective_and_predictions_match_libsvm(sets, name, kernel, C):
    X, y, ours, ref = _pair(sets, name, kernel, C)
    reference = libsvm_dual_objective(ref, ours.model_.kernel)
    assert ours.converged_
    assert abs(ours.objective_ - reference) <= 1e-4 * abs(reference)
    assert np.mean(ours.predict(X) == ref.predict(X)) >= 0.995


@pytest.mark.parametrize("kernel", sorted(KERNEL_PARAMS))
@pytest.mark.parametrize("name", ["moons", "gaussians"])
def test_same_support_set_and_decision_values_at_tight_tol(sets, name, kernel):
    X, y, ours, ref = _pair(sets, name, kernel, C=1.0, tol=1e-5)
    np.testing.assert_array_equal(ours.support_, ref.support_)
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X),
                               atol=1e-3)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-3)


def test_sklearn_toy_case_exactly():
    X = [[-2, -1], [-1, -1], [-1, -2], [1, 1], [1, 2], [2, 1]]
    y = [1, 1, 1, 2, 2, 2]
    model = SVC(kernel="linear").fit(X, y)
    np.testing.assert_array_equal(model.support_, [1, 3])
    np.testing.assert_allclose(model.dual_coef_, [[-0.25, 0.25]], atol=1e-12)
    np.testing.assert_allclose(model.intercept_, [0.0], atol=1e-12)
    np.testing.assert_array_equal(model.predict([[-1, -1], [2, 2], [3, 2]]), [1, 2, 2])


def test_large_set_uses_float32_cache_shrinking_and_still_matches(monkeypatch):
    """A tiny cache forces evictions, float32 rows, shrinking and gradient reconstruction."""
    monkeypatch.setattr(smo_state, "CACHE_BYTES", 64 * 1024)
    d = make_dataset("moons", n=1500, noise=0.25, seed=1)
    X, y = np.asarray(d.X), np.asarray(d.y)
    for C in (1.0, 100.0):
        ours = SVC(C=C).fit(X, y)
        ref = libsvm(X, y, C=C)
        reference = libsvm_dual_objective(ref, ours.model_.kernel)
        assert ours.converged_
        assert abs(ours.objective_ - reference) <= 1e-4 * reference
        assert np.mean(ours.predict(X) == ref.predict(X)) >= 0.995


def test_hard_margin_on_separable_data_matches_a_huge_C(sets):
    d = make_dataset("two_disks", n=100, seed=0)
    X, y = np.asarray(d.X), np.asarray(d.y)
    ours = SVC(kernel="linear", C=None).fit(X, y)
    ref = libsvm(X, y, kernel="linear", C=1e8)
    assert ours.converged_
    reference = libsvm_dual_objective(ref, ours.model_.kernel)
    assert abs(ours.objective_ - reference) <= 1e-4 * reference
    assert np.all(ours.decision_function(X) * np.where(y == 1, 1, -1) >= 1 - 1e-3)


def test_hard_margin_on_inseparable_data_says_so(sets):
    X, y = sets["xor"]
    with pytest.warns(ConvergenceWarning, match="not separable"):
        model = SVC(kernel="linear", C=None).fit(X, y)
    assert not model.converged_


def test_budget_exhausted_warns_and_reports_not_converged(sets):
    X, y = sets["moons"]
    with pytest.warns(ConvergenceWarning, match="max_iter=5"):
        model = SVC(max_iter=5).fit(X, y)
    assert not model.converged_
    assert model.n_iter_[0] == 5


def test_snapshots_stream_every_k_pairs_and_end_converged(sets):
    X, y = sets["moons"]
    snaps = [step.snapshot for step in SVC(C=10.0).iter_fit(X, y, every=7)]
    iters = [s.iteration for s in snaps]
    assert iters[:-1] == list(range(7, 7 * len(iters[:-1]) + 1, 7))
    assert snaps[-1].converged and not any(s.converged for s in snaps[:-1])
    for s in snaps:
        assert s.working_pair is not None and len(s.working_pair) == 2
        assert s.kkt_violation >= 0 and s.dual_objective <= s.primal_objective + 1e-6
        assert not s.dual_coef.flags.writeable
        with pytest.raises(ValueError):
            s.dual_coef[0] = 1.0
    duals = [s.dual_objective for s in snaps]
    assert all(b >= a - 1e-9 for a, b in zip(duals, duals[1:]))  # SMO never lowers D


def test_dual_objective_tracked_exactly(sets):
    """The running D(a) equals a fresh computation from the multipliers."""
    X, y = sets["circles"]
    kernel = Kernel("rbf", gamma=0.7)
    snap = list(smo.solve(_problem(X, y, kernel), every=10**9))[-1]
    dc = snap.dual_coef
    fresh = np.abs(dc).sum() - 0.5 * dc @ kernel(X, X) @ dc
    assert snap.dual_objective == pytest.approx(fresh, rel=1e-10)


def _problem(X, y, kernel, C=1.0):
    from svmdesk.core.solvers.base import BinaryProblem
    return BinaryProblem(X=X, y=np.where(y == 1, 1.0, -1.0), kernel=kernel, C=C)


def test_no_warning_on_ordinary_fit(sets):
    X, y = sets["blobs"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        SVC().fit(X, y)


def test_shrinking_happens_whatever_the_snapshot_interval():
    """Shrinking must not depend on snapshots landing on a multiple of its period."""
    d = make_dataset("moons", n=2500, noise=0.2, seed=0)
    X, y = np.asarray(d.X), np.asarray(d.y)
    problem = _problem(X, y, Kernel("rbf", gamma=1.0), C=1000.0)   # thousands of pairs
    solver = smo_solver._SMO(c_svc(problem))
    sizes = [solver.m for snap in solver.run(every=7) if snap.iteration <= 1100]
    assert min(sizes) < problem.n               # the first test comes after 1000 pairs


def test_newton_step_is_a_feasible_ascent_that_keeps_F_exact():
    """The jump over the free multipliers keeps 0 <= a <= C, y'a = 0, F = y - K(y a) and
    the running dual objective, and raises the dual."""
    d = make_dataset("moons", n=400, noise=0.2, seed=1)
    X, y = np.asarray(d.X), np.asarray(d.y)
    kernel = Kernel("rbf", gamma=1.0)
    problem = _problem(X, y, kernel, C=100.0)
    solver = smo_solver._SMO(c_svc(problem))
    solver._steps(60)
    before = solver.dual
    assert solver._newton_step() in (True, False)
    assert solver.dual > before
    back = np.argsort(solver.order)
    a, ys, F = solver.alpha[back], solver.y[back], solver.F[back]
    assert a.min() >= 0 and a.max() <= 100.0
    assert abs(ys @ a) < 1e-9
    K = kernel(X, X)
    np.testing.assert_allclose(F, ys - K @ (ys * a), atol=1e-9)
    fresh = a.sum() - 0.5 * (ys * a) @ K @ (ys * a)
    assert solver.dual == pytest.approx(fresh, rel=1e-10)


@pytest.mark.parametrize("C", [100.0, 1000.0])
def test_newton_steps_fire_at_large_C_and_the_optimum_still_matches_libsvm(monkeypatch, C):
    moves = []
    step = smo_solver._SMO._newton_step
    monkeypatch.setattr(smo_solver._SMO, "_newton_step",
                        lambda self: moves.append(self.dual) or step(self))
    d = make_dataset("moons", n=1000, noise=0.2, seed=0)
    X, y = np.asarray(d.X), np.asarray(d.y)
    ours = SVC(C=C, tol=1e-5).fit(X, y)
    ref = libsvm(X, y, kernel="rbf", gamma="scale", C=C, tol=1e-5)
    assert moves
    ref_obj = libsvm_dual_objective(ref, ours.model_.kernel)
    assert ours.objective_ == pytest.approx(ref_obj, rel=1e-5)
    assert np.mean(ours.predict(X) == ref.predict(X)) >= 0.995


def test_newton_steps_work_with_a_small_float32_cache(monkeypatch):
    """With a cache far smaller than the matrix (float32 rows, evictions), the Newton step
    must fetch every free point's row without evicting the ones it just fetched."""
    monkeypatch.setattr(smo_state, "CACHE_BYTES", 64 * 2 * 800 * 4)   # 64 rows of 800 points
    raised = []
    step = smo_solver._SMO._newton_step

    def watched(self):
        before = self.dual
        result = step(self)
        raised.append(self.dual > before)
        return result

    monkeypatch.setattr(smo_solver._SMO, "_newton_step", watched)
    d = make_dataset("moons", n=800, noise=0.2, seed=2)
    X, y = np.asarray(d.X), np.asarray(d.y)
    ours = SVC(C=100.0).fit(X, y)
    assert any(raised)
    ref = libsvm(X, y, kernel="rbf", gamma="scale", C=100.0)
    assert ours.objective_ == pytest.approx(libsvm_dual_objective(ref, ours.model_.kernel),
                                            rel=1e-4)


def _small_qp(k, seed):
    """A random dual subproblem: Q = y y' * rbf kernel, a gradient, a feasible start."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(k, 2))
    y = np.where(rng.random(k) < 0.5, 1.0, -1.0)
    Q = Kernel("rbf", gamma=0.5)(X, X) * np.outer(y, y)
    a = rng.uniform(0.1, 0.9, size=k)
    g = Q @ a - 1.0 + rng.normal(scale=0.5, size=k)   # as if other multipliers pulled
    return Q, y, g, a


@pytest.mark.parametrize("seed", range(6))
def test_box_qp_reaches_the_subproblem_optimum(seed):
    """The active-set solve keeps the box and y'a, lowers the objective, and when it says
    it is optimal the KKT conditions hold: one multiplier nu with g + nu y = 0 on the free
    points, >= 0 at the lower bound and <= 0 at the upper one."""
    Q, y, g, a = _small_qp(30, seed)
    C, tol = 1.0, 1e-6
    new, settled = newton._box_qp(Q, y, g, a, C, tol)
    step = new - a
    assert settled
    assert new.min() >= 0 and new.max() <= C
    assert abs(y @ step) < 1e-12
    assert g @ step + 0.5 * step @ Q @ step < 0
    grad = g + Q @ step
    free = (new > 0) & (new < C)
    nu = -np.mean(y[free] * grad[free])
    lagrangian = grad + nu * y
    np.testing.assert_allclose(lagrangian[free], 0.0, atol=1e-8)
    assert (lagrangian[new == 0] >= -1e-6).all() and (lagrangian[new == C] <= 1e-6).all()


def test_kkt_inverse_downdate_and_update_agree_with_a_fresh_inverse():
    """Holding a point fixed, then freeing it again, gives the inverse computed from
    scratch for each working set."""
    Q, y, _, _ = _small_qp(12, 0)
    working = np.ones(12, dtype=bool)
    inverse = newton._kkt_inverse(Q, y, working)
    working[[3, 7]] = False
    for r in (3, 7):
        inverse = newton._downdate(inverse, r)
    np.testing.assert_allclose(inverse, newton._kkt_inverse(Q, y, working), atol=1e-9)
    working[3] = True
    inverse = newton._update(inverse, Q, y, 3)
    np.testing.assert_allclose(inverse, newton._kkt_inverse(Q, y, working), atol=1e-9)


def test_newton_steps_raise_the_dual_with_float32_rows(monkeypatch):
    """At 5000 points the rows are float32 (the matrix exceeds the cache budget), yet every
    Newton step moves: its curvature matrix is computed in float64. Taken from float32 rows
    it was indefinite here, and most steps were refused."""
    calls = []
    step = smo_solver._SMO._newton_step

    def watched(self):
        before = self.dual
        moved = step(self)
        calls.append((moved, self.dual - before))
        return moved

    monkeypatch.setattr(smo_solver._SMO, "_newton_step", watched)
    d = make_dataset("moons", n=5000, noise=0.2, seed=0)
    X, y = np.asarray(d.X), np.asarray(d.y)
    ours = SVC(C=100.0).fit(X, y)
    moves = [gain for moved, gain in calls if moved]
    assert calls and len(moves) >= 0.8 * len(calls) and all(gain > 0 for gain in moves)
    ref = libsvm(X, y, kernel="rbf", gamma="scale", C=100.0)
    assert ours.objective_ == pytest.approx(libsvm_dual_objective(ref, ours.model_.kernel),
                                            rel=1e-4)


@pytest.mark.parametrize("C", [1e2, 1e4])
def test_duplicate_points_cost_the_newton_step_nothing(C):
    """Every point twice makes the free multipliers' curvature matrix singular; the Newton
    step (with its tiny ridge) must still work, so the fit takes about as many pair steps
    as on the points once (without it: 40x more at C=1e4)."""
    rng = np.random.default_rng(202)
    X = rng.normal(size=(120, 3))
    y = np.sign(X[:, 0] + 0.5 * rng.normal(size=120))
    once = SVC(C=2 * C).fit(X, y)          # the same problem: each point's slack counts twice
    twice = SVC(C=C).fit(np.vstack([X, X]), np.concatenate([y, y]))
    assert twice.converged_ and twice.n_iter_[0] <= 3 * once.n_iter_[0] + 100
    assert twice.objective_ == pytest.approx(once.objective_, rel=1e-4)


def test_duplicate_points_at_large_C_still_match_libsvm():
    """Every point twice: the free multipliers' curvature matrix is singular, which the
    Newton step must survive without harm."""
    d = make_dataset("moons", n=300, noise=0.25, seed=3)
    X, y = np.vstack([d.X, d.X]), np.concatenate([d.y, d.y])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        ours = SVC(C=100.0).fit(X, y)
    ref = libsvm(X, y, kernel="rbf", gamma="scale", C=100.0)
    assert ours.converged_
    assert ours.objective_ == pytest.approx(libsvm_dual_objective(ref, ours.model_.kernel),
                                            rel=1e-4)
    assert np.mean(ours.predict(X) == ref.predict(X)) >= 0.995


def test_far_apart_clusters_with_a_narrow_kernel_keep_an_exact_objective():
    """Two clusters 1e5 kernel widths apart, 4000 points (float32 rows): the rows keep
    float32 precision however far the points lie from the data's centre, and the reported
    dual objective is exact (recomputed from the float64 F), so the final duality gap is
    small and never negative."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(4000, 2))
    y = np.sign(X[:, 0] * X[:, 1] + 0.2 * rng.normal(size=4000))
    X[2000:] += 1e5
    final = list(SVC(C=10.0, gamma=1.0).iter_fit(X, y, every=10**9))[-1].snapshot
    assert final.converged and 0 <= final.gap < 1e-6 * final.primal_objective
    ref = libsvm(X, y, kernel="rbf", gamma=1.0, C=10.0)
    assert final.dual_objective == pytest.approx(libsvm_dual_objective(ref, Kernel("rbf", 1.0)),
                                                 rel=1e-5)


@pytest.mark.parametrize("kernel", ["linear", "poly"])
def test_low_rank_kernels_at_large_C_converge_in_few_pairs(kernel):
    """A linear or quadratic kernel on 3 features has a rank-deficient Q, where pair steps
    alone crawl (libsvm takes 100,000s of pairs here); the ridged Newton step still solves
    the free multipliers' subproblem, so SMO needs a small fraction of libsvm's pairs."""
    rng = np.random.default_rng(100)
    X = rng.normal(size=(150, 3))
    y = np.sign(X[:, 0] + 0.5 * rng.normal(size=150))
    params = dict(kernel=kernel, C=1000.0, coef0=1.0, degree=2)
    ours = SVC(**params).fit(X, y)
    ref = libsvm(X, y, gamma="scale", **params)
    assert ours.converged_ and ours.n_iter_[0] < ref.n_iter_[0] / 10
    assert ours.objective_ == pytest.approx(libsvm_dual_objective(ref, ours.model_.kernel),
                                            rel=1e-6)


def test_snapshots_carry_f_on_the_points_and_come_when_wanted():
    """The window draws SMO's live frames from the f its gradient holds (float32 rows at
    n = 5000, so float32 precision), the final one exact; and with `wanted` SMO yields only
    when asked (here every 100th pair step), not once per pair step."""
    from svmdesk.core import SVC, make_dataset

    d = make_dataset("moons", n=5000, noise=0.2, seed=0)
    svc = SVC(kernel="rbf", C=10.0)
    asked = {"n": 0}

    def wanted():
        asked["n"] += 1
        return asked["n"] % 100 == 0

    steps = list(svc.iter_fit(d.X, d.y, wanted=wanted))
    snaps = [step.snapshot for step in steps]
    assert 2 <= len(snaps) <= asked["n"] // 100 + 2
    for snap in snaps[:-1]:
        exact = steps[0].machine.kernel.matvec(d.X, d.X, snap.dual_coef)
        # shrinking only sets bounded points aside: the free ones are always active
        free = (snap.dual_coef != 0) & (np.abs(snap.dual_coef) < 10.0)
        np.testing.assert_allclose(snap.decision[free], exact[free],
                                   atol=1e-5 * np.abs(exact).max())
    final = snaps[-1]
    np.testing.assert_allclose(final.decision + final.bias, svc.decision_function(d.X),
                               atol=1e-9)


def test_kept_row_memory_is_reused_and_changes_no_result(monkeypatch):
    """A window retraining its points keeps the kernel-row cache's memory between runs
    (fresh memory costs its first touch). Runs on kept memory, one after another and on
    other data between, give exactly what runs on fresh memory give; with a small budget
    the float32 rows and the evictions take part too."""
    monkeypatch.setattr(smo_state, "CACHE_BYTES", 2**20)
    first = make_dataset("moons", n=700, noise=0.3, seed=3)
    other = make_dataset("circles", n=300, noise=0.1, seed=1)
    params = dict(solver="smo", kernel="rbf", C=10.0)
    fresh = SVC(**params).fit(first.X, first.y)
    memory = smo.RowMemory()
    with smo.keeping_row_memory(memory):
        for X, y in [(first.X, first.y), (other.X, other.y), (first.X, first.y)]:
            kept = SVC(**params).fit(X, y)
    np.testing.assert_array_equal(kept.dual_coef_, fresh.dual_coef_)
    np.testing.assert_array_equal(kept.support_, fresh.support_)
    assert kept.intercept_ == fresh.intercept_
    rows = memory.take("rows", (10, 20), np.float32)
    assert np.shares_memory(rows, memory.take("rows", (4, 50), np.float32))
    assert not np.shares_memory(rows, smo.RowMemory().take("rows", (10, 20), np.float32))


def test_row_memory_is_kept_only_where_asked():
    """fit gives its memory back; only the block's own thread uses the kept memory."""
    import threading

    memory, seen = smo.RowMemory(), []
    with smo.keeping_row_memory(memory):
        thread = threading.Thread(target=lambda: seen.append(
            row_cache._row_array("rows", (2, 3), np.float64)))
        thread.start()
        thread.join()
        inside = row_cache._row_array("rows", (2, 3), np.float64)
    outside = row_cache._row_array("rows", (2, 3), np.float64)
    kept = memory.take("rows", (2, 3), np.float64)
    assert np.shares_memory(inside, kept)
    assert not np.shares_memory(seen[0], kept) and not np.shares_memory(outside, kept)


def _kkt_violation(Q, y, g, a, new, C):
    """How far `new` is from the subproblem's optimum: the smallest, over the multiplier nu,
    of the largest amount by which a free point's Lagrangian gradient g + nu y is nonzero or
    a bounded point's points into the box (each term is linear in nu with slope +-1, so the
    best nu is where the largest of each slope meet)."""
    lagrangian = g + Q @ (new - a)
    # terms c + s nu that must be <= 0: at 0, -(g + nu y) <= 0; at C, g + nu y <= 0; free: both
    sign = np.concatenate([np.where(new < C, -1.0, 0.0), np.where(new > 0, 1.0, 0.0)])
    c = np.concatenate([lagrangian, lagrangian]) * sign
    s = np.concatenate([y, y]) * sign
    rising, falling = c[s > 0], c[s < 0]
    if not len(rising) or not len(falling):
        return 0.0                                   # nu can satisfy every term at once
    nu = (falling.max() - rising.max()) / 2
    return max(0.0, float(np.max(c + s * nu)))


@st.composite
def box_qps(draw):
    """Small dual subproblems as SMO's Newton step meets them: rbf Q of possibly duplicate
    points, any labels, C from 1e-2 to 1e4, a start with multipliers on either bound and
    with equal values (so that several points meet a bound at the same step length)."""
    k = draw(st.integers(2, 8))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    X = rng.normal(size=(k, 2))
    if draw(st.booleans()):
        X[k // 2:] = X[: k - k // 2]
    y = np.where(rng.random(k) < 0.5, 1.0, -1.0)
    gamma = 10.0 ** draw(st.integers(-3, 1))
    C = 10.0 ** draw(st.integers(-2, 4))
    Q = Kernel("rbf", gamma=gamma)(X, X) * np.outer(y, y)
    a = C * rng.choice([0.0, 1.0, 0.5, rng.random()], size=k)    # ties: points blocked at once
    g = Q @ a - 1.0 + rng.normal(scale=draw(st.sampled_from([0.0, 0.5, 5.0])), size=k)
    return Q, y, g, a, C


@pytest.mark.slow
@settings(max_examples=300, deadline=2000, derandomize=True)
@given(problem=box_qps())
def test_box_qp_on_small_random_subproblems_is_feasible_and_never_worse(problem):
    """Whatever the subproblem (every point blocked at once, duplicates, a start on the
    bounds), the solve returns: the box and y'a kept, the objective not raised, and where it
    says it is optimal, the KKT conditions hold."""
    Q, y, g, a, C = problem
    tol = 1e-6
    with np.errstate(all="raise"):
        new, settled = newton._box_qp(Q, y, g, a, C, tol)
    step = new - a
    assert np.isfinite(new).all()
    assert new.min() >= 0 and new.max() <= C
    assert abs(y @ step) <= 1e-10 * max(1.0, C)
    assert g @ step + 0.5 * step @ Q @ step <= 1e-12 * max(1.0, C * C)
    if settled:
        assert _kkt_violation(Q, y, g, a, new, C) <= 1e-6 * max(1.0, C)


def test_a_cross_validation_fold_at_large_C_and_small_gamma_trains_as_libsvm():
    """The fold of a C-gamma grid on which a Newton step once met an empty working set."""
    from sklearn.datasets import make_moons
    from sklearn.model_selection import StratifiedKFold

    X, y = make_moons(1000, noise=0.25, random_state=4)
    train = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))[2][0]
    ours = SVC(C=1000, gamma=0.001).fit(X[train], y[train])
    ref = libsvm(X[train], y[train], kernel="rbf", C=1000, gamma=0.001)
    assert ours.converged_
    assert ours.objective_ == pytest.approx(libsvm_dual_objective(ref, ours.model_.kernel),
                                            rel=1e-4)
    assert np.mean(ours.predict(X) == ref.predict(X)) >= 0.995


def test_a_newton_solve_waits_until_the_pair_steps_since_cost_as_much():
    """A few free multipliers: a solve every ten steps, as before; 400 free among 1,000
    active points: a solve only after 1,000 pair steps (it costs about as much)."""
    pays = newton.newton_pays
    assert pays(free=50, active=1000, steps_since=10)
    assert not pays(free=400, active=1000, steps_since=999)
    assert pays(free=400, active=1000, steps_since=1000)
    assert not pays(free=400, active=0, steps_since=1999) and pays(400, 0, 2000)


def test_a_near_identity_kernel_with_rationed_newton_solves_reaches_libsvms_optimum():
    """gamma 100 on 800 moons points: K is nearly the identity and most multipliers are
    free, so the Newton solves are rationed (newton_pays); SMO still reaches LIBSVM's
    objective, support set and predictions."""
    data = make_dataset("moons", n=800, noise=0.3, seed=0)
    X, y = np.asarray(data.X), np.asarray(data.y)
    ours = SVC(gamma=100.0, C=20.0, tol=1e-5).fit(X, y)
    ref = libsvm(X, y, gamma=100.0, C=20.0, tol=1e-5)
    assert ours.objective_ == pytest.approx(
        libsvm_dual_objective(ref, Kernel("rbf", gamma=100.0)), rel=1e-6)
    np.testing.assert_array_equal(np.sort(ours.support_), np.sort(ref.support_))
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))


def test_prepared_row_memory_serves_the_first_run(monkeypatch):
    """The window's solver process touches its cache's memory before its first run: that
    run's rows and inverse curvatures take the prepared memory (no fresh memory to touch),
    and its model is the one fit gives."""
    budget = 2**20
    monkeypatch.setattr(smo_state, "CACHE_BYTES", budget)
    memory = smo.RowMemory()
    memory.prepare(budget)
    prepared = dict(memory._kept)                 # what the memory holds before any run
    assert {name: array.nbytes for name, array in prepared.items()} == {
        "rows": budget // 2, "inv_quad": budget // 2}
    taken = []
    original = row_cache._row_array
    monkeypatch.setattr(row_cache, "_row_array",
                        lambda *args: taken.append(original(*args)) or taken[-1])
    d = make_dataset("moons", n=700, noise=0.3, seed=3)
    with smo.keeping_row_memory(memory):
        kept = SVC(solver="smo", kernel="rbf", C=10.0).fit(d.X, d.y)
    assert len(taken) == 2 and all(np.shares_memory(array, prepared[name])
                                   for array, name in zip(taken, ("rows", "inv_quad")))
    fresh = SVC(solver="smo", kernel="rbf", C=10.0).fit(d.X, d.y)
    np.testing.assert_array_equal(kept.dual_coef_, fresh.dual_coef_)
