"""A model trained with Platt's sigmoids is drawn by probability too: each class's P on the
grid is the model's own predict_proba there, the picture tints the most probable class, the
boundary lies on P = 0.5 (two classes) and a model without sigmoids draws none of it."""
import numpy as np
import pytest
from scipy.interpolate import RegularGridInterpolator

from svmdesk.core import SVC, make_dataset
from svmdesk.drawing.decision_grid import GridSpec
from svmdesk.drawing.frame_views import probabilities_at, regrid
from svmdesk.drawing.model_frames import model_frame
from svmdesk.drawing.shading import PALETTE, SOFT, probability_picture

SPEC = GridSpec(-2, 3, -1.5, 2, 50, 40)


def _fitted(dataset: str, probability: bool = True) -> tuple:
    d = (make_dataset("blobs", n=90, noise=0.6, seed=3, centers=3) if dataset == "blobs3"
         else make_dataset(dataset, n=90, noise=0.3, seed=3))
    X, y = np.asarray(d.X), np.asarray(d.y)
    return SVC(probability=probability, random_state=0).fit(X, y), X, y


def _grid_probabilities(model, spec: GridSpec) -> np.ndarray:
    """predict_proba on every grid point, (K, ny, nx)."""
    return model.predict_proba(spec.points).T.reshape((-1,) + spec.shape)


@pytest.mark.parametrize("dataset", ["moons", "blobs3"])
def test_the_grid_holds_the_models_own_probabilities(dataset):
    svc, X, y = _fitted(dataset)
    frame = model_frame(svc, X, y, SPEC)
    got = frame.scene.class_probabilities
    assert got.dtype == np.float32 and got.shape == (len(svc.classes_),) + SPEC.shape
    np.testing.assert_allclose(got, _grid_probabilities(svc.model_, SPEC), atol=1e-6)
    moved_spec = GridSpec(-1, 1, 0, 1, 30, 20)
    moved = regrid(frame, moved_spec).scene
    np.testing.assert_allclose(moved.class_probabilities,
                               _grid_probabilities(svc.model_, moved_spec), atol=1e-6)
    assert moved.probability_picture.shape == moved_spec.shape + (4,)


def test_the_two_class_boundary_lies_on_one_half():
    svc, X, y = _fitted("moons")
    scene = model_frame(svc, X, y, SPEC).scene
    line = scene.probability_boundary
    line = line[np.isfinite(line).all(axis=1)]
    assert len(line) > 10
    positive = RegularGridInterpolator((SPEC.ys, SPEC.xs), scene.class_probabilities[1])
    np.testing.assert_allclose(positive(line[:, ::-1]), 0.5, atol=1e-6)
    exact = svc.predict_proba(line)[:, 1]          # the grid's line, to its cells' size
    np.testing.assert_allclose(exact, 0.5, atol=0.05)


def test_probabilities_at_a_point_are_predict_probas():
    svc, X, y = _fitted("blobs3")
    frame = model_frame(svc, X, y, SPEC)
    np.testing.assert_array_equal(probabilities_at(frame, (0.3, -0.2)),
                                  svc.predict_proba(np.array([[0.3, -0.2]]))[0])


def test_a_model_without_sigmoids_has_no_probabilities():
    svc, X, y = _fitted("moons", probability=False)
    frame = model_frame(svc, X, y, SPEC)
    scene = regrid(frame, GridSpec(-1, 1, 0, 1, 30, 20)).scene
    for s in (frame.scene, scene):
        assert s.class_probabilities is None and s.probability_picture is None
        assert s.probability_boundary is None
    assert probabilities_at(frame, (0.0, 0.0)) is None


def test_the_picture_tints_the_most_probable_class_by_how_probable():
    probabilities = np.array([[[0.5, 0.2, 0.0]], [[0.5, 0.8, 1.0]]])
    picture = probability_picture(probabilities, [3, 5])
    white = np.array([255.0, 255.0, 255.0])
    five = np.array([int(PALETTE[5][i:i + 2], 16) for i in (1, 3, 5)])
    assert (picture[0, 0] == 255).all()                      # a tie: white
    for cell, certainty in ((1, 0.6), (2, 1.0)):
        expected = np.rint(white + SOFT * certainty * (five - white))
        np.testing.assert_array_equal(picture[0, cell, :3], expected)
    assert (picture[..., 3] == 255).all()
    three = probability_picture(np.array([[[0.6]], [[0.3]], [[0.1]]]), [0, 1, 2])
    zero = np.array([int(PALETTE[0][i:i + 2], 16) for i in (1, 3, 5)])
    np.testing.assert_array_equal(three[0, 0, :3], np.rint(white + SOFT * 0.4 * (zero - white)))


@pytest.mark.parametrize("t", [0.5, 0.3, 0.85])
def test_three_classes_at_a_probability_threshold_move_the_chosen_class(t):
    """frame_views.at_probability on a three-class grid: the regions follow the rule of the
    evaluation (the chosen class against its strongest rival above t, else the most
    probable class or the most probable other), the boundary is theirs, and the picture
    tints each cell in the colour of the class the rule gives it."""
    from svmdesk.core.estimators.one_vs_one import vote_at_threshold
    from svmdesk.core.probability import duel_probabilities, rivals
    from svmdesk.drawing.contours import region_boundaries
    from svmdesk.drawing.frame_views import at_probability

    svc, X, y = _fitted("blobs3")
    scene = model_frame(svc, X, y, SPEC, colours=[4, 6, 7]).scene
    assert at_probability(scene, t) is scene               # no class chosen: as it is
    moved = at_probability(scene, t, chosen=7)
    P = _grid_probabilities(svc.model_, SPEC).reshape(3, -1).T
    colours = np.array([4, 6, 7])
    expected = vote_at_threshold(duel_probabilities(P)[:, 2], colours[P.argmax(axis=1)],
                                 colours[rivals(P)[1][:, 2]], 7, t,
                                 neutral=0.5).reshape(SPEC.shape)
    assert np.mean(moved.regions != expected) < 0.005      # float32 grid: its edges only
    if t == 0.5:
        np.testing.assert_array_equal(expected, colours[P.argmax(axis=1)].reshape(SPEC.shape))
    np.testing.assert_array_equal(moved.contours[0.0], moved.probability_boundary)
    np.testing.assert_array_equal(
        moved.probability_boundary,
        region_boundaries(moved.regions, SPEC.xs, SPEC.ys))
    tints = np.array([[int(PALETTE[c][i:i + 2], 16) for i in (1, 3, 5)] for c in colours])
    shift = moved.probability_picture[..., :3].reshape(-1, 3).astype(float) - 255
    tinted = (shift != 0).any(axis=1)
    toward = shift[tinted] @ (tints - 255).T / np.linalg.norm(tints - 255, axis=1)
    leaning = colours[(toward / np.linalg.norm(shift[tinted], axis=1)[:, None]).argmax(axis=1)]
    # each tinted cell leans to its own region's colour (the float32 grid: edges aside)
    assert np.mean(leaning != moved.regions.ravel()[tinted]) < 0.005


def test_two_classes_at_one_half_draw_where_p_is_one_half_not_where_f_is_zero():
    from svmdesk.drawing.frame_views import at_probability

    svc, X, y = _fitted("moons")
    scene = model_frame(svc, X, y, SPEC).scene
    moved = at_probability(scene, 0.5)
    np.testing.assert_array_equal(moved.contours[0.0], scene.probability_boundary)
    assert not np.array_equal(moved.contours[0.0], scene.contours[0.0])
