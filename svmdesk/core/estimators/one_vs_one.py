"""One-vs-one: the two-class machines of a K-class classifier (which pairs, in
scikit-learn's order), their votes turned into one column per class, and the layout LIBSVM
and scikit-learn give the machines' support vectors and coefficients; a machine's final
snapshot turned into a model's machine."""
from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np

from ..kernels import Kernel
from ..model import BinaryMachine, Scaler
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


def ovr_margins(ovr: np.ndarray) -> np.ndarray:
    """Each class's one-vs-rest value less the best other class's, (n, K) from ovr_decision's
    (n, K): positive in the class the values pick (their argmax), negative elsewhere. A
    threshold on this margin moves one class's region against the rest, and at 0 it is
    the model's choice; the raw values are votes (0 to K-1), where 0 means nothing."""
    ovr = np.asarray(ovr, dtype=np.float64)
    if ovr.shape[1] < 2:
        return np.zeros_like(ovr)
    order = np.argsort(ovr, axis=1)
    rows = np.arange(len(ovr))
    best, second = ovr[rows, order[:, -1]], ovr[rows, order[:, -2]]
    margins = ovr - best[:, None]
    margins[rows, order[:, -1]] = best - second
    return margins


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
    support = np.unique(np.concatenate([m.support for m in machines]))
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
