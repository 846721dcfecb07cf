"""The comparison's rows (core.comparison): each run's line against the fit it stands for,
SMO's solution (scikit-learn's LIBSVM) as the reference, and the runs a comparison refuses."""
import numpy as np
import pytest
from sklearn.svm import SVC as LibSVC

from svmdesk.core import SVC, make_dataset
from svmdesk.core.catalog import TABLE
from svmdesk.core.comparison import (
    Entry,
    compare,
    entries_for,
    offered,
    reference_predictions,
    totals,
)

SHARED = {**TABLE.defaults, "kernel": "linear", "random_state": 0}


def _points(name="moons", n=160, seed=1, **kw):
    data = make_dataset(name, n=n, seed=seed, **kw)
    cut = int(0.75 * n)
    return data.X[:cut], data.y[:cut], data.X[cut:], data.y[cut:]


def test_each_row_is_the_fit_of_its_solver_and_C():
    X, y, Xt, yt = _points()
    runs = entries_for(["smo", "pegasos"], [0.5, 2.0], SHARED)
    rows = compare(runs, SHARED, X, y, Xt, yt)
    for run, row in zip(runs, rows):
        fitted = SVC(**run.params(SHARED)).fit(X, y)
        assert row.support == int(np.sum(fitted.n_support_))
        assert row.train_accuracy == pytest.approx(np.mean(fitted.predict(X) == y))
        assert row.test_accuracy == pytest.approx(np.mean(fitted.predict(Xt) == yt))
        assert row.iterations == int(np.sum(fitted.n_iter_))
        assert row.converged == fitted.converged_
        if run.solver == "smo":               # its own reference, and LIBSVM's optimum
            assert row.agreement == 1.0
            assert row.dual == pytest.approx(fitted.objective_, rel=1e-9)
            lib = LibSVC(kernel="linear", C=run.C).fit(X, y)
            assert row.support == lib.n_support_.sum()
            assert np.mean(fitted.predict(X) == lib.predict(X)) == 1.0
            assert row.gap == pytest.approx(row.primal - row.dual)
        else:                                 # a primal solver: no dual, no gap
            assert row.dual is None and row.gap is None
            assert row.primal == pytest.approx(fitted.objective_, rel=1e-9)
            reference = LibSVC(kernel="linear", C=run.C).fit(X, y).predict(
                np.vstack([X, Xt]))
            assert row.agreement == pytest.approx(
                np.mean(fitted.predict(np.vstack([X, Xt])) == reference))


def test_three_classes_add_their_machines():
    X, y, Xt, yt = _points("blobs", n=150, seed=2, centers=3)
    shared = {**SHARED, "kernel": "rbf"}
    runs = [Entry("smo", 1.0), Entry("dual-gradient", 1.0)]
    rows = compare(runs, shared, X, y, Xt, yt)
    fitted = SVC(**runs[1].params(shared))
    finals, machine = [], -1
    for step in fitted.iter_fit(X, y, every=10**9):
        if step.machine.index != machine:
            finals.append(step.snapshot)
            machine = step.machine.index
        finals[-1] = step.snapshot
    assert len(finals) == 3
    assert rows[1].dual == pytest.approx(sum(s.dual_objective for s in finals))
    assert rows[1].dual == pytest.approx(np.sum(fitted.objective_))
    assert rows[1].iterations == totals(finals)[0] == (
        finals[2].iteration + finals[0].iteration + finals[1].iteration + 2)
    lib = LibSVC(kernel="rbf", C=1.0, gamma="scale").fit(X, y)
    assert rows[0].support == lib.n_support_.sum()
    assert rows[0].agreement == 1.0
    assert 0.9 <= rows[1].agreement <= 1.0


def test_the_reference_is_smo_at_the_runs_settings():
    X, y, Xt, _ = _points()
    params = Entry("pegasos", 3.0).params(SHARED)
    expected = LibSVC(kernel="linear", C=3.0).fit(X, y).predict(Xt)
    assert np.array_equal(reference_predictions(params, X, y, Xt), expected)


def test_what_a_comparison_refuses_says_why():
    with pytest.raises(ValueError, match="2 to 5"):
        entries_for(["smo"], [1.0], SHARED)
    with pytest.raises(ValueError, match="2 to 5"):
        entries_for(["smo", "pegasos", "dual-gradient"], [0.1, 1.0], SHARED)
    with pytest.raises(ValueError, match="twice"):
        entries_for(["smo"], [1.0, 1.0], SHARED)
    with pytest.raises(ValueError, match="linear models only"):
        entries_for(["smo", "pegasos"], [1.0], {**SHARED, "kernel": "rbf"})
    assert len(entries_for(["pegasos"], [0.1, 1.0, 10.0], SHARED)) == 3


def test_solvers_are_offered_where_they_can_train():
    rbf = offered("rbf", 1.0)
    assert rbf["smo"] == rbf["dual-gradient"] == rbf["kernel-gradient"] == ""
    assert "linear models only" in rbf["pegasos"]
    assert "linear models only" in rbf["primal-subgradient"]
    assert all(why == "" for why in offered("linear", 1.0).values())
    hard = offered("linear", float("inf"))
    assert hard["smo"] == "" and "finite C" in hard["pegasos"]
