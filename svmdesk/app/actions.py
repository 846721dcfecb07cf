"""Small Qt helpers shared by the window and its controllers."""
from __future__ import annotations

import asyncio

from PySide6.QtGui import QAction, QKeySequence


def make_action(parent, text, shortcut, slot) -> QAction:
    """A QAction on `parent` (so its shortcut works window-wide) that calls `slot`."""
    action = QAction(text, parent)
    if shortcut:
        action.setShortcut(QKeySequence(shortcut))
    action.triggered.connect(slot)
    parent.addAction(action)
    return action


_TASKS = set()   # running background tasks: asyncio keeps only weak references to them


def start_task(coroutine) -> None:
    """Run `coroutine` on the app's loop, kept alive until it is done."""
    task = asyncio.ensure_future(coroutine)
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)


def has_running_loop() -> bool:
    """True inside the app's qasync loop; False in plain Qt code (tests, scripts)."""
    try:
        asyncio.get_running_loop()
        return True
    except RuntimeError:
        return False
