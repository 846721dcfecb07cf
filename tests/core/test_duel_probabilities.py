"""A threshold on P with three or more classes: each class's probability against its
strongest rival (probability.duel_probabilities, rivals), checked against the definition written
out point by point, and the vote a threshold on it moves (one_vs_one.vote_at_threshold
with its neutral 0.5): the most probable class at 0.5, the chosen class's odds scaled
elsewhere."""
import numpy as np
import pytest

from svmdesk.core.estimators.one_vs_one import vote_at_threshold
from svmdesk.core.probability import duel_probabilities, rivals

# random distributions over four classes; a few rows with exact ties at the top
_P = np.random.default_rng(3).dirichlet(np.ones(4), size=1000)
_P[:20] = [0.3, 0.3, 0.2, 0.2]
_P[20:40] = [0.1, 0.4, 0.1, 0.4]


def _by_hand(p: np.ndarray) -> tuple:
    shares, without = np.empty_like(p), np.empty(p.shape, dtype=np.intp)
    for n, row in enumerate(p):
        for k in range(len(row)):
            others = [j for j in range(len(row)) if j != k]
            rival = others[int(np.argmax(row[others]))]    # first of equal maxima
            without[n, k] = rival
            shares[n, k] = row[k] / (row[k] + row[rival])
    return shares, without


def test_each_class_is_weighed_against_its_strongest_rival():
    shares, without = _by_hand(_P)
    np.testing.assert_allclose(duel_probabilities(_P), shares, rtol=1e-12)
    best, rival = rivals(_P)
    np.testing.assert_array_equal(rival, without)
    np.testing.assert_array_equal(best, _P.argmax(axis=1))
    np.testing.assert_allclose(duel_probabilities(_P, rival), shares, rtol=1e-12)


def test_above_one_half_exactly_where_the_class_is_the_only_most_probable():
    shares = duel_probabilities(_P)
    top = _P.max(axis=1, keepdims=True)
    alone = (_P == top) & ((_P == top).sum(axis=1, keepdims=True) == 1)
    np.testing.assert_array_equal(shares > 0.5, alone)


def test_with_two_classes_it_is_the_probability_itself():
    p = np.random.default_rng(4).dirichlet(np.ones(2), size=200)
    np.testing.assert_allclose(duel_probabilities(p), p, rtol=1e-12)


@pytest.mark.parametrize("t", [0.2, 0.35, 0.65, 0.9])
def test_a_threshold_t_is_the_class_odds_scaled_by_one_minus_t_over_t(t):
    """Above t exactly where k, its probability scaled by (1 - t) / t, beats every other."""
    shares = duel_probabilities(_P)
    for k in range(4):
        weighted = _P.copy()
        weighted[:, k] *= (1 - t) / t
        clear = np.abs(shares[:, k] - t) > 1e-9            # no rounding at the edge
        np.testing.assert_array_equal((shares[:, k] > t)[clear],
                                      (weighted.argmax(axis=1) == k)[clear])


def _at(t: float, chosen: int) -> np.ndarray:
    return vote_at_threshold(duel_probabilities(_P)[:, chosen], _P.argmax(axis=1),
                             rivals(_P)[1][:, chosen], chosen, t, neutral=0.5)


@pytest.mark.parametrize("chosen", range(4))
def test_at_one_half_the_most_probable_class_ties_included(chosen):
    np.testing.assert_array_equal(_at(0.5, chosen), _P.argmax(axis=1))


@pytest.mark.parametrize("chosen", range(4))
def test_raising_the_threshold_only_takes_points_from_the_chosen_class(chosen):
    shares = duel_probabilities(_P)[:, chosen]
    top, rival = _P.argmax(axis=1), rivals(_P)[1][:, chosen]
    held = None
    for t in (0.05, 0.3, 0.49, 0.51, 0.7, 0.95):
        predicted = _at(t, chosen)
        expected = np.where(shares > t, chosen, np.where(top == chosen, rival, top))
        np.testing.assert_array_equal(predicted, expected)
        mine = predicted == chosen
        if held is not None:
            assert not (mine & ~held).any()
            # a point leaving the chosen class goes to its strongest rival or stays put
            left = held & ~mine
            np.testing.assert_array_equal(predicted[left], rival[left])
        held = mine
