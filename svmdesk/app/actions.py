"""Small Qt helpers shared by the window and its controllers."""
from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence


def make_action(parent, text, shortcut, slot) -> QAction:
    """A QAction on `parent` (so its shortcut works window-wide) that calls `slot`."""
    action = QAction(text, parent)
    if shortcut:
        action.setShortcut(QKeySequence(shortcut))
    action.triggered.connect(slot)
    parent.addAction(action)
    return action
