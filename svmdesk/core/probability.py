"""Probabilities from decision values, as LIBSVM's `-b 1` computes them.

A two-class machine's value f becomes P(first class | f) = 1 / (1 + exp(A f + B)), Platt's
sigmoid, with A and B fitted on decision values the machine did not train on (`sigmoid_fit`:
Platt 1999, with the Newton method, line search and regularised targets of Lin, Lin and
Weng's note on Platt scaling, 2007). "First" is LIBSVM's orientation: for the machine of
classes i < j, f > 0 means i. For three or more classes the one-vs-one probabilities
r_ij = P(i | i or j) are coupled into one distribution (`couple`: Wu, Lin and Weng 2004,
method 2, the fixed-point iteration LIBSVM runs).

A threshold on P for three or more classes is set on each class's probability against its
strongest rival (`duel_probabilities`), the probabilities' counterpart of the weakest duel
on f: at 0.5 it gives the most probable class, and for two classes it is P itself.
"""
from __future__ import annotations

import math
from itertools import combinations

import numpy as np

MAX_ITER = 100          # Newton iterations of the sigmoid fit (LIBSVM's constants)
MIN_STEP = 1e-10        # the line search gives up below this step
SIGMA = 1e-12           # added to the Hessian's diagonal: keeps it positive definite
EPS = 1e-5              # the fit stops once both gradient components are below this
MIN_PROB = 1e-7         # pairwise probabilities are kept within [MIN_PROB, 1 - MIN_PROB]


def sigmoid_fit(f: np.ndarray, first: np.ndarray) -> tuple[float, float]:
    """(A, B) minimising Platt's regularised cross-entropy of the values f against the
    targets (n1 + 1) / (n1 + 2) for points of the first class (`first` True) and
    1 / (n0 + 2) for the others, n1 and n0 their counts."""
    f = np.asarray(f, dtype=np.float64)
    first = np.asarray(first, dtype=bool)
    n1 = float(first.sum())
    n0 = len(f) - n1
    t = np.where(first, (n1 + 1.0) / (n1 + 2.0), 1.0 / (n0 + 2.0))
    A, B = 0.0, math.log((n0 + 1.0) / (n1 + 1.0))
    value = _cross_entropy(f, t, A, B)
    for _ in range(MAX_ITER):
        x = f * A + B
        p, q = _expit(-x), _expit(x)             # P(first) and 1 - it, each without cancelling
        d2 = p * q
        h11, h22, h21 = SIGMA + float(f * f @ d2), SIGMA + float(d2.sum()), float(f @ d2)
        d1 = t - p
        g1, g2 = float(f @ d1), float(d1.sum())
        if abs(g1) < EPS and abs(g2) < EPS:
            break
        det = h11 * h22 - h21 * h21
        dA, dB = -(h22 * g1 - h21 * g2) / det, -(-h21 * g1 + h11 * g2) / det
        slope = g1 * dA + g2 * dB
        step = 1.0
        while step >= MIN_STEP:                  # backtracking until it decreases enough
            new = _cross_entropy(f, t, A + step * dA, B + step * dB)
            if new < value + 1e-4 * step * slope:
                A, B, value = A + step * dA, B + step * dB, new
                break
            step /= 2.0
        else:
            break                                # the line search failed: keep the best
    return A, B


def sigmoid(f: np.ndarray, A: float | np.ndarray, B: float | np.ndarray) -> np.ndarray:
    """P(first class | f) = 1 / (1 + exp(A f + B))."""
    return _expit(-(np.asarray(f, dtype=np.float64) * A + B))


def _expit(x: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-x)), exact for large |x| of either sign."""
    return np.exp(-np.logaddexp(0.0, -x))


def _cross_entropy(f: np.ndarray, t: np.ndarray, A: float, B: float) -> float:
    """sum_i t_i x_i + log(1 + exp(-x_i)), x = A f + B: the negative log-likelihood of the
    targets t under P(first) = 1 / (1 + exp(x))."""
    x = f * A + B
    return float(t @ x + np.logaddexp(0.0, -x).sum())


def probabilities(f: np.ndarray, A: np.ndarray, B: np.ndarray, k: int) -> np.ndarray:
    """Each class's probability (n, k) from the values f (n, M) of the one-vs-one machines
    of k classes, in LIBSVM's order (0, 1), (0, 2), ..., (1, 2), ... and orientation, and
    each machine's sigmoid (A, B): r_ij = P(i | i or j), kept within [MIN_PROB, 1 -
    MIN_PROB]; for two classes (r_01, r_10), for more their coupling."""
    first = np.clip(sigmoid(np.asarray(f).reshape(len(f), -1), A, B), MIN_PROB, 1.0 - MIN_PROB)
    if k == 2:
        return np.column_stack([first[:, 0], 1.0 - first[:, 0]])
    r = np.zeros((len(first), k, k))
    for m, (i, j) in enumerate(combinations(range(k), 2)):
        r[:, i, j], r[:, j, i] = first[:, m], 1.0 - first[:, m]
    return couple(r)


def couple(r: np.ndarray) -> np.ndarray:
    """Class probabilities (n, k) from pairwise ones r (n, k, k), r[:, i, j] = P(i | i or
    j) = 1 - r[:, j, i]: each point's p minimises sum_i sum_{j != i} (r_ji p_i - r_ij p_j)^2
    with sum p = 1, by LIBSVM's fixed-point iteration, each point stopping on its own."""
    n, k = r.shape[:2]
    off = ~np.eye(k, dtype=bool)
    # Q_tt = sum_{j != t} r_jt^2; Q_tj = -r_jt r_tj
    Q = np.where(off, -np.swapaxes(r, 1, 2) * r, 0.0)
    Q[:, np.arange(k), np.arange(k)] = np.where(off, np.swapaxes(r, 1, 2) ** 2, 0.0).sum(axis=2)
    p = np.full((n, k), 1.0 / k)
    active = np.arange(n)
    eps = 0.005 / k
    for _ in range(max(100, k)):
        Qa, pa = Q[active], p[active]
        Qp = np.einsum("ntj,nj->nt", Qa, pa)
        pQp = np.einsum("nt,nt->n", pa, Qp)
        going = np.abs(Qp - pQp[:, None]).max(axis=1) >= eps
        active, Qa, pa, Qp, pQp = (active[going], Qa[going], pa[going], Qp[going],
                                   pQp[going])
        if not len(active):
            break
        for t in range(k):
            diag = Qa[:, t, t]
            diff = (pQp - Qp[:, t]) / diag
            pa[:, t] += diff
            grow = 1.0 + diff
            pQp = (pQp + diff * (diff * diag + 2.0 * Qp[:, t])) / grow / grow
            Qp = (Qp + diff[:, None] * Qa[:, t, :]) / grow[:, None]
            pa /= grow[:, None]
        p[active] = pa
    return p


def duel_probabilities(p: np.ndarray, rival: np.ndarray | None = None) -> np.ndarray:
    """(n, K) from class probabilities p (n, K): P(k) / (P(k) + P(j)) for k's strongest
    rival j, the most probable other class, i.e. P(k | k or j), the weakest of k's
    pairwise probabilities. Above 0.5 exactly where k is the most probable class; for two
    classes it is P(k) itself. Scaling k's probability by (1 - t) / t makes it the most
    probable class exactly where this exceeds t. `rival`: rivals(p)'s, if at hand."""
    p = np.asarray(p)
    pair = p + np.take_along_axis(p, rivals(p)[1] if rival is None else rival, axis=1)
    # two classes both at 0 (a float32 grid's underflow) are even
    return np.divide(p, pair, out=np.full(p.shape, 0.5, dtype=pair.dtype), where=pair > 0)


def rivals(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each point's most probable class (n,), and (n, K) each class's most probable other
    class: the best class for all but the best, which gets the second best (ties to the
    lowest index). Both at once: a canvas's threshold step needs them on every cell."""
    rows = np.arange(len(p))
    best = p.argmax(axis=1)
    rest = p.astype(np.float64, copy=True)
    rest[rows, best] = -np.inf
    second = rest.argmax(axis=1)
    rival = np.repeat(best[:, None], p.shape[1], axis=1)
    rival[rows, best] = second
    return best, rival
