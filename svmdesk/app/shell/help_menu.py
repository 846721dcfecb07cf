"""The Help menu and the welcome page: each page opens beside the window (not modal, the lab
goes on), and the welcome page greets a first start once, until it is closed."""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QDialog, QMainWindow, QMenu

from ...i18n import tr
from ...resources import WINDOW_EXAMPLES
from ..actions import make_action
from ..settings import app_settings
from ..widgets import help

if TYPE_CHECKING:
    from ..files.file_menu import FileActions
    from ..training.run import RunController

WELCOMED = "welcomed"        # the settings key: the welcome page was closed once
# The window's keys that work while one of its pages is the active window (a page is a
# window of its own, where the window's shortcuts would not reach): train, pause, quit,
# open, getting started. Esc closes a page, or stops a run under way.
PAGE_KEYS = tuple(QKeySequence(keys) for keys in ("F5", "Space", "Ctrl+Q", "Ctrl+O", "F1"))


class HelpMenu(QObject):
    def __init__(self, window: QMainWindow, menu: QMenu, files: FileActions,
                 run: RunController):
        """`run`: the training run, which Esc on a page stops while it is under way."""
        super().__init__(window)
        self.window, self.files, self.run = window, files, run
        self.page: QDialog | None = None          # the page opened last (it may be open)
        for text, keys, show in ((tr("&Getting started"), "F1", self.getting_started),
                                 (tr("&Keyboard shortcuts"), "", self.shortcuts),
                                 (tr("&About svmdesk"), "", self.about),
                                 (tr("&Welcome page"), "", self.welcome)):
            menu.addAction(make_action(window, text, keys, show))

    def getting_started(self) -> None:
        self._show(help.getting_started_page(self.window))

    def shortcuts(self) -> None:
        self._show(help.shortcuts_page(self.window))

    def about(self) -> None:
        self._show(help.about_page(self.window))

    def welcome(self) -> None:
        examples = [(tr(e.title), lambda e=e: self.files.open_example(e))
                    for e in WINDOW_EXAMPLES]
        page = help.welcome_page(self.window, examples, self.getting_started)
        page.finished.connect(lambda _: app_settings().setValue(WELCOMED, True))
        self._show(page)

    def greet_on_first_start(self) -> None:
        """The welcome page, unless it was closed before (main() asks; a window made by a
        test or a script does not)."""
        if not app_settings().value(WELCOMED, False, type=bool):
            self.welcome()

    def _show(self, page: QDialog) -> None:
        page.addActions([action for action in self.window.actions()
                         if any(keys in PAGE_KEYS for keys in action.shortcuts())])
        escape = QShortcut(QKeySequence("Esc"), page)
        escape.activated.connect(lambda: self._escape(page))
        self.page = page
        page.show()

    def _escape(self, page: QDialog) -> None:
        """Esc on a page: stops a run under way (as in the window), else closes the page."""
        if self.run.active:
            self.run.stop()
        else:
            page.close()
