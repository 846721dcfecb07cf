"""The Save picture dialog: the picture's width and caption, and the file types it is saved as."""
from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QDialog, QDialogButtonBox, QFormLayout, QLineEdit

from ...i18n import N_, tr
from ..widgets.number_fields import IntField

PICTURE_FILES = N_("PNG image (*.png);;SVG drawing (*.svg)")


class PictureOptions(QDialog):
    """Width in pixels and the caption of a picture to save."""

    def __init__(self, width: int, caption: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle(tr("Save picture"))
        form = QFormLayout(self)
        self.width_box = IntField(tr("width"))
        self.width_box.setRange(200, 20000)
        self.width_box.setValue(width)
        self.width_box.setSuffix(" px")
        self.with_caption = QCheckBox(tr("add a caption"))
        self.with_caption.setChecked(True)
        self.caption = QLineEdit(caption)
        self.caption.setMinimumWidth(420)
        self.with_caption.toggled.connect(self.caption.setEnabled)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(tr("Width"), self.width_box)
        form.addRow(self.with_caption)
        form.addRow(tr("Caption"), self.caption)
        form.addRow(buttons)

    def caption_text(self) -> str:
        return self.caption.text().strip() if self.with_caption.isChecked() else ""
