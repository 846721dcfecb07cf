"""The frames' evaluation against scikit-learn's metrics (the oracle)."""
import numpy as np
import pytest
from sklearn.metrics import average_precision_score, confusion_matrix, roc_auc_score

from svmdesk.core import SVC, OneClassSVM, make_dataset
from svmdesk.core.training_job import Job
from svmdesk.drawing.decision_grid import GridSpec
from svmdesk.drawing.evaluation import (
    confusion_at,
    curves_of,
    evaluation_of,
    operating_point,
    operating_points,
    predicted_at,
)
from svmdesk.drawing.live_frames import make_frame
from svmdesk.drawing.model_frames import fitted_frame, model_frame

SPEC = GridSpec(-3, 3, -3, 3, 20, 20)
pytestmark = pytest.mark.filterwarnings("ignore:.*:svmdesk.core.errors.ConvergenceWarning")


def _binary_run():
    d = make_dataset("moons", n=300, noise=0.35, seed=1)
    order = np.random.default_rng(0).permutation(300)       # both classes held out
    X, y = np.asarray(d.X)[order], np.asarray(d.y)[order]
    job = Job(X[:200], y[:200], SVC(kernel="rbf", C=1.0), X[200:], y[200:])
    svc = SVC(kernel="rbf", C=1.0)
    steps = list(svc.iter_fit(job.X, job.y, every=50))
    return job, svc, steps


def _three_classes():
    rng = np.random.default_rng(3)
    centres = np.array([[-1.5, -1.0], [1.5, -1.0], [0.0, 1.5]])
    y = np.repeat(np.arange(3), 40)
    return centres[y] + 1.0 * rng.standard_normal((120, 2)), y


def _duels(ovo):
    """Three classes' duel scores by hand from sklearn-ordered one-vs-one values (pairs
    (0,1), (0,2), (1,2); positive: the first class wins)."""
    return np.column_stack([np.minimum(ovo[:, 0], ovo[:, 1]),
                            np.minimum(-ovo[:, 0], ovo[:, 2]),
                            np.minimum(-ovo[:, 1], -ovo[:, 2])])


def _rule(ovo, voted, chosen, t):
    """The threshold's rule by hand for three classes (t != 0): chosen where its duel
    score > t; elsewhere the vote, or where that is chosen, the winner of the duel of the
    other two."""
    a, b = (c for c in range(3) if c != chosen)
    between_others = np.where(ovo[:, a + b - 1] > 0, a, b)     # pair (a, b)'s column
    return np.where(_duels(ovo)[:, chosen] > t, chosen,
                    np.where(voted == chosen, between_others, voted))


def test_a_binary_fitted_frame_has_sklearns_auc_ap_and_confusion():
    job, svc, steps = _binary_run()
    ev = fitted_frame(svc, steps[-1], job, SPEC, 0.0).evaluation
    assert ev.classes == (0, 1)
    for split, X in ((ev.train, job.X), (ev.test, job.X_test)):
        f = svc.decision_function(X)
        np.testing.assert_allclose(split.scores, f, atol=1e-6)
        (curves,) = split.curves
        assert curves.auc == pytest.approx(roc_auc_score(split.truth == 1, f), abs=1e-9)
        assert curves.ap == pytest.approx(average_precision_score(split.truth == 1, f),
                                          abs=1e-9)
        np.testing.assert_array_equal(confusion_at(ev, split),
                                      confusion_matrix(split.truth, svc.predict(X), labels=[0, 1]))
        t = float(np.median(f))
        np.testing.assert_array_equal(
            confusion_at(ev, split, t),
            confusion_matrix(split.truth, np.where(f > t, 1, 0), labels=[0, 1]))


def test_a_three_class_model_frame_has_sklearns_curves_per_class():
    X, y = _three_classes()
    svc = SVC(kernel="rbf").fit(X, y)
    held = np.arange(len(y)) % 4 == 0
    ev = model_frame(svc, X, y, SPEC, held_out=held).evaluation
    assert ev.classes == (0, 1, 2)
    ovo = svc.set_params(decision_function_shape="ovo").decision_function(X)
    for split, rows in ((ev.train, ~held), (ev.test, held)):
        scores = _duels(ovo[rows])
        np.testing.assert_allclose(split.scores, scores)
        for k, curves in enumerate(split.curves):
            assert curves.auc == pytest.approx(roc_auc_score(y[rows] == k, scores[:, k]))
            assert curves.ap == pytest.approx(average_precision_score(y[rows] == k,
                                                                      scores[:, k]))
        np.testing.assert_array_equal(predicted_at(ev, split), svc.predict(X[rows]))


def test_predicted_at_with_a_chosen_class_moves_only_that_class():
    X, y = _three_classes()
    svc = SVC(kernel="rbf").fit(X, y)
    ev = model_frame(svc, X, y, SPEC).evaluation
    split, voted = ev.train, svc.predict(X)
    ovo = svc.set_params(decision_function_shape="ovo").decision_function(X)
    for chosen in range(3):
        for t in (-0.5, 0.3, 0.5):        # half a unit of f moves points, as for two classes
            got = predicted_at(ev, split, t, chosen)
            np.testing.assert_array_equal(got, _rule(ovo, voted, chosen, t))
        assert (predicted_at(ev, split, 0.5, chosen) != voted).any()
        # at 0 the model's choice, whichever class is chosen
        np.testing.assert_array_equal(predicted_at(ev, split, 0.0, chosen), voted)
    assert (predicted_at(ev, split, 1e9, chosen=2) != 2).all()
    got = predicted_at(ev, split, 0.5, chosen=2)
    counts = confusion_at(ev, split, 0.5, chosen=2)
    np.testing.assert_array_equal(counts, confusion_matrix(split.truth, got, labels=[0, 1, 2]))


def test_operating_point_is_the_rates_counted_by_hand():
    rng = np.random.default_rng(0)
    scores, positive = np.round(rng.normal(size=200), 1), rng.random(200) < 0.4
    curves = curves_of(positive, scores)
    for t in (-0.3, 0.0, 0.2, 10.0):
        called = scores > t
        tp, fp = np.sum(called & positive), np.sum(called & ~positive)
        fpr, tpr, recall, precision = operating_point(curves, scores, positive, t)
        assert (fpr, tpr, recall) == pytest.approx(
            (fp / np.sum(~positive), tp / np.sum(positive), tp / np.sum(positive)))
        assert precision == pytest.approx(tp / (tp + fp) if tp + fp else 1.0)


def test_operating_points_count_each_split_of_the_class_the_threshold_applies_to():
    rng = np.random.default_rng(1)
    ovo, truth = rng.normal(size=(60, 3)), rng.integers(0, 3, 60)
    ev = evaluation_of((0, 1, 2), truth[:40], ovo[:40], truth[40:], ovo[40:])
    assert operating_points(ev, 0.5, None) == []
    points = operating_points(ev, 0.5, chosen=2)
    assert [p[0] for p in points] == ["train", "test"]
    for (_, *rates), rows in zip(points, (slice(0, 40), slice(40, 60))):
        positive = truth[rows] == 2
        column = _duels(ovo[rows])[:, 2]
        assert rates == pytest.approx(
            operating_point(curves_of(positive, column), column, positive, 0.5))
    binary = evaluation_of((0, 1), truth[:40] == 1, ovo[:40, 0])
    (name, *rates), = operating_points(binary, -0.2)
    assert name == "train" and rates == pytest.approx(
        operating_point(binary.train.curves[0], ovo[:40, 0], truth[:40] == 1, -0.2))


def test_a_live_binary_frame_carries_an_evaluation_and_a_multiclass_one_none():
    job, _, steps = _binary_run()
    ev = make_frame(steps[1], job, SPEC, 0.0).evaluation
    assert ev is not None and ev.classes == (0, 1)
    assert len(ev.train.scores) == len(job.y) and len(ev.test.scores) == len(job.y_test)
    assert ev.train.curves[0].auc is not None
    X, y = _three_classes()
    step = next(iter(SVC(kernel="rbf").iter_fit(X, y, every=20)))
    assert make_frame(step, Job(X, y, SVC()), SPEC, 0.0).evaluation is None


def test_one_class_frames_read_the_inliers_as_positive():
    rng = np.random.default_rng(0)
    X, marks = rng.normal(0, 0.7, (100, 2)), np.array([[2.5, 2.5], [-2.5, 2.0]])
    params = dict(nu=0.2, kernel="rbf", gamma=0.5)
    job = Job(X[:90], np.zeros(90, dtype=np.intp), OneClassSVM(**params),
              np.vstack([X[90:], marks]), np.repeat([0, 1], [10, 2]), labels=np.array([1, -1]))
    ours = OneClassSVM(**params)
    steps = list(ours.iter_fit(job.X, every=20))
    for frame in (make_frame(steps[-1], job, SPEC, 0.0),
                  fitted_frame(ours, steps[-1], job, SPEC, 0.0)):
        ev = frame.evaluation
        assert ev.classes == (1, 0)
        assert ev.train.curves[0].auc is None and len(ev.train.curves[0].fpr) == 0
        f = ours.decision_function(job.X_test)
        assert ev.test.curves[0].auc == pytest.approx(roc_auc_score(job.y_test == 0, f),
                                                      abs=1e-6)
        np.testing.assert_array_equal(predicted_at(ev, ev.test), np.where(f > 0, 0, 1))


def test_a_split_of_one_class_has_no_area():
    ev = evaluation_of((0, 1), np.ones(5, dtype=np.intp), np.arange(5.0))
    (curves,) = ev.train.curves
    assert curves.auc is None and curves.ap is None and ev.test is None
    assert evaluation_of((0, 1), np.empty(0), np.empty(0)) is None


def test_a_three_class_fitted_frame_maps_the_models_classes_to_the_canvas():
    """The machine trains on labels (2, -1, 5) of canvas classes 0, 1, 2: the model orders
    them -1, 2, 5, so its columns are of canvas classes (1, 0, 2)."""
    X, y = _three_classes()
    labels = np.array([2, -1, 5])
    job = Job(X, y, SVC(kernel="rbf"), labels=labels)
    svc = SVC(kernel="rbf")
    steps = list(svc.iter_fit(X, labels[y], every=50))
    ev = fitted_frame(svc, steps[-1], job, SPEC, 0.0).evaluation
    assert ev.classes == (1, 0, 2) and ev.test is None
    np.testing.assert_array_equal(labels[predicted_at(ev, ev.train)], svc.predict(X))
    for k, c in enumerate(ev.classes):
        assert ev.train.curves[k].auc == pytest.approx(
            roc_auc_score(y == c, ev.train.scores[:, k]))
