"""Background work runs on the app's qasync loop (its executor), as in the app: opening a
file and autosaving happen off the GUI thread. A window closed right after an edit keeps the
edit in the state folder, and a slow write never holds the close for long."""
import asyncio
import threading
import time

import numpy as np
import pytest

from svmdesk.app.files import autosave as autosave_module
from svmdesk.app.files import file_menu as files_module
from svmdesk.core import make_dataset
from svmdesk.formats import load_dataset, load_session, save_dataset

from .conftest import until

TIMEOUT = 8.0


def _off_gui_thread_spy(monkeypatch, module, name):
    """Replace module.name by a wrapper that records the thread each call runs on."""
    threads, original = [], getattr(module, name)

    def spy(*args, **kwargs):
        threads.append(threading.current_thread())
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return threads


def test_a_file_opens_off_the_gui_thread_on_the_apps_loop(window, qasync_loop, tmp_path,
                                                          monkeypatch):
    data = make_dataset("moons", n=77, seed=2)
    path = tmp_path / "moons.csv"
    save_dataset(data, path)
    threads = _off_gui_thread_spy(monkeypatch, files_module, "_read_or_error")

    async def open_and_wait():
        window.files.open(path)
        assert len(window.points) != 77          # not read yet: the loop reads it
        await until(lambda: len(window.points) == 77, TIMEOUT)

    qasync_loop.run_until_complete(asyncio.wait_for(open_and_wait(), TIMEOUT))
    np.testing.assert_allclose(window.points.X, data.X)
    assert threads and threads[0] is not threading.main_thread()


def test_the_autosave_writes_off_the_gui_thread_on_the_apps_loop(window, qasync_loop,
                                                                 monkeypatch):
    autosave = window.files.autosave
    threads = _off_gui_thread_spy(monkeypatch, autosave_module, "save_session")

    async def edit_and_save():
        window.editing.add_point(2.0, 2.0, 0)
        autosave.save_now()
        await until(lambda: autosave.path.exists() and autosave._idle.is_set(), TIMEOUT)

    qasync_loop.run_until_complete(asyncio.wait_for(edit_and_save(), TIMEOUT))
    assert len(load_session(autosave.path).y) == 101
    assert threads and threads[0] is not threading.main_thread()


def test_an_autosave_written_on_the_gui_thread_never_rests(window, monkeypatch):
    """The writer rests between pieces to give the GUI thread its turn; with no loop running
    (a script, a test) the write runs on the GUI thread itself, where a rest only stalls it
    (2,000 points: 0.5 ms a piece, 6 s over the app tests)."""
    rests = []
    monkeypatch.setattr(autosave_module, "_rest", lambda: rests.append(1))
    autosave = window.files.autosave
    window.editing.add_point(2.0, 2.0, 0)
    autosave.save_now()
    assert autosave._idle.is_set() and len(load_session(autosave.path).y) == 101
    assert rests == []


def test_closing_right_after_an_edit_keeps_the_edit(qtbot, private_state_dir):
    from svmdesk.app.shell.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    win.editing.add_point(4.0, -4.0, 1)
    win.close()
    kept = list(private_state_dir.glob("unsaved-*.svmdesk"))
    assert len(kept) == 1
    session = load_session(kept[0])
    assert len(session.y) == 101 and session.y[-1] == 1
    np.testing.assert_array_equal(session.X[-1], [4.0, -4.0])


@pytest.mark.slow
def test_a_slow_autosave_holds_the_close_a_bounded_time_and_the_edit_is_kept(
        qtbot, qasync_loop, monkeypatch, private_state_dir):
    """The autosave under way hangs (a slow disk): the close waits FLUSH_SECONDS, then
    writes the work itself, with the edit made after that autosave began."""
    from svmdesk.app.shell.main_window import MainWindow

    release, real = threading.Event(), autosave_module.save_session

    def slow(session, path, between=None):
        if path.name.startswith("autosave-"):
            release.wait(20)
        return real(session, path, between=between)

    monkeypatch.setattr(autosave_module, "save_session", slow)
    monkeypatch.setattr(autosave_module, "FLUSH_SECONDS", 0.5)
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    closed_in = []

    async def edit_save_edit_close():
        win.editing.add_point(1.0, 1.0, 0)
        win.files.autosave.save_now()                  # hangs in the loop's executor
        await asyncio.sleep(0.05)
        win.editing.add_point(2.0, 2.0, 1)
        start = time.perf_counter()
        win.close()
        closed_in.append(time.perf_counter() - start)

    try:
        qasync_loop.run_until_complete(asyncio.wait_for(edit_save_edit_close(), TIMEOUT))
    finally:
        release.set()
    assert closed_in[0] < 3.0
    kept = list(private_state_dir.glob("unsaved-*.svmdesk"))
    assert len(kept) == 1 and len(load_session(kept[0]).y) == 102
    assert win.files.autosave.wait(TIMEOUT)            # the late write ends...
    assert not list(private_state_dir.glob("autosave-*"))   # ...and offers no false crash


def test_a_file_dialog_leaves_the_window_running_until_answered(window, qtbot, tmp_path,
                                                                monkeypatch):
    """File > Save points… opens its dialog and returns: the window goes on (an edit,
    a run) while it waits; the answer, when it comes, saves the points."""
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setenv("HOME", str(tmp_path))
    window.files.choose_points_path()
    dialog = window.files.dialog
    assert isinstance(dialog, QFileDialog) and dialog.isVisible()
    window.editing.add_point(5.0, 5.0, 1)                  # the window is not blocked
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT * 1000):
        window.train()
    out = tmp_path / "points.csv"
    dialog.setOption(QFileDialog.Option.DontConfirmOverwrite, True)
    dialog.selectFile(str(out))
    dialog.accept()
    assert len(load_dataset(out).y) == 101


@pytest.mark.parametrize("name", ["shot.png", "shot.svg"])
def test_save_picture_through_both_dialogs_as_a_person_does(window, qtbot, tmp_path, name):
    """Ctrl+Shift+P, a width and a caption, OK; the event loop runs (the options dialog is
    deleted, as between a person's clicks); a file name typed, Enter: the picture is there."""
    import shiboken6
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QLineEdit

    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT * 1000):
        window.train()
    QTest.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    options = window.files.dialog
    qtbot.waitUntil(options.isVisible, timeout=5000)
    options.width_box.setValue(640)
    options.caption.setText("week 3: moons")
    ok = options.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    QTest.mouseClick(ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not shiboken6.isValid(options), timeout=5000)
    save = window.files.dialog
    assert isinstance(save, QFileDialog)
    qtbot.waitUntil(save.isVisible, timeout=5000)
    save.setDirectory(str(tmp_path))
    typed = save.findChild(QLineEdit, "fileNameEdit")
    typed.clear()
    QTest.keyClicks(typed, name)
    QTest.keyClick(typed, Qt.Key.Key_Return)
    out = tmp_path / name
    qtbot.waitUntil(out.exists, timeout=5000)
    if name.endswith(".png"):
        assert QImage(str(out)).width() == 640
    else:
        assert "week 3: moons" in out.read_text(encoding="utf-8")
    assert window.statusBar().currentMessage() == f"Saved {out}."


def test_a_session_saves_off_the_gui_thread_then_names_the_window(window, qasync_loop,
                                                                  tmp_path, monkeypatch):
    threads = _off_gui_thread_spy(monkeypatch, files_module, "save_session")
    path = tmp_path / "week3.svmdesk"

    async def save_and_wait():
        window.editing.add_point(6.0, 6.0, 0)
        assert window.files.save_session_to(path)            # under way
        await until(lambda: window.work.session_path == path, TIMEOUT)

    qasync_loop.run_until_complete(asyncio.wait_for(save_and_wait(), TIMEOUT))
    assert threads and threads[0] is not threading.main_thread()
    assert len(load_session(path).y) == 101
    assert window.windowTitle().replace("[*]", "") == "week3.svmdesk — svmdesk"
    assert not window.isWindowModified()


@pytest.mark.slow
def test_an_edit_is_autosaved_within_seconds_not_at_the_interval(window, qtbot):
    """A battery that dies mid-lab loses seconds: the autosave follows an edit once the
    edits pause, long before its 30 s interval."""
    autosave = window.files.autosave
    assert autosave.timer.interval() >= 30_000 and not autosave.path.exists()
    start = time.perf_counter()
    window.editing.add_point(7.0, 7.0, 1)
    qtbot.waitUntil(lambda: autosave.path.exists(), timeout=int(TIMEOUT * 1000))
    assert time.perf_counter() - start < autosave_module.AFTER_EDIT_SECONDS + 2.0
    assert autosave.wait(TIMEOUT)
    assert len(load_session(autosave.path).y) == 101


def test_an_executor_job_ending_as_the_loop_closes_leaves_no_error(qasync_loop):
    """An executor job that ends as a test ends (the slow autosave above, released at its
    end) calls the loop back from its thread while the loop closes (closing joins the
    executor): that call is queued as a Qt event and delivered after the loop's fixture
    has ended, which must pass without an error (it once found the loop's timer deleted: a
    teardown error under load). The job here ends once the test has returned."""
    qasync_loop.run_in_executor(None, time.sleep, 0.3)
