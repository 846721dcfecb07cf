"""Probabilities in the window as a teacher uses them: the probabilities box ticked with the
mouse, a run, "shade by probability" ticked: the regions change, the boundary lies on
P = 0.5 and the hover line gives each class's probability; without them the box hides."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from .test_hover_terms import hover
from .test_panel_rows import _box
from .test_tasks import train

LEFT = Qt.MouseButton.LeftButton


def _tick(qtbot, check) -> None:
    qtbot.mouseClick(check, LEFT, pos=_box(check))


def _trained_with_probabilities(window, qtbot):
    """The demo's two disks trained with the probabilities box ticked by a click."""
    box = window.panel.controls["probability"].widget
    assert box.isVisible() and not box.isChecked()
    _tick(qtbot, box)
    assert box.isChecked()
    train(window, qtbot)
    assert window.fitted.model_.has_probabilities


def _trained_on_probability_scale(window, qtbot):
    """Trained with probabilities, the Evaluation tab open, its threshold put on P by the
    scale box (at 0.5); the view."""
    from .test_evaluation_view import open_tab
    from .test_tasks import choose

    _trained_with_probabilities(window, qtbot)
    open_tab(window, qtbot)
    view = window.evaluation_view
    assert view.scale.isVisible()
    choose(view.scale, "P")
    assert view.threshold == 0.5 and view.on_probability
    return view


@pytest.mark.slow
def test_shading_by_probability_draws_the_probability_and_its_half_way_line(window, qtbot):
    _trained_with_probabilities(window, qtbot)
    shade = window.panel.run_box.by_probability
    assert shade.isVisible()
    before = window.canvas.regions.image.copy()
    _tick(qtbot, shade)
    assert window.canvas.by_probability
    assert not window.panel.run_box.hard_regions.isEnabled()      # no hard version of P to show
    assert not np.array_equal(window.canvas.regions.image, before)
    np.testing.assert_array_equal(window.canvas.regions.image,
                                  window.last_frame.scene.probability_picture)
    x, y = window.canvas.boundary.getData()
    line = np.column_stack([x, y])
    line = line[np.isfinite(line).all(axis=1)]
    assert len(line) > 10
    positive = window.fitted.predict_proba(line)[:, 1]
    np.testing.assert_allclose(positive, 0.5, atol=0.02)


def test_the_hover_line_gives_each_class_probability(window, qtbot):
    _trained_with_probabilities(window, qtbot)
    x, y = hover(window, qtbot, *window.points.X.mean(axis=0))
    probabilities = window.fitted.predict_proba(np.array([[x, y]]))[0]
    message = window.statusBar().currentMessage()
    names = window.points.class_names
    for k, p in enumerate(probabilities):
        assert f"P({names[k]}) {p:.2f}" in message


def test_without_probabilities_there_is_nothing_to_shade_by(window, qtbot):
    train(window, qtbot)
    assert not window.fitted.model_.has_probabilities
    assert not window.panel.run_box.by_probability.isVisible()
    hover(window, qtbot, *window.points.X.mean(axis=0))
    assert "P(" not in window.statusBar().currentMessage()


def test_a_session_keeps_the_probability_model_and_its_shading(window, qtbot, monkeypatch,
                                                             tmp_path, another_window):
    from .test_labels import saved_and_reopened

    _trained_with_probabilities(window, qtbot)
    _tick(qtbot, window.panel.run_box.by_probability)
    other = saved_and_reopened(window, qtbot, monkeypatch, tmp_path / "shaded.svmdesk",
                               another_window)
    assert other.panel.controls["probability"].widget.isChecked()
    assert other.panel.run_box.by_probability.isChecked() and other.canvas.by_probability
    np.testing.assert_array_equal(other.canvas.regions.image,
                                  other.last_frame.scene.probability_picture)
    np.testing.assert_allclose(other.fitted.predict_proba(window.points.X),
                               window.fitted.predict_proba(window.points.X))


def test_the_threshold_set_on_probability_moves_the_matrices_and_the_boundary(window, qtbot):
    from sklearn import metrics as sk

    from .test_evaluation_view import matrix, type_threshold
    from .test_tasks import choose

    window.panel.data_box.test_fraction.setValue(0.2)
    view = _trained_on_probability_scale(window, qtbot)
    X, y, test = window.points.X, window.points.y, window.points.test_mask
    positive = window.fitted.predict_proba(X)[:, 1]
    for t in (0.5, 0.8):
        if t != 0.5:
            type_threshold(view, qtbot, str(t))
        page = view.classification
        for rows, table in ((~test, page.train_table), (test, page.test_table)):
            np.testing.assert_array_equal(
                matrix(table), sk.confusion_matrix(y[rows], (positive[rows] > t).astype(int),
                                                   labels=[0, 1]))
    x, line_y = window.canvas.boundary.getData()
    line = np.column_stack([x, line_y])
    line = line[np.isfinite(line).all(axis=1)]
    np.testing.assert_allclose(window.fitted.predict_proba(line)[:, 1], 0.8, atol=0.02)
    qtbot.mouseClick(view.reset, LEFT)
    assert view.threshold == 0.5
    assert window.canvas.threshold == 0.5 and window.canvas.on_probability
    choose(view.scale, "f")
    assert view.threshold == 0.0 and not window.canvas.on_probability


def test_a_model_without_probabilities_offers_no_probability_scale(window, qtbot):
    from .test_evaluation_view import open_tab

    train(window, qtbot)
    open_tab(window, qtbot)
    assert not window.evaluation_view.scale.isVisible()


def probability_rule(P: np.ndarray, chosen: int, t: float) -> np.ndarray:
    """Three or more classes' predictions with `chosen`'s threshold at t on P, by hand:
    chosen where P(chosen) / (P(chosen) + P(its strongest rival)) > t; elsewhere the most
    probable class, or where that is chosen, the most probable other one."""
    others = np.delete(np.arange(P.shape[1]), chosen)
    best_other = others[P[:, others].argmax(axis=1)]
    share = P[:, chosen] / (P[:, chosen] + P[:, others].max(axis=1))
    top = P.argmax(axis=1)
    return np.where(share > t, chosen, np.where(top == chosen, best_other, top))


def _three_classes_on_probability(window, qtbot) -> np.ndarray:
    """Three overlapping blobs named -1, 1 and 2, a quarter held out, trained with
    probabilities; the Evaluation tab open with its threshold on P for class "2". The
    held-out mask."""
    from svmdesk.core.point_generators import blobs

    from .test_tasks import choose

    data = blobs(150, 2.2, seed=1, centers=3)
    held_out = np.arange(len(data.y)) % 4 == 0
    window.points.replace(data.X, data.y, held_out, ("-1", "1", "2"),
                          window.points.state()[4])
    choose(_trained_on_probability_scale(window, qtbot).chosen, 2)
    return held_out


def test_three_classes_take_the_threshold_on_probability_against_the_strongest_rival(
        window, qtbot):
    """Three classes named -1, 1 and 2, a quarter held out: on P the matrices start from the
    most probable class, move with the chosen class's threshold as the rule by hand says,
    and the canvas draws the same rule on its grid; Reset brings back 0.5."""
    from sklearn import metrics as sk

    from svmdesk.drawing.shading import regions_picture

    from .test_evaluation_view import matrix, type_threshold

    held_out = _three_classes_on_probability(window, qtbot)
    view = window.evaluation_view
    X, y = window.points.X, window.points.y
    P = window.fitted.predict_proba(X)

    def assert_matrices(predicted):
        page = view.classification
        for rows, table in ((~held_out, page.train_table), (held_out, page.test_table)):
            np.testing.assert_array_equal(matrix(table), sk.confusion_matrix(
                y[rows], predicted[rows], labels=[0, 1, 2]))

    assert_matrices(P.argmax(axis=1))                 # 0.5: the most probable class
    at_half = window.canvas.regions.image.copy()
    spec = window.last_frame.scene.spec
    cells = np.column_stack([np.tile(spec.xs, len(spec.ys)), np.repeat(spec.ys, len(spec.xs))])
    for t in (0.8, 0.3):
        type_threshold(view, qtbot, str(t))
        moved = probability_rule(P, 2, t)
        assert (moved != P.argmax(axis=1)).any()
        assert_matrices(moved)
        expected = regions_picture(probability_rule(
            window.fitted.predict_proba(cells), 2, t).reshape(spec.shape))
        drawn = window.canvas.regions.image
        assert not np.array_equal(drawn, at_half)
        assert np.any(drawn != expected, axis=-1).mean() < 0.005   # float32 grid's edges
    qtbot.mouseClick(view.reset, LEFT)
    assert view.threshold == 0.5
    assert_matrices(P.argmax(axis=1))
    np.testing.assert_array_equal(window.canvas.regions.image, at_half)


def test_a_session_keeps_a_three_class_threshold_on_probability(window, qtbot, monkeypatch,
                                                                tmp_path, another_window):
    from .test_evaluation_view import matrix, open_tab, type_threshold
    from .test_labels import saved_and_reopened

    _three_classes_on_probability(window, qtbot)
    view = window.evaluation_view
    type_threshold(view, qtbot, "0.7")
    other = saved_and_reopened(window, qtbot, monkeypatch, tmp_path / "three.svmdesk",
                               another_window)
    open_tab(other, qtbot)
    reopened = other.evaluation_view
    assert reopened.on_probability and reopened.threshold == 0.7
    assert reopened.chosen.currentText() == "2" and reopened.chosen_class() == 2
    for table in ("train_table", "test_table"):
        np.testing.assert_array_equal(matrix(getattr(reopened.classification, table)),
                                      matrix(getattr(view.classification, table)))
    assert other.canvas.on_probability and other.canvas.threshold == 0.7
    np.testing.assert_array_equal(other.canvas.regions.image, window.canvas.regions.image)


def test_at_1280x720_the_threshold_slider_keeps_room_to_drag_beside_the_scale(window, qtbot):
    """The threshold row at its fullest (the P scale, a class to choose): the slider keeps
    a width a mouse can drag along, every control shows its whole text."""
    window.resize(1280, 720)
    _three_classes_on_probability(window, qtbot)
    view = window.evaluation_view
    qtbot.waitUntil(lambda: view.slider.width() >= 120, timeout=5_000)
    for widget in (view.scale, view.spin, view.chosen, view.reset, view.save):
        assert widget.width() >= widget.minimumSizeHint().width()


def test_the_saved_picture_says_its_threshold_is_on_probability(window, qtbot):
    """Save picture's figure names the scale: a threshold of 0.7 on P is not one on f."""
    from .test_evaluation_view import type_threshold

    _three_classes_on_probability(window, qtbot)
    view = window.evaluation_view
    type_threshold(view, qtbot, "0.7")
    figure = view.figure(800)
    qtbot.addWidget(figure)
    labels = [item.name() for item in figure.ci.getItem(0, 0).listDataItems()
              if item.opts["symbol"]]
    assert labels == ["threshold P = 0.7 on 2"]
