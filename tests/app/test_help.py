"""The Help menu: Getting started (F1), a keyboard-shortcut sheet read from the window's own
actions, About with versions and licences, and the welcome page a first start shows once;
each opens beside the window, which goes on working."""
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel, QPushButton, QTableWidget

import svmdesk
from svmdesk import resources
from svmdesk.app.widgets.help import CANVAS_ROWS

TIMEOUT = 5000


def _help_action(window, text):
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    return next(a for a in menu.actions() if a.text().replace("&", "") == text)


def test_f1_opens_getting_started_and_the_window_goes_on(window, qtbot):
    QTest.keyClick(window, Qt.Key.Key_F1)
    qtbot.waitUntil(lambda: window.help.page is not None and window.help.page.isVisible(),
                    timeout=TIMEOUT)
    text = " ".join(label.text() for label in window.help.page.findChildren(QLabel))
    for words in ("Place points", "Train", "support vectors", "margins"):
        assert words in text
    assert not window.help.page.isModal()
    window.panel.run_box.train_button.click()                 # the window still answers
    qtbot.waitUntil(lambda: window.last_frame is not None, timeout=TIMEOUT)


def test_the_shortcut_sheet_lists_every_key_of_the_menus(window, qtbot):
    window.files.open_example(resources.EXAMPLES[0])    # Undo's text now names the open
    _help_action(window, "Keyboard shortcuts").trigger()
    table = window.help.page.findChild(QTableWidget)
    rows = {table.item(r, 0).text(): table.item(r, 1).text() for r in range(table.rowCount())}
    assert rows["Train"].startswith("F5") and rows["Open…"] == "Ctrl+O"
    assert rows["Pause / resume"] == "Space" and rows["Getting started"] == "F1"
    assert rows["Undo"] == "Ctrl+Z" and rows["Redo"].startswith("Ctrl+Shift+Z")
    with_keys = [a for menu in window.menuBar().actions() if menu.menu() is not None
                 for a in menu.menu().actions() if not a.shortcut().isEmpty()]
    assert len(rows) == len(with_keys) + len(CANVAS_ROWS) and len(with_keys) > 10


def test_about_names_the_version_and_the_licences(window, qtbot):
    _help_action(window, "About svmdesk").trigger()
    text = " ".join(label.text() for label in window.help.page.findChildren(QLabel))
    assert svmdesk.version() in text
    for name in ("Qt", "PySide6", "pyqtgraph", "numpy", "LGPL 3", "MIT", "BSD 3-clause"):
        assert name in text


def _buttons(page):
    return {b.text(): b for b in page.findChildren(QPushButton)}


def test_a_first_start_is_welcomed_once_until_the_page_is_closed(window, another_window,
                                                                 qtbot):
    window.help.greet_on_first_start()
    page = window.help.page
    assert page is not None and page.isVisible() and not page.isModal()
    text = " ".join(label.text() for label in page.findChildren(QLabel))
    assert "File &gt; Examples" in text and "Getting started" in text
    other = another_window()
    other.help.greet_on_first_start()                  # not closed yet: welcomed again
    assert other.help.page is not None
    other.help.page.close()
    third = another_window()
    third.help.greet_on_first_start()
    assert third.help.page is None                     # closed once: remembered
    _help_action(third, "Welcome page").trigger()      # and still in the Help menu
    assert third.help.page is not None and third.help.page.isVisible()


def test_the_welcome_page_opens_an_example_or_the_guide(window, qtbot):
    window.help.greet_on_first_start()
    iris = next(e for e in resources.EXAMPLES if e.file == "iris-petals.csv")
    _buttons(window.help.page)[iris.title].click()
    assert len(window.points) == 150
    assert window.points.class_names[:3] == ["setosa", "versicolor", "virginica"]
    window.help.welcome()
    welcome = window.help.page
    _buttons(welcome)["Getting started"].click()
    qtbot.waitUntil(lambda: not welcome.isVisible(), timeout=TIMEOUT)
    assert window.help.page is not welcome and window.help.page.windowTitle() == "Getting started"


def test_each_page_shows_all_it_holds_without_scrolling(window, qtbot):
    for show in (window.help.shortcuts, window.help.getting_started, window.help.about,
                 window.help.welcome):
        show()
        page = window.help.page
        qtbot.waitExposed(page)
        assert page.height() <= page.screen().availableGeometry().height()
        for table in page.findChildren(QTableWidget):
            assert not table.verticalScrollBar().isVisible()
        for label in page.findChildren(QLabel):     # no gap above or below the text
            assert label.height() <= label.heightForWidth(label.width()) + 20
        page.close()
