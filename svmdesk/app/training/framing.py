"""A run's frames made of what its solver sends (no Qt: the window's worker thread makes
them for the main run, a Compare solvers run's own solver process for its canvas, and its
line of the comparison's table there too).

A Framer keeps what a run's frames share: f's kernel sums on its points, the last frames of
its finished one-vs-one machines, and the grid they are drawn over, which moves with the
view.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from ...core.comparison import Row, row_of, stopped_row
from ...core.estimators import Progress
from ...core.training_job import Job
from ...drawing.decision_grid import GridSpec
from ...drawing.live_frames import KernelSums, make_frame, with_finished_machines
from ...drawing.model_frames import fitted_frame
from ...drawing.scenes import Frame, RunMark


class Framer:
    def __init__(self, job: Job, spec: GridSpec):
        self.job, self.spec = job, spec
        self.sums = KernelSums()
        self.done: list[Frame] = []     # the last frames of the finished one-vs-one machines
        self.last_chart: tuple | None = None   # the last chart row sent (live_frames)

    def machine(self, step: Progress) -> None:
        """A one-vs-one machine has finished: its last state."""
        self.done.append(make_frame(step, self.job, self.spec, 0.0, sums=self.sums))

    def follow(self, spec: GridSpec | None) -> None:
        """Draw over `spec` from now on (None, or the grid drawn over: no change), the
        finished machines' frames too."""
        if spec is None or spec == self.spec:
            return
        self.spec = spec
        self.done = [make_frame(Progress(d.reading.machine, d.reading.snapshot), self.job,
                                spec, 0.0, sums=self.sums) for d in self.done]

    def live(self, message: tuple, evaluate: bool) -> Frame:
        """The frame of a ("step", ...) message (solver_process.py); `evaluate`: with its
        evaluation (a paused frame always has it)."""
        _, step, history, elapsed, paused, steps, pauses = message
        if history:
            self.last_chart = history[-1]
        frame = with_finished_machines(
            make_frame(step, self.job, self.spec, elapsed, history=history, sums=self.sums,
                       evaluate=paused or evaluate), self.done, self.job)
        return dataclasses.replace(frame, run=RunMark(paused=paused, steps=steps,
                                                      pauses=pauses))

    def final(self, message: tuple) -> Frame:
        """The frame of an ("end", ...) message: the fitted model, or where a stopped run
        stood."""
        _, step, estimator, history, elapsed, stopped = message
        if stopped:
            return with_finished_machines(
                make_frame(step, self.job, self.spec, elapsed, final=True, stopped=True,
                           history=history, sums=self.sums), self.done, self.job)
        return fitted_frame(estimator, step, self.job, self.spec, elapsed, history)

    def row(self, message: tuple) -> Row:
        """The comparison's line of a run that ended with the ("end", ...) `message`: its
        model's, and how often it predicts as SMO's solution of its settings (trained now)."""
        _, step, estimator, history, elapsed, stopped = message
        # the end brings no chart row when the last step went in a step's message (a run
        # that spent its budget, its last step sent as it came)
        point = history[-1] if history else self.last_chart
        assert point is not None, "a run sends a chart row with its first step or its end"
        summed = summed_chart_row(point)
        if stopped:
            return stopped_row(summed, elapsed)
        job = self.job
        labels = job.training_labels()
        tested = job.y_test if job.labels is None else np.asarray(job.labels)[job.y_test]
        return row_of(estimator, summed, elapsed, job.X, labels, job.X_test, tested)


def summed_chart_row(point: tuple) -> tuple:
    """(iterations, primal, dual, gap) of a run from its last chart row (live_frames.
    chart_point), as core.comparison.totals gives them from its machines' final snapshots
    (a primal solver: no dual, no gap)."""
    iteration, primal, dual = int(point[0]), float(point[1]), float(point[2])
    if not math.isfinite(dual):
        return iteration, primal, None, None
    return iteration, primal, dual, primal - dual
