"""Issue 80, part 3, the words a new user meets: the shortcut sheet names the canvas's keys and
mouse too and no cell of it is cut, the generators have titles (no `two_disks`), the file
dialogs' type filters are translated, and a file refused on the command line is one message."""
import asyncio

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QStyle, QTableWidget

from svmdesk import i18n
from svmdesk.app.files import file_menu
from svmdesk.app.language import install_qt_translation
from svmdesk.core.point_generators import (
    GENERATOR_TITLES,
    GENERATORS,
    NOVELTY_GENERATOR_TITLES,
    NOVELTY_GENERATORS,
)
from svmdesk.core.regression_generators import (
    REGRESSION_GENERATOR_TITLES,
    REGRESSION_GENERATORS,
)

from .conftest import until
from .test_labels import CTRL, answer_dialogs, press
from .test_tasks import choose, train
from .test_window import TIMEOUT

SHIFT = Qt.KeyboardModifier.ShiftModifier
WAIT = TIMEOUT / 1000            # s: the longest a coroutine waits


@pytest.fixture(params=["en", "ja"])
def speaking(request, qapp):
    """The window's language (as main() sets it, Qt's words too), chosen before it is built."""
    code = i18n.set_language(request.param)
    translator = install_qt_translation(qapp, code)
    yield code
    if translator is not None:
        qapp.removeTranslator(translator)
    i18n.set_language("en")


def _shortcut_sheet(window, qtbot) -> QTableWidget:
    """Help > Keyboard shortcuts, as a person opens it: the sheet's table, on screen."""
    help_menu = window.menuBar().actions()[-1].menu()
    help_menu.actions()[1].trigger()                  # Getting started, Keyboard shortcuts, …
    page = window.help.page
    qtbot.waitExposed(page, timeout=TIMEOUT)
    return page.findChild(QTableWidget)


# -- 1. the shortcut sheet ------------------------------------------------------------------
def test_the_shortcut_sheet_names_the_canvas_keys_and_mouse(window, qtbot):
    table = _shortcut_sheet(window, qtbot)
    rows = {table.item(r, 1).text(): table.item(r, 0).text() for r in range(table.rowCount())}
    assert "class a click adds" in rows["1–8"]
    assert "class 2" in rows["Right click"] and "outlier mark" in rows["Right click"]
    assert "Remove" in rows["Ctrl+click, Delete"]
    assert "Zoom" in rows["Wheel"]
    assert "Move" in rows["Drag a point"] and "Pan" in rows["Drag the background"]
    assert rows["F5, Ctrl+Return"] == "Train"            # the menus' keys are still there


def test_no_cell_of_the_shortcut_sheet_is_cut(speaking, window, qtbot):
    """Each cell's words fit their column (the item's text margins included), and the
    columns fit the table: nothing is elided or scrolled out of sight."""
    table = _shortcut_sheet(window, qtbot)
    metrics = table.fontMetrics()
    margin = table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None,
                                       table) + 1
    cut = [(table.item(r, c).text(), table.columnWidth(c))
           for r in range(table.rowCount()) for c in (0, 1)
           if metrics.horizontalAdvance(table.item(r, c).text()) + 2 * margin
           > table.columnWidth(c)]
    assert not cut
    assert table.columnWidth(0) + table.columnWidth(1) <= table.viewport().width()
    if speaking == "ja":
        assert "LIBSVM 用にモデルをエクスポート…" in [table.item(r, 0).text()
                                                   for r in range(table.rowCount())]


# -- 2. the generators' titles --------------------------------------------------------------
def test_every_generator_has_a_title():
    for generators, titles in ((GENERATORS, GENERATOR_TITLES),
                               (NOVELTY_GENERATORS, NOVELTY_GENERATOR_TITLES),
                               (REGRESSION_GENERATORS, REGRESSION_GENERATOR_TITLES)):
        assert list(titles) == list(generators)
        assert not any("_" in title for title in titles.values())


def test_the_generator_box_shows_titles_not_names(speaking, window):
    box = window.panel.data_box.generator
    for kind in ("c_svc", "one_class", "epsilon_svr"):
        choose(window.panel.task, kind)
        shown = {box.itemData(k): box.itemText(k) for k in range(box.count())}
        assert not [name for name, text in shown.items() if "_" in name and text == name]
        assert not [text for text in shown.values() if "_" in text]
    choose(window.panel.task, "c_svc")
    assert box.itemText(box.findData("two_disks")) == {
        "en": "two disks with an outlier", "ja": "外れ値つきの 2 つの円板"}[speaking]


# -- 3. the file dialogs' type filters ------------------------------------------------------
def _filters(window, qtbot, monkeypatch) -> list:
    """The type filters of every file dialog of the File menu, asked for with its keys and
    items; no dialog opens (the one that would is recorded instead)."""
    asked: list = []
    monkeypatch.setattr(file_menu, "ask_path",
                        lambda parent, title, path, filters, mode, then: asked.append(filters))
    press(window, Qt.Key.Key_O, CTRL)                              # Open…
    press(window, Qt.Key.Key_S, CTRL | SHIFT)                      # Save session as…
    window.files.choose_points_path()                              # Save points as…
    window.files.choose_model_path()                               # Save model…
    press(window, Qt.Key.Key_E, CTRL)                              # Export for LIBSVM…
    press(window, Qt.Key.Key_P, CTRL | SHIFT)                      # Save picture…: options
    options = window.files.dialog
    qtbot.waitExposed(options, timeout=TIMEOUT)
    options.accept()                                               # then where to save
    assert len(asked) == 6
    return asked


def test_the_file_dialogs_type_filters_are_translated(window, qtbot, monkeypatch):
    train(window, qtbot)                                # a model to save and export
    english = _filters(window, qtbot, monkeypatch)
    try:
        i18n.set_language("ja")
        japanese = _filters(window, qtbot, monkeypatch)
    finally:
        i18n.set_language("en")
    for en, ja in zip(english, japanese):
        assert len(en.split(";;")) == len(ja.split(";;"))
        for one, other in zip(en.split(";;"), ja.split(";;")):
            assert one != other                         # the words went through tr()
            assert one[one.index("("):] == other[other.index("("):]   # the patterns stay


# -- 4. a file refused on the command line --------------------------------------------------
def _visible_boxes() -> list:
    return [w for w in QApplication.topLevelWidgets()
            if isinstance(w, QMessageBox) and w.isVisible()]


@pytest.mark.parametrize("bad", ["words.csv", "missing.csv"])
def test_a_file_refused_on_the_command_line_is_one_message(bad, qtbot, qasync_loop, tmp_path,
                                                           monkeypatch):
    """As main() opens it: the window is built on the running loop with the path, then
    shown; the refusal is the banner alone. Opening the same file from the window then
    still shows the banner and the dialog that waits for OK."""
    from svmdesk.app.shell.main_window import MainWindow

    path = tmp_path / bad
    if bad == "words.csv":
        path.write_text("x,y,label\n0,zero,cat\n1,1,dog\n", encoding="utf-8")
    made = []

    async def start() -> None:
        window = MainWindow(str(path))
        made.append(window)
        qtbot.addWidget(window)
        window.show()
        await until(lambda: window.notices.banner.isVisible(), WAIT)
        await asyncio.sleep(0.2)                        # time for a box to show, if one would

    try:
        qasync_loop.run_until_complete(asyncio.wait_for(start(), WAIT))
        window = made[0]
        assert bad in window.notices.banner.text() and len(window.points) == 100   # the demo
        assert window.notices.file_error_box is None and not _visible_boxes()

        async def open_it_again() -> None:
            if path.exists():
                answer_dialogs(monkeypatch, path)
                press(window, Qt.Key.Key_O, CTRL)                  # File > Open…
            else:               # the dialog picks existing files only: Open recent's way
                window.files.open(path)
            await until(lambda: window.notices.file_error_box is not None, WAIT)

        qasync_loop.run_until_complete(asyncio.wait_for(open_it_again(), WAIT))
        box = window.notices.file_error_box
        assert box.isVisible() and bad in box.text() and window.notices.banner.isVisible()
        box.accept()
    finally:
        for window in made:
            window.shutdown()
