"""SMO's trace: each snapshot carries the solver's own record of its last pair step (the
pair, the multipliers before and after, the box's clipping, the violation after) and of its
shrink and Newton steps, for every kind of machine; reading it changes no model."""
import numpy as np
import pytest

from svmdesk.core import SVC, SVR, NuSVC, OneClassSVM, make_dataset
from svmdesk.core.solvers.smo.trace import AT_BOUND, AT_ZERO, FREE, NewtonStep, PairStep, Shrunk


def _moons(n=120, seed=3):
    d = make_dataset("moons", n=n, noise=0.25, seed=seed)
    return np.asarray(d.X), np.asarray(d.y)


def _pair_steps(snapshots):
    """[(previous snapshot, snapshot, its PairStep)] for each snapshot of one pair step."""
    out = []
    for before, after in zip(snapshots, snapshots[1:]):
        steps = [r for r in after.trace if isinstance(r, PairStep)]
        assert len(steps) <= 1
        if steps and steps[0].steps == 1:
            out.append((before, after, steps[0]))
    return out


def _check_against_snapshots(snapshots, upper, alpha_of):
    """The record's pair is the snapshot's working pair; its multipliers before and after
    are the two snapshots'; clipped means a multiplier ended on the box; the violation is
    the snapshot's."""
    seen = _pair_steps(snapshots)
    assert len(seen) > 20
    clipped = 0
    for before, after, step in seen:
        assert (step.i, step.j) == after.working_pair
        for k, (old, new) in ((step.i, step.alpha_i), (step.j, step.alpha_j)):
            assert new == pytest.approx(alpha_of(after)[k], abs=1e-12)
            assert old == pytest.approx(alpha_of(before)[k], abs=1e-12)
        assert step.violation == after.kkt_violation
        assert step.gap > 0 and step.gain > 0 and 0 < step.taken <= step.unclipped
        if step.clipped:
            clipped += 1
            ends = [v for v in (step.alpha_i[1], step.alpha_j[1])]
            assert any(v == 0 or abs(v - upper) < 1e-9 * upper for v in ends)
    assert clipped                       # C = 1 on noisy moons: the box stops some steps


def test_c_svc_records_each_pair_step_as_its_snapshots_show_it():
    X, y = _moons()
    snaps = [p.snapshot for p in SVC(C=1.0).iter_fit(X, y, every=1)]
    _check_against_snapshots(snaps, 1.0, lambda s: np.abs(s.dual_coef))


def test_nu_svc_records_its_multipliers_on_the_snapshots_scale():
    X, y = _moons()
    snaps = [p.snapshot for p in NuSVC(nu=0.3).iter_fit(X, y, every=1)]
    steps = _pair_steps(snaps)
    assert len(steps) > 20
    for before, after, step in steps:
        assert (step.i, step.j) == after.working_pair
        assert step.alpha_i[1] == pytest.approx(abs(after.dual_coef[step.i]), abs=1e-12)
        # each snapshot has its own scale 1/r: what an unmoved multiplier shows of it
        still = np.flatnonzero(before.dual_coef)
        still = still[(still != step.i) & (still != step.j)]
        if len(still):
            k = still[0]
            rescale = after.dual_coef[k] / before.dual_coef[k]
            assert step.alpha_j[0] == pytest.approx(abs(before.dual_coef[step.j]) * rescale,
                                                    rel=1e-9, abs=1e-12)


def test_one_class_records_each_pair_step():
    X, _ = _moons()
    snaps = [p.snapshot for p in OneClassSVM(nu=0.2).iter_fit(X, every=1)]
    for before, after, step in _pair_steps(snaps):
        assert (step.i, step.j) == after.working_pair
        assert step.star_i is None
        assert step.alpha_i[1] == pytest.approx(after.dual_coef[step.i], abs=1e-12)
        assert step.alpha_j[0] == pytest.approx(before.dual_coef[step.j], abs=1e-12)


def test_svr_records_points_and_which_of_a_and_a_star_moved():
    rng = np.random.RandomState(0)
    X = rng.uniform(-3, 3, size=(80, 1))
    y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=80)
    snaps = [p.snapshot for p in SVR(C=1.0, epsilon=0.1).iter_fit(X, y, every=1)]
    steps = [r for s in snaps for r in s.trace if isinstance(r, PairStep)]
    assert len(steps) > 20
    for snap in snaps:
        for step in (r for r in snap.trace if isinstance(r, PairStep)):
            assert (step.i, step.j) == snap.working_pair and max(step.i, step.j) < 80
            assert isinstance(step.star_i, bool) and isinstance(step.star_j, bool)
            for old, new in (step.alpha_i, step.alpha_j):
                assert 0 <= old <= 1.0 and 0 <= new <= 1.0
    assert {s.star_i for s in steps} == {True, False}


def test_one_vs_one_records_count_each_machines_own_points():
    d = make_dataset("blobs", n=150, noise=1.5, seed=1)
    X, y = np.asarray(d.X), np.asarray(d.y) % 3
    for progress in SVC(C=1.0).iter_fit(X, y, every=1):
        for step in (r for r in progress.snapshot.trace if isinstance(r, PairStep)):
            own = len(progress.snapshot.dual_coef)
            assert 0 <= step.i < own and 0 <= step.j < own


def test_shrink_and_newton_steps_are_recorded_in_order():
    X, y = _moons(n=1500, seed=1)
    snaps = [p.snapshot for p in SVC(C=30.0).iter_fit(X, y, every=1)]
    records = [r for s in snaps for r in s.trace]
    shrunk = [r for r in records if isinstance(r, Shrunk)]
    assert shrunk and all(r.active_after < r.active_before for r in shrunk)
    assert any(isinstance(r, NewtonStep) and r.moved > 0 for r in records)
    for s in snaps:               # a snapshot's pair step comes before what followed it
        kinds = [type(r) for r in s.trace]
        assert PairStep not in kinds[1:]


def test_a_snapshot_of_many_steps_records_the_last_and_counts_them():
    X, y = _moons()
    snaps = [p.snapshot for p in SVC(C=1.0).iter_fit(X, y, every=10)]
    first = next(r for r in snaps[0].trace if isinstance(r, PairStep))
    assert first.steps == snaps[0].iteration == 10
    assert (first.i, first.j) == snaps[0].working_pair


def test_a_traced_run_trains_the_same_model():
    X, y = _moons(n=300)
    stepped = [p.snapshot for p in SVC(C=3.0).iter_fit(X, y, every=1)][-1]
    fitted = SVC(C=3.0).fit(X, y)
    np.testing.assert_array_equal(stepped.dual_coef[fitted.support_],
                                  fitted.dual_coef_.ravel())
    assert stepped.bias == fitted.intercept_[0]


def test_each_points_kkt_state_is_c_svcs_conditions_on_its_margin():
    X, y = _moons()
    C = 1.0
    snaps = [p.snapshot for p in SVC(C=C).iter_fit(X, y, every=1)][:-1][:60]  # unshrunk
    seen_violators = 0
    for snap in snaps:
        alpha = np.abs(snap.dual_coef)
        margin = np.where(y == y.max(), 1.0, -1.0) * (snap.decision + snap.bias)
        kkt = snap.kkt
        np.testing.assert_array_equal(kkt.state == AT_ZERO, alpha == 0)
        np.testing.assert_array_equal(kkt.state == AT_BOUND, alpha >= C)
        expected = np.where(alpha == 0, np.maximum(0, 1 - margin),
                            np.where(alpha >= C, np.maximum(0, margin - 1),
                                     np.abs(1 - margin)))
        np.testing.assert_allclose(kkt.violation, expected, atol=1e-9)
        seen_violators += int((kkt.violation > 1e-3).sum())
        assert not kkt.state.flags.writeable and not kkt.violation.flags.writeable
    assert seen_violators


def test_no_point_breaks_the_conditions_beyond_the_pair_gap():
    X, y = _moons(n=600, seed=1)
    for estimator in (SVC(C=10.0), NuSVC(nu=0.3), OneClassSVM(nu=0.2)):
        fit = (estimator.iter_fit(X, every=7) if isinstance(estimator, OneClassSVM)
               else estimator.iter_fit(X, y, every=7))
        snaps = [p.snapshot for p in fit]
        assert snaps[-1].kkt is None          # a fit's final snapshot leaves them out
        for snap in snaps[:-1]:
            assert len(snap.kkt.state) == len(X)
            assert snap.kkt.violation.max() <= snap.kkt_violation + 1e-9


def test_svr_gives_each_point_one_kkt_state():
    rng = np.random.RandomState(0)
    X = rng.uniform(-3, 3, size=(80, 1))
    y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=80)
    last = [p.snapshot for p in SVR(C=1.0, epsilon=0.1).iter_fit(X, y, every=1)][-2]
    assert len(last.kkt.state) == len(last.kkt.violation) == 80
    coef = last.dual_coef
    np.testing.assert_array_equal(last.kkt.state == AT_ZERO, coef == 0)
    assert set(np.unique(last.kkt.state)) <= {AT_ZERO, FREE, AT_BOUND}


@pytest.mark.parametrize("estimator", [SVC(C=1.0), SVC(C=1.0, class_weight={0: 3.0}),
                                       NuSVC(nu=0.3)])
def test_each_pair_step_carries_its_subproblem(estimator):
    """The box, the line and the step along it: after = before + taken along the line, in
    the box; the pair's optimum (unclipped) lies outside the box exactly when the step was
    clipped, and raises the dual at least as much as the step taken."""
    X, y = _moons()
    snaps = [p.snapshot for p in estimator.iter_fit(X, y, every=1)]
    steps = [r for s in snaps for r in s.trace if isinstance(r, PairStep)]
    assert len(steps) > 20
    for step in steps:
        after = np.array(step.along(step.taken))
        np.testing.assert_allclose(after, (step.alpha_i[1], step.alpha_j[1]), atol=1e-12)
        bounds = np.array(step.bounds)
        assert np.all(after >= -1e-12) and np.all(after <= bounds * (1 + 1e-12))
        optimum = np.array(step.along(step.unclipped))
        outside = np.any(optimum < -1e-12) or np.any(optimum > bounds * (1 + 1e-12))
        assert outside == step.clipped
        assert step.rise(step.unclipped) >= step.rise(step.taken) > 0
        assert step.rise(step.unclipped) == pytest.approx(step.gain / 2)
    if isinstance(estimator, SVC) and estimator.class_weight is None \
            and not isinstance(estimator, NuSVC):
        assert {s.bounds for s in steps} == {(1.0, 1.0)}
