"""Exercises, as a student meets them: File > Examples opens one, its pane shows the
instructions and the goals, the controls it fixes are disabled and say why, the free ones are
typed into and Train clicked until every goal is ticked; the work saves as a session that
still names its exercise and the goals met. The locks hold on every path that sets a value:
a click on the canvas, a data file, a model, a session, a task, a tuned cell, Ctrl+Z."""
from __future__ import annotations

import json

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from svmdesk import resources
from svmdesk.core import SVC, make_dataset
from svmdesk.formats import load_session, save_model, save_session
from svmdesk.formats.exercise import Exercise

from .test_first_day import _examples_menu
from .test_tasks import train, type_value
from .test_window import click, drag

LEFT = Qt.MouseButton.LeftButton
LOCKED_TIP = "The exercise fixes this."


def open_exercise(window, file: str) -> Exercise:
    example = next(e for e in resources.EXERCISES if e.file == file)
    next(a for a in _examples_menu(window).actions() if a.text() == example.title).trigger()
    exercise = window.work.exercise
    assert exercise is not None and exercise == load_session(
        resources.example_path(example)).exercise
    return exercise


def goal_words(window) -> list:
    return [label.text() for label in window.exercise.pane.goal_labels]


def ticked(window) -> bool:
    return all(text.startswith("✓") for text in goal_words(window))


def set_C(qtbot, window, C: float) -> None:
    type_value(qtbot, window.panel.controls["C"].widget.spin, C)
    assert window.panel.params()["C"] == C


@pytest.mark.parametrize("file, free", [
    ("exercise-hard-margin.svmdesk", {}),
    ("exercise-soft-margin.svmdesk", {"C": 0.1}),
    ("exercise-gamma-moons.svmdesk", {"C": 1.0, "gamma": 1.0}),
])
def test_each_example_exercise_opens_locked_and_its_goals_are_met_through_the_widgets(
        window, qtbot, file, free):
    exercise = open_exercise(window, file)
    pane = window.exercise.pane
    assert window.exercise.pane.isVisible()
    assert pane.title.text() == exercise.title["en"]
    assert "<i>" in pane.instructions.toHtml() or "<span style=\" font-style:italic" in \
        pane.instructions.toHtml()
    widgets = window.panel._setting_widgets()
    for name in exercise.locks:
        if name == "points":
            assert not window.panel.data_box.generate_button.isEnabled()
            continue
        assert not widgets[name].isEnabled(), name
        assert widgets[name].toolTip().startswith(LOCKED_TIP), name
    assert widgets["solver"].isEnabled() and widgets["C"].isEnabled()
    words = window.panel.lockable()           # the pane names what it fixes as the panel does
    for name in exercise.locks:
        assert words[name] in pane.fixed.text()
    assert "kind" not in pane.fixed.text() and "the points" in pane.fixed.text()
    assert goal_words(window) and not ticked(window)
    for name, value in free.items():
        type_value(qtbot, window.panel.controls[name].widget.spin, value)
    train(window, qtbot)
    qtbot.waitUntil(lambda: ticked(window), timeout=10_000)
    assert window.exercise.pane.done.isVisible()


def test_the_first_settings_meet_no_goal_of_the_soft_margin_and_the_student_sees_why(
        window, qtbot):
    open_exercise(window, "exercise-soft-margin.svmdesk")
    words = window.panel.lockable()          # the pane says what is fixed, and at what
    fixed = window.exercise.pane.fixed.text()
    assert f"{words['hard_margin']}: off" in fixed and f"{words['kernel']}: linear" in fixed
    train(window, qtbot)                     # C = 100: a narrow margin (a run's first
    # frames, far from the optimum, have wide ones: the goals follow the model drawn)
    qtbot.waitUntil(lambda: goal_words(window)[0].startswith("○ margin width ≥ 2.5"),
                    timeout=10_000)
    set_C(qtbot, window, 0.1)
    train(window, qtbot)
    qtbot.waitUntil(lambda: ticked(window), timeout=10_000)


def test_the_students_work_saves_naming_its_exercise_and_the_goals_met(window, qtbot,
                                                                       tmp_path,
                                                                       another_window):
    exercise = open_exercise(window, "exercise-soft-margin.svmdesk")
    assert window.work.session_path is None           # Ctrl+S never overwrites the example
    set_C(qtbot, window, 0.1)
    train(window, qtbot)
    qtbot.waitUntil(lambda: ticked(window), timeout=10_000)
    path = tmp_path / "mine.svmdesk"
    assert window.files.save_session_to(path)
    saved = load_session(path)
    assert saved.exercise.title == exercise.title and saved.exercise.goals == exercise.goals
    assert saved.exercise.met == (True, True)
    np.testing.assert_array_equal(saved.X, window.points.X)
    # next week: the work reopens in the exercise, its locks and its model's goals
    again = another_window()
    again.files.open(path)
    assert again.work.exercise == saved.exercise
    assert not again.panel.kernel.isEnabled()
    qtbot.waitUntil(lambda: ticked(again), timeout=10_000)


def test_the_points_lock_holds_for_clicks_drags_generate_clear_and_data_files(window,
                                                                              tmp_path):
    open_exercise(window, "exercise-hard-margin.svmdesk")
    before = window.points.X.copy()
    click(window, 0.0, 0.0)
    assert "would change the points, which this exercise fixes" in \
        window.statusBar().currentMessage()
    x, y = before[0]
    drag(window, (x, y), (x + 1.0, y + 1.0))             # a drag of a point moves nothing
    np.testing.assert_array_equal(window.points.X, before)
    assert "Moving a point would change the points" in window.statusBar().currentMessage()
    window.editing.generate("moons", 50, 0.1, 0)         # a script's path to Generate
    window.editing.clear_points()
    data = tmp_path / "other.csv"
    data.write_text("x,y,label\n0,0,a\n1,1,b\n", encoding="utf-8")
    window.files.open(data)
    assert "Opening other.csv would change the points" in window.notices.banner.text()
    np.testing.assert_array_equal(window.points.X, before)
    assert not window.undo.canUndo()                     # nothing to undo into a change


def test_a_model_or_session_that_would_change_a_locked_value_is_refused_naming_it(
        window, qtbot, tmp_path):
    open_exercise(window, "exercise-gamma-moons.svmdesk")
    d = make_dataset("moons", n=40, seed=0)
    model = tmp_path / "linear.json"
    save_model(SVC(kernel="linear").fit(d.X, d.y), model)
    window.files.open(model)
    said = window.notices.banner.text()
    assert "linear.json would change kernel to linear, which this exercise fixes at rbf" in said
    assert window.work.fitted is None and window.panel.kernel_key() == "rbf"
    other = tmp_path / "plain.svmdesk"
    session = window.opener.current_session()
    from dataclasses import replace
    save_session(replace(session, exercise=None,
                         settings={**session.settings, "gamma_scale": True}), other)
    window.files.open(other)                  # a session brings its points too
    assert "Opening plain.svmdesk would change the points" in window.notices.banner.text()
    assert not window.panel.controls["gamma"].choice.isChecked()
    # a model of the locked values is taken
    rbf = tmp_path / "rbf.json"
    save_model(SVC(kernel="rbf", gamma=1.0, C=1.0).fit(d.X, d.y), rbf)
    window.files.open(rbf)
    assert window.work.fitted is not None


def test_a_task_is_refused_when_the_exercise_fixes_it(window, tmp_path):
    session = load_session(resources.example_path(
        next(e for e in resources.EXERCISES if e.file == "exercise-gamma-moons.svmdesk")))
    from dataclasses import replace
    locked_C = replace(session, exercise=replace(session.exercise,
                                                 locks=session.exercise.locks + ("C",)))
    path = tmp_path / "fixed-C.svmdesk"
    save_session(locked_C, path)
    window.files.open(path)
    assert window.work.exercise is not None, window.notices.banner.text()
    assert not window.panel.task.isEnabled()
    regression = next(e for e in resources.EXAMPLES if e.task == "regression")
    window.files.open_example(regression)               # would take the regression task
    assert window.points.task == "classification"
    assert "Choosing that task would change kind to Regression (ε-SVR), which this exercise " \
        "fixes at Classification (C-SVC)" in window.notices.banner.text()


def test_leaving_the_exercise_frees_every_control(window, qtbot):
    open_exercise(window, "exercise-hard-margin.svmdesk")
    assert not window.panel.kernel.isEnabled()
    qtbot.mouseClick(window.exercise.pane.leave, LEFT)
    assert window.work.exercise is None and not window.exercise.pane.isVisible()
    assert window.panel.kernel.isEnabled() and window.panel.data_box.open_button.isEnabled()
    assert not window.panel.kernel.toolTip().startswith(LOCKED_TIP)
    click(window, 0.0, 0.0)
    assert len(window.points) == 41


def test_a_bad_exercise_is_refused_naming_the_field_and_changes_nothing(window, tmp_path):
    example = next(e for e in resources.EXERCISES if e.file == "exercise-soft-margin.svmdesk")
    doc = json.loads(resources.example_path(example).read_text("utf-8"))
    doc["exercise"]["goals"][1]["comparison"] = "=="
    bad = tmp_path / "bad.svmdesk"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    before = window.points.X.copy()
    window.files.open(bad)
    assert "exercise.goals[1].comparison must be one of" in window.notices.banner.text()
    assert window.work.exercise is None and window.panel.kernel.isEnabled()
    np.testing.assert_array_equal(window.points.X, before)


def test_the_pane_speaks_japanese(window, qtbot):
    from svmdesk.i18n import set_language
    try:
        set_language("ja")
        exercise = open_exercise(window, "exercise-gamma-moons.svmdesk")
        assert window.exercise.pane.title.text() == exercise.title["ja"]
        assert goal_words(window)[0] == "○ テスト精度 ≥ 0.9"
    finally:
        set_language("en")
    QTest.qWait(0)


def _menu_action(window, text: str):
    file_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&File")
    return next(a for a in file_menu.actions() if a.text() == text)


def test_a_teacher_saves_the_work_as_an_exercise_a_student_opens_locked(
        window, qtbot, monkeypatch, tmp_path, another_window):
    from .test_labels import answer_dialogs
    from .test_panel_rows import _box
    from .test_tasks import choose

    box = window.panel.data_box                   # the teacher's points, from a seed
    choose(box.generator, "moons")
    type_value(qtbot, box.n_points, 80)
    type_value(qtbot, box.seed, 3)
    qtbot.mouseClick(box.generate_button, LEFT)
    assert len(window.points) == 80
    train(window, qtbot)                          # the teacher's model stays at home
    _menu_action(window, "Sa&ve as exercise…").trigger()
    form = window.files.dialog
    qtbot.waitExposed(form)
    qtbot.mouseClick(form.save_button, LEFT)          # nothing written yet: it says why
    assert form.isVisible() and "Give the exercise a title" in form.said.text()
    QTest.keyClicks(form.titles["en"], "Moons by hand")
    qtbot.mouseClick(form.save_button, LEFT)
    assert "English has only one of them" in form.said.text()
    QTest.keyClicks(form.texts["en"], "Find a *gamma* that generalises.")
    for name in ("points", "kernel"):
        qtbot.mouseClick(form.locks[name], LEFT, pos=_box(form.locks[name]))
    row = form.goal_rows[0]
    choose(row.measure, "train_accuracy")
    choose(row.comparison, ">=")
    type_value(qtbot, row.number, 0.8)
    assert row.number.text() == "0.8"                  # as the pane will write it
    path = tmp_path / "moons.svmdesk"
    answer_dialogs(monkeypatch, path)
    qtbot.mouseClick(form.save_button, LEFT)
    assert path.exists(), window.notices.banner.text()
    saved = load_session(path)
    assert saved.model is None and saved.exercise.met is None
    assert saved.exercise.title == {"en": "Moons by hand"}
    assert saved.exercise.locks == ("points", "kernel")
    assert saved.exercise.data == {"generator": "moons", "n": 80, "noise": 0.2, "seed": 3}
    assert [g.words() for g in saved.exercise.goals] == ["train accuracy ≥ 0.8"]
    assert window.work.exercise is None and window.panel.kernel.isEnabled()
    student = another_window()
    student.files.open(path)
    assert student.exercise.pane.isVisible() and not student.panel.kernel.isEnabled()
    assert student.exercise.pane.title.text() == "Moons by hand"
    train(student, qtbot)
    qtbot.waitUntil(lambda: ticked(student), timeout=10_000)


def test_the_exercise_survives_the_autosave_and_its_restore(window, qtbot, another_window,
                                                            private_state_dir):
    from .test_files import _click_restore

    exercise = open_exercise(window, "exercise-hard-margin.svmdesk")
    train(window, qtbot)
    qtbot.waitUntil(lambda: ticked(window), timeout=10_000)
    autosave = window.files.autosave
    autosave.save_now()
    assert autosave.wait(10)
    kept = load_session(autosave.path).exercise
    assert kept.title == exercise.title and kept.met == (True, True)
    # kill -9: the autosave stays, and the next window offers it back, exercise and all
    (private_state_dir / "autosave-999999-dead.svmdesk").write_bytes(
        autosave.path.read_bytes())
    window.shutdown()
    for leftover in private_state_dir.glob("unsaved-*.svmdesk"):
        leftover.unlink()
    other = another_window()
    _click_restore(other)
    qtbot.waitUntil(lambda: other.work.exercise is not None, timeout=10_000)
    assert other.work.exercise.locks == exercise.locks
    assert not other.panel.kernel.isEnabled() and other.exercise.pane.isVisible()
    qtbot.waitUntil(lambda: ticked(other), timeout=10_000)        # its model came back


def test_ctrl_z_after_opening_an_exercise_changes_nothing_it_fixes(window, qtbot):
    from .test_labels import CTRL, press

    click(window, 0.5, 0.5)                       # an edit before: not undoable after
    open_exercise(window, "exercise-gamma-moons.svmdesk")
    before = (window.points.X.copy(), window.panel.settings())
    press(window, Qt.Key.Key_Z, CTRL)
    np.testing.assert_array_equal(window.points.X, before[0])
    assert window.panel.settings() == before[1]


def _exercise_fixing(tmp_path, locks: tuple):
    """The gamma-and-moons exercise saved again fixing `locks` (and nothing else)."""
    from dataclasses import replace

    session = load_session(resources.example_path(
        next(e for e in resources.EXERCISES if e.file == "exercise-gamma-moons.svmdesk")))
    path = tmp_path / "fixed.svmdesk"
    save_session(replace(session, exercise=replace(session.exercise, locks=locks)), path)
    return path


def test_a_session_of_other_locked_settings_is_refused_naming_the_setting(window, tmp_path):
    """Points free, kernel and C fixed: a plain session brings its points (taken) only if
    its settings leave the locked ones as they are."""
    from dataclasses import replace

    window.files.open(_exercise_fixing(tmp_path, ("kernel", "C")))
    assert window.work.exercise.locks == ("kernel", "C")
    plain = replace(window.opener.current_session(), exercise=None)
    other = tmp_path / "linear.svmdesk"
    save_session(replace(plain, settings={**plain.settings, "kernel": "linear"}), other)
    window.files.open(other)
    assert "linear.svmdesk would change kernel to linear, which this exercise fixes at rbf" \
        in window.notices.banner.text()
    assert window.panel.kernel_key() == "rbf"
    same = tmp_path / "same.svmdesk"
    save_session(replace(plain, X=plain.X + 0.5), same)      # other points, same settings
    window.files.open(same)
    np.testing.assert_array_equal(window.points.X, plain.X + 0.5)
    assert window.work.exercise.locks == ("kernel", "C")      # still in the exercise


def test_a_cell_of_the_tune_map_clicked_is_refused_when_the_exercise_fixes_C(window, qtbot,
                                                                             tmp_path):
    from .test_tuning import map_pos

    window.files.open(_exercise_fixing(tmp_path, ("kernel", "C", "points")))
    QTest.keyClick(window, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    panel = window.tuning_panel
    for fields, values in ((panel.c_range, (-1, 1, 2)), (panel.gamma_range, (-1, 1, 2))):
        for field, value in zip((fields.start, fields.stop, fields.step), values):
            field.setValue(value)
    panel.folds.setValue(2)
    qtbot.mouseClick(panel.tune, LEFT)                 # no loop running: the grid runs inline
    qtbot.waitUntil(lambda: window.work.tuning is not None
                    and len(window.work.tuning.cells) == 4, timeout=10_000)
    QTest.mouseClick(panel.map.viewport(), LEFT, Qt.KeyboardModifier.NoModifier,
                     map_pos(panel, 2.0, 2.0).toPoint())
    assert "The cell clicked would change C to 2, which this exercise fixes at 100" in \
        window.notices.banner.text()
    assert window.panel.params()["C"] == 100.0 and not window.run.active


def test_a_model_of_a_soft_margin_is_refused_where_the_exercise_fixes_the_hard_one(
        window, tmp_path):
    """The hard margin is a check box, but in a model it is C = inf: the model is read as
    the settings it would show (a soft margin's model was taken, the lock unseen)."""
    open_exercise(window, "exercise-hard-margin.svmdesk")
    d = make_dataset("blobs", n=40, seed=1)
    soft = tmp_path / "soft.json"
    save_model(SVC(kernel="linear", C=1.0).fit(d.X, d.y), soft)
    window.files.open(soft)
    assert "soft.json would change hard_margin to off, which this exercise fixes at on" in \
        window.notices.banner.text()
    assert window.work.fitted is None and window.panel.params()["C"] in (None, float("inf"))
    hard = tmp_path / "hard.json"
    save_model(SVC(kernel="linear", C=float("inf")).fit(d.X, d.y), hard)
    window.files.open(hard)                       # the hard margin's own model is taken
    assert window.work.fitted is not None
