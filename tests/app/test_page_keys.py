"""The welcome page and Getting started are windows of their own; while one of them is the
active window the window's keys still work there: F5 trains, Space pauses, Esc stops a run
(and with none under way closes the page), Ctrl+O opens a file, F1 opens Getting started,
Ctrl+Q quits."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from svmdesk.app.training.run import RunState

from .test_labels import CTRL, answer_dialogs, write_lab_file
from .test_window import TIMEOUT, set_up_a_long_run


def _active_page(window, qtbot, show):
    show()
    page = window.help.page
    qtbot.waitExposed(page)
    page.activateWindow()
    qtbot.waitUntil(page.isActiveWindow, timeout=TIMEOUT)
    return page


def test_the_keys_of_the_welcome_page_train_pause_and_stop(window, qtbot):
    set_up_a_long_run(window)
    page = _active_page(window, qtbot, window.help.welcome)
    with qtbot.waitSignal(window.run.started, timeout=TIMEOUT):
        QTest.keyClick(page, Qt.Key.Key_F5)
    QTest.keyClick(page, Qt.Key.Key_Space)
    assert window.run.state == RunState.PAUSED
    QTest.keyClick(page, Qt.Key.Key_Escape)               # a run under way: Esc stops it
    qtbot.waitUntil(lambda: not window.running, timeout=TIMEOUT)
    assert page.isVisible()
    QTest.keyClick(page, Qt.Key.Key_Escape)               # none: Esc closes the page
    qtbot.waitUntil(lambda: not page.isVisible(), timeout=TIMEOUT)


def test_the_keys_of_getting_started_open_a_file_and_close_it(window, qtbot, monkeypatch,
                                                              tmp_path):
    page = _active_page(window, qtbot, window.help.welcome)
    QTest.keyClick(page, Qt.Key.Key_F1)                   # Getting started, from the page
    qtbot.waitUntil(lambda: window.help.page is not page, timeout=TIMEOUT)
    guide = _active_page(window, qtbot, lambda: None)
    data = write_lab_file(tmp_path / "lab.csv", ["-1", "+1"])
    answer_dialogs(monkeypatch, data)
    QTest.keyClick(guide, Qt.Key.Key_O, CTRL)
    qtbot.waitUntil(lambda: len(window.points) == 32, timeout=TIMEOUT)
    guide.activateWindow()
    qtbot.waitUntil(guide.isActiveWindow, timeout=TIMEOUT)
    QTest.keyClick(guide, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not guide.isVisible(), timeout=TIMEOUT)


def test_ctrl_q_on_the_welcome_page_quits(window, qtbot):
    page = _active_page(window, qtbot, window.help.welcome)
    QTest.keyClick(page, Qt.Key.Key_Q, CTRL)
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=TIMEOUT)
