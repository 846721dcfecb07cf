"""The session's log: every warning a run raised and every error the window showed, with
the time, kept while the window is open (View > Log)."""
from __future__ import annotations

import time

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPlainTextEdit, QVBoxLayout

from ...i18n import tr


class SessionLog(QObject):
    added = Signal(str)           # one new line, time first

    def __init__(self, parent=None):
        super().__init__(parent)
        self.lines: list[str] = []

    def add(self, kind: str, message: str) -> None:
        line = f"{time.strftime('%H:%M:%S')}  {kind}: {' '.join(message.split())}"
        self.lines.append(line)
        self.added.emit(line)


class LogDialog(QDialog):
    """The log as text to read and copy; new lines appear while it is open."""

    def __init__(self, log: SessionLog, parent=None):
        super().__init__(parent)
        self.setWindowTitle(tr("svmdesk log"))
        self.resize(720, 320)
        layout = QVBoxLayout(self)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setPlainText("\n".join(log.lines) or tr("Nothing to report yet."))
        self._empty = not log.lines
        layout.addWidget(self.text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout.addWidget(buttons)
        log.added.connect(self._append)

    def _append(self, line: str) -> None:
        if self._empty:
            self.text.clear()
            self._empty = False
        self.text.appendPlainText(line)
