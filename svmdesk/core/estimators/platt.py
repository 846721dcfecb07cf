"""Platt scaling of a classifier's two-class machines, as LIBSVM's svm_binary_svc_probability
does it: each training point's decision value from a machine trained on the other four
fifths of a random permutation of the points (5 folds), then the sigmoid fitted on those
values (`probability.sigmoid_fit`). The folds come from numpy's generator seeded with
random_state, so a fit repeats exactly (LIBSVM's come from C's unseeded rand()).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from ..probability import sigmoid_fit
from ..solvers.base import BinaryProblem, Snapshot
from .one_vs_one import binary_machine

FOLDS = 5

Train = Callable[[BinaryProblem], Iterator[Snapshot]]


def platt_sigmoid(problem: BinaryProblem, positive_first: bool, train: Train,
                  rng: np.random.Generator) -> tuple[float, float]:
    """(A, B) of one machine in LIBSVM's orientation: P(first class | f) with f > 0 for the
    first class (the lower class index; `positive_first` when that is the problem's +1)."""
    values = fold_values(problem, train, rng)
    sign = 1.0 if positive_first else -1.0
    return sigmoid_fit(sign * values, sign * problem.y > 0)


def fold_values(problem: BinaryProblem, train: Train, rng: np.random.Generator) -> np.ndarray:
    """Each point's decision value (f > 0: the problem's +1) from the machine trained
    without its fold; a fold whose training points are of one class gets that class's
    value, +1 or -1 (0 with none), as LIBSVM gives it."""
    n = problem.n
    order = rng.permutation(n)
    values = np.empty(n)
    for fold in range(FOLDS):
        held = order[fold * n // FOLDS:(fold + 1) * n // FOLDS]
        rest = np.ones(n, dtype=bool)
        rest[held] = False
        signs = np.unique(problem.y[rest])
        if len(signs) < 2:
            values[held] = signs[0] if len(signs) else 0.0
            continue
        sub = problem.of_points(rest)
        *_, final = train(sub)               # its last snapshot is the machine
        machine = binary_machine(final, sub, np.arange(sub.n), 1, 0)
        values[held] = machine.decision(problem.X[held], problem.kernel)
    return values
