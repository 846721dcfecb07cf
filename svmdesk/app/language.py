"""The window's language: the choice View > Language remembers (it applies from the next
start: the window's strings are made as it is built) and Qt's own catalogue for the words
of its standard dialogs and buttons (qtbase_<code>.qm, shipped with Qt)."""
from __future__ import annotations

from PySide6.QtCore import QLibraryInfo, QTranslator
from PySide6.QtWidgets import QApplication

from ..i18n import SOURCE, normalise
from .settings import app_settings

KEY = "language"


def remembered_language() -> str | None:
    """The language View > Language chose, or None."""
    return normalise(str(app_settings().value(KEY, "") or ""))


def remember_language(code: str) -> None:
    settings = app_settings()
    settings.setValue(KEY, code)
    settings.sync()


def install_qt_translation(app: QApplication, code: str) -> QTranslator | None:
    """Qt's standard texts (Close, Cancel, file dialogs) in `code`; None for English or when
    Qt has no catalogue for it."""
    if code == SOURCE:
        return None
    translator = QTranslator(app)
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    if not translator.load(f"qtbase_{code}", folder):
        return None
    app.installTranslator(translator)
    return translator
