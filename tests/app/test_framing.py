"""A Compare solvers run's line of the table, made in its solver's process (framing.Framer)
as solver_process sends it: equal to the core's fit of the same run, also when the end
brings no chart row (a run that spent its budget sent its last step as a step)."""
from __future__ import annotations

import numpy as np
import pytest

from svmdesk.app.training.framing import Framer
from svmdesk.core import SVC, make_dataset
from svmdesk.core.comparison import Entry, compare
from svmdesk.core.training_job import Job
from svmdesk.drawing.decision_grid import GridSpec
from svmdesk.drawing.live_frames import chart_point


@pytest.mark.parametrize("last_sent_as_a_step", [False, True])
def test_the_row_of_a_run_is_the_cores_row(last_sent_as_a_step):
    data = make_dataset("moons", n=80, noise=0.2, seed=3)
    X, y, X_test, y_test = data.X[:60], data.y[:60], data.X[60:], data.y[60:]
    params = {**SVC().get_params(), "solver": "kernel-gradient", "kernel": "rbf",
              "max_iter": 40}
    estimator = SVC(**params)
    framer = Framer(Job(X, y, estimator, X_test, y_test), GridSpec(-2, 3, -1.5, 2, 20, 20))
    steps = list(estimator.iter_fit(X, y, every=1))
    history = [chart_point(step.snapshot) for step in steps]
    framer.live(("step", steps[-2], tuple(history[:-1]), 0.1, False, 0, 0), False)
    if last_sent_as_a_step:     # the last step went in a step's message: the end has no row
        framer.live(("step", steps[-1], (history[-1],), 0.2, False, 0, 0), False)
        end_rows: tuple = ()
    else:
        end_rows = (history[-1],)
    row = framer.row(("end", steps[-1], estimator, end_rows, 0.2, False))
    expected = compare([Entry("kernel-gradient", 1.0)], params, X, y, X_test, y_test)[0]
    assert row.iterations == expected.iterations == 40
    assert row.primal == pytest.approx(expected.primal, rel=1e-12)
    assert (row.support, row.train_accuracy, row.test_accuracy, row.agreement,
            row.converged) == (expected.support, expected.train_accuracy,
                               expected.test_accuracy, expected.agreement,
                               expected.converged)
    assert row.seconds == 0.2 and np.isfinite(row.primal)
