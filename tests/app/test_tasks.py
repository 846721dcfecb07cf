"""The Task box as a teacher drives it: nu-SVC and novelty detection chosen with the keyboard,
points and outlier marks placed with the mouse, trained with F5, paused and stepped with the
buttons, saved, exported, reopened and pictured; each result checked against what the model
is (and scikit-learn's, where it is the oracle)."""
from __future__ import annotations

import json

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from svmdesk.app.tasks import MARK
from svmdesk.app.training.run import RunState
from svmdesk.core import NuSVC, OneClassSVM
from svmdesk.drawing.frame_parts import OUTSIDE
from svmdesk.formats import load_model, load_session

from .test_files import _click_restore
from .test_labels import CTRL, answer_dialogs, press
from .test_panel_rows import _box
from .test_window import TIMEOUT, click, drag

RIGHT = Qt.MouseButton.RightButton


def choose(combo, data) -> None:
    """Pick the item whose data is `data` as a person does with the mouse: open the box's
    list and click the item."""
    target = combo.findData(data)
    assert target >= 0, data
    combo.showPopup()
    view = combo.view()
    QTest.qWaitForWindowExposed(view.window(), 5000)
    rect = view.visualRect(view.model().index(target, 0))
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert combo.currentIndex() == target, (combo.currentData(), data)


def train(window, qtbot):
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT) as ended:
        qtbot.mouseClick(window.panel.run_box.train_button, Qt.MouseButton.LeftButton)
    return ended.args[0]


def step(window, qtbot) -> None:
    """Click Step and wait for the run to stand at the iteration it shows."""
    with qtbot.waitSignal(window.frame_shown, timeout=TIMEOUT):
        qtbot.mouseClick(window.panel.run_box.step_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.run.state == RunState.PAUSED, timeout=TIMEOUT)


def type_value(qtbot, spin, value) -> None:
    """Select a spin box's text and type a number into it, as a person does."""
    spin.setFocus()
    spin.selectAll()
    QTest.keyClicks(spin, f"{value:g}")
    QTest.keyClick(spin, Qt.Key.Key_Return)


def fixed_gamma(window, qtbot, gamma=0.5) -> None:
    """The rbf kernel (the demo's is linear), gamma = 'scale' unticked and a number typed."""
    choose(window.panel.kernel, "rbf")
    control = window.panel.controls["gamma"]
    if control.choice.isChecked():
        qtbot.mouseClick(control.choice, Qt.MouseButton.LeftButton, pos=_box(control.choice))
    type_value(qtbot, control.widget.spin, gamma)
    assert window.panel.params()["gamma"] == gamma


def novelty(window) -> None:
    choose(window.panel.task, "one_class")
    assert window.points.task == "novelty"


# -- the Task box ---------------------------------------------------------------------------
def test_the_task_box_offers_every_kind_and_the_keys_walk_through_them(window):
    task = window.panel.task
    kinds = [task.itemData(k) for k in range(task.count())]
    assert kinds == ["c_svc", "nu_svc", "one_class", "epsilon_svr", "nu_svr"]
    task.setFocus()
    for _ in range(2):
        QTest.keyClick(task, Qt.Key.Key_Down)
    assert task.currentData() == "one_class" and window.points.task == "novelty"


def test_nu_svc_shows_its_rows_and_says_which_solver_trains_it(window, qtbot):
    p = window.panel
    choose(p.task, "nu_svc")
    assert p.controls["nu"].widget.isVisible() and not p.controls["C"].widget.isVisible()
    assert not p.controls["class_weight"].widget.isVisible()     # NuSVC ignores it
    assert p.rows["nu"][0].text() == "ν"
    choose(p.solver, "dual-gradient")
    assert "SMO" in p.reason.text() and "ν-SVC" in p.reason.text()
    assert not p.run_box.train_button.isEnabled()
    press(window, Qt.Key.Key_F5)                     # refused, said, nothing trained
    assert window.fitted is None and "SMO" in window.notices.banner.text()
    choose(p.solver, "smo")
    assert p.run_box.train_button.isEnabled() and not p.reason.isVisible()
    assert set(p.params()) == set(NuSVC().get_params())


def test_nu_svc_trains_and_the_readout_shows_the_nu_property(window, qtbot):
    p = window.panel
    window.editing.generate("gaussians", 120, 1.0, 3)
    choose(p.task, "nu_svc")
    type_value(qtbot, p.controls["nu"].widget.spin, 0.3)
    frame = train(window, qtbot)
    model = window.fitted
    assert isinstance(model, NuSVC) and model.nu == 0.3
    f = frame.reading.fractions
    assert f is not None and f.nu == 0.3
    assert f.errors[1] <= 0.3 + 1e-9 <= f.support[0] + 2e-9
    said = p.readout["fractions"].text()
    assert p.readout["fractions"].isVisible() and "0.3" in said and "%" in said
    label = p.readout_box._form.labelForField(p.readout["fractions"]).text()
    assert "ν" in label
    # the window's model is the oracle's
    from sklearn.svm import NuSVC as Oracle
    X, y = window.points.X, window.points.y
    oracle = Oracle(nu=0.3, kernel=p.kernel_key(), gamma="scale").fit(X, y)
    agree = np.mean(model.predict(X) == oracle.predict(X))
    assert agree >= 0.99


def test_changing_nu_retrains_on_every_edit_and_the_fractions_follow(window, qtbot):
    p = window.panel
    window.editing.generate("gaussians", 100, 1.2, 5)
    choose(p.task, "nu_svc")
    frame = train(window, qtbot)
    before = frame.reading.fractions.support[0]
    retrain = p.run_box.auto_retrain
    qtbot.mouseClick(retrain, Qt.MouseButton.LeftButton, pos=_box(retrain))
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT) as ended:
        type_value(qtbot, p.controls["nu"].widget.spin, 0.9)
    qtbot.waitUntil(lambda: window.fitted is not None and window.fitted.nu == 0.9,
                    timeout=TIMEOUT)
    after = window.last_frame.reading.fractions
    assert ended.args[0] is not None and after.support[0] >= 0.9 - 1e-9 > before


# -- novelty detection --------------------------------------------------------------------------
def test_novelty_clicks_add_points_and_marks_and_undo_brings_the_classes_back(window, qtbot):
    classes = window.points.y.copy()
    assert len(np.unique(classes)) == 2
    novelty(window)
    assert (window.points.y == 0).all()
    assert not window.panel.data_box.klass.isVisible()             # no classes to pick
    n = len(window.points)
    click(window, 0.0, 0.0)
    click(window, 0.5, 0.5, RIGHT)
    assert len(window.points) == n + 2
    assert window.points.y[-2] == 0 and window.points.y[-1] == MARK
    assert "mark" in window.undo.undoText()
    assert window.canvas.marks.isVisible() and len(window.canvas.marks.data) == 1
    QTest.keyClick(window, Qt.Key.Key_3)                   # no class 3 in novelty
    click(window, 0.2, 0.2)
    assert window.points.y[-1] == 0
    for _ in range(4):                                     # back to before the task changed
        press(window, Qt.Key.Key_Z, CTRL)
    assert window.points.task == "classification" and len(window.points) == n
    assert (window.points.y == classes).all()
    assert window.panel.task.currentData() == "c_svc" and window.panel.data_box.klass.isVisible()
    press(window, Qt.Key.Key_Y, CTRL)
    assert window.points.task == "novelty" and window.panel.task.currentData() == "one_class"


def test_novelty_trains_on_the_points_alone_and_marks_what_lies_outside(window, qtbot):
    p = window.panel
    novelty(window)
    choose(p.data_box.generator, "blobs_outliers")
    qtbot.mouseClick(p.data_box.generate_button, Qt.MouseButton.LeftButton)
    y = window.points.y
    assert (y == MARK).any() and (y == 0).any()
    fixed_gamma(window, qtbot, 0.5)
    type_value(qtbot, p.controls["nu"].widget.spin, 0.1)
    frame = train(window, qtbot)
    model = window.fitted
    assert isinstance(model, OneClassSVM)
    X = window.points.X
    inliers = X[y == 0]
    from sklearn.svm import OneClassSVM as Oracle
    oracle = Oracle(nu=0.1, gamma=0.5).fit(inliers)
    np.testing.assert_allclose(model.decision_function(X), oracle.decision_function(X),
                               atol=2e-3)
    assert model.support_vectors_.shape[0] == len(oracle.support_)
    # outside: the points and marks with f < 0, a red cross on each
    f = model.decision_function(X)
    outside = f < OUTSIDE               # below the edge by more than the solver's tolerance
    assert len(frame.scene.outside_xy) == int(outside.sum())
    assert window.canvas.outside.isVisible()
    assert list(frame.scene.contours) == [0.0]           # the edge, no margins
    marks = frame.reading.marks_outside
    assert marks == (int(outside[y == MARK].sum()), int((y == MARK).sum()))
    r = p.readout
    assert r["marks"].isVisible() and r["marks"].text().startswith(f"{marks[0]} ")
    assert r["fractions"].isVisible() and not r["train"].isVisible()
    share = frame.reading.fractions.errors[0]
    assert share == np.mean(outside[y == 0]) <= 0.1 <= frame.reading.fractions.support[0]


def test_novelty_needs_points_to_learn_from(window, qtbot):
    novelty(window)
    qtbot.mouseClick(window.panel.data_box.generate_button, Qt.MouseButton.LeftButton)
    X, y, test, names, task = window.points.state()
    window.points.replace(X, np.full(len(y), MARK), test, names, task)   # marks only
    press(window, Qt.Key.Key_F5)
    assert window.fitted is None and "Novelty detection needs points" in \
        window.notices.banner.text()


def step_twice_and_stop(window, qtbot):
    """With dual gradient ascent (slow steps): Step from rest, Step once more, Stop; the
    frame the run stood at before Stop."""
    p = window.panel
    choose(p.solver, "dual-gradient")
    p.controls["max_iter"].widget.setValue(10_000_000)
    p.controls["tol"].widget.set_value(1e-9)
    step(window, qtbot)
    first = window.last_frame.reading.snapshot.iteration
    step(window, qtbot)
    paused = window.last_frame
    assert paused.reading.snapshot.iteration == first + 1
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT):
        qtbot.mouseClick(p.run_box.stop_button, Qt.MouseButton.LeftButton)
    assert window.run.state == RunState.FINISHED
    return paused


def test_pause_and_step_a_novelty_run_with_the_buttons(window, qtbot):
    novelty(window)
    assert step_twice_and_stop(window, qtbot).reading.fractions is not None


# -- files -------------------------------------------------------------------------------------
def crashed_and_restored(window, private_state_dir, another_window, qtbot):
    """The window's autosave kept, the window gone as if killed; the next window restores
    it with the recovery bar's Restore: that window."""
    autosave = window.files.autosave
    autosave.save_now()
    assert autosave.wait(TIMEOUT / 1000)
    crashed = private_state_dir / "autosave-999999-dead.svmdesk"
    crashed.write_bytes(autosave.path.read_bytes())
    window.shutdown()
    for kept in private_state_dir.glob("unsaved-*.svmdesk"):
        kept.unlink()                                 # a killed window keeps nothing more
    n = len(window.points)
    other = another_window()
    _click_restore(other)
    qtbot.waitUntil(lambda: len(other.points) == n, timeout=TIMEOUT)
    return other


def saved_and_reopened(window, another_window, qtbot, monkeypatch, path):
    """Ctrl+S to `path` (the dialog answered), then `path` opened in another window (made
    after: the keys go to the active window): (the session as saved, the other window)."""
    answer_dialogs(monkeypatch, path)
    press(window, Qt.Key.Key_S, CTRL)
    qtbot.waitUntil(lambda: path.exists(), timeout=TIMEOUT)
    other = another_window()
    other.files.open(path)
    return load_session(path), other


def _trained_novelty(window, qtbot):
    p = window.panel
    novelty(window)
    choose(p.data_box.generator, "ring_outliers")
    qtbot.mouseClick(p.data_box.generate_button, Qt.MouseButton.LeftButton)
    p.data_box.test_fraction.setValue(0.2)
    choose(p.kernel, "rbf")
    type_value(qtbot, p.controls["nu"].widget.spin, 0.15)
    return train(window, qtbot)


def test_a_novelty_session_comes_back_exactly(window, another_window, qtbot, monkeypatch,
                                              tmp_path):
    _trained_novelty(window, qtbot)
    X, y, test, _, task = window.points.state()
    saved, other = saved_and_reopened(window, another_window, qtbot, monkeypatch,
                                      tmp_path / "lab.svmdesk")
    assert saved.task == "novelty" and (saved.outliers == (y == MARK)).all()
    assert saved.settings["kind"] == "one_class" and saved.settings["nu"] == 0.15
    qtbot.waitUntil(lambda: len(other.points) == len(X), timeout=TIMEOUT)
    X2, y2, test2, _, task2 = other.points.state()
    assert task2 == "novelty" and (X2 == X).all() and (y2 == y).all() and (test2 == test).all()
    assert other.panel.task.currentData() == "one_class"
    assert other.panel.params()["nu"] == 0.15
    assert isinstance(other.fitted, OneClassSVM)
    np.testing.assert_array_equal(other.fitted.decision_function(X),
                                  window.fitted.decision_function(X))
    assert other.last_frame.reading.marks_outside == window.last_frame.reading.marks_outside


def test_a_nu_svc_session_comes_back_with_its_kind(window, another_window, qtbot,
                                                   monkeypatch, tmp_path):
    choose(window.panel.task, "nu_svc")
    train(window, qtbot)
    path = tmp_path / "nu.svmdesk"
    answer_dialogs(monkeypatch, path)
    press(window, Qt.Key.Key_S, CTRL)
    qtbot.waitUntil(lambda: path.exists(), timeout=TIMEOUT)
    other = another_window()
    other.files.open(path)
    qtbot.waitUntil(lambda: isinstance(other.fitted, NuSVC), timeout=TIMEOUT)
    assert other.panel.task.currentData() == "nu_svc" and other.points.task == "classification"
    assert other.panel.readout["fractions"].isVisible()
    X = window.points.X
    np.testing.assert_array_equal(other.fitted.decision_function(X),
                                  window.fitted.decision_function(X))


def test_novelty_points_saved_as_data_reopen_with_their_marks(window, qtbot, tmp_path):
    _trained_novelty(window, qtbot)
    X, y = window.points.X, window.points.y
    path = tmp_path / "ring.csv"
    window.files.save_points_to(path)
    qtbot.waitUntil(lambda: path.exists(), timeout=TIMEOUT)
    window.editing.clear_points()
    window.files.open(path)
    qtbot.waitUntil(lambda: len(window.points) == len(X), timeout=TIMEOUT)
    assert window.points.task == "novelty"
    np.testing.assert_array_equal(window.points.X, X)
    np.testing.assert_array_equal(window.points.y, y)


def test_models_of_each_kind_save_export_and_refuse_the_other_task(window, qtbot, tmp_path):
    _trained_novelty(window, qtbot)
    window.files.save_model_to(tmp_path / "one.json")
    window.files.export_to(tmp_path / "one.model")
    qtbot.waitUntil(lambda: (tmp_path / "one.model").exists(), timeout=TIMEOUT)
    assert json.loads((tmp_path / "one.json").read_text())["kind"] == "one_class"
    assert "svm_type one_class" in (tmp_path / "one.model").read_text()
    assert isinstance(load_model(tmp_path / "one.json"), OneClassSVM)
    choose(window.panel.task, "nu_svc")                      # classification again
    train(window, qtbot)
    window.files.export_to(tmp_path / "nu.model")           # labels inlier, outlier: no
    qtbot.waitUntil(lambda: "numeric class labels" in window.notices.banner.text(),
                    timeout=TIMEOUT)
    window.editing.generate("gaussians", 60, 1.0, 0)        # labels 0 and 1
    train(window, qtbot)
    window.files.export_to(tmp_path / "nu.model")
    qtbot.waitUntil(lambda: (tmp_path / "nu.model").exists(), timeout=TIMEOUT)
    assert "svm_type nu_svc" in (tmp_path / "nu.model").read_text()
    before = window.points.state()
    window.files.open(tmp_path / "one.json")                 # a one-class model: not here
    qtbot.waitUntil(lambda: "Novelty detection" in window.notices.banner.text(),
                    timeout=TIMEOUT)
    assert isinstance(window.fitted, NuSVC)
    assert all(np.array_equal(a, b) for a, b in zip(before[:3], window.points.state()[:3]))
    novelty(window)
    window.files.open(tmp_path / "one.json")                 # over novelty points: drawn
    qtbot.waitUntil(lambda: isinstance(window.fitted, OneClassSVM), timeout=TIMEOUT)
    assert window.panel.task.currentData() == "one_class"
    assert list(window.last_frame.scene.contours) == [0.0]


def test_pictures_say_the_kind_and_what_lies_outside(window, qtbot, tmp_path):
    _trained_novelty(window, qtbot)
    caption = window.files.caption()
    assert "one-class SVM" in caption and "nu = 0.15" in caption and "outside" in caption
    assert "outlier marks outside" in caption
    assert window.files.save_picture_to(tmp_path / "ring.png", 800, caption)
    assert (tmp_path / "ring.png").stat().st_size > 1000
    choose(window.panel.task, "nu_svc")
    train(window, qtbot)
    assert window.files.caption().startswith("ν-SVC · ")


def test_an_autosaved_novelty_window_restores_its_marks_and_model(
        window, qtbot, private_state_dir, another_window):
    _trained_novelty(window, qtbot)
    click(window, 0.1, 0.1, RIGHT)                   # one more mark, never saved by hand
    X, y, test, _, _ = window.points.state()
    other = crashed_and_restored(window, private_state_dir, another_window, qtbot)
    X2, y2, test2, _, task = other.points.state()
    assert task == "novelty" and other.panel.task.currentData() == "one_class"
    np.testing.assert_array_equal(X2, X)
    np.testing.assert_array_equal(y2, y)
    np.testing.assert_array_equal(test2, test)


def test_pause_and_step_a_nu_svc_run_with_the_buttons(window, qtbot):
    p = window.panel
    window.editing.generate("moons", 400, 0.3, 0)
    choose(p.task, "nu_svc")
    choose(p.kernel, "rbf")
    step(window, qtbot)
    first = window.last_frame.reading.snapshot.iteration
    step(window, qtbot)
    frame = window.last_frame
    assert frame.reading.snapshot.iteration > first and frame.reading.fractions is not None
    assert p.readout["fractions"].text() != "–"
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT) as ended:
        qtbot.mouseClick(p.run_box.pause_button, Qt.MouseButton.LeftButton)  # Resume: to the end
    assert isinstance(window.fitted, NuSVC) and ended.args[0].reading.snapshot.converged


def test_dragging_a_point_out_of_the_region_retrains_and_flags_it(window, qtbot):
    p = window.panel
    novelty(window)
    window.editing.clear_points()
    rng = np.random.default_rng(0)
    for x, y in rng.normal(scale=0.3, size=(20, 2)):
        click(window, x, y)
    fixed_gamma(window, qtbot, 1.0)
    # nu n = 4 points may lie outside (at nu n = 1 a lone point keeps an island of its own)
    type_value(qtbot, p.controls["nu"].widget.spin, 0.2)
    train(window, qtbot)
    retrain = p.run_box.auto_retrain
    qtbot.mouseClick(retrain, Qt.MouseButton.LeftButton, pos=_box(retrain))
    far = (window.canvas.view.viewRange()[0][1] * 0.8, 0.0)
    start = tuple(window.points.X[0])
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT):
        drag(window, start, far)
    qtbot.waitUntil(lambda: window.run.state == RunState.FINISHED, timeout=TIMEOUT)
    moved = window.points.X[0]
    assert moved[0] > 1.0
    assert window.fitted.decision_function(moved[None])[0] < OUTSIDE   # now an outlier
    assert any(np.allclose(xy, moved) for xy in window.last_frame.scene.outside_xy)


def test_the_status_bar_says_inside_or_outside_under_the_mouse(window, qtbot):
    novelty(window)
    choose(window.panel.kernel, "rbf")
    train(window, qtbot)
    window._hovered(0.0, 0.0)                 # the middle of the demo's disks: inside
    inside = window.statusBar().currentMessage()
    window._hovered(100.0, 100.0)
    outside = window.statusBar().currentMessage()
    assert "inside the region" in inside and "outside the region: an outlier" in outside


def test_the_legend_writes_its_entries_as_they_are(window):
    """pyqtgraph's legend reads labels as HTML: 'f < 0' lost its end, so would a class
    named '<5'."""
    X, y, test, names, task = window.points.state()
    window.points.replace(X, y, test, ["<5", "a & b"], task)
    shown = [label.text for _, label in window.canvas.legend.items]
    assert shown[:2] == ["&lt;5", "a &amp; b"]
    novelty(window)
    shown = [label.text for _, label in window.canvas.legend.items]
    assert "outside the region (f &lt; 0)" in shown
