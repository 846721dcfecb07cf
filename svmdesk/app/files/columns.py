"""Which two columns of a wide data file the canvas shows.

The canvas is 2-D, so a file with more feature columns opens only once the user has chosen
two of them. The chooser opens without a nested event loop (`open()`), and the choice is
remembered per file in the settings, so the next opening of the same file offers it again.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QWidget

from ...i18n import tr
from ..settings import app_settings

KEY = "columns"


def remembered_columns(path, names) -> tuple:
    """The two column indices last chosen for the file at `path`, or the first two."""
    value = app_settings().value(_key(path), [])
    chosen = [value] if isinstance(value, str) else list(value) if isinstance(value, list) else []
    index = [list(names).index(n) for n in chosen if n in names]
    return (index[0], index[1]) if len(index) == 2 and index[0] != index[1] else (0, 1)


def remember_columns(path, names, columns) -> None:
    settings = app_settings()
    settings.setValue(_key(path), [str(names[c]) for c in columns])
    settings.sync()


def _key(path) -> str:
    # one settings key per file, whatever characters its path holds
    digest = hashlib.sha1(str(Path(path).resolve()).encode("utf-8")).hexdigest()[:16]
    return f"{KEY}/{digest}"


class ColumnChooser(QDialog):
    """Two drop-downs over a file's feature columns; `chosen` carries (x column, y column)
    when the user presses OK with two different columns."""

    chosen = Signal(int, int)

    def __init__(self, file_name: str, names, columns: tuple, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(tr("Choose two columns"))
        form = QFormLayout(self)
        note = QLabel(tr("{name} has {n} feature columns; the canvas shows two. Which two?")
                      .format(name=file_name, n=len(names)))
        note.setWordWrap(True)
        form.addRow(note)
        self.x_box, self.y_box = QComboBox(), QComboBox()
        for box, column in ((self.x_box, columns[0]), (self.y_box, columns[1])):
            box.addItems([f"{k + 1}: {name}" for k, name in enumerate(names)])
            box.setCurrentIndex(column)
            box.currentIndexChanged.connect(self._check)
        form.addRow(tr("Horizontal axis"), self.x_box)
        form.addRow(tr("Vertical axis"), self.y_box)
        self.problem = QLabel()
        self.problem.setStyleSheet("color: #922B21;")
        form.addRow(self.problem)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self._check()

    def _check(self) -> None:
        same = self.x_box.currentIndex() == self.y_box.currentIndex()
        self.problem.setText(tr("Choose two different columns.") if same else "")
        self.problem.setVisible(same)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not same)

    def _accept(self) -> None:
        self.accept()
        self.chosen.emit(self.x_box.currentIndex(), self.y_box.currentIndex())
