"""The core's metrics give scikit-learn's numbers (zero_division=0, ties in scores as one
threshold), refuse what is undefined or malformed with a DataError, and SVR.score and the
regression readout use them."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as sk
from sklearn.exceptions import UndefinedMetricWarning

from svmdesk.core import (
    SVR,
    DataError,
    accuracy,
    average_precision,
    class_report,
    confusion_matrix,
    mae,
    metrics,
    mse,
    normalised_rows,
    one_against_rest_at_threshold,
    one_vs_rest,
    precision_recall_curve,
    predict_at_threshold,
    r2,
    roc_auc,
    roc_curve,
)
from svmdesk.core.kernels import Kernel
from svmdesk.core.model import BinaryMachine, SVMModel

WORDS = np.array(["cat", "dog", "eel", "fox"])


def _labels(seed: int, n: int, classes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """True labels and mostly right predictions that never predict the last class."""
    rng = np.random.default_rng(seed)
    truth = classes[rng.integers(len(classes), size=n)]
    wrong = classes[rng.integers(len(classes) - 1, size=n)]
    right = (rng.random(n) < 0.6) & (truth != classes[-1])
    return truth, np.where(right, truth, wrong)


def _tied(seed: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Binary truth and scores rounded to one decimal: many ties, across both classes."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(2, size=n)
    return truth, np.round(truth * 0.3 + rng.random(n), 1)


# -- classification -------------------------------------------------------------------------
@pytest.mark.parametrize("classes", [WORDS, np.array([3, -1, 7])], ids=["words", "integers"])
@pytest.mark.parametrize("seed", range(4))
def test_the_confusion_matrix_and_report_are_scikit_learns(classes, seed):
    truth, predicted = _labels(seed, 80, classes)
    assert classes[-1] not in predicted                 # a class never predicted
    np.testing.assert_array_equal(confusion_matrix(truth, predicted),
                                  sk.confusion_matrix(truth, predicted))
    report = class_report(truth, predicted)
    theirs = sk.classification_report(truth, predicted, output_dict=True, zero_division=0)
    np.testing.assert_array_equal(report.labels, np.sort(classes))
    for i, label in enumerate(report.labels):
        row = theirs[str(label)]
        assert (report.precision[i], report.recall[i], report.f1[i], report.support[i]) == (
            row["precision"], row["recall"], row["f1-score"], row["support"])
    assert report.precision[report.labels == classes[-1]] == 0.0
    for ours, name in ((report.macro, "macro avg"), (report.weighted, "weighted avg")):
        assert (ours.precision, ours.recall, ours.f1) == pytest.approx(
            (theirs[name]["precision"], theirs[name]["recall"], theirs[name]["f1-score"]),
            abs=1e-15)
    assert report.accuracy == accuracy(truth, predicted) == theirs["accuracy"]


def test_a_report_read_off_the_matrix_is_the_report_of_the_points():
    rng = np.random.default_rng(7)
    truth, predicted = rng.integers(0, 4, 300), rng.integers(0, 4, 300)
    predicted[:5] = 0                  # and class 3 is never predicted: precision 0
    predicted[predicted == 3] = 2
    of_matrix = metrics.matrix_report(confusion_matrix(truth, predicted, labels=range(4)))
    expected = sk.precision_recall_fscore_support(truth, predicted, labels=range(4),
                                                  zero_division=0)
    for got, want in zip((of_matrix.precision, of_matrix.recall, of_matrix.f1,
                          of_matrix.support), expected):
        np.testing.assert_array_equal(got, want)
    assert of_matrix.accuracy == sk.accuracy_score(truth, predicted)
    assert metrics.matrix_report(np.zeros((2, 2), dtype=int)).accuracy == 0.0


def test_labels_given_set_the_order_and_leave_other_classes_out():
    truth, predicted = _labels(5, 60, WORDS)
    order = ["eel", "cat", "dog"]
    np.testing.assert_array_equal(confusion_matrix(truth, predicted, labels=order),
                                  sk.confusion_matrix(truth, predicted, labels=order))
    report = class_report(truth, predicted, labels=order + ["yak"])
    p, r, f, s = sk.precision_recall_fscore_support(truth, predicted, labels=order + ["yak"],
                                                    zero_division=0)
    np.testing.assert_array_equal(report.labels, order + ["yak"])
    for ours, theirs in zip((report.precision, report.recall, report.f1, report.support),
                            (p, r, f, s)):
        np.testing.assert_array_equal(ours, theirs)


def test_normalised_rows_sum_to_one_and_an_empty_class_stays_zero():
    matrix = confusion_matrix(["a", "a", "b"], ["a", "b", "b"], labels=["a", "b", "c"])
    rows = normalised_rows(matrix)
    np.testing.assert_array_equal(rows, [[0.5, 0.5, 0], [0, 1, 0], [0, 0, 0]])
    np.testing.assert_array_equal(rows, sk.confusion_matrix(
        ["a", "a", "b"], ["a", "b", "b"], labels=["a", "b", "c"], normalize="true"))


def test_a_report_is_frozen():
    report = class_report([0, 1, 1], [0, 1, 0])
    with pytest.raises(ValueError):
        report.precision[0] = 0.5


# -- ranking --------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_auc_and_average_precision_with_tied_scores_are_scikit_learns(seed):
    truth, scores = _tied(seed, 120)
    assert len(np.unique(scores)) < 20
    assert roc_auc(truth, scores) == pytest.approx(sk.roc_auc_score(truth, scores), abs=1e-12)
    assert average_precision(truth, scores) == pytest.approx(
        sk.average_precision_score(truth, scores), abs=1e-12)
    fpr, tpr, thresholds = roc_curve(truth, scores)
    assert len(thresholds) == len(np.unique(scores)) + 1          # every distinct score
    assert (fpr[0], tpr[0], fpr[-1], tpr[-1]) == (0, 0, 1, 1)
    precision, recall, cuts = precision_recall_curve(truth, scores)
    theirs = sk.precision_recall_curve(truth, scores)     # keeps every point too
    for ours, their in zip((precision, recall, cuts), theirs):
        np.testing.assert_allclose(ours, their, rtol=0, atol=1e-15)


@settings(max_examples=50, deadline=5000, derandomize=True)
@given(st.lists(st.tuples(st.booleans(), st.integers(-3, 3)), min_size=2, max_size=40)
       .filter(lambda pairs: len({truth for truth, _ in pairs}) == 2))
def test_auc_is_the_chance_a_positive_outscores_a_negative(pairs):
    truth = np.array([t for t, _ in pairs])
    scores = np.array([s for _, s in pairs], dtype=float)
    above = scores[truth][:, None] - scores[~truth][None, :]
    chance = np.mean((above > 0) + 0.5 * (above == 0))
    assert roc_auc(truth, scores) == pytest.approx(chance, abs=1e-12)
    assert average_precision(truth, scores) == pytest.approx(
        sk.average_precision_score(truth, scores), abs=1e-12)


@pytest.mark.parametrize("truth", [[1, 1, 1], [0, 0, 0], [-1, -1, -1]])
def test_auc_of_a_single_class_is_refused_where_scikit_learn_says_undefined(truth):
    with pytest.warns(UndefinedMetricWarning, match="Only one class is present"):
        assert np.isnan(sk.roc_auc_score(truth, [0.1, 0.5, 0.9]))
    with pytest.raises(DataError, match="Only one class is present"):
        roc_auc(truth, [0.1, 0.5, 0.9])


def test_average_precision_needs_a_positive_point_but_not_a_negative_one():
    assert average_precision([1, 1], [0.2, 0.4]) == 1.0
    with pytest.raises(DataError, match="no positive point"):
        average_precision([0, 0], [0.2, 0.4])


@pytest.mark.parametrize("k", [3, 4])
def test_one_vs_rest_is_a_binary_auc_per_class_column(k):
    rng = np.random.default_rng(k)
    classes = WORDS[:k]
    truth = classes[rng.integers(k, size=150)]
    # decision-like values, no row sums to 1; the true class's column is a little higher
    scores = np.round(rng.normal(size=(150, k)) + (truth[:, None] == classes), 1)
    result = one_vs_rest(truth, scores, classes)
    np.testing.assert_array_equal(result.labels, classes)
    for c, label in enumerate(classes):
        assert result.auc[c] == pytest.approx(
            sk.roc_auc_score(truth == label, scores[:, c]), abs=1e-12)
        assert result.average_precision[c] == pytest.approx(
            sk.average_precision_score(truth == label, scores[:, c]), abs=1e-12)
    assert (result.auc > 0.5).all()


def test_one_vs_rest_refuses_a_class_without_points():
    with pytest.raises(DataError, match="Class c has no points"):
        one_vs_rest(["a", "b", "a"], np.zeros((3, 3)), ["a", "b", "c"])


# -- thresholds -----------------------------------------------------------------------------
def test_the_threshold_at_zero_predicts_as_the_model_and_f_equal_t_is_negative():
    machine = BinaryMachine(support=[0], support_vectors=np.zeros((1, 1)),
                            dual_coef=np.zeros(1), bias=0.0, positive=1, negative=0,
                            w=np.array([1.0]))
    model = SVMModel(Kernel("linear"), np.array(["no", "yes"]), (machine,))
    X = np.array([[-1.0], [0.0], [0.5], [2.0]])
    f = model.decision_function(X)
    np.testing.assert_array_equal(predict_at_threshold(f, 0.0, "no", "yes"), model.predict(X))
    np.testing.assert_array_equal(predict_at_threshold(f, 0.5, "no", "yes"),
                                  ["no", "no", "no", "yes"])


def test_one_against_rest_takes_the_others_prediction_below_the_threshold():
    scores = np.array([-1.0, 0.2, 0.2, 3.0])
    others = np.array(["a", "b", "a", "b"])
    np.testing.assert_array_equal(one_against_rest_at_threshold(scores, 0.2, "c", others),
                                  ["a", "b", "a", "c"])
    np.testing.assert_array_equal(one_against_rest_at_threshold(scores, -2, "c", others),
                                  ["c", "c", "c", "c"])
    with pytest.raises(DataError, match="names the chosen class"):
        one_against_rest_at_threshold(scores, 0.0, "a", others)


# -- regression -----------------------------------------------------------------------------
@pytest.mark.parametrize("weighted", [False, True])
def test_regression_errors_are_scikit_learns(weighted):
    rng = np.random.default_rng(7)
    y = rng.normal(size=50)
    f = y + rng.normal(scale=0.4, size=50)
    w = rng.random(50) if weighted else None
    assert r2(y, f, w) == pytest.approx(sk.r2_score(y, f, sample_weight=w), abs=1e-12)
    assert mse(y, f, w) == pytest.approx(sk.mean_squared_error(y, f, sample_weight=w),
                                         abs=1e-12)
    assert mae(y, f, w) == pytest.approx(sk.mean_absolute_error(y, f, sample_weight=w),
                                         abs=1e-12)


@pytest.mark.parametrize("f, expected", [([2.0, 2.0, 2.0], 1.0), ([2.0, 2.5, 2.0], 0.0)])
def test_r2_of_constant_targets_is_one_if_perfect_else_zero(f, expected):
    assert r2([2, 2, 2], f) == expected == sk.r2_score([2, 2, 2], f)


def test_svr_score_is_r2_of_its_predictions():
    rng = np.random.default_rng(1)
    X = rng.uniform(-3, 3, size=(40, 1))
    y = np.sin(X[:, 0]) + rng.normal(scale=0.1, size=40)
    w = rng.random(40)
    model = SVR(C=10.0).fit(X, y)
    assert model.score(X, y, w) == r2(y, model.predict(X), w)
    assert model.score(X, y, w) == pytest.approx(sk.r2_score(y, model.predict(X),
                                                             sample_weight=w), abs=1e-12)


# -- refusals -------------------------------------------------------------------------------
@pytest.mark.parametrize("call, match", [
    (lambda: confusion_matrix([0, 1, 1], [0, 1]), "has 3 values but y_pred has 2"),
    (lambda: class_report([], []), "empty"),
    (lambda: accuracy(["a", "b"], [0, 1]), "two kinds"),
    (lambda: roc_auc([0, 1, 1], [0.2, np.nan, 0.4]), "NaN"),
    (lambda: roc_curve([0, 1], [0.2, 0.4, 0.5]), "has 2 values but scores has 3"),
    (lambda: average_precision(["a", "b"], [0.2, 0.4]), "which points are positive"),
    (lambda: one_vs_rest([0, 1], [[0.1, np.nan], [0.2, 0.3]], [0, 1]), "NaN"),
    (lambda: one_vs_rest([0, 1], [[0.1], [0.2]], [0, 1]), "one column per class"),
    (lambda: predict_at_threshold([0.2, np.nan], 0.0, 0, 1), "NaN"),
    (lambda: r2([1.0, 2.0], [1.0, np.inf]), "infinite"),
    (lambda: mse([1.0, 2.0], [1.0, 2.0], [0.0, 0.0]), "every sample_weight is 0"),
    (lambda: mae([], []), "empty"),
])
def test_bad_input_is_a_data_error_with_a_sentence(call, match):
    with pytest.raises(DataError, match=match):
        call()
