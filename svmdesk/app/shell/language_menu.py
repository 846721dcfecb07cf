"""The Language menu: English, 日本語 (each in its own words). The choice is remembered and
applies from the next start."""
from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QActionGroup
from PySide6.QtWidgets import QMainWindow, QMenu

from ...i18n import LANGUAGES, language, tr
from ..language import remember_language
from ..widgets.notices import Notices


class LanguageMenu(QObject):
    def __init__(self, window: QMainWindow, menu: QMenu, notices: Notices):
        super().__init__(window)
        self.notices = notices
        group = QActionGroup(menu)
        for code, name in LANGUAGES.items():
            action = menu.addAction(name)
            action.setCheckable(True)
            action.setChecked(code == language())
            action.setData(code)
            group.addAction(action)
        group.triggered.connect(lambda action: self.choose(action.data()))

    def choose(self, code: str) -> None:
        remember_language(code)
        self.notices.say(tr("svmdesk speaks {language} from its next start.").format(
            language=LANGUAGES[code]), 10000)
