"""Cross-validation from the evaluation tab, as a student compares two settings: the
button clicked runs k folds of the panel's settings on the training points off the GUI
thread (the app's loop), its progress shows, Cancel stops it between folds, and the
newest results stand side by side with each fold's score and the settings they judged;
the numbers are the core's cross_validate on the same folds."""
import asyncio
import threading

import numpy as np
from PySide6.QtCore import Qt

from svmdesk.app.training import cross_validation as cv_module
from svmdesk.core import SVC, SVR, cross_validate

from .conftest import until
from .test_evaluation_view import open_tab
from .test_tasks import choose

TIMEOUT = 8.0


def run_on_loop(loop, coroutine) -> None:
    loop.run_until_complete(asyncio.wait_for(coroutine, TIMEOUT))


def click(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def training_points(window):
    X, y, test = window.points.X, window.points.y, window.points.test_mask
    names = np.array(window.work.used_class_names())
    return X[~test], names[y[~test]]


def test_two_settings_are_scored_on_folds_off_the_gui_thread(window, qtbot, qasync_loop,
                                                             monkeypatch):
    threads, original = [], cv_module.cross_validate

    def spy(*args, **kwargs):
        threads.append(threading.current_thread())
        return original(*args, **kwargs)

    monkeypatch.setattr(cv_module, "cross_validate", spy)
    window.panel.data_box.test_fraction.setValue(0.2)
    open_tab(window, qtbot)
    view = window.evaluation_view
    view.cv_row.folds.setValue(4)
    for C in (1.0, 10.0):
        window.panel.controls["C"].widget.set_value(C)
        done = len(window.cross_validation.results)

        async def validated(done=done):
            click(qtbot, view.cv_row.cross_validate)
            assert not view.cv_row.cross_validate.isEnabled()      # running: one at a time
            await until(lambda: len(window.cross_validation.results) == done + 1, TIMEOUT)

        run_on_loop(qasync_loop, validated())
    assert threads and all(t is not threading.main_thread() for t in threads)
    first, second = window.cross_validation.results
    assert first.seed == second.seed       # the same folds: the two settings, paired
    X, labels = training_points(window)
    for record, C in ((first, 1.0), (second, 10.0)):
        expected = cross_validate(SVC(**{**window.panel.params(), "C": C}), X, labels,
                                  folds=4, seed=record.seed)
        np.testing.assert_array_equal(record.scores, expected.scores)
        assert record.folds == 4 and record.metric == "accuracy"
    shown = view.cv_row.cv_results.text().splitlines()
    assert len(shown) == 2 and "C = 10" in shown[0] and "C = 1 " in shown[1] + " "
    assert f"{second.mean:.3f} ± {second.std:.3f}" in shown[0]
    # each fold's score in the tooltip, under its line (the line wraps, never cut)
    tip = view.cv_row.cv_results.toolTip().splitlines()
    assert tip[0] == shown[0] and " ".join(f"{s:.3f}" for s in second.scores) in tip[1]
    assert view.cv_row.cross_validate.isEnabled() and not view.cv_row.cv_cancel.isVisible()


def test_cancel_stops_between_folds_and_says_how_far_it_got(window, qtbot, qasync_loop,
                                                             monkeypatch):
    """The second fold waits until Cancel is clicked: the run stops there, keeps no
    result and says so; the button is free again."""
    clicked = threading.Event()
    original = cv_module.cross_validate

    def after_one_fold(*args, progress, **kwargs):
        def heard(fold):
            progress(fold)
            clicked.wait(TIMEOUT)             # the user clicks Cancel during the next fold
        return original(*args, progress=heard, **kwargs)

    monkeypatch.setattr(cv_module, "cross_validate", after_one_fold)
    open_tab(window, qtbot)
    view = window.evaluation_view

    async def cancelled():
        click(qtbot, view.cv_row.cross_validate)
        await until(lambda: view.cv_row.cv_progress.value() == 1, TIMEOUT)
        assert view.cv_row.cv_progress.isVisible() and view.cv_row.cv_cancel.isVisible()
        click(qtbot, view.cv_row.cv_cancel)
        clicked.set()
        await until(lambda: not window.cross_validation.running, TIMEOUT)

    run_on_loop(qasync_loop, cancelled())
    assert window.cross_validation.results == []
    assert "cancelled after 1 of its folds" in window.statusBar().currentMessage()
    assert view.cv_row.cross_validate.isEnabled() and not view.cv_row.cv_progress.isVisible()


def test_a_regression_is_scored_by_r2_and_novelty_is_refused(window, qtbot):
    from .test_regression import generated

    generated(window, qtbot)
    open_tab(window, qtbot)
    view = window.evaluation_view
    click(qtbot, view.cv_row.cross_validate)            # no loop running: the work runs inline
    (record,) = window.cross_validation.results
    X, z, test = window.points.X[:, :1], window.points.X[:, 1], window.points.test_mask
    expected = cross_validate(SVR(**window.panel.params()), X[~test], z[~test], folds=5,
                              seed=record.seed)
    np.testing.assert_array_equal(record.scores, expected.scores)
    assert record.metric == "R²" and view.cv_row.cv_results.text().startswith("R² ")
    choose(window.panel.task, "one_class")
    window.editing.generate("blobs_outliers", 40, 0.2, 0)
    click(qtbot, view.cv_row.cross_validate)
    assert "no labels to score folds by" in window.notices.banner.text()
    assert len(window.cross_validation.results) == 1


def test_a_session_brings_back_the_threshold_its_class_the_shares_and_the_results(
        window, qtbot, monkeypatch, tmp_path, another_window):
    from .test_evaluation_view import three_classes, type_threshold
    from .test_labels import saved_and_reopened

    three_classes(window, qtbot)
    open_tab(window, qtbot)
    view = window.evaluation_view
    click(qtbot, view.cv_row.cross_validate)                     # inline: no loop runs
    choose(view.chosen, 2)
    type_threshold(view, qtbot, "0.5")
    click(qtbot, view.shares)
    other = saved_and_reopened(window, qtbot, monkeypatch, tmp_path / "week1.svmdesk",
                               another_window)
    again = other.evaluation_view
    assert again.threshold == 0.5 and again.chosen_class() == 2
    assert again.shares.isChecked()
    assert other.cross_validation.results == window.cross_validation.results
    assert (other.canvas.threshold, other.canvas.chosen) == (0.5, 2)
    open_tab(other, qtbot)
    assert again.cv_row.cv_results.text() == view.cv_row.cv_results.text()


def test_an_autosave_restores_the_evaluation_state_and_results(window, qtbot, another_window):
    from PySide6.QtWidgets import QPushButton

    from svmdesk.formats import load_session

    from .test_evaluation_view import type_threshold

    window.panel.data_box.test_fraction.setValue(0.2)
    from .test_tasks import train

    train(window, qtbot)
    open_tab(window, qtbot)
    view = window.evaluation_view
    click(qtbot, view.cv_row.cross_validate)
    type_threshold(view, qtbot, "-0.4")
    autosave = window.files.autosave
    autosave.save_now()
    qtbot.waitUntil(lambda: autosave.path.exists()
                    and load_session(autosave.path).evaluation.get("threshold") == -0.4,
                    timeout=TIMEOUT * 1000)
    window.files.finish()             # closed with its work never saved to a file
    other = another_window()
    restore = [b for b in other.files.recovery_bar.findChildren(QPushButton)
               if b.text() == "Restore"][0]
    click(qtbot, restore)
    qtbot.waitUntil(lambda: other.fitted is not None, timeout=TIMEOUT * 1000)
    assert other.evaluation_view.threshold == -0.4 and other.canvas.threshold == -0.4
    assert other.cross_validation.results == window.cross_validation.results
