"""svmdesk's SVC in scikit-learn's tools, scored against LIBSVM (scikit-learn's SVC) with the
same parameters on the same folds: SMO's scores agree within 0.02."""
import numpy as np
import pytest
from sklearn.base import clone
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.inspection import permutation_importance
from sklearn.model_selection import (
    GridSearchCV,
    StratifiedKFold,
    cross_val_predict,
    cross_val_score,
)
from sklearn.multiclass import OneVsRestClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC as LibSVC

from svmdesk.core import SVC

FOLDS = StratifiedKFold(5, shuffle=True, random_state=0)
IRIS = load_iris(return_X_y=True)
CANCER = load_breast_cancer(return_X_y=True)


def _scores(tool):
    """tool(estimator class) for svmdesk's SVC and LIBSVM's."""
    return tool(SVC), tool(LibSVC)


def test_clone_copies_the_parameters_and_leaves_the_fit_behind():
    fitted = SVC(kernel="linear", C=3.0).fit(*IRIS)
    copy = clone(fitted)
    assert copy.get_params() == fitted.get_params() and not hasattr(copy, "support_")


@pytest.mark.parametrize("data", [IRIS, CANCER], ids=["iris", "breast_cancer"])
def test_cross_val_score_in_a_pipeline_equals_libsvms(data):
    ours, theirs = _scores(lambda E: cross_val_score(
        make_pipeline(StandardScaler(), E(C=1.0)), *data, cv=FOLDS))
    np.testing.assert_allclose(ours, theirs, atol=0.02)


def test_cross_val_predict_labels_and_decision_values_equal_libsvms():
    X, y = IRIS
    ours, theirs = _scores(lambda E: cross_val_predict(E(C=1.0), X, y, cv=FOLDS))
    assert np.mean(ours == theirs) >= 0.98
    ours, theirs = _scores(lambda E: cross_val_predict(
        E(C=1.0, tol=1e-6), X, y, cv=FOLDS, method="decision_function"))
    assert ours.shape == theirs.shape == (len(y), 3)
    np.testing.assert_allclose(ours, theirs, atol=1e-3)


def test_grid_search_finds_libsvms_parameters_with_its_scores():
    grid = {"C": [0.1, 1.0, 10.0], "gamma": [0.1, 1.0]}
    ours, theirs = _scores(lambda E: GridSearchCV(E(), grid, cv=FOLDS).fit(*IRIS))
    assert ours.best_params_ == theirs.best_params_
    np.testing.assert_allclose(ours.cv_results_["mean_test_score"],
                               theirs.cv_results_["mean_test_score"], atol=0.02)
    assert isinstance(ours.best_estimator_, SVC)
    assert ours.best_estimator_.C == ours.best_params_["C"]


@pytest.mark.parametrize("wrap", [OneVsRestClassifier, lambda e: CalibratedClassifierCV(e, cv=3)],
                         ids=["one_vs_rest", "calibrated"])
def test_wrapped_in_a_meta_estimator_it_scores_as_libsvm(wrap):
    ours, theirs = _scores(lambda E: cross_val_score(wrap(E()), *IRIS, cv=FOLDS))
    np.testing.assert_allclose(ours, theirs, atol=0.02)


def test_calibrated_probabilities_are_libsvms():
    ours, theirs = _scores(lambda E: CalibratedClassifierCV(E(), cv=3).fit(*IRIS))
    np.testing.assert_allclose(ours.predict_proba(IRIS[0]), theirs.predict_proba(IRIS[0]),
                               atol=0.02)


def test_permutation_importance_ranks_the_features_as_libsvms():
    ours, theirs = _scores(lambda E: permutation_importance(
        E().fit(*IRIS), *IRIS, n_repeats=5, random_state=0).importances_mean)
    np.testing.assert_allclose(ours, theirs, atol=0.02)
    assert np.argsort(ours)[-1] == np.argsort(theirs)[-1] == 2     # petal length matters most


def test_a_log_loss_search_uses_our_probabilities():
    """scoring="neg_log_loss" reads predict_proba: with probability=True the search runs on
    svmdesk's own probabilities, and its scores are LIBSVM's -b 1 scores (libsvm-official,
    the same folds) within 0.02."""
    svmutil = pytest.importorskip("libsvm.svmutil")
    X, y = IRIS
    search = GridSearchCV(SVC(probability=True, random_state=0), {"C": [0.5, 5.0]}, cv=FOLDS,
                          scoring="neg_log_loss").fit(X, y)
    for C, ours in zip((0.5, 5.0), search.cv_results_["mean_test_score"]):
        losses = []
        for train, test in FOLDS.split(X, y):
            gamma = float(1 / (X.shape[1] * X[train].var()))
            model = svmutil.svm_train(y[train].astype(float), X[train],
                                      f"-c {C} -g {gamma!r} -b 1 -q")
            _, _, p = svmutil.svm_predict([], X[test], model, "-b 1 -q")
            p = np.asarray(p)[:, np.argsort(model.get_labels())]
            losses.append(-np.log(p[np.arange(len(test)), y[test]]).mean())
        assert ours == pytest.approx(-np.mean(losses), abs=0.02)
