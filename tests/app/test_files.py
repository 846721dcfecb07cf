"""Keeping the work: sessions, models, pictures, recent files, drag and drop, autosave and
recovery after a crash, driven through the window as a user would."""
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from svmdesk.core import SVC, make_dataset
from svmdesk.formats import load_dataset, load_model, load_session, save_model

from .test_window import TIMEOUT, click, set_up_a_long_run, train_and_wait


def _rbf_window(window, C=5.0):
    p = window.panel
    p.kernel.setCurrentText("rbf")
    p.controls["C"].widget.set_value(C)


def test_session_round_trip_restores_points_settings_view_and_model(window, qtbot, tmp_path,
                                                                    another_window):
    click(window, 0.5, 0.5)                             # an edit of the demo points
    _rbf_window(window)
    frame = train_and_wait(qtbot, window)
    assert frame.estimator is not None
    path = tmp_path / "lab"
    assert window.files.save_session_to(path)
    saved = tmp_path / "lab.svmdesk"
    assert saved.exists()

    other = another_window()
    other.files.open(saved)
    np.testing.assert_array_equal(other.points.X, window.points.X)
    np.testing.assert_array_equal(other.points.y, window.points.y)
    assert other.panel.kernel.currentText() == "rbf"
    assert other.panel.controls["C"].widget.value() == 5.0
    np.testing.assert_allclose(other.canvas.view.viewRange(), window.canvas.view.viewRange())
    X = window.points.X
    np.testing.assert_allclose(other.fitted.decision_function(X),
                               window.fitted.decision_function(X))
    assert np.isfinite(other.canvas.boundary.getData()[0]).any()
    assert other.panel.readout["state"].text() == "model from lab.svmdesk"
    assert other.work.session_path == saved
    assert other.windowTitle().replace("[*]", "") == "lab.svmdesk — svmdesk"
    assert not other.isWindowModified()
    other.editing.add_point(0.0, 0.0, 1)
    assert other.isWindowModified()                       # the title shows lab.svmdesk*
    assert other.panel.readout["iteration"].text() == str(int(window.fitted.n_iter_[0]))


def test_a_damaged_session_or_an_unknown_setting_changes_nothing(window, tmp_path):
    before = window.points.X
    broken = tmp_path / "broken.svmdesk"
    broken.write_text('{"format": "svmdesk-session", "version": 1', encoding="utf-8")
    window.files.open(broken)
    assert "not valid JSON" in window.notices.banner.text()
    box = window.notices.file_error_box                           # and a dialog that waits for OK
    assert box.isVisible() and "broken.svmdesk" in box.text()
    box.accept()
    window.files.save_session_to(tmp_path / "ok.svmdesk")
    doc = json.loads((tmp_path / "ok.svmdesk").read_text(encoding="utf-8"))
    doc["settings"]["kernel"] = "cubic"
    doc["points"]["x"] = [[0.0, 0.0]] * len(doc["points"]["x"])
    (tmp_path / "odd.svmdesk").write_text(json.dumps(doc), encoding="utf-8")
    window.files.open(tmp_path / "odd.svmdesk")
    assert "setting 'kernel' must be one of" in window.notices.banner.text()
    np.testing.assert_array_equal(window.points.X, before)
    assert window.panel.kernel.currentText() == "linear"


def test_open_model_draws_it_over_the_points_and_sets_the_panel(window, tmp_path):
    X, y = np.asarray(window.points.X), np.asarray(window.points.y)
    svc = SVC(kernel="rbf", C=10.0, gamma=0.5).fit(X, y)
    save_model(svc, tmp_path / "disks.json")
    window.files.open(tmp_path / "disks.json")
    controls = window.panel.controls
    assert window.panel.kernel.currentText() == "rbf" and controls["C"].widget.value() == 10.0
    assert not controls["gamma"].choice.isChecked() and controls["gamma"].widget.value() == 0.5
    bx, by = window.canvas.boundary.getData()
    on = np.column_stack([bx, by])[np.isfinite(bx)]
    assert len(on) and np.abs(svc.decision_function(on)).max() < 0.05
    assert window.last_frame.reading.train_accuracy == pytest.approx(svc.score(X, y))
    assert window.notices.banner.isHidden()                      # trained on these very points
    assert window.files.recent.paths()[0] == str((tmp_path / "disks.json").resolve())


def test_a_model_from_elsewhere_warns_and_a_3_feature_model_is_refused(window, tmp_path):
    d = make_dataset("blobs", n=60, noise=0.5, seed=0)
    X = np.asarray(d.X) * 0.05                            # a tiny patch of the plane
    save_model(SVC(kernel="linear").fit(X, d.y), tmp_path / "small.json")
    window.files.open(tmp_path / "small.json")
    assert "extrapolation" in window.notices.banner.text() and window.fitted is not None
    X3 = np.random.default_rng(0).normal(size=(40, 3))
    save_model(SVC(kernel="linear").fit(X3, (X3[:, 0] > 0).astype(int)), tmp_path / "three.json")
    drawn = window.fitted
    window.files.open(tmp_path / "three.json")
    assert "3 features" in window.notices.banner.text()
    assert window.fitted is drawn                         # unchanged


def test_svmdesk_with_a_session_file_opens_it(window, qtbot, tmp_path):
    from svmdesk.app.shell.main_window import MainWindow

    window.editing.add_point(9.0, 9.0, 0)
    window.files.save_session_to(tmp_path / "week2.svmdesk")
    reopened = MainWindow(str(tmp_path / "week2.svmdesk"))
    qtbot.addWidget(reopened)
    try:
        assert len(reopened.points) == 101
        assert reopened.windowTitle().replace("[*]", "") == "week2.svmdesk — svmdesk"
    finally:
        reopened.shutdown()


def test_libsvm_model_files_are_refused_with_a_reason(window, tmp_path):
    (tmp_path / "m.model").write_text("svm_type c_svc\n", encoding="utf-8")
    window.files.open(tmp_path / "m.model")
    assert "exports LIBSVM models but reads its own JSON" in window.notices.banner.text()


def test_save_model_export_libsvm_and_save_points(window, qtbot, tmp_path):
    assert not window.files.save_model_to(tmp_path / "none.json")
    assert "no model yet" in window.notices.banner.text()
    train_and_wait(qtbot, window)
    assert window.files.save_model_to(tmp_path / "m")
    X = window.points.X
    np.testing.assert_array_equal(load_model(tmp_path / "m.json").predict(X),
                                  window.fitted.predict(X))
    assert window.files.export_to(tmp_path / "m.model")
    assert (tmp_path / "m.model").read_text().startswith("svm_type c_svc")
    assert window.files.save_points_to(tmp_path / "points.csv")
    data = load_dataset(tmp_path / "points.csv")
    np.testing.assert_array_equal(data.X, X)


def test_pictures_png_at_a_width_svg_with_caption_and_clipboard(window, qtbot, tmp_path):
    _rbf_window(window)
    train_and_wait(qtbot, window)
    caption = window.files.caption()
    assert "rbf kernel" in caption and "C = 5" in caption and "support vectors" in caption
    assert window.files.default_width() == 2 * window.canvas.width()
    assert window.files.save_picture_to(tmp_path / "shot.png", 900, caption)
    image = QImage(str(tmp_path / "shot.png"))
    aspect = window.canvas.height() / window.canvas.width()
    assert image.width() == 900 and image.height() > round(900 * aspect) + 10   # the band
    assert window.files.save_picture_to(tmp_path / "plain.png", 600)
    assert QImage(str(tmp_path / "plain.png")).height() == pytest.approx(600 * aspect, abs=2)
    assert window.files.save_picture_to(tmp_path / "shot.svg", 0, "a < b & c")
    svg = (tmp_path / "shot.svg").read_text(encoding="utf-8")
    assert "a &lt; b &amp; c</text>" in svg and "<path" in svg
    window.files.copy_picture()
    assert not QApplication.clipboard().image().isNull()


def test_recent_files_persist_for_the_next_window(window, tmp_path, another_window):
    window.files.save_session_to(tmp_path / "a.svmdesk")
    window.files.save_session_to(tmp_path / "b.svmdesk")
    other = another_window()
    names = [a.text() for a in other.files.recent_menu.actions()]
    assert "b.svmdesk" in names[0] and "a.svmdesk" in names[1]
    other.files.recent_menu.actions()[1].trigger()
    assert other.work.session_path == tmp_path / "a.svmdesk"


def test_dropping_a_csv_on_the_window_opens_it(window, tmp_path):
    csv = tmp_path / "dropped.csv"
    csv.write_text("a,b,label\n0,0,x\n1,1,y\n2,2,x\n3,1,y\n", encoding="utf-8")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(csv))])
    point = QPoint(200, 200)
    enter = QDragEnterEvent(point, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    drop = QDropEvent(point, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, drop)
    assert len(window.points) == 4 and window.canvas.axis_names == ("a", "b")


def test_opening_a_file_during_training_stops_the_run_first(window, qtbot, tmp_path):
    csv = tmp_path / "later.csv"
    csv.write_text("x,y,label\n0,0,a\n1,1,b\n2,0,a\n", encoding="utf-8")
    set_up_a_long_run(window)
    with qtbot.waitSignal(window.frame_shown, timeout=TIMEOUT):
        window.train()
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT):
        window.files.open(csv)
    qtbot.waitUntil(lambda: len(window.points) == 3, timeout=TIMEOUT)
    assert not window.running and window.last_frame is None      # the old drawing is gone


@pytest.mark.slow
def test_autosave_writes_after_edits_and_on_train_and_a_clean_exit_removes_it(
        qtbot, monkeypatch, private_state_dir):
    monkeypatch.setenv("SVMDESK_AUTOSAVE_SECONDS", "0.2")
    from svmdesk.app.shell.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    autosave = win.files.autosave
    path = autosave.path
    assert path.parent == private_state_dir
    win.editing.add_point(3.0, 3.0, 1)
    qtbot.waitUntil(lambda: path.exists(), timeout=TIMEOUT)
    autosave.wait()
    assert len(load_session(path).y) == 101
    path.unlink()
    autosave.timer.stop()                                # from here only a run saves
    win.panel.controls["C"].widget.set_value(2.0)
    with qtbot.waitSignal(win.training_ended, timeout=TIMEOUT):
        win.train()
    autosave.wait()
    assert path.exists()                                 # written when the run started
    assert load_session(path).settings["C"] == 2.0
    win.shutdown()
    assert not path.exists() and not list(private_state_dir.glob("autosave-*"))
    # the added point was never saved to a session file: it waits for the next start
    kept = list(private_state_dir.glob("unsaved-*.svmdesk"))
    assert len(kept) == 1 and len(load_session(kept[0]).y) == 101
    nxt = MainWindow()
    qtbot.addWidget(nxt)
    try:
        assert "changes that were never saved" in nxt.files.recovery_text.text()
        nxt.files.restore()
        assert len(nxt.points) == 101 and not kept[0].exists()
    finally:
        nxt.shutdown()


def test_a_run_on_unchanged_work_leaves_its_models_autosave_to_the_interval(
        window, qtbot, private_state_dir):
    """The run's start writes only work the user changed: a new model alone waits for
    the interval (training gives it back), so no write runs beside the solver. The model
    is in the next interval's autosave."""
    autosave = window.files.autosave
    autosave.timer.stop()
    window.panel.controls["C"].widget.set_value(3.0)     # the work changed: saved at start
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT):
        window.train()
    autosave.wait()
    assert autosave.path.exists() and autosave.dirty    # the model is not in it yet
    autosave.path.unlink()
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT):
        window.train()                                  # nothing changed: nothing written
    autosave.wait()
    assert not autosave.path.exists()
    autosave.timer.timeout.emit()                       # the interval's autosave
    autosave.wait()
    saved = load_session(autosave.path)
    assert saved.settings["C"] == 3.0 and saved.model is not None
    np.testing.assert_array_equal(saved.model.predict(window.points.X),
                                  window.fitted.predict(window.points.X))


def test_a_clean_exit_after_saving_leaves_nothing_behind(window, tmp_path, private_state_dir):
    window.editing.add_point(3.0, 3.0, 1)
    window.files.save_session_to(tmp_path / "done.svmdesk")
    window.shutdown()
    assert not [p.name for p in private_state_dir.iterdir() if p.suffix != ".ini"]


@pytest.mark.slow
def test_kill_9_loses_at_most_the_autosave_interval_and_restart_offers_it(
        qtbot, tmp_path, private_state_dir):
    """A real svmdesk process opens a data file, autosaves, and is killed with SIGKILL;
    the next window offers the autosave, and Restore brings the points back."""
    csv = tmp_path / "week1.csv"
    rows = "\n".join(f"{k * 0.5},{(k % 3) * 0.7},{'ab'[k % 2]}" for k in range(7))
    csv.write_text("u,v,label\n" + rows + "\n", encoding="utf-8")
    env = dict(os.environ, SVMDESK_STATE_DIR=str(private_state_dir),
               SVMDESK_AUTOSAVE_SECONDS="0.3", QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen([sys.executable, "-c",
                             "import sys; from svmdesk.app import main; "
                             "main(['svmdesk', sys.argv[1]])", str(csv)], env=env)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            found = list(private_state_dir.glob(f"autosave-{proc.pid}-*.svmdesk"))
            if found and len(_points_in(found[0])) == 7:
                autosave = found[0]
                break
            assert proc.poll() is None, "svmdesk exited by itself"
            time.sleep(0.1)
        else:
            pytest.fail("no autosave of the opened file appeared")
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    from svmdesk.app.shell.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    try:
        bar = win.files.recovery_bar
        assert bar.isVisible() and "did not close properly" in win.files.recovery_text.text()
        restore = [b for b in bar.findChildren(type(win.panel.run_box.train_button))
                   if b.text() == "Restore"][0]
        QTest.mouseClick(restore, Qt.MouseButton.LeftButton)
        assert len(win.points) == 7 and win.canvas.axis_names == ("u", "v")
        assert win.points.class_names[:2] == ["a", "b"]
        assert not bar.isVisible() and not autosave.exists()
    finally:
        win.shutdown()


def _points_in(path):
    try:
        return load_session(path).y
    except Exception:      # noqa: BLE001 - mid-rename on some file systems: try again
        return []


def test_restore_waits_for_a_running_training_and_leftovers_come_one_by_one(
        qtbot, tmp_path, private_state_dir):
    from svmdesk.app.shell.main_window import MainWindow
    from svmdesk.formats import Session, save_session

    private_state_dir.mkdir(parents=True)
    for k, n in enumerate((5, 9)):                      # two windows' unsaved work
        X = np.column_stack([np.arange(n), np.arange(n) % 2]).astype(float)
        path = save_session(Session(X=X, y=np.arange(n) % 2, held_out=np.zeros(n, bool),
                                    class_names=("a", "b")),
                            private_state_dir / f"unsaved-{k}.svmdesk")
        os.utime(path, (1000 + k, 1000 + k))             # the 9-point one is newer
    win = MainWindow()
    qtbot.addWidget(win)
    try:
        assert "1 more after this one" in win.files.recovery_text.text()
        win.files.discard_recovery()                    # forget the newest (9 points)
        assert "more after" not in win.files.recovery_text.text()
        set_up_a_long_run(win)
        with qtbot.waitSignal(win.frame_shown, timeout=TIMEOUT):
            win.train()
        with qtbot.waitSignal(win.training_ended, timeout=TIMEOUT):
            win.files.restore()
        qtbot.waitUntil(lambda: len(win.points) == 5, timeout=TIMEOUT)
        assert win.last_frame is None and not win.files.recovery_bar.isVisible()
        assert not list(private_state_dir.glob("unsaved-*"))
    finally:
        win.shutdown()


def test_a_model_with_other_classes_gets_its_own_colours_and_clamped_params_are_named(
        window, tmp_path):
    X = np.array([[0, 0], [1, 1], [0, 1], [1, 0], [2, 2], [2, 0]], dtype=float)
    labels = np.array(["1", "1", "c", "c", "1", "c"])      # the demo's classes are 0 and 1
    save_model(SVC(kernel="rbf", C=5000.0, gamma=0.5).fit(X, labels), tmp_path / "other.json")
    window.files.open(tmp_path / "other.json")
    assert window.last_frame.scene.classes == (1, 2)   # '1' keeps class 1, 'c' is new
    assert window.points.class_names[2] == "c"
    assert "C = 5000.0 (shown as 1000)" in window.notices.banner.text()
    assert window.panel.controls["C"].widget.value() == 1000.0


def test_a_session_whose_model_cannot_be_drawn_changes_nothing(window, tmp_path):
    from svmdesk.formats import Session, save_session

    X3 = np.random.default_rng(0).normal(size=(30, 3))
    model = SVC(kernel="linear").fit(X3, (X3[:, 0] > 0).astype(int))
    save_session(Session(X=X3[:, :2], y=(X3[:, 0] > 0).astype(int),
                         held_out=np.zeros(30, bool), class_names=("0", "1"), model=model),
                 tmp_path / "odd.svmdesk")
    before = window.points.X
    window.files.open(tmp_path / "odd.svmdesk")
    assert "3 features" in window.notices.banner.text()
    np.testing.assert_array_equal(window.points.X, before)


def test_saved_names_get_the_right_extension(window, tmp_path):
    window.files.save_session_to(tmp_path / "week3.1")
    assert (tmp_path / "week3.1.svmdesk").exists()
    window.files.save_points_to(tmp_path / "pts.libsvm")
    window.files.save_points_to(tmp_path / "pts")
    assert (tmp_path / "pts.libsvm").exists() and (tmp_path / "pts.csv").exists()


def test_an_older_open_request_loses_to_a_newer_one(window, tmp_path):
    from svmdesk.app.files.file_types import read_document

    csv = tmp_path / "old.csv"
    csv.write_text("x,y,label\n0,0,a\n1,1,b\n", encoding="utf-8")
    window.files._request = 2
    window.files._apply(read_document(csv), 1)
    assert len(window.points) == 100                      # superseded: not applied


def test_new_points_detach_from_the_session_and_stale_messages_go(window, tmp_path):
    window.files.save_session_to(tmp_path / "lab1.svmdesk")
    bad = tmp_path / "bad.csv"
    bad.write_text("x,y,label\n0,1.x,a\n1,1,b\n", encoding="utf-8")
    window.files.open(bad)
    assert not window.notices.banner.isHidden()
    window.notices.file_error_box.accept()
    good = tmp_path / "pts.csv"
    good.write_text("x,y,label\n0,0,a\n1,1,b\n2,0,a\n", encoding="utf-8")
    window.files.open(good)
    assert window.notices.banner.isHidden()                       # the old problem is gone
    assert window.work.session_path is None and window.windowTitle() == window.TITLE
    assert len(load_session(tmp_path / "lab1.svmdesk").y) == 100     # untouched


# -- a restored session is its file's again (#44) ------------------------------------------
def _no_file_dialog(monkeypatch):
    """Any file dialog opened from here on is recorded (and left unanswered)."""
    from PySide6.QtWidgets import QFileDialog

    opened = []
    monkeypatch.setattr(QFileDialog, "open", lambda dialog: opened.append(dialog))
    return opened


def _click_restore(win):
    bar = win.files.recovery_bar
    restore = [b for b in bar.findChildren(type(win.panel.run_box.train_button))
               if b.text() == "Restore"][0]
    QTest.mouseClick(restore, Qt.MouseButton.LeftButton)


@pytest.mark.parametrize("gone", [False, True], ids=["file-there", "file-deleted-since"])
def test_restore_after_a_crash_brings_back_the_file_and_ctrl_s_saves_there(
        window, qtbot, tmp_path, monkeypatch, private_state_dir, another_window, gone):
    """Save lab.svmdesk (Ctrl+S, a name chosen), add a point, the window dies (its
    autosave left, the lock free); the next window's Restore names lab.svmdesk again,
    marked modified, and Ctrl+S writes the edited points there without asking. A file
    deleted since is written again where it was."""
    from PySide6.QtWidgets import QFileDialog

    from .test_labels import CTRL, answer_dialogs, press

    folder = tmp_path / "講義 週3"                   # a name in the user's own script
    folder.mkdir()
    lab = folder / "läb.svmdesk"
    answer_dialogs(monkeypatch, lab)
    press(window, Qt.Key.Key_S, CTRL)                   # no name yet: Save as asks
    qtbot.waitUntil(lambda: window.work.session_path == lab, timeout=TIMEOUT)
    assert len(load_session(lab).y) == 100 and not window.isWindowModified()

    click(window, 0.5, 0.5)                             # an edit, not saved in läb.svmdesk
    qtbot.waitUntil(lambda: len(window.points) == 101, timeout=TIMEOUT)
    assert window.isWindowModified()
    autosave = window.files.autosave
    autosave.save_now()
    assert autosave.wait(TIMEOUT / 1000)
    assert len(load_session(autosave.path).y) == 101
    edited = window.points.X.copy()

    # kill -9: the autosave stays, with no live process holding its lock, and nothing else
    crashed = private_state_dir / "autosave-999999-dead.svmdesk"
    crashed.write_bytes(autosave.path.read_bytes())
    window.shutdown()
    for kept in private_state_dir.glob("unsaved-*.svmdesk"):
        kept.unlink()                                   # a killed window keeps nothing more
    if gone:
        lab.unlink()

    other = another_window()
    assert "did not close properly" in other.files.recovery_text.text()
    assert other.windowTitle() == other.TITLE
    _click_restore(other)
    qtbot.waitUntil(lambda: len(other.points) == 101, timeout=TIMEOUT)
    assert not crashed.exists()
    assert "läb.svmdesk" in other.windowTitle()
    assert other.work.session_path == lab
    assert other.isWindowModified()                     # its changes are not in the file
    assert "läb.svmdesk" in other.statusBar().currentMessage()

    dialogs = _no_file_dialog(monkeypatch)
    assert lab.exists() is not gone
    press(other, Qt.Key.Key_S, CTRL)
    qtbot.waitUntil(lambda: lab.exists() and len(_points_in(lab)) == 101, timeout=TIMEOUT)
    assert not dialogs and not isinstance(other.files.dialog, QFileDialog)
    np.testing.assert_array_equal(load_session(lab).X, edited)
    qtbot.waitUntil(lambda: not other.isWindowModified(), timeout=TIMEOUT)
    assert other.windowTitle().replace("[*]", "") == "läb.svmdesk — svmdesk"


@pytest.mark.parametrize("recorded", ["absent", 42, "lab.svmdesk", ""],
                         ids=["older-autosave", "number", "relative", "empty"])
def test_an_autosave_without_a_usable_file_restores_unnamed_and_ctrl_s_asks(
        qtbot, tmp_path, monkeypatch, private_state_dir, another_window, recorded):
    """An older svmdesk's autosave records no file, a damaged one a useless value: the
    points come back, the title stays generic and Ctrl+S asks where to save."""
    from svmdesk.formats import Session
    from svmdesk.formats.session import session_text

    from .test_labels import CTRL, press

    X = np.column_stack([np.arange(6.0), np.arange(6) % 2]).astype(float)
    doc = json.loads(session_text(Session(X=X, y=np.arange(6) % 2,
                                          held_out=np.zeros(6, bool), class_names=("a", "b"))))
    if recorded != "absent":
        doc["session_file"] = recorded
    private_state_dir.mkdir(parents=True)
    (private_state_dir / "autosave-999999-old.svmdesk").write_text(json.dumps(doc),
                                                                   encoding="utf-8")
    win = another_window()
    _click_restore(win)
    qtbot.waitUntil(lambda: len(win.points) == 6, timeout=TIMEOUT)
    assert win.work.session_path is None and win.windowTitle() == win.TITLE
    assert win.statusBar().currentMessage().startswith("Restored the session.")
    assert win.notices.banner.isHidden()
    dialogs = _no_file_dialog(monkeypatch)
    press(win, Qt.Key.Key_S, CTRL)
    assert len(dialogs) == 1                            # Save as: where?


def test_a_model_of_another_task_is_refused_and_a_session_brings_its_task(window, tmp_path):
    """A one-class or regressor model over points of classes asks for its task in the Task
    box first, and the window stays as it was; a regression session opens in its task."""
    from svmdesk.core import SVR, OneClassSVM
    from svmdesk.formats.session import Session, save_session

    X = np.random.default_rng(1).normal(size=(30, 2))
    save_model(OneClassSVM().fit(X), tmp_path / "novelty.json")
    save_model(SVR().fit(X[:, :1], X[:, 1]), tmp_path / "svr.json")
    save_session(Session(X=X, y=np.zeros(30, int), held_out=np.zeros(30, bool),
                         class_names=(), task="regression", targets=X[:, 1]),
                 tmp_path / "curve.svmdesk")
    before = window.points.state()
    for name, says in (("novelty.json", "choose Novelty detection in the Task box first"),
                       ("svr.json", "choose a regression task in the Task box first")):
        window.files.open(tmp_path / name)
        assert says in window.notices.banner.text()
        assert window.fitted is None and window.points.task == "classification"
        assert all(np.array_equal(a, b) for a, b in zip(before[:3], window.points.state()[:3]))
    window.files.open(tmp_path / "curve.svmdesk")
    assert window.points.task == "regression" and window.panel.task.currentData() == "epsilon_svr"
    np.testing.assert_array_equal(window.points.X, X)
