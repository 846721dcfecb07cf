"""Frames built with the run's kept kernel sums equal frames built without them."""
import numpy as np
import pytest

from svmdesk.core import SVC, make_dataset
from svmdesk.core.training_job import Job
from svmdesk.drawing import frame_parts, frame_views, live_frames, model_frames
from svmdesk.drawing.decision_grid import GridSpec
from svmdesk.drawing.live_frames import KernelSums, make_frame
from svmdesk.drawing.scenes import RunMark


@pytest.mark.filterwarnings("ignore:.*:svmdesk.core.errors.ConvergenceWarning")
@pytest.mark.parametrize("params", [
    dict(solver="kernel-gradient", kernel="rbf", max_iter=40),
    dict(solver="smo", kernel="poly", degree=3, coef0=1.0, standardize=True),
    dict(solver="dual-gradient", kernel="rbf", max_iter=60)])
def test_kept_kernel_sums_give_the_same_frames(params, monkeypatch):
    d = make_dataset("moons", n=150, noise=0.25, seed=4)
    X, y = np.asarray(d.X), np.asarray(d.y)
    spec = GridSpec(-2, 3, -1.5, 2, 40, 30)
    job = Job(X, y, SVC(**params))
    sums = KernelSums()
    for step in list(SVC(**params).iter_fit(X, y, every=10))[-3:]:
        plain = make_frame(step, job, spec, 0.0)
        cached = make_frame(step, job, spec, 0.0, sums=sums)
        assert cached.reading.train_accuracy == plain.reading.train_accuracy
        np.testing.assert_array_equal(cached.scene.bounded, plain.scene.bounded)
    monkeypatch.setattr(live_frames, "GRAM_MAX_POINTS", 100)        # too many points: no cache
    assert KernelSums().decision(step, X) is None


@pytest.mark.filterwarnings("ignore:.*:svmdesk.core.errors.ConvergenceWarning")
@pytest.mark.parametrize("params", [
    dict(solver="smo", kernel="rbf", C=10.0),
    dict(solver="smo", kernel="poly", degree=2, coef0=1.0, standardize=True),
    dict(solver="kernel-gradient", kernel="rbf", max_iter=30)])
def test_held_out_f_kept_between_frames_is_f(params):
    """The held-out points' f, brought up to date frame by frame with the multipliers that
    moved, is f computed afresh (to 1e-9), and so are the test accuracies of the frames."""
    d = make_dataset("moons", n=400, noise=0.3, seed=2)
    X, y, Xt, yt = d.X[:300], d.y[:300], d.X[300:], d.y[300:]
    spec = GridSpec(-2, 3, -1.5, 2, 30, 20)
    job = Job(X, y, SVC(**params), Xt, yt)
    sums, frame_sums = KernelSums(), KernelSums()
    steps = list(SVC(**params).iter_fit(X, y, every=7))
    assert len(steps) >= 4
    for step in steps:
        scaler, kernel = step.machine.scaler, step.machine.kernel
        Z = X if scaler is None else scaler.transform(X)
        Zt = Xt if scaler is None else scaler.transform(Xt)
        kept = sums.held_out(step, Z, Zt)
        afresh = kernel.matvec(Zt, Z, step.snapshot.dual_coef)
        np.testing.assert_allclose(kept, afresh, rtol=1e-9, atol=1e-9 * np.abs(afresh).max())
        assert (make_frame(step, job, spec, 0.0, sums=frame_sums).reading.test_accuracy
                == make_frame(step, job, spec, 0.0).reading.test_accuracy)


@pytest.mark.filterwarnings("ignore:.*:svmdesk.core.errors.ConvergenceWarning")
def test_a_model_without_support_vectors_is_drawn():
    """Pegasos' averaged w can leave every point beyond its margin (the window's demo data,
    one point per step; 3,000 steps, not the default 100,000, find one): the frame shows its
    boundary and no rings."""
    d = make_dataset("two_disks", n=100, seed=0)
    svc = SVC(solver="pegasos", kernel="linear", batch_size=1, random_state=2,
              max_iter=3000).fit(d.X, d.y)
    assert len(svc.support_) == 0
    frame = model_frames.model_frame(svc, d.X, d.y, GridSpec(-3, 3, -3, 3, 30, 30))
    assert frame.scene.support_xy.shape == (0, 2) and len(frame.scene.support) == 0
    assert frame.reading.train_accuracy > 0.9 and frame.scene.contours


def test_a_multiclass_runs_frames_say_their_machine_and_vote_the_regions():
    """Each frame of a three-class run knows its machine (which, of how many, its classes
    as the canvas's class indices); the finished machines and the current one vote the
    regions, and every machine's support vectors are ringed."""
    rng = np.random.default_rng(3)
    centres = np.array([[-2.0, -1.0], [2.0, -1.0], [0.0, 2.0]])
    y = np.repeat(np.arange(3), 30)
    X = centres[y] + 0.8 * rng.standard_normal((90, 2))
    labels = np.array([-1, 1, 2])                 # what the machines train on
    spec = GridSpec(-4, 4, -4, 4, 40, 40)
    job = Job(X, y, SVC(kernel="rbf"), labels=labels)
    done, previous, frames_made = [], None, []
    for step in SVC(kernel="rbf").iter_fit(X, labels[y], every=25):
        if len(done) < step.machine.index:
            done.append(make_frame(previous, job, spec, 0.0))
        previous = step
        frames_made.append(live_frames.with_finished_machines(
            make_frame(step, job, spec, 0.0), done, job))
    order = [f.reading.machine.index for f in frames_made]
    assert order == sorted(order)
    pairs = {(0, 1), (0, 2), (1, 2)}
    assert {tuple(sorted(f.scene.classes)) for f in frames_made} == pairs
    for f in frames_made:
        assert f.reading.machine.count == 3
        assert set(job.class_of(f.reading.machine.classes).tolist()) == set(f.scene.classes)
        assert f.scene.regions is not None and f.scene.regions.shape == (40, 40)
    last = frames_made[-1]
    assert set(np.unique(last.scene.regions).tolist()) == {0, 1, 2}
    rings = set().union(*(set(d.scene.support.tolist()) for d in done))
    assert rings <= set(last.scene.support.tolist())


def test_pictures_are_coloured_once_where_a_frame_is_made(monkeypatch):
    """A frame's pictures are coloured by the function that makes it: a copy that keeps the
    grid (paused, elapsed) keeps them without colouring again, a regrid colours its new
    grid, and no cache outlives a frame (the modules making frames keep no pictures)."""
    import dataclasses

    coloured = []
    monkeypatch.setattr(frame_parts, "sides_pictures",
                        lambda *args: coloured.append(1) or (np.zeros((2, 2, 4)),) * 2)
    d = make_dataset("two_disks", n=40, seed=0)
    spec = GridSpec(-3, 3, -3, 3, 20, 20)
    job = Job(d.X, d.y, SVC(kernel="linear"))
    step = next(iter(SVC(kernel="linear").iter_fit(d.X, d.y)))
    frame = make_frame(step, job, spec, 0.0)
    assert len(coloured) == 1 and frame.scene.picture is not None
    paused = dataclasses.replace(frame, run=RunMark(paused=True),
                                 reading=dataclasses.replace(frame.reading, elapsed=1.0))
    assert len(coloured) == 1 and paused.scene.picture is frame.scene.picture
    moved = frame_views.regrid(paused, GridSpec(-1, 1, -1, 1, 20, 20))
    assert len(coloured) == 2 and moved is not None
    assert moved.scene.picture is not frame.scene.picture

    def holds(value, picture) -> bool:
        return value is picture or (isinstance(value, tuple)
                                    and any(holds(v, picture) for v in value))

    for frames in (frame_parts, live_frames, model_frames, frame_views):
        assert [name for name, value in vars(frames).items()
                if holds(value, moved.scene.picture)] == []


def test_a_one_class_model_is_drawn_with_its_edge_and_no_margins():
    """The frames' maths know a one-class model: f on the grid, its edge f = 0 and no
    margins, the support vectors outside the edge ringed as bounded (alpha at its bound)."""
    from svmdesk.core import OneClassSVM

    rng = np.random.default_rng(0)
    X = np.r_[rng.normal(0.0, 0.6, (80, 2)), rng.uniform(-3.0, 3.0, (8, 2))]
    model = OneClassSVM(nu=0.2, gamma=1.0).fit(X)
    frame = model_frames.model_frame(model.model_, X, None, GridSpec(-3, 3, -3, 3, 40, 40))
    scene = frame.scene
    assert set(scene.contours) == {0.0} and len(scene.contours[0.0])
    np.testing.assert_array_equal(scene.support, model.support_)
    f = model.decision_function(X[scene.support])
    np.testing.assert_array_equal(scene.bounded, f < -1e-3)
    assert scene.bounded.any() and not scene.bounded.all()
    # inside the edge is the inlier side (+1, class index 1), as the canvas colours it
    assert scene.classes == (0, 1) and scene.values[20, 20] > 0 > scene.values[0, 0]
