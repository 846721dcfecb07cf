"""The Help menu's pages: the keyboard shortcuts (read from the window's own actions, so the
sheet cannot go stale), a one-page getting started, About (versions and licences) and the
welcome page of a first start. Each is a window of its own, shown beside the main one."""
from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
import PySide6
from PySide6.QtCore import Qt, qVersion
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QMainWindow,
    QMenu,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ... import version
from ...i18n import N_, tr

GETTING_STARTED = N_("""\
<h3>Getting started</h3>
<ol>
<li><b>Place points.</b> Left-click the canvas to add a point of the class chosen under
<i>Click adds class</i> (keys 1–8 choose it), right-click to add one of class 2; drag a
point to move it, Ctrl+click or Delete removes it. Or make a data set with
<i>Generate</i>, or open a CSV file (Ctrl+O).</li>
<li><b>Choose</b> a solver and a kernel in the panel. Only their own parameters show; each
one's tooltip says what it does to the picture.</li>
<li><b>Train</b> (F5). The boundary, its margins and the support vectors are drawn while the
solver learns; Space pauses, <i>Step</i> goes one step, <i>Play</i> steps on at the pace
its slider sets, Esc stops.</li>
<li><b>Read the picture.</b> The coloured regions are the classes the model predicts, paler
near the boundary (the solid line). The dashed lines are the margins. Ringed points are the
support vectors: circles on their margin, red squares inside it or beyond. The readout and
the charts show the objectives the solver optimises, and the gap between them falls as it
converges.</li>
<li><b>Change the task.</b> The <i>Task</i> box at the top of <i>Model</i> trains ν-SVC (ν in
place of C: the readout shows the fractions of margin errors and of support vectors beside ν)
or detects novelty: every point is then a point of one class, a right click adds an outlier
mark the model never trains on, the shaded region is where the model expects the points, and
a red cross marks what lies outside it. In regression a click adds a sample (x, y), its
height the target: the curve f(x) runs through a dashed tube whose samples cost nothing.</li>
</ol>
<p>File &gt; Save session keeps the points, settings and model; File &gt; Save picture
exports what the canvas shows.</p>
""")

WELCOME = N_("""\
<h3>Welcome to svmdesk</h3>
<p>Watch a support vector machine learn: place points on the canvas, press <i>Train</i>
(F5), and see the boundary, its margins and the support vectors move while it learns.</p>
<p>Start from an example data set, or read the one-page guide first. Both stay in the
menus: File &gt; Examples and Help &gt; Getting started (F1).</p>
""")


def _components() -> list:
    """(name, version, licence) of what the window is made with."""
    return [("svmdesk", version(), "MIT"),
            ("Qt", qVersion(), "LGPL 3"),
            ("PySide6", PySide6.__version__, "LGPL 3"),
            ("pyqtgraph", pg.__version__, "MIT"),
            ("numpy", np.__version__, "BSD 3-clause")]


SHEET_NAME = "sheet_name"    # an action's property: its name on the sheet, when its text
                             # changes (Undo's says what it undoes: "Undo Open iris.csv")


# What the canvas does with keys and the mouse: no menu action has these, so the sheet
# lists them itself (what, keys), after the menus' keys.
CANVAS_ROWS = ((N_("Choose the class a click adds"), "1–8"),
               (N_("Add a point of class 2 (novelty detection: an outlier mark)"),
                N_("Right click")),
               (N_("Remove the point"), N_("Ctrl+click, Delete")),
               (N_("Zoom"), N_("Wheel")),
               (N_("Move the point"), N_("Drag a point")),
               (N_("Pan"), N_("Drag the background")))


def shortcut_rows(window: QMainWindow) -> list:
    """(what, keys) of every action of the window that has a key, in menu order, then
    what the canvas's keys and mouse do."""
    rows = []
    for menu_action in window.menuBar().actions():
        menu = menu_action.menu()
        for action in menu.actions() if isinstance(menu, QMenu) else ():
            if isinstance(action, QAction) and not action.shortcut().isEmpty():
                keys = ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText)
                                 for k in action.shortcuts())
                name = action.property(SHEET_NAME) or _plain(action.text())
                rows.append((name, keys))
    return rows + [(tr(what), tr(keys)) for what, keys in CANVAS_ROWS]


def _plain(text: str) -> str:
    """A menu item's words without its key mark: 'Open…' of '&Open…', '開く…' of
    '開く(&O)…' (Japanese menus put the key in brackets)."""
    return re.sub(r"\(&\w\)", "", text).replace("&", "")


class _Page(QDialog):
    def __init__(self, title: str, body: QWidget, parent: QWidget):
        super().__init__(parent)
        self.setWindowTitle(title)
        self._layout = layout = QVBoxLayout(self)
        layout.addWidget(body)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout.addWidget(buttons)

    def fit(self, width: int) -> None:
        """`width` wide and as tall as what it holds (wrapped text included), within the
        screen."""
        layout = self._layout
        height = max(layout.totalHeightForWidth(width), layout.totalMinimumSize().height())
        self.resize(width, min(height, self.screen().availableGeometry().height() - 60))


def shortcuts_page(window: QMainWindow) -> QDialog:
    rows = shortcut_rows(window)
    table = QTableWidget(len(rows), 2)
    table.setHorizontalHeaderLabels([tr("Action"), tr("Keys")])
    table.verticalHeader().hide()
    for r, (what, keys) in enumerate(rows):
        table.setItem(r, 0, QTableWidgetItem(what))
        table.setItem(r, 1, QTableWidgetItem(keys))
    header = table.horizontalHeader()
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
    table.resizeRowsToContents()        # as tall as their words: the sheet fits a 720p screen
    frame = 2 * table.frameWidth()
    room = window.screen().availableGeometry().height() - 160   # title bar, Close, margins
    table.setMinimumHeight(min(room, table.horizontalHeader().sizeHint().height()
                               + table.verticalHeader().length() + frame))
    page = _Page(tr("Keyboard shortcuts"), table, window)
    page.fit(max(460, table.sizeHintForColumn(0) + table.sizeHintForColumn(1) + 60))
    return page


def getting_started_page(window: QWidget) -> QDialog:
    text = QLabel(tr(GETTING_STARTED))
    text.setWordWrap(True)
    page = _Page(tr("Getting started"), text, window)
    page.fit(560)
    return page


def welcome_page(window: QWidget, examples: list, getting_started: Callable[[], None]
                 ) -> QDialog:
    """`examples`: (title, open it) pairs, a button each; a button closes the page."""
    body = QWidget()
    layout = QVBoxLayout(body)
    text = QLabel(tr(WELCOME))
    text.setWordWrap(True)
    layout.addWidget(text)
    page = _Page(tr("Welcome to svmdesk"), body, window)
    for title, open_example in examples:
        layout.addWidget(_button(title, open_example, page))
    layout.addWidget(_button(tr("Getting started"), getting_started, page))
    page.fit(480)
    return page


def _button(title: str, then: Callable[[], None], page: QDialog) -> QPushButton:
    def clicked() -> None:
        page.accept()
        then()

    button = QPushButton(title)
    button.clicked.connect(clicked)
    return button


def about_page(window: QWidget) -> QDialog:
    lines = "".join(f"<tr><td>{name}</td><td>{v}</td><td>{licence}</td></tr>"
                    for name, v, licence in _components())
    about = tr("A desktop lab for support vector machines: place points, pick a solver, "
               "watch it learn.")
    heads = "".join(f"<th align='left'>{head}</th>"
                    for head in (tr("made with"), tr("version"), tr("licence")))
    text = QLabel(f"<h3>svmdesk</h3><p>{about}</p><table cellspacing='6'><tr>{heads}</tr>"
                  f"{lines}</table>")
    text.setWordWrap(True)
    page = _Page(tr("About svmdesk"), text, window)
    page.fit(480)
    return page
