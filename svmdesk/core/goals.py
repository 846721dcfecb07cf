"""An exercise's goals: a measure of the model compared with a number ("test accuracy >= 0.9",
"support vectors <= 20"), met or not. A typed list, not prose, so that the window can check
each one live as the model changes (the file keeps them: formats/exercise.py)."""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..i18n import N_, tr

# What a goal measures, by name, with its words. Accuracies are shares (0.9, not 90 %);
# the margin width is 2/||w|| (linear kernel only); the objective is the primal's.
METRICS = {
    "test_accuracy": N_("test accuracy"),
    "train_accuracy": N_("train accuracy"),
    "support_vectors": N_("support vectors"),
    "margin_width": N_("margin width"),
    "objective": N_("primal objective"),
}
COMPARISONS = (">=", "<=")
SIGNS = {">=": "≥", "<=": "≤"}            # as the window writes them


@dataclass(frozen=True)
class Goal:
    metric: str          # METRICS
    comparison: str      # COMPARISONS
    value: float

    def __post_init__(self) -> None:
        if self.metric not in METRICS:
            raise ValueError(tr("unknown metric {metric!r}").format(metric=self.metric))
        if self.comparison not in COMPARISONS:
            raise ValueError(tr("unknown comparison {comparison!r}").format(
                comparison=self.comparison))
        if not math.isfinite(self.value):
            raise ValueError(tr("a goal's value must be a finite number"))

    def met(self, measures: dict) -> bool:
        """Whether `measures` ({metric: number or None}) meet the goal. A measure the model
        has not (no model yet, no held-out points, a margin of a kernel other than the
        linear one) meets none."""
        measured = measures.get(self.metric)
        if measured is None or not math.isfinite(measured):
            return False
        return measured >= self.value if self.comparison == ">=" else measured <= self.value

    def words(self) -> str:
        """The goal as the window shows it: 'test accuracy ≥ 0.9'."""
        return f"{tr(METRICS[self.metric])} {SIGNS[self.comparison]} {self.value:g}"


def all_met(goals: tuple, measures: dict) -> tuple:
    """Each goal's verdict on `measures`, in order."""
    return tuple(goal.met(measures) for goal in goals)
