"""f(x) at one place as the model adds it up: sum_s alpha_s y_s K(x_s, x) + b, its largest
terms named by their training points, the others summed, and the bias. With three or more
classes, the terms of the one-vs-one machine that decided: the one between the class voted
for and the runner-up."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from .model import BinaryMachine, SVMModel

MOST = 5             # terms named one by one: a sixth would not fit a status bar


@dataclass(frozen=True)
class DecisionTerms:
    """f(x) = terms.sum() + rest + bias. `points`: the training indices of the largest
    terms (by size, largest first); `rest`: the sum of all other terms (a linear primal
    model's w . x, which has no terms of points)."""

    points: np.ndarray
    terms: np.ndarray
    rest: float
    bias: float
    machine: int = 0                 # the machine whose terms these are (its model index)
    vectors: np.ndarray = field(default_factory=lambda: np.empty((0, 0)))
                                     # the named points, scaled as the machine sees them
    count: int = 0                   # the terms in all (named and in the rest)

    @property
    def f(self) -> float:
        return float(self.terms.sum() + self.rest + self.bias)


def machine_terms(machine: BinaryMachine, model: SVMModel, z: np.ndarray,
                  most: int = MOST, index: int = 0) -> DecisionTerms:
    """The terms of `machine` at one already-scaled place `z` (shape (d,))."""
    z = np.asarray(z, dtype=np.float64).reshape(1, -1)
    if is_primal(machine):
        assert machine.w is not None, "a primal machine keeps its w"
        return primal_terms(machine.w, z[0], machine.bias, index)
    every = model.kernel(z, machine.support_vectors)[0] * machine.dual_coef
    return split_terms(machine.support, machine.support_vectors, every, machine.bias, most,
                       index)


def primal_terms(w: np.ndarray, z: np.ndarray, bias: float, index: int = 0) -> DecisionTerms:
    """A primal solver's f at the scaled place `z`: w . z (the rest: no terms of points)
    and the bias."""
    return DecisionTerms(np.empty(0, dtype=np.intp), np.empty(0), float(z @ w), float(bias),
                         index)


def is_primal(machine: BinaryMachine) -> bool:
    """Whether the machine's f is a primal solver's own w (no terms of points, no alpha)."""
    return machine.w is not None and not _points_make_w(machine)


def _points_make_w(machine: BinaryMachine) -> bool:
    """Whether a linear machine's w is the sum of its points' terms (a dual solver's, whose
    f is theirs), not a primal solver's own (Pegasos', the sub-gradient's: their multipliers
    are no alphas)."""
    assert machine.w is not None
    if not len(machine.dual_coef):
        return False
    made = machine.dual_coef @ machine.support_vectors
    return bool(np.allclose(made, machine.w, rtol=1e-9,
                            atol=1e-12 * max(1.0, float(np.abs(machine.w).max()))))


def split_terms(points: np.ndarray, vectors: np.ndarray, every: np.ndarray, bias: float,
                most: int = MOST, index: int = 0) -> DecisionTerms:
    """The `most` largest of `every` (the terms of `points`, at `vectors` scaled) by size,
    and the sum of the others."""
    order = np.argsort(-np.abs(every), kind="stable")
    top, others = order[:most], order[most:]
    return DecisionTerms(np.asarray(points)[top], every[top],
                         float(every[others].sum()), float(bias), index,
                         np.asarray(vectors)[top], len(every))


def decision_terms(model: SVMModel, x: ArrayLike, most: int = MOST) -> DecisionTerms:
    """f(x) at one place `x` (input units) of a fitted model, as its terms: the one machine
    of two classes, a novelty detector or a regressor; with more classes, the machine that
    decided (deciding_machine)."""
    x = np.asarray(x, dtype=np.float64).reshape(1, -1)
    z = x if model.scaler is None else model.scaler.transform(x)
    index = deciding_machine(model, x) if len(model.machines) > 1 else 0
    return machine_terms(model.machines[index], model, z[0], most, index)


def deciding_machine(model: SVMModel, x: np.ndarray) -> int:
    """The one-vs-one machine between the class the vote chose at `x` and the runner-up
    (the most votes after it; ties to the lower class index, as the vote's own)."""
    f = model.decision_function(x.reshape(1, -1))[0]
    votes = np.zeros(len(model.classes), dtype=np.intp)
    for k, m in enumerate(model.machines):
        votes[m.positive if f[k] > 0 else m.negative] += 1
    winner = int(votes.argmax())
    votes[winner] = -1
    runner_up = int(votes.argmax())
    return next(k for k, m in enumerate(model.machines)
                if {m.positive, m.negative} == {winner, runner_up})
