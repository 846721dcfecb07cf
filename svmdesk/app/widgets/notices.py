"""Where every message to the user goes: the red banner above the canvas (kept while its
cause holds), the status bar, a dialog for a file that could not be read or written, and the
session's log (View > Log). The window, the File menu and the run all speak through it."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QLabel, QMainWindow, QMessageBox

from ...i18n import tr
from .log import LogDialog, SessionLog

ERROR_MS = 10000      # how long an error stays in the status bar (the banner stays)
WARNING_MS = 20000


class _Banner(QLabel):
    """The red banner: a click dismisses it."""

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.hide()


class Notices(QObject):
    def __init__(self, window: QMainWindow):
        """`window`: its status bar, and the parent of the dialogs; nothing more."""
        super().__init__(window)
        self.window = window
        self.banner = _Banner()
        self.banner.setWordWrap(True)
        self.banner.setToolTip(tr("Click to dismiss"))
        self.banner.setStyleSheet("background: #FDEDEC; color: #922B21; padding: 6px;")
        self.banner.hide()
        self.log = SessionLog(self)
        self.log_dialog: LogDialog | None = None
        self.file_error_box: QMessageBox | None = None
        self._boxes = True         # file errors open a dialog too (see banner_only)
        self._cause = None         # while this returns True the banner's message holds
        self._changes = 0          # counts changes of the points, parameters and model

    def say(self, message: str, ms: int = 0) -> None:
        """A line in the status bar (for `ms` milliseconds; 0: until the next). A line
        longer than the window is cut at its edge: its tooltip holds the whole line."""
        bar = self.window.statusBar()
        bar.showMessage(message, ms)
        bar.setToolTip(message)

    def error(self, message: str, cause=None) -> None:
        """The red banner. `cause`, if given, tells whether the message still holds: it
        is asked whenever the points, the parameters or the model change (`recheck`), and
        the banner goes once the answer is no. Without one, the message holds until the
        first such change (it was about what the user did last)."""
        self.banner.setText(message)
        self.banner.show()
        self._cause = cause or self._unchanged_since(self._changes)
        self.say(message, ERROR_MS)

    def _unchanged_since(self, changes: int):
        return lambda: self._changes == changes

    def file_error(self, message: str) -> None:
        """A file could not be read or written: the banner, and a dialog until OK (but
        within `banner_only`)."""
        self.error(message)
        if not self._boxes:
            return
        box = QMessageBox(QMessageBox.Icon.Warning, "svmdesk", message,
                          QMessageBox.StandardButton.Ok, self.window)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()                          # window-modal, without a nested event loop
        self.file_error_box = box

    @contextmanager
    def banner_only(self, only: bool = True) -> Iterator[None]:
        """File errors meanwhile (when `only`) are the banner alone: a file opened before
        the window showed (named on the command line) has no work on screen for a dialog
        to return to, and the dialog said the banner's words a second time."""
        before, self._boxes = self._boxes, self._boxes and not only
        try:
            yield
        finally:
            self._boxes = before

    def logged_error(self, kind: str, message: str, cause=None) -> None:
        """An error the log keeps too (a refused or failed run)."""
        self.log.add(kind, message)
        self.error(message, cause)

    def warning(self, message: str) -> None:
        """A run's warning: the log, and the status bar pointing at it."""
        self.log.add(tr("warning"), message)
        # the pointer to the log first: a long warning is cut at the window's right edge
        self.say(tr("Warning (View > Log keeps every message): {message}")
                 .format(message=" ".join(message.split())), WARNING_MS)

    def clear_error(self) -> None:
        self.banner.hide()
        self._cause = None

    def recheck(self) -> None:
        """The points, the parameters or the model changed: a message whose cause is gone
        goes."""
        self._changes += 1
        if self._cause is not None and not self._cause():
            self.clear_error()

    def show_log(self) -> None:
        """View > Log: every warning and error of this session (a window of its own)."""
        if self.log_dialog is None:
            self.log_dialog = LogDialog(self.log, self.window)
        self.log_dialog.show()
        self.log_dialog.raise_()
