"""How well a model does on labelled points: confusion matrices, accuracy, precision, recall
and F1 per class, R^2 and errors of a regression (numpy only). The numbers are
scikit-learn's (its metrics with zero_division=0), which the tests hold them to.
The ranking metrics (ROC and precision-recall curves, their areas) are in ranking.py.

Every function checks its input first and raises a DataError, with a sentence a student can
act on, before it computes anything."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ..i18n import tr
from .errors import DataError
from .sample_weights import check_sample_weight


# -- checks ---------------------------------------------------------------------------------
def one_per_point(values: ArrayLike, name: str) -> np.ndarray:
    """`values` as a 1-D array of at least one value (a column (n, 1) is flattened)."""
    array = np.asarray(values)
    if array.ndim == 2 and array.shape[1] == 1:
        array = array[:, 0]
    if array.ndim != 1:
        raise DataError(tr("{name} must hold one value per point, a list or a column; got "
                           "an array of shape {shape}").format(name=name, shape=array.shape))
    if not len(array):
        raise DataError(tr("{name} is empty: there is nothing to measure").format(name=name))
    return array


def same_length(first: np.ndarray, second: np.ndarray, names: tuple[str, str]) -> None:
    if len(first) != len(second):
        raise DataError(tr("{first} has {n_first} values but {second} has {n_second}: give "
                           "one of each per point").format(
            first=names[0], n_first=len(first), second=names[1], n_second=len(second)))


def finite_numbers(values: ArrayLike, name: str) -> np.ndarray:
    """`values` as floats, one per point, none NaN or infinite."""
    array = one_per_point(values, name)
    try:
        array = array.astype(np.float64)
    except (TypeError, ValueError):
        raise DataError(tr("{name} must hold numbers").format(name=name)) from None
    if not np.isfinite(array).all():
        raise DataError(tr("{name} holds NaN or infinite values: every point needs a finite "
                           "number").format(name=name))
    return array


def _label_pair(y_true: ArrayLike, y_pred: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    truth, predicted = one_per_point(y_true, "y_true"), one_per_point(y_pred, "y_pred")
    same_length(truth, predicted, ("y_true", "y_pred"))
    # 1 and "1" are different labels, and sorting them together means nothing
    if _is_text(truth) != _is_text(predicted):
        raise DataError(tr("y_true and y_pred mix labels of two kinds (text and numbers): "
                           "give both the same kind"))
    return truth, predicted


def _is_text(labels: np.ndarray) -> bool:
    return labels.dtype.kind in "USO"


def _labels_of(truth: np.ndarray, predicted: np.ndarray, labels: ArrayLike | None
               ) -> np.ndarray:
    """The labels given, in their order; or every label seen, sorted (scikit-learn's)."""
    if labels is None:
        return np.unique(np.concatenate([truth, predicted]))
    chosen = one_per_point(labels, "labels")
    if len(np.unique(chosen)) != len(chosen):
        raise DataError(tr("labels names a class twice: name each class once"))
    return chosen


def _one_hot(values: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """(n, k): whether each point's value is each label."""
    return values[:, None] == labels[None, :]


def _frozen(array: np.ndarray) -> np.ndarray:
    array = np.array(array)
    array.flags.writeable = False
    return array


# -- classification -------------------------------------------------------------------------
def confusion_matrix(y_true: ArrayLike, y_pred: ArrayLike, labels: ArrayLike | None = None
                     ) -> np.ndarray:
    """(k, k) counts: row i, column j counts the points of class labels[i] predicted as
    labels[j]. labels: the classes in order, or None for every label seen, sorted. Points
    whose true or predicted label is not in labels are not counted."""
    truth, predicted = _label_pair(y_true, y_pred)
    classes = _labels_of(truth, predicted, labels)
    return (_one_hot(truth, classes).T.astype(np.int64)
            @ _one_hot(predicted, classes).astype(np.int64))


def normalised_rows(matrix: ArrayLike) -> np.ndarray:
    """A confusion matrix as the fraction of each true class predicted as each class (its
    rows sum to 1); a class without points keeps a row of 0, not NaN."""
    counts = np.asarray(matrix, dtype=np.float64)
    totals = counts.sum(axis=1, keepdims=True)
    return np.divide(counts, totals, out=np.zeros_like(counts), where=totals != 0)


def accuracy(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """The fraction of points predicted as their own class."""
    truth, predicted = _label_pair(y_true, y_pred)
    return float(np.mean(truth == predicted))


@dataclass(frozen=True)
class Averages:
    """Precision, recall and F1 averaged over the classes."""

    precision: float
    recall: float
    f1: float


@dataclass(frozen=True, eq=False)
class ClassReport:
    """Per class, in the order of `labels`: precision (of the points predicted as the class,
    the fraction that are), recall (of the class's points, the fraction predicted as it), F1
    and support (its points). A class never predicted has precision 0, one without points
    recall 0 (scikit-learn's zero_division=0). `accuracy` counts every point; `macro`
    averages the classes alike, `weighted` by their support."""

    labels: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    f1: np.ndarray
    support: np.ndarray
    accuracy: float
    macro: Averages
    weighted: Averages


def class_report(y_true: ArrayLike, y_pred: ArrayLike, labels: ArrayLike | None = None
                 ) -> ClassReport:
    """Precision, recall, F1 and support of each class (see ClassReport); labels as in
    confusion_matrix."""
    truth, predicted = _label_pair(y_true, y_pred)
    classes = _labels_of(truth, predicted, labels)
    is_true, is_predicted = _one_hot(truth, classes), _one_hot(predicted, classes)
    return _report(classes, (is_true & is_predicted).sum(axis=0), is_true.sum(axis=0),
                   is_predicted.sum(axis=0), float(np.mean(truth == predicted)))


def matrix_report(matrix: ArrayLike) -> ClassReport:
    """class_report read off a k x k confusion matrix (rows: the true class), its labels
    0..k-1: what the window shows beside a matrix it has counted already."""
    counts = np.asarray(matrix, dtype=np.int64)
    total = int(counts.sum())
    return _report(np.arange(len(counts)), np.diag(counts), counts.sum(axis=1),
                   counts.sum(axis=0), float(np.trace(counts)) / total if total else 0.0)


def _report(classes: np.ndarray, hits: np.ndarray, support: np.ndarray,
            predicted_count: np.ndarray, accuracy: float) -> ClassReport:
    """The report of each class's right calls (hits), points and predictions."""
    precision = _ratio(hits, predicted_count)
    recall = _ratio(hits, support)
    # scikit-learn's form of 2PR / (P + R): the same number to the last bit
    f1 = _ratio(2 * hits, support + predicted_count)
    return ClassReport(
        labels=_frozen(classes), precision=_frozen(precision), recall=_frozen(recall),
        f1=_frozen(f1), support=_frozen(support), accuracy=accuracy,
        macro=_averaged(precision, recall, f1, None),
        weighted=_averaged(precision, recall, f1, support))


def _ratio(part: np.ndarray, whole: np.ndarray) -> np.ndarray:
    """part / whole, 0 where whole is 0 (zero_division=0)."""
    return np.divide(part, whole, out=np.zeros(len(part)), where=whole != 0)


def _averaged(precision: np.ndarray, recall: np.ndarray, f1: np.ndarray,
              weights: np.ndarray | None) -> Averages:
    if weights is not None and weights.sum() == 0:      # no class of labels has points
        return Averages(0.0, 0.0, 0.0)
    return Averages(*(float(np.average(score, weights=weights))
                      for score in (precision, recall, f1)))


# -- regression -----------------------------------------------------------------------------
def _targets_pair(y: ArrayLike, f: ArrayLike, sample_weight: ArrayLike | None
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    targets, predicted = finite_numbers(y, "y"), finite_numbers(f, "f")
    same_length(targets, predicted, ("y", "f"))
    weights = check_sample_weight(sample_weight, len(targets))
    weights = np.ones(len(targets)) if weights is None else weights
    if weights.sum() == 0:
        raise DataError(tr("every sample_weight is 0: no point is left to measure"))
    return targets, predicted, weights


def r2(y: ArrayLike, f: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """The coefficient of determination R^2 of the predictions f of targets y: 1 is perfect,
    0 no better than the targets' mean. Constant targets: 1 if f is perfect, else 0
    (scikit-learn's r2_score, which a single point also gets here)."""
    targets, predicted, weights = _targets_pair(y, f, sample_weight)
    residual = float(weights @ (targets - predicted) ** 2)
    spread = float(weights @ (targets - np.average(targets, weights=weights)) ** 2)
    if spread == 0.0:
        return 1.0 if residual == 0.0 else 0.0
    return 1.0 - residual / spread


def mse(y: ArrayLike, f: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """The mean squared error of the predictions f of targets y."""
    targets, predicted, weights = _targets_pair(y, f, sample_weight)
    return float(np.average((targets - predicted) ** 2, weights=weights))


def mae(y: ArrayLike, f: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
    """The mean absolute error of the predictions f of targets y."""
    targets, predicted, weights = _targets_pair(y, f, sample_weight)
    return float(np.average(np.abs(targets - predicted), weights=weights))
