"""Frames of a one-class machine and of nu-SVC, checked against scikit-learn's machines."""
import numpy as np
import pytest

from svmdesk.core import make_dataset
from svmdesk.core.estimators import SVC, NuSVC, OneClassSVM
from svmdesk.core.training_job import Job
from svmdesk.drawing import frame_views, model_frames
from svmdesk.drawing.decision_grid import GridSpec
from svmdesk.drawing.frame_parts import OUTSIDE
from svmdesk.drawing.live_frames import KernelSums, make_frame
from svmdesk.drawing.model_frames import fitted_frame
from svmdesk.drawing.shading import diverging_lut

sklearn_svm = pytest.importorskip("sklearn.svm")

PARAMS = dict(kernel="rbf", gamma=0.5, nu=0.1, tol=1e-8)
SPEC = GridSpec(-4, 4, -4, 4, 41, 41)
MARKS = np.array([[3.0, 3.0], [-3.0, 2.5], [0.1, 0.1], [2.8, -3.0]])   # one inside


def _one_class_job():
    """200 training points of one blob, 15 held out, and four outlier marks: the window's
    Job for a one-class run (class index 0 is label +1, the inliers; 1 the marks)."""
    rng = np.random.default_rng(0)
    X, held = rng.normal(0.0, 0.7, (200, 2)), rng.normal(0.0, 0.7, (15, 2))
    y_test = np.repeat([0, 1], [len(held), len(MARKS)])
    return Job(X, np.zeros(len(X), dtype=np.intp), OneClassSVM(**PARAMS),
               np.vstack([held, MARKS]), y_test, labels=np.array([1, -1]))


def _fit(job):
    ours = OneClassSVM(**PARAMS)
    steps = list(ours.iter_fit(job.X, every=5))
    return ours, steps


def _sure(f):
    """Points clearly on one side of the edge: solvers agree on them to far below 1e-6."""
    return np.abs(f - OUTSIDE) > 1e-6


def test_one_class_final_frame_counts_what_sklearn_finds_outside():
    job = _one_class_job()
    ours, steps = _fit(job)
    frame = fitted_frame(ours, steps[-1], job, SPEC, 1.0)
    sk = sklearn_svm.OneClassSVM(**PARAMS).fit(job.X)
    f_train, f_test = sk.decision_function(job.X), sk.decision_function(job.X_test)
    assert _sure(f_train).all() and _sure(f_test).all()
    out_train, out_test = f_train < OUTSIDE, f_test < OUTSIDE
    assert 0 < out_train.sum() < len(job.X)
    reading = frame.reading
    e = out_train.mean()
    s = len(sk.support_) / len(job.X)
    assert reading.fractions.errors == pytest.approx((e, e))
    assert reading.fractions.support == pytest.approx((s, s))
    assert reading.fractions.nu == 0.1 and not reading.fractions.per_machine
    assert e <= 0.1 <= s
    marks = job.y_test == 1
    assert reading.marks_outside == (int(out_test[marks].sum()), 4) == (3, 4)
    assert reading.train_accuracy is None
    assert reading.test_accuracy == pytest.approx(np.mean(~out_test[~marks]))
    expected = np.vstack([job.X[out_train], job.X_test[out_test]])
    np.testing.assert_allclose(_sorted(frame.scene.outside_xy), _sorted(expected))


def _sorted(xy):
    return xy[np.lexsort(xy.T[::-1])]


def test_one_class_scene_has_its_edge_alone_and_tints_only_inside():
    job = _one_class_job()
    ours, steps = _fit(job)
    for frame in (make_frame(steps[-1], job, SPEC, 0.0),
                  fitted_frame(ours, steps[-1], job, SPEC, 0.0)):
        scene = frame.scene
        assert scene.one_class and set(scene.contours) == {0.0} and len(scene.contours[0.0])
        assert scene.classes == (1, 0)             # inside: the inliers' class index 0
        inside, outside = scene.values[20, 20], scene.values[0, 0]     # (0, 0), (-4, -4)
        assert inside > 0 > outside
        tint = diverging_lut(0, 0)
        for picture in (scene.picture, scene.hard_picture):
            assert (picture[0, 0] == 255).all()                     # white outside
            assert (picture[20, 20, :3] < 250).any()                # tinted inside
        assert (scene.hard_picture[20, 20] == tint[255]).all()
        white = (scene.hard_picture == 255).all(axis=-1)
        np.testing.assert_array_equal(white, scene.values < 0)
        assert (scene.picture[20, 20, :3] >= tint[255, :3]).all()   # paler, softly
        f = frame_views.decision_at(frame, (0.0, 0.0))
        assert f[0] > 0 and f[1] == 0
        assert frame_views.decision_at(frame, (-4.0, -4.0))[1] == 1
        f_sv = ours.decision_function(job.X[scene.support])
        np.testing.assert_array_equal(scene.bounded, f_sv < OUTSIDE)
        moved = frame_views.regrid(frame, GridSpec(-2, 2, -2, 2, 21, 21))
        assert moved is not None and set(moved.scene.contours) == {0.0}
        white = (moved.scene.hard_picture == 255).all(axis=-1)
        np.testing.assert_array_equal(white, moved.scene.values < 0)
        assert white.any() and not white.all()


def test_live_one_class_frame_agrees_with_the_final_frame():
    job = _one_class_job()
    ours, steps = _fit(job)
    assert len(steps) >= 2
    sums = KernelSums()
    live = make_frame(steps[-1], job, SPEC, 0.0, sums=sums)
    final = fitted_frame(ours, steps[-1], job, SPEC, 0.0)
    assert live.reading.fractions == final.reading.fractions
    assert live.reading.marks_outside == final.reading.marks_outside
    assert live.reading.test_accuracy == final.reading.test_accuracy
    assert live.reading.train_accuracy is None
    np.testing.assert_allclose(_sorted(live.scene.outside_xy), _sorted(final.scene.outside_xy))
    # an opened model (no snapshot) reads the same, its training points passed with it
    X = np.vstack([job.X, job.X_test])
    y = np.concatenate([job.y, job.y_test])
    held = np.arange(len(y)) >= len(job.y)
    opened = model_frames.model_frame(ours, X, y, SPEC, colours=np.array([1, 0]), held_out=held)
    assert opened.reading.fractions == final.reading.fractions
    assert opened.reading.marks_outside == final.reading.marks_outside


def test_a_classifier_frame_has_no_fractions_and_nothing_outside():
    d = make_dataset("moons", n=80, noise=0.2, seed=1)
    job = Job(d.X, d.y, SVC(kernel="rbf"))
    step = list(SVC(kernel="rbf").iter_fit(d.X, d.y))[-1]
    frame = make_frame(step, job, SPEC, 0.0)
    assert frame.reading.fractions is None and frame.reading.marks_outside is None
    assert frame.scene.outside_xy.shape == (0, 2) and not frame.scene.one_class
    assert set(frame.scene.contours) == {-1.0, 0.0, 1.0}


NU = dict(kernel="rbf", gamma=1.0, nu=0.3, tol=1e-8)


def _margin_counts(sk, X, y01):
    """The margin errors of sklearn's binary NuSVC (LIBSVM rescales its f by 1/r, so its
    margins sit at +-1 as ours): (the points surely below 1 - 1e-3, those below 1), so
    that points within 1e-3 of the threshold may go either way."""
    margins = np.where(y01 == 1, 1.0, -1.0) * sk.decision_function(X)
    return np.sum(margins < 1 - 2e-3), np.sum(margins < 1)


def test_nu_svc_fractions_meet_nus_bounds_and_sklearns_counts():
    d = make_dataset("moons", n=120, noise=0.3, seed=3)
    job = Job(d.X, d.y, NuSVC(**NU))
    ours = NuSVC(**NU)
    steps = list(ours.iter_fit(d.X, d.y, every=20))
    live = make_frame(steps[-1], job, SPEC, 0.0)
    final = fitted_frame(ours, steps[-1], job, SPEC, 0.0)
    sk = sklearn_svm.NuSVC(**NU).fit(d.X, d.y)
    low, high = _margin_counts(sk, d.X, d.y)
    for frame in (live, final):
        fr = frame.reading.fractions
        assert fr.errors[0] == fr.errors[1] and fr.support[0] == fr.support[1]
        assert fr.errors[0] <= 0.3 <= fr.support[0] and not fr.per_machine
        assert low <= fr.errors[0] * len(d.X) <= high
        assert fr.support[0] == pytest.approx(len(sk.support_) / len(d.X))


def test_a_three_class_nu_svc_model_gives_the_range_over_its_machines():
    d = make_dataset("blobs", n=150, noise=1.6, seed=2, centers=3)
    ours = NuSVC(**NU).fit(d.X, d.y)
    frame = model_frames.model_frame(ours, d.X, d.y, SPEC)
    fr = frame.reading.fractions
    assert fr.per_machine and fr.nu == 0.3
    assert fr.errors[0] <= fr.errors[1] and fr.support[0] <= fr.support[1]
    assert fr.errors[1] <= 0.3 + 1e-9 <= fr.support[0] + 2e-9
    per_machine_support = []
    for m in ours.model_.machines:
        n = np.isin(d.y, [m.positive, m.negative]).sum()
        per_machine_support.append(len(m.support) / n)
    assert fr.support == pytest.approx((min(per_machine_support), max(per_machine_support)))
