"""The offer to restore what an earlier window left: the bar above the canvas and what it
asks."""
from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from ...i18n import tr


def recovery_bar(restore, discard) -> tuple[QWidget, QLabel]:
    """The bar and the label of its question; its buttons call restore() and discard()."""
    bar = QWidget()
    bar.setStyleSheet("background: #FEF5E7;")
    row = QHBoxLayout(bar)
    question = QLabel()
    question.setWordWrap(True)
    restore_button, discard_button = QPushButton(tr("Restore")), QPushButton(tr("Discard"))
    row.addWidget(question, 1)
    row.addWidget(restore_button)
    row.addWidget(discard_button)
    restore_button.clicked.connect(restore)
    discard_button.clicked.connect(discard)
    return bar, question


def leftover_question(leftovers) -> str:
    """What the bar asks about the newest of the sessions left (there is at least one)."""
    newest = leftovers[0]
    # the time's format is the language's own (%H, %d... as time.strftime reads them)
    when = time.strftime(tr("%H:%M on %d %b"), time.localtime(newest.saved_at))
    more = len(leftovers) - 1
    if newest.crashed:
        text = (tr("svmdesk did not close properly last time. Restore the session it "
                   "autosaved at {when}? ({more} more after this one)") if more else
                tr("svmdesk did not close properly last time. Restore the session it "
                   "autosaved at {when}?"))
    else:
        text = (tr("The session you closed at {when} had changes that were never saved. "
                   "Restore it? ({more} more after this one)") if more else
                tr("The session you closed at {when} had changes that were never saved. "
                   "Restore it?"))
    return text.format(when=when, more=more)


def still_there(path: Path) -> bool:
    """Whether `path` exists; a file that cannot be looked at is not called gone."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return True
