"""What the window shows stays true across a change of task and its undo, as a student on a
first lab day drives it: Generate with the Data box's buttons, the Task box's list, F5,
Ctrl+Z and Ctrl+Shift+Z, the mouse over the plot. Undo brings back the model, picture,
readout, evaluation and panel that stood before, without training again; a cross-validation
shows beside the settings it scored; novelty detection starts on the rbf kernel; and no
control moves under the cursor when a box is ticked, a model drawn or the task changed."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from svmdesk.drawing.frame_views import decision_at

from .test_labels import CTRL, press
from .test_panel_rows import _box
from .test_tasks import choose, type_value
from .test_window import TIMEOUT, click, viewport_pos

SHIFT = Qt.KeyboardModifier.ShiftModifier
LEFT = Qt.MouseButton.LeftButton


def generate(window, qtbot, name: str, n: int) -> None:
    """The Data box as a person uses it: pick the generator, type n, click Generate."""
    p = window.panel
    choose(p.data_box.generator, name)
    type_value(qtbot, p.data_box.n_points, n)
    qtbot.mouseClick(p.data_box.generate_button, LEFT)
    assert len(window.points) == n


def f5(window, qtbot):
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT) as ended:
        press(window, Qt.Key.Key_F5)
    return ended.args[0]


def hover(window, qtbot, x: float, y: float) -> str:
    """Move the mouse over (x, y) of the plot; what the status bar says then."""
    viewport = window.canvas.viewport()
    at = QPointF(viewport_pos(window, x, y))
    with qtbot.waitSignal(window.canvas.hovered, timeout=2000):
        QApplication.sendEvent(viewport, QMouseEvent(
            QEvent.Type.MouseMove, at, QPointF(viewport.mapToGlobal(at)),
            Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier))
    return window.statusBar().currentMessage()


def shown(window) -> dict:
    """What the window shows of the model and the panel, as values to compare."""
    readout = window.panel.readout_box
    return {"fitted": window.fitted, "frame": window.last_frame,
            "readout": {k: v.text() for k, v in readout.values.items()},
            "rows": {k: v.isVisibleTo(readout) for k, v in readout.values.items()},
            "settings": window.panel.settings(),
            "charts": window.charts.history.column("dual").tolist(),
            "evaluation": window.evaluation_view.evaluation,
            "task": window.points.task,
            "generator": window.panel.data_box.generator.currentText()}


def assert_shows(window, expected: dict) -> None:
    now = shown(window)
    assert now["fitted"] is expected["fitted"] and now["frame"] is expected["frame"]
    assert now["evaluation"] is expected["evaluation"]
    for key in ("readout", "rows", "settings", "task", "generator"):
        assert now[key] == expected[key], key
    np.testing.assert_array_equal(now["charts"], expected["charts"])


def _moons_then_novelty(window, qtbot):
    generate(window, qtbot, "moons", 200)
    choose(window.panel.kernel, "rbf")
    f5(window, qtbot)
    classification = shown(window)
    choose(window.panel.task, "one_class")
    assert window.fitted is None and window.last_frame is None    # the other task's model went
    f5(window, qtbot)
    return classification, shown(window)


def test_undo_and_redo_of_a_task_change_bring_back_what_stood_without_training(window, qtbot):
    classification, novelty = _moons_then_novelty(window, qtbot)
    assert novelty["fitted"].model_.kind == "one_class"
    started = []
    window.run.started.connect(started.append)
    press(window, Qt.Key.Key_Z, CTRL)
    assert_shows(window, classification)
    assert not window.running and not started               # restored, not retrained
    said = window.statusBar().currentMessage()               # no other run's line
    assert said.startswith("Undone: Change the task to novelty detection.")
    assert "nothing was trained" in said
    assert window.panel.task.currentData() == "c_svc"
    assert window.panel.data_box.generator.currentData() == "moons"
    # the mouse over the surest point of class 0: f < 0 there, and the line says class 0
    X, y = window.points.X, window.points.y
    at = X[y == 0][np.argmin(window.fitted.decision_function(X[y == 0]))]
    f, cls = decision_at(window.last_frame, tuple(at))
    said = hover(window, qtbot, *at)
    assert cls == 0 and f < 0 and f"predicted class: {window.points.class_names[0]}" in said
    press(window, Qt.Key.Key_Z, CTRL | SHIFT)
    assert_shows(window, novelty)
    assert window.statusBar().currentMessage().startswith("Redone: ")
    assert window.panel.task.currentData() == "one_class" and not started
    press(window, Qt.Key.Key_Z, CTRL)                         # and back once more
    assert_shows(window, classification)
    assert not started


def test_undo_of_a_task_change_with_retrain_on_edit_does_not_train(window, qtbot):
    p = window.panel
    generate(window, qtbot, "moons", 120)
    f5(window, qtbot)
    classification = shown(window)
    qtbot.mouseClick(p.run_box.auto_retrain, LEFT, pos=_box(p.run_box.auto_retrain))
    assert p.run_box.auto_retrain.isChecked()
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT):
        choose(p.task, "one_class")                           # an edit: it retrains
    qtbot.waitUntil(lambda: not window.running and window.fitted is not None, timeout=TIMEOUT)
    started = []
    window.run.started.connect(started.append)
    press(window, Qt.Key.Key_Z, CTRL)
    settings = dict(classification["settings"], auto_retrain=True)
    assert_shows(window, dict(classification, settings=settings))
    assert not started and not window.running


def test_undo_during_a_run_of_the_other_task_stops_it_and_shows_the_model_before(window,
                                                                                  qtbot):
    generate(window, qtbot, "moons", 200)
    f5(window, qtbot)
    classification = shown(window)
    choose(window.panel.task, "one_class")
    with qtbot.waitSignal(window.frame_shown, timeout=TIMEOUT):   # paused at its first step
        qtbot.mouseClick(window.panel.run_box.step_button, LEFT)
    assert window.running
    press(window, Qt.Key.Key_Z, CTRL)
    qtbot.waitUntil(lambda: not window.running, timeout=TIMEOUT)
    assert_shows(window, classification)
    press(window, Qt.Key.Key_Z, CTRL | SHIFT)       # the run was cut short: no model to show
    assert window.fitted is None and window.last_frame is None
    assert "No model was shown then" in window.statusBar().currentMessage()
    assert window.points.task == "novelty"


@pytest.mark.parametrize("through", [["one_class"], ["one_class", "epsilon_svr"],
                                     ["epsilon_svr", "one_class", "nu_svr"]])
def test_the_classes_come_back_after_a_journey_through_other_tasks(window, qtbot, through):
    """Each point keeps its class through novelty detection and regression, chosen in the
    Task box (not undone): back in classification the points have the classes they had,
    and outlier marks placed meanwhile are a class of their own."""
    from svmdesk.app.tasks import MARK

    from .test_evaluation_view import three_classes

    three_classes(window, qtbot)                        # classes -1, 1, 2 as a file names
    X, classes = window.points.X.copy(), window.points.y.copy()
    n = len(classes)
    assert len(np.unique(classes)) == 3
    for kind in through:
        choose(window.panel.task, kind)
    if window.points.novelty:                         # a mark, and a removal undone
        (x0, x1), (y0, y1) = window.canvas.view.viewRange()
        click(window, x0 + 0.05 * (x1 - x0), y0 + 0.05 * (y1 - y0), Qt.MouseButton.RightButton)
        assert window.points.y[-1] == MARK
        window.editing.remove_point(0)
        press(window, Qt.Key.Key_Z, CTRL)
    choose(window.panel.task, "c_svc")
    y = window.points.y
    np.testing.assert_array_equal(window.points.X[:n], X)
    np.testing.assert_array_equal(y[:n], classes)
    if len(y) > n:
        assert y[n] == 3                                # the mark: a class of its own
    assert window.points.class_names[:3] == ["-1", "1", "2"]
    f5(window, qtbot)
    assert window.fitted is not None


def test_the_empty_matrices_name_the_classes_of_the_points_shown(window, qtbot):
    """Before a model, the evaluation's empty matrices name the classes the points have now,
    not those of the points replaced."""
    from .test_evaluation_view import three_classes

    three_classes(window, qtbot)
    view = window.evaluation_view
    window.below.setCurrentWidget(view)
    generate(window, qtbot, "moons", 60)
    assert window.last_frame is None and view.names == ["0", "1"]
    choose(window.panel.task, "one_class")
    assert view.names == ["inside", "outlier marks"]
    table = view.classification.train_table
    qtbot.waitUntil(lambda: table.horizontalHeaderItem(0).text() == "inside",
                    timeout=2000)                               # drawn on the next turn


# -- the cross-validation line ------------------------------------------------------------
def _cross_validate(window, qtbot) -> None:
    view = window.evaluation_view
    window.below.setCurrentWidget(view)
    with qtbot.waitSignal(window.cross_validation.finished, timeout=TIMEOUT):
        qtbot.mouseClick(view.cv_row.cross_validate, LEFT)


@pytest.mark.slow
def test_a_cross_validation_shows_only_beside_the_task_and_settings_it_scored(window, qtbot):
    generate(window, qtbot, "moons", 120)
    _cross_validate(window, qtbot)
    line = window.evaluation_view.cv_row.cv_results
    said = line.text()
    assert "accuracy" in said and "probability" not in said and " = 0" not in said
    assert "earlier" not in said.lower()
    choose(window.panel.task, "one_class")                  # no labels: no accuracy shown
    assert "accuracy" not in line.text() and "no labels" in line.text()
    choose(window.panel.task, "epsilon_svr")
    assert "accuracy" not in line.text()
    choose(window.panel.task, "c_svc")
    assert "accuracy" in line.text() and "earlier" not in line.text().lower()
    type_value(qtbot, window.panel.controls["C"].widget.spin, 10)     # other settings now
    assert "accuracy" in line.text() and "earlier settings" in line.text().lower()
    type_value(qtbot, window.panel.controls["C"].widget.spin, 1)
    assert "earlier" not in line.text().lower()
    n = len(window.points)
    (x0, x1), (y0, y1) = window.canvas.view.viewRange()
    click(window, x0 + 0.1 * (x1 - x0), y0 + 0.1 * (y1 - y0))   # other points now
    assert len(window.points) == n + 1
    assert "earlier points" in line.text().lower()
    press(window, Qt.Key.Key_Z, CTRL)                       # the points it scored
    assert "accuracy" in line.text() and "earlier" not in line.text().lower()


# -- novelty's kernel ---------------------------------------------------------------------
def test_novelty_detection_starts_on_rbf_and_says_why_linear_is_a_half_plane(window, qtbot):
    p = window.panel
    assert p.kernel_key() == "linear"                       # the demo's classification
    choose(p.task, "one_class")
    assert p.kernel_key() == "rbf" and not p.kernel_note.isVisible()
    choose(p.kernel, "linear")                              # the user's own choice holds
    assert p.kernel_note.isVisible() and "half-plane" in p.kernel_note.text()
    choose(p.task, "c_svc")
    assert p.kernel_key() == "linear" and not p.kernel_note.isVisible()
    choose(p.task, "one_class")
    assert p.kernel_key() == "linear"                       # picked there: kept there


# -- nothing moves under the cursor -------------------------------------------------------
def _places(window) -> dict:
    """Where each button, box and field of the panel sits on the screen."""
    from PySide6.QtWidgets import QAbstractButton, QAbstractSpinBox, QComboBox

    widgets = [w for kind in (QAbstractButton, QComboBox, QAbstractSpinBox)
               for w in window.panel.findChildren(kind)]
    widgets += window.panel.run_box.findChildren(QAbstractButton)
    return {id(w): w.mapToGlobal(w.rect().topLeft()) for w in widgets if w.isVisible()}


def _settle(qtbot) -> None:
    qtbot.wait(1)
    QApplication.processEvents()


def test_no_control_moves_when_a_model_with_probabilities_comes_and_goes(window, qtbot):
    p = window.panel
    window.resize(1280, 720)
    generate(window, qtbot, "moons", 100)
    _settle(qtbot)
    before = _places(window)
    probability = p.controls["probability"].widget
    qtbot.mouseClick(probability, LEFT, pos=_box(probability))
    assert probability.isChecked()
    f5(window, qtbot)
    _settle(qtbot)
    assert p.run_box.by_probability.isVisible()
    after = _places(window)
    moved = [k for k in before if k in after and before[k] != after[k]]
    assert not moved
    qtbot.mouseClick(p.run_box.reset_button, LEFT)
    _settle(qtbot)
    assert _places(window) == {k: v for k, v in after.items() if k in _places(window)}


@pytest.mark.parametrize("kind", ["one_class", "epsilon_svr", "nu_svc"])
def test_the_task_box_and_the_data_box_stay_put_when_the_task_changes(window, qtbot, kind):
    from PySide6.QtWidgets import QAbstractButton, QGroupBox

    p = window.panel
    window.resize(1280, 720)
    _settle(qtbot)
    data_box = next(box for box in p.findChildren(QGroupBox) if box.title() == "Data")
    buttons = data_box.findChildren(QAbstractButton) + p.run_box.findChildren(QAbstractButton)

    def places():
        return {id(w): w.mapToGlobal(w.rect().topLeft()) for w in [p.task, *buttons]
                if w.isVisible()}

    before = places()
    choose(p.task, kind)
    _settle(qtbot)
    after = places()
    assert len(set(before) & set(after)) >= len(before) - 1       # the regions' box may go
    assert {k: v for k, v in after.items() if k in before} == \
        {k: v for k, v in before.items() if k in after}


def test_a_ticked_box_of_the_panel_stays_under_the_cursor(window, qtbot):
    """Ticking 'hard margin' hides C and unticking gamma's 'scale' shows gamma: the box
    itself never moves, so a second click lands on it again."""
    from PySide6.QtWidgets import QCheckBox

    p = window.panel
    window.resize(1280, 720)
    choose(p.kernel, "rbf")
    boxes = [box for box in p.findChildren(QCheckBox) if box.isVisible()]
    assert {"hard margin (C = ∞)", "gamma = 'scale' (1 / (d · var X))"} <= {
        box.text() for box in boxes}
    for box in boxes:
        _settle(qtbot)
        where = box.mapToGlobal(box.rect().topLeft())
        for _ in range(2):
            qtbot.mouseClick(box, LEFT, pos=_box(box))
            _settle(qtbot)
            assert box.mapToGlobal(box.rect().topLeft()) == where, box.text()


def test_a_task_change_with_retrain_on_edit_starts_one_run(window, qtbot):
    p = window.panel
    qtbot.mouseClick(p.run_box.auto_retrain, LEFT, pos=_box(p.run_box.auto_retrain))
    qtbot.waitUntil(lambda: not window.running, timeout=TIMEOUT)
    started = []
    window.run.started.connect(started.append)
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT):
        choose(p.task, "one_class")
    qtbot.waitUntil(lambda: not window.running, timeout=TIMEOUT)
    assert len(started) == 1 and window.fitted.model_.kind == "one_class"
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT):
        choose(p.task, "c_svc")                   # and within a task: one run too
    qtbot.waitUntil(lambda: not window.running, timeout=TIMEOUT)
    started.clear()
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT):
        choose(p.task, "nu_svc")
    qtbot.waitUntil(lambda: not window.running, timeout=TIMEOUT)
    assert len(started) == 1 and window.fitted.model_.kind == "nu_svc"
