"""What an exercise's goals measure (core.goals.METRICS), read off the frame drawn: the numbers
the readout shows, so that a goal ticks when the readout says it is met."""
from __future__ import annotations

from .scenes import Frame


def goal_measures(frame: Frame | None) -> dict:
    """{metric: number or None} of the model `frame` draws (None: no model, nothing)."""
    if frame is None:
        return {}
    reading = frame.reading
    return {"test_accuracy": reading.test_accuracy,
            "train_accuracy": reading.train_accuracy,
            "support_vectors": len(frame.scene.support),
            "margin_width": reading.margin_width,
            "objective": reading.snapshot.primal_objective}
