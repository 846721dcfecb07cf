"""What the evaluation view shows of a frame (numpy only): each split's scores against its
truth, its ROC and precision-recall curves with their areas, and the predictions and
confusion matrix a moved threshold gives. The curves are made once per frame (a sort per
class); everything that depends on the threshold is computed when the view asks.

Two classes: the scores are f(x), positive classes[1]. More classes: a split is made from
the one-vs-one values, and its scores are one column per class in `classes` order, that
class against the rest: its duel score, the weakest of its one-vs-one values (positive
where it wins every duel, one_vs_one.duel_scores), with the votes a threshold on it moves
(one_vs_one.vote_at_threshold). By probability (a model with Platt's sigmoids): two
classes score P(classes[1] | x); more score each class against its strongest rival,
P(k) / (P(k) + P(j)) (probability.duel_probabilities), with the most probable class where
the vote was, so that 0.5 (the split's `neutral`) gives the most probable class. A
one-class machine reads as two classes whose positive one is the inlier class (f > 0
inside): its `classes` are (outlier, inlier), (1, 0) for the window's Job.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.estimators.one_vs_one import (
    duel_scores,
    machine_pairs,
    vote_at_threshold,
    vote_without,
    votes_of,
)
from ..core.probability import duel_probabilities, rivals
from ..core.ranking import precision_recall_curve, predict_at_threshold, roc_curve
from ..i18n import tr

_EMPTY = np.empty(0)


@dataclass(frozen=True)
class Curves:
    """One class against the rest (two classes: the positive one)."""

    fpr: np.ndarray
    tpr: np.ndarray
    roc_thresholds: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    pr_thresholds: np.ndarray
    auc: float | None                  # None when the points hold one side only (then the
    ap: float | None                   # arrays are empty)


@dataclass(frozen=True)
class SplitEvaluation:
    """The training or the held-out points of a frame."""

    truth: np.ndarray                  # each point's class index (the canvas's, as Job.y)
    scores: np.ndarray                 # two classes: f(x), (n,); more: each class's duel
                                       # score, (n, K)
    curves: tuple                      # of Curves: two classes one (the positive class),
                                       # K classes K, in column order
    voted: np.ndarray | None = None    # more classes: the model's vote, a column (n,)
    voted_without: np.ndarray | None = None  # more: column k the vote among the others
                                       # when k is left out (n, K); both None for two
                                       # (by probability: the most probable class, and
                                       # the most probable other than k)
    neutral: float = 0.0               # the threshold where the model decides: f = 0;
                                       # by probability 0.5


@dataclass(frozen=True)
class Evaluation:
    classes: tuple                     # the canvas class index of each score column (two
                                       # classes: (negative, positive), as Scene.classes)
    train: SplitEvaluation | None      # None without points
    test: SplitEvaluation | None


def curves_of(positive: np.ndarray, scores: np.ndarray) -> Curves:
    """ROC and PR curves of scores ranking the `positive` points (bools) above the rest;
    empty with no area when every point is on one side (neither curve says anything)."""
    if positive.all() or not positive.any():
        return Curves(_EMPTY, _EMPTY, _EMPTY, _EMPTY, _EMPTY, _EMPTY, None, None)
    fpr, tpr, roc_t = roc_curve(positive, scores)
    precision, recall, pr_t = precision_recall_curve(positive, scores)
    # the areas from these curves by ranking's own formulas (roc_auc, average_precision),
    # not by calling them: each would sort the scores again, and a frame is made often
    auc = float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))
    ap = float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))
    return Curves(fpr, tpr, roc_t, precision, recall, pr_t, auc, ap)


def split_of(classes: Sequence[int], truth: np.ndarray, values: np.ndarray
             ) -> SplitEvaluation | None:
    """One split's evaluation (None without points) from the model's decision values: f
    (n,) for two classes, its positive side classes[1]; for K classes the one-vs-one
    values (n, K(K-1)/2) in machine_pairs order, of `classes` in the model's order."""
    truth = np.asarray(truth, dtype=np.intp)
    values = np.asarray(values, dtype=np.float64)
    if not len(truth):
        return None
    if values.ndim == 1:
        return SplitEvaluation(truth, values, (curves_of(truth == classes[1], values),))
    n_classes = len(classes)
    if values.shape[1] != len(machine_pairs(n_classes)):
        raise ValueError(tr("{k} one-vs-one values for {n} classes").format(
            k=values.shape[1], n=n_classes))
    scores = duel_scores(values, n_classes)
    curves = tuple(curves_of(truth == c, scores[:, k]) for k, c in enumerate(classes))
    return SplitEvaluation(truth, scores, curves, votes_of(values, n_classes),
                           vote_without(values, n_classes))


def probability_split_of(classes: Sequence[int], truth: np.ndarray,
                         probabilities: np.ndarray) -> SplitEvaluation | None:
    """One split's evaluation by probability (None without points) from each class's
    probability (n, K), columns in `classes` order: two classes score P(classes[1]) as
    split_of scores f; more score each class against its strongest rival."""
    probabilities = np.asarray(probabilities, dtype=np.float64)
    if len(classes) == 2:
        return split_of(classes, truth, probabilities[:, 1])
    truth = np.asarray(truth, dtype=np.intp)
    if not len(truth):
        return None
    best, rival = rivals(probabilities)
    scores = duel_probabilities(probabilities, rival)
    curves = tuple(curves_of(truth == c, scores[:, k]) for k, c in enumerate(classes))
    return SplitEvaluation(truth, scores, curves, best, rival, neutral=0.5)


def probability_evaluation_of(classes: Sequence[int], truth: np.ndarray,
                              probabilities: np.ndarray, truth_test: np.ndarray,
                              probabilities_test: np.ndarray) -> Evaluation | None:
    """evaluation_of by probability (probability_split_of), None without points."""
    train = probability_split_of(classes, truth, probabilities)
    test = probability_split_of(classes, truth_test, probabilities_test)
    if train is None and test is None:
        return None
    return Evaluation(tuple(int(c) for c in classes), train, test)


def evaluation_of(classes: Sequence[int], truth: np.ndarray, values: np.ndarray,
                  truth_test: np.ndarray | None = None, values_test: np.ndarray | None = None
                  ) -> Evaluation | None:
    """A frame's evaluation from its training points' class indices and decision values
    (as split_of) and its held-out points' (None or empty: none); None when there are no
    points at all."""
    train = split_of(classes, truth, values)
    test = (split_of(classes, truth_test, values_test)
            if truth_test is not None and values_test is not None else None)
    if train is None and test is None:
        return None
    return Evaluation(tuple(int(c) for c in classes), train, test)


def predicted_at(evaluation: Evaluation, split: SplitEvaluation, threshold: float = 0.0,
                 chosen: int | None = None) -> np.ndarray:
    """Each point's predicted class index with the threshold moved to t. Two classes:
    classes[1] where f > t, else classes[0] (f == t goes negative, as the models do at 0).
    More: with `chosen` (a class index among `classes`), that class where its duel score
    > t, elsewhere the vote among the others (one_vs_one.vote_at_threshold; at the split's
    neutral t the model's vote, by probability the most probable class); chosen None: the
    model's vote."""
    classes = np.asarray(evaluation.classes, dtype=np.intp)
    if split.scores.ndim == 1:
        return predict_at_threshold(split.scores, threshold, classes[0], classes[1])
    assert split.voted is not None and split.voted_without is not None, "a multi-class split"
    if chosen is None:
        return classes[split.voted]
    column = evaluation.classes.index(chosen)
    return classes[vote_at_threshold(split.scores[:, column], split.voted,
                                     split.voted_without[:, column], column, threshold,
                                     split.neutral)]


def confusion_at(evaluation: Evaluation, split: SplitEvaluation, threshold: float = 0.0,
                 chosen: int | None = None) -> np.ndarray:
    """k x k counts (rows: truth, columns: predicted) over the classes in `classes` order,
    predictions as predicted_at. Points of a class the model does not know (held out of a
    class absent from training) have no row and are left out."""
    classes = np.asarray(evaluation.classes, dtype=np.intp)
    predicted = predicted_at(evaluation, split, threshold, chosen)
    # position of each class index in `classes`; -1 for the unknown ones
    position = np.full(max(int(classes.max()), int(split.truth.max(initial=0))) + 1, -1)
    position[classes] = np.arange(len(classes))
    rows, columns = position[split.truth], position[predicted]
    known = rows >= 0
    k = len(classes)
    counts = np.bincount(rows[known] * k + columns[known], minlength=k * k)
    return counts.reshape(k, k)


def operating_point(curves: Curves, split_scores_column: np.ndarray,
                    truth_positive: np.ndarray, threshold: float
                    ) -> tuple[float, float, float, float]:
    """(fpr, tpr, recall, precision) of predicting positive where score > threshold
    (curves: the column's, which the view draws the point on). Precision is 1.0 when
    nothing is predicted positive (no false alarm among none; the PR curve ends there at
    recall 0); the rate of a side without points (then curves.auc is None) is NaN.
    Counted on the column (20,000 comparisons: microseconds), so a dragged threshold is
    exact between the curves' points too."""
    return _rates(np.asarray(split_scores_column) > threshold, truth_positive)


def _rates(called: np.ndarray, truth_positive: np.ndarray
           ) -> tuple[float, float, float, float]:
    """(fpr, tpr, recall, precision) of the points `called` positive, as operating_point."""
    positive = np.asarray(truth_positive, dtype=bool)
    true_pos = int(np.count_nonzero(called & positive))
    false_pos = int(np.count_nonzero(called & ~positive))
    n_pos, n_neg = int(np.count_nonzero(positive)), int(np.count_nonzero(~positive))
    tpr = true_pos / n_pos if n_pos else float("nan")
    fpr = false_pos / n_neg if n_neg else float("nan")
    precision = true_pos / (true_pos + false_pos) if true_pos + false_pos else 1.0
    return fpr, tpr, tpr, precision


def operating_points(evaluation: Evaluation, threshold: float = 0.0,
                     chosen: int | None = None
                     ) -> list[tuple[str, float, float, float, float]]:
    """(split, fpr, tpr, recall, precision) at the threshold of each split with curves,
    split "train" or "test": two classes of the positive class, more of the `chosen` one
    against the rest (None: no point, the model's own vote has no single threshold),
    called where predicted_at predicts it (its duel score > t; at the neutral t the model's
    vote, which also gives it the ties it wins by its lower index)."""
    e = evaluation
    if len(e.classes) == 2:
        column: int | None = 1
    else:
        column = None if chosen is None else e.classes.index(chosen)
    if column is None:
        return []
    points = []
    for name, split in (("train", e.train), ("test", e.test)):
        if split is None:
            continue
        curves = split.curves[0] if len(e.classes) == 2 else split.curves[column]
        if curves.auc is None:          # one side only: a rate would be NaN
            continue
        positive = split.truth == e.classes[column]
        if split.scores.ndim == 1:
            rates = operating_point(curves, split.scores, positive, threshold)
        else:
            rates = _rates(predicted_at(e, split, threshold, chosen) == chosen, positive)
        points.append((name, *rates))
    return points


@dataclass(frozen=True)
class FitEvaluation:
    """What the evaluation view shows of a regression: f and the target of each training
    sample and of each held-out one (its R², MSE and residual plot)."""

    fitted: np.ndarray
    targets: np.ndarray
    fitted_test: np.ndarray
    targets_test: np.ndarray
