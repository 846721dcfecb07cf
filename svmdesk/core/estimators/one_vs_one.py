"""One-vs-one: the two-class machines of a K-class classifier (which pairs, in
scikit-learn's order), their votes turned into one column per class, each class's duel
score and the vote a threshold on it moves, and the layout LIBSVM
and scikit-learn give the machines' support vectors and coefficients; a machine's final
snapshot turned into a model's machine."""
from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np

from ..kernels import Kernel
from ..model import BinaryMachine, Scaler
from ..ranking import one_against_rest_at_threshold
from ..solvers.base import BinaryProblem, Snapshot


def ovr_decision(ovo: np.ndarray, n_classes: int) -> np.ndarray:
    """One column per class from one-vs-one values (machine (i, j) positive: i wins), as
    scikit-learn's SVC makes them: each class's votes, plus its summed confidences squashed
    into (-1/3, 1/3) so that they break ties without outvoting a vote."""
    votes = np.zeros((len(ovo), n_classes))
    confidence = np.zeros((len(ovo), n_classes))
    for k, (i, j) in enumerate(machine_pairs(n_classes)):
        confidence[:, i] += ovo[:, k]
        confidence[:, j] -= ovo[:, k]
        votes[ovo[:, k] >= 0, i] += 1
        votes[ovo[:, k] < 0, j] += 1
    return votes + confidence / (3 * (np.abs(confidence) + 1))


def duel_scores(ovo: np.ndarray, n_classes: int) -> np.ndarray:
    """Each class's weakest duel, (n, K) from one-vs-one values (n, K(K-1)/2) in
    machine_pairs order: s_k = min over j != k of machine (k, j)'s value turned so that
    positive means k wins. s_k > 0 where k wins all its K - 1 duels (the unique top vote),
    and it moves continuously in units of f, as a binary machine's f does, where a
    threshold on the one-vs-rest values (whole votes) would sit still, then jump."""
    ovo = np.asarray(ovo)
    scores = np.full((len(ovo), n_classes), np.inf, dtype=ovo.dtype)
    for column, (i, j) in enumerate(machine_pairs(n_classes)):
        np.minimum(scores[:, i], ovo[:, column], out=scores[:, i])
        np.minimum(scores[:, j], -ovo[:, column], out=scores[:, j])
    return scores


def _vote_counts(ovo: np.ndarray, n_classes: int) -> np.ndarray:
    """(n, K) votes: machine (i, j) votes i where its value is > 0, else j (LIBSVM's)."""
    votes = np.zeros((len(ovo), n_classes), dtype=np.int16)
    for column, (i, j) in enumerate(machine_pairs(n_classes)):
        won = ovo[:, column] > 0
        votes[:, i] += won
        votes[:, j] += ~won
    return votes


def votes_of(ovo: np.ndarray, n_classes: int) -> np.ndarray:
    """The class index each point is voted, (n,): LIBSVM's one-vs-one vote, ties to the
    lowest index (SVMModel.predict_indices, which the model's own machines order)."""
    return _vote_counts(np.asarray(ovo), n_classes).argmax(axis=1)   # first of equal maxima


def vote_without(ovo: np.ndarray, n_classes: int) -> np.ndarray:
    """(n, K): column k holds the class voted among the others when k is left out (the
    machines not involving k; ties to the lowest index), never k itself."""
    ovo = np.asarray(ovo)
    votes = _vote_counts(ovo, n_classes)
    without = np.empty((len(ovo), n_classes), dtype=np.intp)
    for k in range(n_classes):
        counts = votes.copy()
        for column, (i, j) in enumerate(machine_pairs(n_classes)):
            won = ovo[:, column] > 0    # the duels with k: the other's vote taken back
            if k == i:
                counts[:, j] -= ~won
            elif k == j:
                counts[:, i] -= won
        counts[:, k] = -1
        without[:, k] = counts.argmax(axis=1)
    return without


def vote_at_threshold(score_of_chosen: np.ndarray, voted: np.ndarray,
                      voted_without_chosen: np.ndarray, chosen: int, threshold: float,
                      neutral: float = 0.0) -> np.ndarray:
    """The classes predicted with the chosen class's threshold on its duel score moved to
    t, arrays of any one shape (points, or a grid) and class labels of any kind: `chosen`
    where its score > t; elsewhere the vote, or where that is `chosen`, the vote among the
    others. Raising t thus only takes points from `chosen`, lowering it only gives it more.

    Exactly at t = 0 it is the vote itself, so a reset gives back the model's predictions:
    the rule differs from the vote where `chosen` tops the vote without winning every duel,
    which is a tie it wins by its lower index (for three classes only a 1-1-1 vote cycle),
    and on a duel whose value is exactly 0 (a vote for the second class, score 0). Those
    points stay `chosen` at 0 only: t = 0 is the one exception to the monotony above.

    The same rule serves probabilities: with `neutral` 0.5, scores from
    probability.duel_probabilities, `voted` the most probable class and the others' the most
    probable other one, t = 0.5 gives back the most probable class (ties included)."""
    if threshold == neutral:
        return np.asarray(voted)
    voted = np.asarray(voted)
    others = np.where(voted == chosen, voted_without_chosen, voted)
    return one_against_rest_at_threshold(np.ravel(score_of_chosen), threshold, chosen,
                                         np.ravel(others)).reshape(voted.shape)


def machine_pairs(n_classes: int) -> list[tuple[int, int]]:
    """(positive, negative) class indices per machine: classes_[1] is positive for two
    classes (sklearn's sign); for more, pair (i, j) in sklearn's order votes i when f > 0."""
    if n_classes == 2:
        return [(1, 0)]
    return list(combinations(range(n_classes), 2))


def binary_machine(snap: Snapshot, problem: BinaryProblem, points: np.ndarray, pos: int,
                   neg: int) -> BinaryMachine:
    """The final snapshot of one machine as a model, its indices mapped to the whole set.

    With dual coefficients the model keeps the last snapshot's non-zero ones: its support
    vectors (one rule for every solver, solvers/support.py, which the gradient solvers'
    last snapshot applies); primal solvers' support vectors are their margin points."""
    if snap.dual_coef is not None:
        support = np.flatnonzero(snap.dual_coef)
        coef = snap.dual_coef[support]
    else:  # primal solver: the dual coefficients are recovered for the record
        support = np.asarray(snap.support, dtype=np.intp)
        coef = _primal_dual_coef(snap, problem, support)
    w = snap.w
    if w is None and problem.kernel.name == "linear":
        w = coef @ problem.X[support] if len(support) else np.zeros(problem.X.shape[1])
    return BinaryMachine(points[support], problem.X[support], coef, snap.bias, pos, neg, w)


def _primal_dual_coef(snap, problem, support) -> np.ndarray:
    """y_i a_i for a primal solution: a_i = C_i inside the margin, and for points on it the
    least-squares multipliers in [0, C_i] that rebuild w (the KKT conditions of the dual)."""
    y, X, C = problem.y[support], problem.X[support], problem.bounds[support]
    margins = y * (X @ snap.w + snap.bias)
    alpha = np.where(margins < 1.0 - 1e-3, C, 0.0)
    on = np.flatnonzero(alpha == 0)
    if len(on):
        rest = snap.w - (alpha * y) @ X
        sol = np.linalg.lstsq((y[on, None] * X[on]).T, rest, rcond=None)[0]
        alpha[on] = np.clip(sol, 0.0, C[on])
    return y * alpha


def intercepts(machines: Sequence[BinaryMachine], kernel: Kernel, scaler: Scaler | None
               ) -> np.ndarray:
    """intercept_: each machine's bias, for the linear kernel in input units like coef_."""
    intercepts = np.array([m.bias for m in machines])
    if scaler is not None and kernel.name == "linear":
        intercepts -= np.array([m.w @ (scaler.mean / scaler.scale) for m in machines])
    return intercepts


def libsvm_layout(machines: Sequence[BinaryMachine], n_classes: int,
                  codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """support_ grouped by class, and dual_coef_ of shape (K-1, n_SV) laid out as libsvm's
    sv_coef: an SV of class i has its coefficient for machine (i, j) in row j-1 if i < j,
    else in row j."""
    used = np.zeros(len(codes), dtype=bool)     # marks, not np.unique: no sort
    for m in machines:
        used[m.support] = True
    support = np.flatnonzero(used)
    support = support[np.argsort(codes[support], kind="stable")]
    column = np.empty(len(codes), dtype=np.intp)
    column[support] = np.arange(len(support))
    coef = np.zeros((max(1, n_classes - 1), len(support)))
    for m in machines:
        own = codes[m.support]
        other = np.where(own == m.positive, m.negative, m.positive)
        row = 0 if n_classes == 2 else np.where(own < other, other - 1, other)
        coef[row, column[m.support]] = m.dual_coef
    return support, coef
