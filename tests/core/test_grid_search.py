"""Grid search (core/model_selection/): every cell's fold scores are GridSearchCV's on the same
folds, within one test point (the solvers stop at different places within tol), in
scikit-learn's cell order and with its best cell; the shared-kernel, C-seeded column gives
what cross-validating each cell alone gives; cells stream, a run cancels between columns,
any executor runs it, and bad grids are refused before any fit."""
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.model_selection import GridSearchCV, KFold, ParameterGrid, StratifiedKFold
from sklearn.svm import SVC as LibSVC
from sklearn.svm import SVR as LibSVR

from svmdesk.core import (
    SVC,
    SVR,
    Cancelled,
    GridResult,
    NuSVC,
    cross_validate,
    grid_search,
    make_dataset,
)
from svmdesk.core.model_selection import grid_cells, warm_columns
from svmdesk.core.model_selection import grid_search as grid_module

from .in_workers import qt_loaded_after


def _moons(n=120, seed=3):
    data = make_dataset("moons", n=n, noise=0.3, seed=seed)
    return np.asarray(data.X), np.asarray(data.y)


def _iris():
    X, y = load_iris(return_X_y=True)
    return (X - X.mean(axis=0)) / X.std(axis=0), y


GRID = {"C": [0.1, 1.0, 10.0, 100.0], "gamma": [0.1, 1.0, 10.0]}


def _theirs(estimator, X, y, grid, folds=5, seed=0, stratified=True):
    splitter = (StratifiedKFold if stratified else KFold)(folds, shuffle=True,
                                                          random_state=seed)
    return GridSearchCV(estimator, grid, cv=splitter).fit(X, y)


def _fold_scores(search, folds):
    return np.array([[search.cv_results_[f"split{k}_test_score"][i] for k in range(folds)]
                     for i in range(len(search.cv_results_["params"]))])


def _assert_within_a_point(result: GridResult, search, folds=5):
    """Each fold's accuracy within one test point of LIBSVM's, cell for cell in one order."""
    assert [dict(cell.params) for cell in result.cells] == search.cv_results_["params"]
    tests = np.array([len(test) for _train, test in result.indices])
    ours = np.array([cell.scores for cell in result.cells])
    points = np.abs(ours - _fold_scores(search, folds)) * tests
    assert points.max() <= 1.0 + 1e-9


@pytest.mark.parametrize("data", [_moons, _iris], ids=["moons", "iris"])
def test_every_fold_as_gridsearchcv_within_one_test_point(data):
    X, y = data()
    result = grid_search(SVC(), X, y, GRID, folds=5, seed=0, n_jobs=1)
    search = _theirs(LibSVC(), X, y, GRID)
    _assert_within_a_point(result, search)
    assert result.seed == 0 and result.folds == 5
    theirs = search.cv_results_["mean_test_score"]
    assert result.best.mean == pytest.approx(theirs.max(), abs=1 / 20)


def test_linear_kernel_and_class_weights_as_gridsearchcv():
    X, y = _iris()
    grid = {"C": [0.01, 1.0, 100.0]}
    estimator = SVC(kernel="linear", class_weight={0: 2.0, 1: 1.0, 2: 0.5})
    result = grid_search(estimator, X, y, grid, folds=4, seed=7, n_jobs=1)
    search = _theirs(LibSVC(kernel="linear", class_weight={0: 2.0, 1: 1.0, 2: 0.5}), X, y,
                     grid, folds=4, seed=7)
    _assert_within_a_point(result, search, folds=4)


def test_many_classes_in_lockstep_as_gridsearchcv_within_one_test_point(monkeypatch):
    """Six classes: a fold's fifteen machines step in lockstep, each seeded along C."""
    calls = []
    solve_together = warm_columns.solve_together
    monkeypatch.setattr(warm_columns, "solve_together",
                        lambda *args: calls.append(args[3]) or solve_together(*args))
    rng = np.random.default_rng(6)
    centres = rng.normal(scale=2.0, size=(6, 2))
    X = np.vstack([c + rng.normal(size=(25, 2)) for c in centres])
    y = np.repeat(np.arange(6), 25)
    grid = {"C": [0.5, 5.0, 50.0], "gamma": [0.2, 2.0]}
    result = grid_search(SVC(), X, y, grid, folds=3, seed=2, n_jobs=1)
    _assert_within_a_point(result, _theirs(LibSVC(), X, y, grid, folds=3, seed=2), folds=3)
    assert len(calls) == 2 * 3 * 3                      # every gamma, fold and C
    assert sum(start is not None for starts in calls for start in starts) > 0


def test_shared_column_scores_as_each_cell_cross_validated_alone():
    """The C-seeded column on one kernel gives each cell what a fresh cross-validation of
    that cell gives (fold for fold, within one test point)."""
    X, y = _moons(90)
    result = grid_search(SVC(), X, y, GRID, folds=3, seed=1, n_jobs=1)
    for cell in result.cells:
        alone = cross_validate(SVC(**cell.params), X, y, folds=3, seed=1)
        tests = np.array([len(test) for _train, test in alone.indices])
        assert (np.abs(cell.scores - alone.scores) * tests).max() <= 1.0 + 1e-9
        assert cell.fit_times.shape == (3,) and (cell.fit_times >= 0).all()


def test_columns_share_the_kernel_only_where_the_folds_leave_it_unchanged():
    shares = warm_columns.shares_work

    def column(estimator, cells=({"C": 1.0},)):
        return grid_cells.Task(0, type(estimator), estimator.get_params(), list(
            enumerate(cells)), (), ())

    assert shares(column(SVC(gamma=0.5)))
    assert shares(column(SVC(kernel="linear")))          # gamma "scale" unused
    assert not shares(column(SVC()))                     # gamma "scale" depends on the fold
    assert not shares(column(SVC(gamma=0.5, standardize=True)))
    assert not shares(column(SVC(gamma=0.5, probability=True)))
    assert not shares(column(SVC(gamma=0.5, solver="dual-gradient")))
    assert not shares(column(SVC(gamma=0.5), ({"C": None},)))      # hard margin
    assert not shares(column(NuSVC(gamma=0.5), ({"nu": 0.5},)))


def test_other_estimators_cross_validated_cell_by_cell():
    X, y = _moons(90)
    result = grid_search(NuSVC(), X, y, {"nu": [0.2, 0.5], "gamma": [0.5, 2.0]}, folds=3,
                         seed=2, n_jobs=1)
    for cell in result.cells:
        alone = cross_validate(NuSVC(**cell.params), X, y, folds=3, seed=2)
        np.testing.assert_allclose(cell.scores, alone.scores)


def test_a_regressor_scored_by_r2_as_gridsearchcv():
    rng = np.random.default_rng(0)
    X = rng.uniform(-3, 3, (80, 1))
    y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=80)
    grid = {"C": [1.0, 10.0], "gamma": [0.5, 2.0]}
    result = grid_search(SVR(), X, y, grid, folds=4, seed=3, n_jobs=1)
    search = _theirs(LibSVR(), X, y, grid, folds=4, seed=3, stratified=False)
    np.testing.assert_allclose([cell.scores for cell in result.cells],
                               _fold_scores(search, 4), atol=2e-3)


def test_cells_in_scikit_learns_order_and_the_first_best_wins():
    X, y = _moons(60)
    grid = {"gamma": [1.0, 0.1], "C": [10.0, 1.0, 0.1]}     # unsorted names and values
    result = grid_search(SVC(), X, y, grid, folds=3, seed=0, n_jobs=1)
    assert [dict(cell.params) for cell in result.cells] == list(ParameterGrid(grid))
    assert [cell.index for cell in result.cells] == list(range(6))
    means = [cell.mean for cell in result.cells]
    assert result.best is result.cells[means.index(max(means))]


def test_cells_stream_as_they_finish_and_a_thread_pool_gives_the_same_table():
    X, y = _moons(90)
    heard = []
    serial = grid_search(SVC(), X, y, GRID, folds=3, seed=5, n_jobs=1, progress=heard.append)
    assert sorted(cell.index for cell in heard) == list(range(12))
    with ThreadPoolExecutor(2) as pool:
        pooled = grid_search(SVC(), X, y, GRID, folds=3, seed=5, executor=pool)
    for ours, theirs in zip(serial.cells, pooled.cells):
        np.testing.assert_array_equal(ours.scores, theirs.scores)


def test_cancel_stops_between_columns_with_the_finished_cells():
    X, y = _moons(60)
    heard = []
    with pytest.raises(Cancelled, match="4 of 12 cells") as stop:
        grid_search(SVC(), X, y, GRID, folds=3, seed=0, n_jobs=1, progress=heard.append,
                    cancelled=lambda: len(heard) >= 4)
    assert [cell.index for cell in stop.value.finished] == sorted(c.index for c in heard)


@pytest.mark.slow
def test_spawned_processes_give_the_serial_table():
    X, y = _moons(60)
    grid = {"C": [1.0, 10.0], "gamma": [0.5, 2.0]}
    serial = grid_search(SVC(), X, y, grid, folds=3, seed=0, n_jobs=1)
    spawned = grid_search(SVC(), X, y, grid, folds=3, seed=0, n_jobs=2)
    np.testing.assert_array_equal([c.scores for c in serial.cells],
                                  [c.scores for c in spawned.cells])


def test_a_fit_that_stops_short_marks_its_cell():
    X, y = _moons(90)
    with warnings.catch_warnings():
        warnings.simplefilter("error")              # the column says it; no warning escapes
        result = grid_search(SVC(max_iter=3), X, y, {"C": [1.0, 10.0], "gamma": [1.0]},
                             folds=3, seed=0, n_jobs=1)
    assert not any(cell.converged for cell in result.cells)
    assert all(cell.converged for cell in grid_search(SVC(), X, y, {"C": [1.0]}, folds=3,
                                                      seed=0, n_jobs=1).cells)


@pytest.mark.parametrize(("grid", "said"), [
    ({}, "param_grid must map"),
    ([("C", [1.0])], "param_grid must map"),
    ({"cost": [1.0]}, "no parameter 'cost'"),
    ({"C": []}, "non-empty list"),
    ({"C": "10"}, "non-empty list"),
    ({"C": [1.0, -1.0]}, "C"),
    ({"gamma": [0.1, "wide"]}, "gamma"),
])
def test_a_bad_grid_is_refused_before_any_fit(grid, said, monkeypatch):
    monkeypatch.setattr(grid_module, "run_task", lambda *task: pytest.fail("fitted"))
    X, y = _moons(30)
    with pytest.raises(ValueError, match=said):
        grid_search(SVC(), X, y, grid, folds=3, seed=0, n_jobs=1)


@pytest.mark.filterwarnings("ignore:jobs is deprecated:FutureWarning")
@pytest.mark.parametrize("jobs", [0, -2, 1.5, True])
def test_bad_jobs_refused(jobs):           # the deprecated name keeps its rules
    X, y = _moons(30)
    with pytest.raises(ValueError, match="jobs"):
        grid_search(SVC(), X, y, {"C": [1.0]}, folds=3, seed=0, jobs=jobs)


@pytest.mark.slow
def test_the_workers_entry_point_loads_no_qt():
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    X, y = _moons(30)
    splits = tuple(grid_module.fold_indices(y, 3, 0))
    task = grid_cells.Task(0, SVC, SVC(gamma=1.0).get_params(), [(0, {"C": 1.0})], splits,
                             (0,))
    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
        assert pool.submit(qt_loaded_after, task, X, y).result(timeout=50) == []
