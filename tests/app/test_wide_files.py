"""Data files from the wild in the window: LIBSVM text named .txt, and files with more
than two feature columns, whose two shown columns the user chooses (and the window
remembers). Driven through Ctrl+O, the chooser's own widgets, F5 and Ctrl+S."""
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox

from svmdesk.formats import load_dataset

from .test_labels import CTRL, TIMEOUT, answer_dialogs, press

sklearn = pytest.importorskip("sklearn")
SVMLIGHT_TXT = (Path(sklearn.__file__).parent / "datasets" / "tests" / "data"
                / "svmlight_classification.txt")


def write_wide_csv(path, seed=0):
    """Five feature columns; the classes differ in 'chol' and 'hr' only."""
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], 20)
    X = rng.standard_normal((40, 5))
    X[:, 1] += 4.0 * y
    X[:, 3] -= 4.0 * y
    rows = [",".join([*(repr(float(v)) for v in x), ("sick", "well")[k]])
            for x, k in zip(X, y)]
    path.write_text("age,chol,bp,hr,oldpeak,label\n" + "\n".join(rows) + "\n",
                    encoding="utf-8")
    return path


def ctrl_o(window, monkeypatch, path):
    answer_dialogs(monkeypatch, path)
    press(window, Qt.Key.Key_O, CTRL)


def choose(window, qtbot, x: int, y: int, ok=True):
    """Pick the chooser's two columns with its drop-downs, then OK (or Cancel)."""
    chooser = window.opener.column_chooser
    qtbot.waitUntil(chooser.isVisible, timeout=TIMEOUT)
    chooser.x_box.setCurrentIndex(x)
    chooser.y_box.setCurrentIndex(y)
    button = chooser.buttons.button(QDialogButtonBox.StandardButton.Ok if ok
                                    else QDialogButtonBox.StandardButton.Cancel)
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    window.activateWindow()        # the offscreen platform has no window manager to do it
    qtbot.waitUntil(window.isActiveWindow, timeout=TIMEOUT)


@pytest.mark.slow
def test_libsvm_text_named_txt_opens_and_the_user_chooses_two_of_its_21_columns(
        window, qtbot, monkeypatch, tmp_path, another_window):
    data = load_dataset(SVMLIGHT_TXT)
    ctrl_o(window, monkeypatch, SVMLIGHT_TXT)
    assert not window.notices.banner.isVisible(), window.notices.banner.text()
    assert window.opener.column_chooser.x_box.count() == 21
    assert len(window.points) == 100                      # nothing replaced before the choice
    choose(window, qtbot, 2, 5)
    np.testing.assert_array_equal(window.points.X, data.X[:, [2, 5]])
    assert window.canvas.axis_names == ("x3", "x6")
    message = window.statusBar().currentMessage()
    assert "x3 and x6 of its 21 feature columns" in message
    assert window.points.class_names[:4] == ["1", "2", "3", "4"]
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT) as ended:
        press(window, Qt.Key.Key_F5)
    assert ended.args[0].estimator.n_features_in_ == 2     # the canvas's two columns

    session = tmp_path / "svmlight.svmdesk"
    answer_dialogs(monkeypatch, session)
    press(window, Qt.Key.Key_S, CTRL)
    assert session.exists(), window.notices.banner.text()
    other = another_window()
    ctrl_o(other, monkeypatch, session)
    np.testing.assert_array_equal(other.points.X, data.X[:, [2, 5]])
    assert other.canvas.axis_names == ("x3", "x6")
    np.testing.assert_array_equal(other.fitted.predict(other.points.X),
                                  window.fitted.predict(window.points.X))


@pytest.mark.slow
def test_a_wide_csv_remembers_its_columns_and_cancel_changes_nothing(
        window, qtbot, monkeypatch, tmp_path, another_window):
    path = write_wide_csv(tmp_path / "heart.csv")
    data = load_dataset(path)
    ctrl_o(window, monkeypatch, path)
    chooser = window.opener.column_chooser
    assert (chooser.x_box.currentIndex(), chooser.y_box.currentIndex()) == (0, 1)
    chooser.y_box.setCurrentIndex(0)                        # the same column twice
    ok = chooser.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert not ok.isEnabled() and "two different" in chooser.problem.text()
    choose(window, qtbot, 1, 3)
    np.testing.assert_array_equal(window.points.X, data.X[:, [1, 3]])
    assert window.canvas.axis_names == ("chol", "hr")
    assert window.points.class_names[:2] == ["sick", "well"]
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT) as ended:
        press(window, Qt.Key.Key_F5)
    assert ended.args[0].reading.train_accuracy == 1.0              # the two columns that separate

    session = tmp_path / "heart.svmdesk"
    answer_dialogs(monkeypatch, session)
    press(window, Qt.Key.Key_S, CTRL)
    reopened = another_window()                             # the session: same two columns
    ctrl_o(reopened, monkeypatch, session)
    np.testing.assert_array_equal(reopened.points.X, data.X[:, [1, 3]])
    assert reopened.canvas.axis_names == ("chol", "hr")
    assert reopened.fitted.n_features_in_ == 2

    other = another_window()                                # next week, the same file
    before = other.points.X
    ctrl_o(other, monkeypatch, path)
    chooser = other.opener.column_chooser
    assert (chooser.x_box.currentIndex(), chooser.y_box.currentIndex()) == (1, 3)
    choose(other, qtbot, 1, 3, ok=False)                    # Cancel
    np.testing.assert_array_equal(other.points.X, before)


def test_a_wide_file_opened_during_training_stops_the_run_then_asks(
        window, qtbot, monkeypatch, tmp_path):
    from .test_window import set_up_a_long_run

    path = write_wide_csv(tmp_path / "heart.csv")
    set_up_a_long_run(window)
    window.train()
    qtbot.waitUntil(lambda: window.last_frame is not None, timeout=TIMEOUT)
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT):
        ctrl_o(window, monkeypatch, path)
    qtbot.waitUntil(lambda: window.opener.column_chooser is not None, timeout=TIMEOUT)
    choose(window, qtbot, 1, 3)
    assert window.canvas.axis_names == ("chol", "hr")
    assert len(window.points) == 40 and window.last_frame is None and not window.running
