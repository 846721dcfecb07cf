"""Waiting in a test while the window works. QTest.qWait holds Python's GIL while it
sleeps between events (PySide6), so the worker thread cannot train meanwhile: a test that
watched a paused run "stand still" through qWait would pass with Pause doing nothing. An
event loop lets go of the GIL while it waits for events."""
from PySide6.QtCore import QEventLoop, QTimer


def pause(ms: int) -> None:
    """Process events for `ms` milliseconds, the worker thread running meanwhile."""
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()
