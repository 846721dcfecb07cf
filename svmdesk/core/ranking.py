"""How well scores rank points of one class above the rest: ROC and precision-recall curves,
their areas (AUC, average precision), per class of a multi-class model one against the rest,
and the labels a moved threshold predicts (numpy only). The numbers are scikit-learn's: tied
scores are one threshold, and every point of a curve is kept (no drop_intermediate).

`y_true_binary` says which points are positive: booleans, or labels 1/0 or 1/-1 (1 is
positive); compare other labels first, `y == "spam"`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..i18n import tr
from .errors import DataError
from .metrics import finite_numbers, one_per_point, same_length


def _ranked(y_true_binary: ArrayLike, scores: ArrayLike
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(false positives, true positives, threshold) at each distinct score, highest first:
    the points scoring >= the threshold are called positive (scikit-learn's
    _binary_clf_curve)."""
    positive = _positives(y_true_binary)
    values = finite_numbers(scores, "scores")
    same_length(positive, values, ("y_true_binary", "scores"))
    # stable, so tied scores keep an order; only the last of a tie counts
    order = np.argsort(values, kind="mergesort")[::-1]
    values, positive = values[order], positive[order]
    last_of_each_score = np.r_[np.flatnonzero(np.diff(values)), len(values) - 1]
    true_positives = np.cumsum(positive)[last_of_each_score]
    false_positives = last_of_each_score + 1 - true_positives
    return (false_positives.astype(np.float64), true_positives.astype(np.float64),
            values[last_of_each_score])


def _positives(y_true_binary: ArrayLike) -> np.ndarray:
    truth = one_per_point(y_true_binary, "y_true_binary")
    if truth.dtype == bool:
        return truth
    if truth.dtype.kind in "iuf" and (set(np.unique(truth)) <= {0, 1}
                                      or set(np.unique(truth)) <= {-1, 1}):
        return truth == 1
    raise DataError(tr("y_true_binary must say which points are positive: True and False, "
                       "or 1 and 0, or 1 and -1. For other labels, compare them first, such "
                       "as y == \"spam\""))


def roc_curve(y_true_binary: ArrayLike, scores: ArrayLike
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(false positive rate, true positive rate, threshold) at each distinct score, from
    (0, 0) at threshold inf: the points scoring >= a threshold are called positive."""
    false_positives, true_positives, thresholds = _ranked(y_true_binary, scores)
    if true_positives[-1] == 0 or false_positives[-1] == 0:
        raise DataError(tr("Only one class is present in y_true_binary, so the ROC curve "
                           "and its area (AUC) are undefined: they measure how well the "
                           "scores rank positive points above negative ones, and need points "
                           "of both"))
    fpr = np.r_[0.0, false_positives / false_positives[-1]]
    tpr = np.r_[0.0, true_positives / true_positives[-1]]
    return fpr, tpr, np.r_[np.inf, thresholds]


def roc_auc(y_true_binary: ArrayLike, scores: ArrayLike) -> float:
    """The area under the ROC curve: the chance that a random positive point scores above a
    random negative one (a tie counts half)."""
    fpr, tpr, _ = roc_curve(y_true_binary, scores)
    return float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))


def precision_recall_curve(y_true_binary: ArrayLike, scores: ArrayLike
                           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(precision, recall, threshold) at each distinct score, lowest threshold first, then
    precision 1 at recall 0 without a threshold (scikit-learn's, so one point more)."""
    false_positives, true_positives, thresholds = _ranked(y_true_binary, scores)
    # only positive points is fine (every precision is 1); only negative ones leave recall
    # 0 / 0
    if true_positives[-1] == 0:
        raise DataError(tr("y_true_binary has no positive point, so recall and the "
                           "precision-recall curve are undefined: recall is the fraction of "
                           "the positive points found"))
    called = true_positives + false_positives
    precision = true_positives / called       # the highest score calls at least one point
    recall = true_positives / true_positives[-1]
    return np.r_[precision[::-1], 1.0], np.r_[recall[::-1], 0.0], thresholds[::-1]


def average_precision(y_true_binary: ArrayLike, scores: ArrayLike) -> float:
    """The precision at each threshold weighted by the recall it adds (the step area under
    the precision-recall curve, scikit-learn's average_precision_score)."""
    precision, recall, _ = precision_recall_curve(y_true_binary, scores)
    return float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))   # no -0.0


@dataclass(frozen=True, eq=False)
class OneVsRest:
    """Per class, in the order of `labels`: how well its score column ranks its points above
    the others' (ROC AUC and average precision)."""

    labels: np.ndarray
    auc: np.ndarray
    average_precision: np.ndarray


def one_vs_rest(y_true: ArrayLike, scores: ArrayLike, labels: ArrayLike) -> OneVsRest:
    """Each class's AUC and average precision from its own score column: scores (n, k), its
    column c the score of labels[c] (decision values: the columns need not sum to 1). Every
    class needs points in y_true and so do the others, or its AUC is undefined (a
    DataError)."""
    truth, classes = one_per_point(y_true, "y_true"), one_per_point(labels, "labels")
    table = _score_table(scores, len(classes))
    same_length(truth, table, ("y_true", "scores"))
    for label in classes:
        if np.all(truth == label) or not np.any(truth == label):
            raise DataError(tr("Class {label} has no points in y_true, or every point is of "
                               "it: its AUC against the other classes is undefined").format(
                label=label))
    columns = [(truth == label, table[:, c]) for c, label in enumerate(classes)]
    auc = np.array([roc_auc(*column) for column in columns])
    precision = np.array([average_precision(*column) for column in columns])
    return OneVsRest(labels=classes, auc=auc, average_precision=precision)


def _score_table(scores: ArrayLike, k: int) -> np.ndarray:
    table = np.asarray(scores, dtype=np.float64)
    if table.ndim != 2 or table.shape[1] != k:
        raise DataError(tr("scores must be a table of one column per class ({k}); got an "
                           "array of shape {shape}").format(k=k, shape=table.shape))
    if not np.isfinite(table).all():
        raise DataError(tr("scores holds NaN or infinite values: every point needs a finite "
                           "number"))
    return table


# -- thresholds -----------------------------------------------------------------------------
def predict_at_threshold(f: ArrayLike, threshold: float, negative: Any, positive: Any
                         ) -> np.ndarray:
    """A binary model's labels with its threshold moved to t: `positive` where f > t,
    `negative` where f <= t. At t = 0 this is the model's own predict (f == 0 is
    `negative` there too, SVMModel.predict_indices)."""
    values = finite_numbers(f, "f")
    return np.where(values > threshold, positive, negative)


def one_against_rest_at_threshold(scores_of_class: ArrayLike, threshold: float,
                                  chosen: Any, others_prediction: ArrayLike) -> np.ndarray:
    """A multi-class model's labels with the chosen class's threshold moved to t: `chosen`
    where its score is > t; elsewhere others_prediction, the class the model predicts when
    `chosen` is left out (the best of the other classes), which must never be `chosen`
    itself. Raising t thus only takes points from `chosen`, lowering it only gives it more."""
    values = finite_numbers(scores_of_class, "scores_of_class")
    others = one_per_point(others_prediction, "others_prediction")
    same_length(values, others, ("scores_of_class", "others_prediction"))
    if np.any(others == chosen):
        raise DataError(tr("others_prediction names the chosen class {chosen}: give the "
                           "class predicted among the other classes").format(chosen=chosen))
    return np.where(values > threshold, chosen, others)
