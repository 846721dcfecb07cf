"""Dialogs that never block the app's event loop: each opens window-modal (`open()`, no
nested loop) and hands the answer to a callback, so autosaves, file reads and training
frames go on while a student picks a file name."""
from __future__ import annotations

from PySide6.QtWidgets import QDialog, QFileDialog

from ...i18n import tr

OPEN, SAVE = QFileDialog.AcceptMode.AcceptOpen, QFileDialog.AcceptMode.AcceptSave


def ask_path(parent, title: str, path: str, filters: str, mode, then) -> QFileDialog:
    """A file dialog on `path` (a folder, or a suggested file); then(chosen path) once the
    user accepts (nothing when they cancel). Returns the dialog, open."""
    dialog = QFileDialog(parent, title, path, filters)
    # Qt's own catalogue lacks these two labels of its dialog (it has them without the key)
    dialog.setLabelText(QFileDialog.DialogLabel.LookIn, tr("&Look in:"))
    dialog.setLabelText(QFileDialog.DialogLabel.FileType, tr("Files of &type:"))
    dialog.setAcceptMode(mode)
    dialog.setFileMode(QFileDialog.FileMode.ExistingFile if mode == OPEN
                       else QFileDialog.FileMode.AnyFile)
    dialog.fileSelected.connect(lambda chosen: chosen and then(chosen))
    ask(dialog, lambda: None)
    return dialog


def ask(dialog: QDialog, then) -> QDialog:
    """Open `dialog` window-modal; then() once it is accepted. Returns it, open."""
    dialog.accepted.connect(then)
    dialog.finished.connect(dialog.deleteLater)
    dialog.open()
    return dialog
