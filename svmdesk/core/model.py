"""A fitted SVM as a small frozen value: what it needs to evaluate f(x), nothing else."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .kernels import Kernel
from .kinds import C_SVC, KINDS
from .probability import probabilities


def _frozen(a, dtype=None):
    a = np.array(a, dtype=dtype, copy=True)
    a.flags.writeable = False
    return a


@dataclass(frozen=True)
class Scaler:
    """Standardisation applied before the kernel: (x - mean) / scale."""

    mean: np.ndarray
    scale: np.ndarray

    def __post_init__(self):
        object.__setattr__(self, "mean", _frozen(self.mean, np.float64))
        object.__setattr__(self, "scale", _frozen(self.scale, np.float64))

    @classmethod
    def fit(cls, X: np.ndarray) -> Scaler:
        # Each column divided by its largest magnitude first, so that the variance of
        # values near 1e160 (or 1e-160) neither overflows nor underflows.
        top = np.abs(X).max(axis=0)
        top = np.where(top > 0, top, 1.0)
        unit = X / top
        scale = unit.std(axis=0) * top
        return cls(unit.mean(axis=0) * top, np.where(scale > 0, scale, 1.0))

    def transform(self, X: np.ndarray) -> np.ndarray:
        return (X - self.mean) / self.scale


@dataclass(frozen=True)
class BinaryMachine:
    """f(x) = sum_s dual_coef[s] k(sv_s, x) + bias, in the scaled space; f > 0 means the
    `positive` class. `w` is set for linear models (exact for primal solvers)."""

    support: np.ndarray            # indices into the training set
    support_vectors: np.ndarray    # scaled training points of `support`
    dual_coef: np.ndarray          # y_s * alpha_s
    bias: float
    positive: int                  # class index that f > 0 predicts
    negative: int
    w: np.ndarray | None = None

    def __post_init__(self):
        object.__setattr__(self, "support", _frozen(self.support, np.intp))
        object.__setattr__(self, "support_vectors", _frozen(self.support_vectors, np.float64))
        object.__setattr__(self, "dual_coef", _frozen(self.dual_coef, np.float64))
        if self.w is not None:
            object.__setattr__(self, "w", _frozen(self.w, np.float64))

    def decision(self, Z: np.ndarray, kernel: Kernel) -> np.ndarray:
        """f on already-scaled points Z."""
        if self.w is not None:
            return Z @ self.w + self.bias
        return kernel.matvec(Z, self.support_vectors, self.dual_coef) + self.bias


@dataclass(frozen=True)
class SVMModel:
    """One machine for two classes; K(K-1)/2 one-vs-one machines for K classes, in
    sklearn's pair order (0,1), (0,2), ..., (1,2), ... where f > 0 votes for the first.

    `kind` says what the machine learnt, in LIBSVM's words (the key of its row in
    kinds.KINDS): a classifier's (a nu-SVC model is C-SVC's with C = 1/r); a novelty
    detector's (one machine, classes -1 for outliers and +1 for inliers, f = 0 the region's
    edge and no margins); a regressor's (one machine, no classes: predict is f(x))."""

    kernel: Kernel
    classes: np.ndarray
    machines: tuple[BinaryMachine, ...]
    scaler: Scaler | None = None
    kind: str = C_SVC.key
    # Platt's sigmoid of each machine, P(i | f) = 1 / (1 + exp(A f + B)) in LIBSVM's
    # orientation (machine (i, j), i < j: f > 0 means i), or None: no probabilities
    prob_a: np.ndarray | None = None
    prob_b: np.ndarray | None = None

    def __post_init__(self):
        for name in ("prob_a", "prob_b"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, _frozen(getattr(self, name), np.float64))

    @property
    def has_margins(self) -> bool:
        """Whether f = +-1 are margins worth drawing (a one-class machine has none)."""
        return KINDS[self.kind].classifies

    @property
    def is_regressor(self) -> bool:
        return KINDS[self.kind].regression

    @property
    def n_features(self) -> int:
        m = self.machines[0]
        return len(m.w) if m.w is not None else m.support_vectors.shape[1]

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """(n,) for two classes (positive: classes[1]); (n, K(K-1)/2) otherwise."""
        Z = X if self.scaler is None else self.scaler.transform(X)
        values = [m.decision(Z, self.kernel) for m in self.machines]
        return values[0] if len(values) == 1 else np.column_stack(values)

    def predict_indices(self, X: np.ndarray) -> np.ndarray:
        """Class indices: the sign for two classes, libsvm's one-vs-one vote otherwise
        (ties go to the lower class index, as in libsvm)."""
        f = self.decision_function(X)
        if f.ndim == 1:
            return np.where(f > 0, self.machines[0].positive, self.machines[0].negative)
        votes = np.zeros((len(f), len(self.classes)), dtype=np.intp)
        rows = np.arange(len(f))
        for k, m in enumerate(self.machines):
            winner = np.where(f[:, k] > 0, m.positive, m.negative)
            np.add.at(votes, (rows, winner), 1)
        return votes.argmax(axis=1)

    @property
    def has_probabilities(self) -> bool:
        return self.prob_a is not None and self.prob_b is not None

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        """(n, K): each class's probability, as LIBSVM's -b 1 (see probability.py)."""
        return self.probabilities_of(self.decision_function(X))

    def probabilities_of(self, decision: np.ndarray) -> np.ndarray:
        """predict_proba from decision values already computed (decision_function's)."""
        assert self.prob_a is not None and self.prob_b is not None, "a model with sigmoids"
        f = np.asarray(decision).reshape(len(decision), -1)
        first = np.array([1.0 if m.positive < m.negative else -1.0 for m in self.machines])
        return probabilities(f * first, self.prob_a, self.prob_b, len(self.classes))

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Each point's class; a regressor's value f(x)."""
        if self.is_regressor:
            return self.decision_function(X)
        return self.classes[self.predict_indices(X)]
