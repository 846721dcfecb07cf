"""Cross-validation (core/model_selection/): the folds are scikit-learn's StratifiedKFold and
KFold with shuffle=True, index for index; cross_validate's scores are cross_val_score's on
those folds, serially, on a thread pool and on a process pool; cancelling stops between
folds with the finished ones attached; bad inputs are refused before any fit."""
import dataclasses
import pickle
import warnings
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing import get_context

import numpy as np
import pytest
from sklearn.model_selection import KFold, StratifiedKFold, cross_val_score

from svmdesk.core import (
    SVC,
    SVR,
    Cancelled,
    CVResult,
    DataError,
    NuSVC,
    OneClassSVM,
    cross_validate,
    fold_indices,
    make_dataset,
)

from .in_workers import negative_squared_error

SEEDS = [0, 1, 42, 2**32 - 1]


def _labels(counts, names=None):
    """Labels with counts[k] points of class k, shuffled (classes appear in mixed order)."""
    names = names or list(range(len(counts)))
    y = np.concatenate([np.full(c, names[k], dtype=object) for k, c in enumerate(counts)])
    return np.random.default_rng(sum(counts)).permutation(y).astype(type(names[0]))


def _theirs(splitter, y):
    return list(splitter.split(np.zeros((len(y), 1)), y))


def _assert_same_folds(ours, theirs):
    assert len(ours) == len(theirs)
    for (train, test), (their_train, their_test) in zip(ours, theirs):
        np.testing.assert_array_equal(train, their_train)
        np.testing.assert_array_equal(test, their_test)


def _moons(n=60, seed=4):
    data = make_dataset("moons", n=n, noise=0.25, seed=seed)
    return np.asarray(data.X), np.asarray(data.y)


def _sine(n=40, seed=5):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-3, 3, (n, 1))
    return X, np.sin(X[:, 0]) + 0.1 * rng.normal(size=n)


# -- the folds ----------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("folds", [2, 3, 5, 7])
@pytest.mark.parametrize("counts", [(20, 20), (50, 9), (13, 30, 8), (7, 7, 7, 12)],
                         ids=["balanced", "imbalanced", "three", "four"])
def test_stratified_folds_are_scikit_learns(seed, folds, counts):
    y = _labels(counts)
    _assert_same_folds(fold_indices(y, folds, seed),
                       _theirs(StratifiedKFold(folds, shuffle=True, random_state=seed), y))


@pytest.mark.parametrize("seed", SEEDS)
def test_string_labels_fold_as_scikit_learn_folds_them(seed):
    y = _labels((11, 23, 9), names=["setosa", "virginica", "versicolor"])
    _assert_same_folds(fold_indices(y, 4, seed),
                       _theirs(StratifiedKFold(4, shuffle=True, random_state=seed), y))
    # the same classes under other names in the same places: the same folds
    same = fold_indices(np.unique(y, return_inverse=True)[1] * 10, 4, seed)
    _assert_same_folds(fold_indices(y, 4, seed), same)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("folds", [2, 3, 5, 10])
@pytest.mark.parametrize("n", [10, 11, 23, 50])
def test_plain_folds_are_scikit_learns_kfold(seed, folds, n):
    y = np.linspace(0, 1, n)
    ours = fold_indices(y, folds, seed, stratified=False)
    _assert_same_folds(ours, _theirs(KFold(folds, shuffle=True, random_state=seed), y))
    assert sorted(np.concatenate([test for _, test in ours]).tolist()) == list(range(n))


@pytest.mark.parametrize("seed", SEEDS)
def test_a_class_smaller_than_the_folds_is_dealt_as_scikit_learn_deals_it_with_a_warning(seed):
    y = _labels((20, 3), names=["common", "rare"])
    said = r"Class 'rare' has fewer points \(3\) than there are folds \(5\)"
    with pytest.warns(UserWarning, match=said):
        ours = fold_indices(y, 5, seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        theirs = _theirs(StratifiedKFold(5, shuffle=True, random_state=seed), y)
    _assert_same_folds(ours, theirs)


def test_no_seed_draws_a_fresh_one_each_call():
    y = _labels((30, 30))
    first, second = fold_indices(y, 5), fold_indices(y, 5)
    assert any(not np.array_equal(a[1], b[1]) for a, b in zip(first, second))


@pytest.mark.parametrize("folds", [1, 0, -3, 2.5, True, "5"])
def test_folds_must_be_a_whole_number_of_two_or_more(folds):
    with pytest.raises(ValueError, match="folds must be a whole number of 2 or more"):
        fold_indices([0, 1] * 10, folds)


@pytest.mark.parametrize("seed", [-1, 2**32, 1.5, "0"])
def test_a_seed_out_of_numpys_range_is_refused(seed):
    with pytest.raises(ValueError, match="seed must be a whole number from 0 to 4294967295"):
        fold_indices([0, 1] * 10, 2, seed)


@pytest.mark.parametrize("stratified", [True, False])
def test_fewer_points_than_folds_is_refused(stratified):
    with pytest.raises(ValueError, match="Cannot split 4 points into 5 folds"):
        fold_indices([0, 1, 0, 1], 5, 0, stratified)


def test_folds_no_class_can_fill_are_refused_as_scikit_learn_refuses_them():
    y = ["a", "a", "b", "b", "c", "c"]
    with pytest.raises(ValueError, match="the largest class has only 2 points"):
        fold_indices(y, 3, 0)
    with pytest.raises(ValueError):
        _theirs(StratifiedKFold(3, shuffle=True, random_state=0), np.array(y))


@pytest.mark.parametrize("y, said", [([0.5, 1.5] * 5, "continuous"), ([0, np.nan] * 5, "NaN"),
                                     (np.zeros((5, 2)), "1d array")])
def test_labels_that_name_no_class_are_refused(y, said):
    with pytest.raises(DataError, match=said):
        fold_indices(y, 2, 0)


# -- cross_validate -----------------------------------------------------------------------------
def test_svc_scores_are_cross_val_scores_on_the_same_folds():
    X, y = _moons()
    ours = cross_validate(SVC(C=3.0, gamma=0.5), X, y, folds=5, seed=0)
    theirs = cross_val_score(SVC(C=3.0, gamma=0.5), X, y,
                             cv=StratifiedKFold(5, shuffle=True, random_state=0))
    np.testing.assert_allclose(ours.scores, theirs, rtol=0, atol=1e-12)
    assert ours.folds == 5 and ours.seed == 0
    assert ours.mean == pytest.approx(np.mean(theirs), abs=1e-12)
    assert ours.std == pytest.approx(np.std(theirs, ddof=0), abs=1e-12)
    assert ours.fit_times.shape == (5,) and (ours.fit_times > 0).all()
    _assert_same_folds(ours.indices, fold_indices(y, 5, 0))


def test_string_labels_score_as_their_classes():
    X, y = _moons()
    named = np.where(y == y[0], "left", "right")
    ours = cross_validate(NuSVC(nu=0.3), X, named, folds=3, seed=7)
    theirs = cross_val_score(NuSVC(nu=0.3), X, named,
                             cv=StratifiedKFold(3, shuffle=True, random_state=7))
    np.testing.assert_allclose(ours.scores, theirs, rtol=0, atol=1e-12)


def test_svr_is_scored_by_r2_on_plain_folds():
    X, y = _sine()
    ours = cross_validate(SVR(C=5.0, epsilon=0.05), X, y, folds=4, seed=3)
    theirs = cross_val_score(SVR(C=5.0, epsilon=0.05), X, y,
                             cv=KFold(4, shuffle=True, random_state=3))
    np.testing.assert_allclose(ours.scores, theirs, rtol=0, atol=1e-12)
    _assert_same_folds(ours.indices, fold_indices(y, 4, 3, stratified=False))


def test_a_score_function_replaces_the_estimators_own():
    X, y = _sine()
    ours = cross_validate(SVR(), X, y, folds=3, seed=1, score=negative_squared_error)
    theirs = cross_val_score(SVR(), X, y, cv=KFold(3, shuffle=True, random_state=1),
                             scoring=negative_squared_error)
    np.testing.assert_allclose(ours.scores, theirs, rtol=0, atol=1e-12)
    assert (ours.scores < 0).all()


def test_no_seed_draws_one_the_result_keeps_to_repeat_the_run():
    X, y = _moons(n=30)
    first = cross_validate(SVC(), X, y, folds=3)
    again = cross_validate(SVC(), X, y, folds=3, seed=first.seed)
    np.testing.assert_array_equal(first.scores, again.scores)
    _assert_same_folds(first.indices, again.indices)


def test_a_thread_pool_gives_the_serial_scores():
    X, y = _moons()
    serial = cross_validate(SVC(), X, y, seed=2)
    with ThreadPoolExecutor(3) as pool:
        pooled = cross_validate(SVC(), X, y, seed=2, executor=pool)
    np.testing.assert_array_equal(pooled.scores, serial.scores)
    _assert_same_folds(pooled.indices, serial.indices)


@pytest.mark.slow
def test_a_process_pool_gives_the_serial_scores():
    X, y = _moons(n=40)
    serial = cross_validate(SVC(), X, y, folds=4, seed=2, score=negative_squared_error)
    with ProcessPoolExecutor(2, mp_context=get_context("spawn")) as pool:
        pooled = cross_validate(SVC(), X, y, folds=4, seed=2, executor=pool,
                                score=negative_squared_error)
    np.testing.assert_array_equal(pooled.scores, serial.scores)


def _cancelled_on_call(n):
    """A cancelled() that says True from its n-th call on; calls are counted in .calls."""
    def cancelled():
        cancelled.calls += 1
        return cancelled.calls >= n
    cancelled.calls = 0
    return cancelled


@pytest.mark.parametrize("pooled", [False, True])
def test_progress_hears_of_each_fold_in_order_with_its_score(pooled):
    X, y = _moons()
    heard = []
    with ThreadPoolExecutor(2) as pool:
        result = cross_validate(SVC(), X, y, folds=4, seed=0, progress=heard.append,
                                executor=pool if pooled else None)
    assert [f.fold for f in heard] == [0, 1, 2, 3]
    assert [f.score for f in heard] == list(result.scores)


def test_cancelling_after_the_first_fold_stops_with_that_fold_attached():
    X, y = _moons()
    whole = cross_validate(SVC(), X, y, seed=0)
    with pytest.raises(Cancelled, match="1 of 5 folds done") as stop:
        cross_validate(SVC(), X, y, seed=0, cancelled=_cancelled_on_call(2))
    (first,) = stop.value.finished
    assert first.fold == 0 and first.score == whole.scores[0] and first.fit_time > 0


def test_cancelling_a_pooled_run_keeps_what_finished():
    X, y = _moons()
    whole = cross_validate(SVC(), X, y, seed=0)
    cancelled = _cancelled_on_call(7)     # 5 folds handed over, the first collected, then stop
    with ThreadPoolExecutor(1) as pool, pytest.raises(Cancelled) as stop:
        cross_validate(SVC(), X, y, seed=0, executor=pool, cancelled=cancelled)
    finished = stop.value.finished
    assert finished[0].fold == 0
    assert [f.score for f in finished] == [whole.scores[f.fold] for f in finished]


def test_cancelling_a_pooled_run_hands_over_no_further_fold():
    X, y = _moons()
    scored = []

    def accuracy(estimator, X_test, y_test):
        scored.append(len(y_test))
        return estimator.score(X_test, y_test)

    with ThreadPoolExecutor(1) as pool, pytest.raises(Cancelled) as stop:
        cross_validate(SVC(), X, y, seed=0, executor=pool, cancelled=_cancelled_on_call(3),
                       score=accuracy)
    assert len(scored) <= 2                # the pool has finished: folds 3 to 5 never ran
    assert {f.fold for f in stop.value.finished} <= {0, 1}


def test_cancelled_survives_pickle_with_its_folds():
    X, y = _moons(n=30)
    with pytest.raises(Cancelled) as stop:
        cross_validate(SVC(), X, y, folds=3, seed=0, cancelled=_cancelled_on_call(3))
    back = pickle.loads(pickle.dumps(stop.value))
    assert str(back) == str(stop.value) and back.finished == stop.value.finished
    assert len(back.finished) == 2


def test_the_result_is_frozen():
    X, y = _moons(n=30)
    result = cross_validate(SVC(), X, y, folds=3, seed=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.mean = 1.0
    with pytest.raises(ValueError, match="read-only"):
        result.scores[0] = 1.0
    assert isinstance(result, CVResult)


def test_the_one_class_svm_is_refused():
    X, _ = _moons(n=30)
    with pytest.raises(ValueError, match="OneClassSVM learns from points without labels"):
        cross_validate(OneClassSVM(), X, np.ones(30), folds=3, seed=0)


def _never_asked():
    """A cancelled() that records being asked: asked means a fold was about to start."""
    def cancelled():
        cancelled.asked = True
        return False
    cancelled.asked = False
    return cancelled


@pytest.mark.parametrize("estimator", [SVC(), SVR()], ids=["SVC", "SVR"])
def test_x_and_y_of_different_lengths_are_refused_before_any_fit(estimator):
    X, y = _moons(n=30)
    cancelled = _never_asked()
    with pytest.raises(DataError, match="X has 30 points but y has 29"):
        cross_validate(estimator, X, y[:-1], folds=3, seed=0, cancelled=cancelled)
    assert not cancelled.asked


@pytest.mark.parametrize("estimator", [SVC(), SVR()], ids=["SVC", "SVR"])
def test_nan_is_refused_before_any_fit(estimator):
    X, y = _moons(n=30)
    cancelled = _never_asked()
    X = X.copy()
    X[4, 1] = np.nan
    with pytest.raises(DataError, match="NaN"):
        cross_validate(estimator, X, y, folds=3, seed=0, cancelled=cancelled)
    y = y.astype(float)
    y[2] = np.nan
    with pytest.raises(DataError, match="NaN"):
        cross_validate(estimator, _moons(n=30)[0], y, folds=3, seed=0, cancelled=cancelled)
    assert not cancelled.asked


def test_a_fold_that_would_train_on_one_class_is_named_before_any_fit():
    X, _ = _moons(n=10)
    y = np.array(["a"] * 9 + ["b"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        lonely = next(k for k, (_, test) in enumerate(fold_indices(y, 5, 0)) if 9 in test)
    cancelled = _never_asked()
    with pytest.warns(UserWarning, match=r"Class 'b' has fewer points \(1\)"), \
            pytest.raises(DataError, match=f"Fold {lonely + 1} of 5 would train on class 'a'"):
        cross_validate(SVC(), X, y, folds=5, seed=0, cancelled=cancelled)
    assert not cancelled.asked


def test_a_fold_that_fails_fails_the_run_on_a_pool_too():
    X, y = _moons(n=30)

    def broken(estimator, X_test, y_test):
        raise ArithmeticError("no score")

    with ThreadPoolExecutor(2) as pool, pytest.raises(ArithmeticError, match="no score"):
        cross_validate(SVC(), X, y, folds=3, seed=0, executor=pool, score=broken)
