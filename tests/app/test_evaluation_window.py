"""The Evaluation tab opened as a window of its own, for a laptop's 1280x720 where the tab
under the canvas has no room for many classes: with up to eight classes every number of both
matrices is readable without scrolling, ROC and PR are each at least 200 x 160 px, and every
class's AUC and AP can be read; closing the window brings the view back to its tab."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from .test_japanese import japanese  # noqa: F401  (a fixture)
from .test_labels import CTRL, answer_dialogs, press
from .test_window import TIMEOUT

LAPTOP_WINDOW = (1240, 680)       # what the window takes of a 1280x720 screen


def _classes_file(path, k: int):
    rng = np.random.default_rng(1)
    labels = ["-1", "+1", "2", "3", "4", "5", "6", "7"][:k]
    lines = ["x,y,label"]
    for j, label in enumerate(labels):
        centre = 3 * np.cos(2 * np.pi * j / k), 3 * np.sin(2 * np.pi * j / k)
        lines += [f"{x:.4f},{y:.4f},{label}" for x, y in rng.normal(centre, 0.9, (24, 2))]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, labels


def _trained(window, qtbot, monkeypatch, tmp_path, k: int) -> list:
    path, labels = _classes_file(tmp_path / f"k{k}.csv", k)
    answer_dialogs(monkeypatch, path)
    press(window, Qt.Key.Key_O, CTRL)
    assert len(window.points) == 24 * k
    window.panel.data_box.test_fraction.setValue(0.3)
    with qtbot.waitSignal(window.training_ended, timeout=TIMEOUT):
        press(window, Qt.Key.Key_F5)
    window.resize(1280, 690)
    window.below.setCurrentWidget(window.evaluation_view)
    return labels


def _readable(table) -> bool:
    """No scroll bar, and each column at least as wide as every text in it."""
    if table.horizontalScrollBar().isVisible() or table.verticalScrollBar().isVisible():
        return False
    fits = table.fontMetrics().horizontalAdvance
    for column in range(table.columnCount()):
        texts = [table.horizontalHeaderItem(column).text()] + [
            table.item(row, column).text() for row in range(table.rowCount())
            if table.item(row, column) is not None]
        if max(fits(text) for text in texts) > table.columnWidth(column):
            return False
    return True


@pytest.mark.slow
@pytest.mark.parametrize("k", [5, 8])
def test_in_its_own_window_every_number_curve_and_area_can_be_read(window, qtbot, monkeypatch,
                                                                   tmp_path, k):
    _readable_in_its_own_window(window, qtbot, monkeypatch, tmp_path, k, "train", "test")


@pytest.mark.slow
def test_in_japanese_too(japanese, another_window, qtbot, monkeypatch, tmp_path):  # noqa: F811
    _readable_in_its_own_window(another_window(), qtbot, monkeypatch, tmp_path, 8, "訓練",
                                "テスト")


def _readable_in_its_own_window(window, qtbot, monkeypatch, tmp_path, k, train, test):
    labels = _trained(window, qtbot, monkeypatch, tmp_path, k)
    view = window.evaluation_view
    qtbot.waitUntil(lambda: "AUC" in view.areas.text(), timeout=TIMEOUT)
    qtbot.mouseClick(view.cv_row.window_button, Qt.MouseButton.LeftButton)
    own = window.evaluation_window.window
    assert own is not None and view.window() is own
    own.resize(*LAPTOP_WINDOW)
    qtbot.waitExposed(own)
    QApplication.processEvents()
    assert window.below.indexOf(view) < 0                    # the tab says where it went
    page = view.classification
    assert page.train_table.rowCount() == k + 1 and page.test_table.rowCount() == k + 1
    qtbot.waitUntil(lambda: _readable(page.train_table) and _readable(page.test_table),
                    timeout=TIMEOUT)
    for plot in (view.classification.roc_plot, view.classification.pr_plot):
        assert plot.width() >= 200 and plot.height() >= 160
    areas = view.areas
    assert areas.heightForWidth(areas.width()) <= areas.height()      # nothing cut
    for label in labels:
        for split in (train, test):
            assert f"{split} {label}: AUC" in areas.text()
    qtbot.mouseClick(view.cv_row.window_button, Qt.MouseButton.LeftButton)  # "Back to the tab"
    assert window.below.indexOf(view) >= 0 and window.evaluation_window.window is None
    assert window.below.currentWidget() is view


def test_closing_the_window_brings_the_view_back(window, qtbot):
    view = window.evaluation_view
    window.below.setCurrentWidget(view)
    qtbot.mouseClick(view.cv_row.window_button, Qt.MouseButton.LeftButton)
    own = window.evaluation_window.window
    qtbot.waitExposed(own)
    assert view.cv_row.window_button.text() == "Back to the tab"
    assert window.panel.readout_box.isVisible()      # the tab's stand-in leaves it room
    own.close()
    assert window.below.currentWidget() is view and view.window() is window
    assert view.cv_row.window_button.text() == "Open in a window"
