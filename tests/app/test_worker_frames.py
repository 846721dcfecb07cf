"""Frames built with the run's cached kernel matrix equal frames built without it."""
import numpy as np
import pytest

from svmdesk.app import worker
from svmdesk.app.worker import GramCache, Job, make_frame
from svmdesk.core import SVC, make_dataset
from svmdesk.core.grid import GridSpec


@pytest.mark.filterwarnings("ignore:.*:svmdesk.core.errors.ConvergenceWarning")
@pytest.mark.parametrize("params", [
    dict(solver="kernel-gradient", kernel="rbf", max_iter=40),
    dict(solver="smo", kernel="poly", degree=3, coef0=1.0, standardize=True),
    dict(solver="dual-gradient", kernel="rbf", max_iter=60)])
def test_cached_gram_gives_the_same_frames(params, monkeypatch):
    d = make_dataset("moons", n=150, noise=0.25, seed=4)
    X, y = np.asarray(d.X), np.asarray(d.y)
    job = Job(X, y, params, GridSpec(-2, 3, -1.5, 2, 40, 30))
    gram = GramCache()
    for snap in list(SVC(**params).iter_fit(X, y, every=10))[-3:]:
        plain, cached = make_frame(snap, job, 0.0), make_frame(snap, job, 0.0, gram=gram)
        assert cached.train_accuracy == plain.train_accuracy
        np.testing.assert_array_equal(cached.bounded, plain.bounded)
    monkeypatch.setattr(worker, "GRAM_MAX_POINTS", 100)        # too many points: no cache
    assert GramCache().decision(snap, X) is None


def test_the_solver_is_asked_for_no_more_snapshots_than_frames_drawn(window, qtbot,
                                                                      monkeypatch):
    """SMO in the window runs long batches between frames: the snapshots it makes are the
    frames drawn (and the final one), not one per pair step."""
    from svmdesk.app import worker as worker_module
    from svmdesk.core import SVC

    made = []

    class Counting(SVC):
        def iter_fit(self, *args, **kwargs):
            for snap in super().iter_fit(*args, **kwargs):
                made.append(snap.iteration)
                yield snap

    monkeypatch.setattr(worker_module, "SVC", Counting)
    window.generate("moons", 3000, 0.2, 0)
    p = window.panel
    p.solver.setCurrentIndex(p.solver.findData("smo"))
    p.kernel.setCurrentText("rbf")
    p.C.set_value(100.0)
    drawn = []
    window.frame_shown.connect(drawn.append)
    with qtbot.waitSignal(window.training_ended, timeout=10_000) as ended:
        window.train()
    pair_steps = ended.args[0].snapshot.iteration
    assert len(made) <= len(drawn) + 1 < pair_steps
    final = ended.args[0]
    np.testing.assert_allclose(window.fitted.decision_function(window.points.X),
                               final.model.decision_function(window.points.X), atol=1e-9)
