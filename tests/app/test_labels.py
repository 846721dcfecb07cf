"""The user's class labels survive every window path: train, save model, export for LIBSVM,
save points, save session, autosave, restore and reopen. Each journey opens a data file
through File > Open, trains with F5 and saves through the File menu's own shortcuts (the
file dialogs answered by the test), over five label sets."""
import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QPushButton

from svmdesk.formats import load_dataset, load_model, load_session

TIMEOUT = 10_000   # ms

# The labels as a data file writes them, one list per class.
LABEL_SETS = {
    "minus-plus": ["-1", "+1"],
    "0-1-2": ["0", "1", "2"],
    "text": ["setosa", "virginica"],
    "japanese": ["陽性", "陰性"],
    "five": ["1", "2", "3", "4", "5"],
}
NUMERIC = {"minus-plus", "0-1-2", "five"}
LABELS = pytest.mark.parametrize("labels", list(LABEL_SETS))


def write_lab_file(path, labels, per_class=16, seed=3):
    """Well separated clusters, one per label, around a circle: every machine converges in
    a blink and predicts its training points."""
    rng = np.random.default_rng(seed)
    rows = []
    for k, label in enumerate(labels):
        angle = 2 * np.pi * k / len(labels)
        centre = 4.0 * np.array([np.cos(angle), np.sin(angle)])
        for x in centre + 0.4 * rng.standard_normal((per_class, 2)):
            rows.append(f"{float(x[0])!r},{float(x[1])!r},{label}")
    path.write_text("u,v,label\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def expected_labels(labels):
    """What the machine must call the classes: numbers stay numbers, text stays text."""
    if all(label.lstrip("+-").isdigit() for label in labels):
        return np.array([int(label) for label in labels])
    return np.array(labels)


def answer_dialogs(monkeypatch, path):
    """The next file dialog, open or save, answers `path`: as it opens, the file is chosen
    and the dialog accepted (the app's own wiring of the answer runs)."""
    def choose(dialog):
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        dialog.setOption(QFileDialog.Option.DontConfirmOverwrite, True)
        dialog.selectFile(str(path))
        dialog.accept()

    monkeypatch.setattr(QFileDialog, "open", choose)


def saved_and_reopened(window, qtbot, monkeypatch, path, another_window):
    """Ctrl+S the window's work to `path`, then Ctrl+O it in a new window (next week's
    lab) and wait for its model; the new window."""
    answer_dialogs(monkeypatch, path)
    press(window, Qt.Key.Key_S, CTRL)
    assert path.exists(), window.notices.banner.text()
    other = another_window()
    answer_dialogs(monkeypatch, path)
    press(other, Qt.Key.Key_O, CTRL)
    qtbot.waitUntil(lambda: other.fitted is not None, timeout=TIMEOUT)
    return other


def press(window, key, modifier=Qt.KeyboardModifier.NoModifier):
    QTest.keyClick(window, key, modifier)


CTRL = Qt.KeyboardModifier.ControlModifier


def open_and_train(window, qtbot, monkeypatch, tmp_path, labels, test_fraction=0.25):
    """Ctrl+O a data file with these labels, hold some points out, F5 until the end."""
    data = write_lab_file(tmp_path / "lab.csv", LABEL_SETS[labels])
    answer_dialogs(monkeypatch, data)
    press(window, Qt.Key.Key_O, CTRL)
    assert len(window.points) == 16 * len(LABEL_SETS[labels])
    window.panel.data_box.test_fraction.setValue(test_fraction)
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT) as ended:
        press(window, Qt.Key.Key_F5)
    frame = ended.args[0]
    assert frame.estimator is not None, window.notices.banner.text()
    return load_dataset(data), frame


def point_labels(window):
    """The label of every point in the window, as its class names say."""
    return np.array(window.points.class_names)[window.points.y]


# -- train ---------------------------------------------------------------------------------
@LABELS
def test_training_learns_the_labels_not_the_class_indices(window, qtbot, monkeypatch,
                                                         tmp_path, labels):
    data, frame = open_and_train(window, qtbot, monkeypatch, tmp_path, labels)
    classes = window.fitted.classes_
    expected = expected_labels(LABEL_SETS[labels])
    assert classes.tolist() == sorted(expected.tolist())
    assert classes.dtype.kind == expected.dtype.kind          # numbers stay numbers
    X = window.points.X
    predicted = window.fitted.predict(X).astype(str)
    assert (predicted == np.array([str(v) for v in expected_labels(point_labels(window))])
            ).mean() == 1.0
    assert frame.reading.train_accuracy == 1.0 and frame.reading.test_accuracy == 1.0


# -- export for LIBSVM ---------------------------------------------------------------------
@pytest.mark.parametrize("labels", sorted(NUMERIC))
def test_libsvm_export_keeps_the_labels_and_libsvm_predicts_them(window, qtbot, monkeypatch,
                                                                 tmp_path, labels):
    from libsvm.svmutil import svm_load_model, svm_predict

    data, _ = open_and_train(window, qtbot, monkeypatch, tmp_path, labels)
    out = tmp_path / "exported.model"
    answer_dialogs(monkeypatch, out)
    press(window, Qt.Key.Key_E, CTRL)
    assert out.exists(), window.notices.banner.text()
    label_line = next(line for line in out.read_text().splitlines()
                      if line.startswith("label "))
    assert sorted(int(v) for v in label_line.split()[1:]) == sorted(
        expected_labels(LABEL_SETS[labels]).tolist())
    X = window.points.X
    model = svm_load_model(str(out))
    rows = [{1: float(a), 2: float(b)} for a, b in X]
    libsvm_says, _, _ = svm_predict([0] * len(rows), rows, model, "-q")
    ours = window.fitted.predict(X)
    np.testing.assert_array_equal(np.array(libsvm_says, dtype=np.int64), ours)
    np.testing.assert_array_equal(ours, expected_labels(point_labels(window)))


@pytest.mark.parametrize("labels", ["text", "japanese"])
def test_libsvm_export_of_text_labels_is_refused_in_one_sentence(window, qtbot, monkeypatch,
                                                                 tmp_path, labels):
    open_and_train(window, qtbot, monkeypatch, tmp_path, labels)
    out = tmp_path / "exported.model"
    answer_dialogs(monkeypatch, out)
    press(window, Qt.Key.Key_E, CTRL)
    assert not out.exists()
    assert "LIBSVM" in window.notices.banner.text() and "numeric" in window.notices.banner.text()
    assert any(f"'{label}'" in window.notices.banner.text() for label in LABEL_SETS[labels])


# -- save model ----------------------------------------------------------------------------
@LABELS
def test_saved_model_keeps_labels_values_type_and_order(window, qtbot, monkeypatch,
                                                        tmp_path, labels):
    open_and_train(window, qtbot, monkeypatch, tmp_path, labels)
    out = tmp_path / "model.json"
    answer_dialogs(monkeypatch, out)
    window.files.choose_model_path()                 # File > Save model…
    loaded = load_model(out)
    np.testing.assert_array_equal(loaded.classes_, window.fitted.classes_)
    assert loaded.classes_.dtype == window.fitted.classes_.dtype
    X = window.points.X
    np.testing.assert_array_equal(loaded.predict(X), expected_labels(point_labels(window)))


# -- save points ---------------------------------------------------------------------------
@LABELS
def test_saved_points_keep_every_label_and_class_name(window, qtbot, monkeypatch, tmp_path,
                                                      labels):
    data, _ = open_and_train(window, qtbot, monkeypatch, tmp_path, labels)
    out = tmp_path / "points.csv"
    answer_dialogs(monkeypatch, out)
    window.files.choose_points_path()                # File > Save points as…
    again = load_dataset(out)
    np.testing.assert_array_equal(again.X, data.X)
    assert again.class_names == data.class_names
    np.testing.assert_array_equal(np.array(again.class_names)[again.y],
                                  np.array(data.class_names)[data.y])


# -- save session and reopen ---------------------------------------------------------------
def readout(window) -> dict:
    return {key: label.text() for key, label in window.panel.readout.items()
            if key in ("train", "test", "svs")}


def assert_same_lab(window, other):
    """Points, held-out flags, class names, labels, model and readout all as they were."""
    np.testing.assert_array_equal(other.points.X, window.points.X)
    np.testing.assert_array_equal(other.points.y, window.points.y)
    np.testing.assert_array_equal(other.points.test_mask, window.points.test_mask)
    assert other.points.class_names == window.points.class_names   # no class added
    np.testing.assert_array_equal(other.fitted.classes_, window.fitted.classes_)
    assert other.fitted.classes_.dtype == window.fitted.classes_.dtype
    X = window.points.X
    np.testing.assert_array_equal(other.fitted.predict(X), window.fitted.predict(X))
    assert readout(other) == readout(window)
    assert other.panel.readout["test"].text() != "–"            # held-out points measured
    assert not other.notices.banner.isVisible(), other.notices.banner.text()


@pytest.mark.slow
@LABELS
def test_a_saved_session_reopens_with_its_labels_and_numbers(window, qtbot, monkeypatch,
                                                             tmp_path, another_window,
                                                             labels):
    open_and_train(window, qtbot, monkeypatch, tmp_path, labels)
    window.editing.add_point(0.0, 0.0, len(LABEL_SETS[labels]))    # a point of a new class, by hand
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT):
        press(window, Qt.Key.Key_F5)
    session = tmp_path / "week1.svmdesk"
    answer_dialogs(monkeypatch, session)
    press(window, Qt.Key.Key_S, CTRL)
    assert session.exists(), window.notices.banner.text()
    names = window.points.class_names
    assert len(set(names)) == len(names)          # the new class got a name of its own
    assert load_session(session).class_names == tuple(
        window.points.class_names[:len(LABEL_SETS[labels]) + 1])

    other = another_window()
    answer_dialogs(monkeypatch, session)
    press(other, Qt.Key.Key_O, CTRL)
    assert_same_lab(window, other)


# -- autosave and restore ------------------------------------------------------------------
@pytest.mark.slow
@LABELS
def test_autosave_and_restore_keep_labels_and_numbers(window, qtbot, monkeypatch, tmp_path,
                                                      another_window, labels):
    open_and_train(window, qtbot, monkeypatch, tmp_path, labels)
    autosave = window.files.autosave
    autosave.save_now()
    qtbot.waitUntil(lambda: _autosaved_model(autosave.path) is not None, timeout=TIMEOUT)
    written = load_session(autosave.path)
    np.testing.assert_array_equal(written.model.classes_, window.fitted.classes_)
    assert written.class_names == tuple(window.points.class_names[:len(LABEL_SETS[labels])])

    window.files.finish()          # the window closes with its work never saved to a file
    other = another_window()
    assert other.files.recovery_bar.isVisible()
    restore = [b for b in other.files.recovery_bar.findChildren(QPushButton)
               if b.text() == "Restore"][0]
    QTest.mouseClick(restore, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: other.fitted is not None, timeout=TIMEOUT)
    assert_same_lab(window, other)


def _autosaved_model(path):
    try:
        return load_session(path).model
    except Exception:      # noqa: BLE001 - not written yet, or mid-rename
        return None


# -- sessions and autosaves of older svmdesk -----------------------------------------------
@pytest.mark.parametrize("names", [("-1", "1"), ("陽性", "陰性"), ("1", "2", "3", "4", "5")])
def test_an_older_session_opens_with_its_labels_repaired_and_says_so(
        window, monkeypatch, tmp_path, names):
    from ..formats.test_session import _legacy_session_file

    path, X, y, held = _legacy_session_file(tmp_path, names)
    answer_dialogs(monkeypatch, path)
    press(window, Qt.Key.Key_O, CTRL)
    assert len(window.points) == len(y), window.notices.banner.text()
    assert window.points.class_names[:len(names)] == list(names)
    assert len(set(window.points.class_names)) == 8           # no class added or renamed
    assert "older svmdesk" in window.statusBar().currentMessage()
    np.testing.assert_array_equal(window.fitted.predict(X), expected_labels(names)[y])
    assert window.panel.readout["train"].text() == "100.0 %"
    assert window.panel.readout["test"].text() == "100.0 %"


def test_an_older_autosave_is_restored_with_its_labels_repaired(qtbot, tmp_path,
                                                                private_state_dir,
                                                                another_window):
    from ..formats.test_session import _legacy_session_file

    path, X, y, held = _legacy_session_file(tmp_path, ("-1", "1"))
    private_state_dir.mkdir(parents=True, exist_ok=True)
    path.rename(private_state_dir / "unsaved-old.svmdesk")     # left by a closed window
    win = another_window()
    restore = [b for b in win.files.recovery_bar.findChildren(QPushButton)
               if b.text() == "Restore"][0]
    QTest.mouseClick(restore, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.fitted is not None, timeout=TIMEOUT)
    assert win.points.class_names[:2] == ["-1", "1"]
    assert "older svmdesk" in win.statusBar().currentMessage()
    np.testing.assert_array_equal(win.fitted.classes_, [-1, 1])
    np.testing.assert_array_equal(win.fitted.predict(X), np.array([-1, 1])[y])
