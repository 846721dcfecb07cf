"""Duel scores and the vote a threshold on them moves, against scikit-learn's one-vs-one
values and predictions (the oracle)."""
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.svm import SVC as LibSVC

from svmdesk.core.estimators.one_vs_one import (
    duel_scores,
    vote_at_threshold,
    vote_without,
    votes_of,
)

# random one-vs-one values of four classes: any pattern of duels, vote cycles included
_RANDOM_OVO = np.random.default_rng(5).normal(size=(2000, 6))


def _four_blobs():
    rng = np.random.default_rng(7)
    centres = np.array([[-2.0, 0.0], [2.0, 0.0], [0.0, 2.0], [0.0, -2.0]])
    y = np.repeat(np.arange(4), 50)
    return centres[y] + 1.2 * rng.standard_normal((200, 2)), y


@pytest.fixture(scope="module")
def sklearn_ovo():
    """sklearn's one-vs-one values on a grid of points around four blobs, its predictions."""
    X, y = _four_blobs()
    svc = LibSVC(kernel="rbf", decision_function_shape="ovo").fit(X, y)
    u = np.linspace(-4, 4, 60)
    points = np.column_stack([np.tile(u, len(u)), np.repeat(u, len(u))])
    return svc.decision_function(points), svc.predict(points)


def _votes_by_hand(ovo, n_classes):
    """sklearn's order: pairs (0,1), (0,2), ..., positive means the first class wins."""
    votes = np.zeros((len(ovo), n_classes), dtype=int)
    for column, (i, j) in enumerate(combinations(range(n_classes), 2)):
        votes[np.arange(len(ovo)), np.where(ovo[:, column] > 0, i, j)] += 1
    return votes


def test_a_class_scores_above_zero_exactly_where_it_wins_every_duel(sklearn_ovo):
    ovo, _ = sklearn_ovo
    votes, scores = _votes_by_hand(ovo, 4), duel_scores(ovo, 4)
    np.testing.assert_array_equal(scores > 0, votes == 3)
    assert (scores > 0).any(axis=0).all()       # every class wins somewhere
    for k in range(4):                            # the weakest duel, turned k's way
        duels = [ovo[:, c] if i == k else -ovo[:, c]
                 for c, (i, j) in enumerate(combinations(range(4), 2)) if k in (i, j)]
        np.testing.assert_array_equal(scores[:, k], np.min(duels, axis=0))


def test_the_vote_is_sklearns_and_the_vote_without_a_class_never_names_it(sklearn_ovo):
    ovo, predicted = sklearn_ovo
    np.testing.assert_array_equal(votes_of(ovo, 4), predicted)
    without = vote_without(ovo, 4)
    for k in range(4):
        others = [c for c in range(4) if c != k]
        kept = [c for c, pair in enumerate(combinations(range(4), 2)) if k not in pair]
        # the three others' own duels, voted as sklearn would with k never trained
        voted = np.asarray(others)[_votes_by_hand(ovo[:, kept], 3).argmax(axis=1)]
        np.testing.assert_array_equal(without[:, k], voted)


def test_at_zero_the_threshold_gives_the_vote_whichever_class_is_chosen(sklearn_ovo):
    ovo, predicted = sklearn_ovo
    scores, voted, without = duel_scores(ovo, 4), votes_of(ovo, 4), vote_without(ovo, 4)
    for k in range(4):
        np.testing.assert_array_equal(
            vote_at_threshold(scores[:, k], voted, without[:, k], k, 0.0), predicted)
        moved = vote_at_threshold(scores[:, k], voted, without[:, k], k, 0.25)
        np.testing.assert_array_equal(moved == k, scores[:, k] > 0.25)
        # the other points keep the vote, or where it was k take the vote among the rest
        np.testing.assert_array_equal(moved[moved != k],
                                      np.where(voted == k, without[:, k], voted)[moved != k])


@settings(max_examples=40, deadline=5000)
@given(st.sampled_from(range(4)),
       st.floats(-3, 3).filter(lambda t: t != 0), st.floats(-3, 3).filter(lambda t: t != 0))
def test_raising_the_threshold_only_takes_points_from_the_chosen_class(k, low, high):
    """Monotone away from 0 (at 0 exactly: the vote, which also gives k its won ties)."""
    ovo = _RANDOM_OVO
    low, high = min(low, high), max(low, high)
    scores, voted, without = duel_scores(ovo, 4), votes_of(ovo, 4), vote_without(ovo, 4)
    at_low = vote_at_threshold(scores[:, k], voted, without[:, k], k, low)
    at_high = vote_at_threshold(scores[:, k], voted, without[:, k], k, high)
    assert not np.any((at_high == k) & (at_low != k))         # raising gives k nothing
    changed = at_low != at_high
    assert np.all(at_low[changed] == k)                       # only k's points move
