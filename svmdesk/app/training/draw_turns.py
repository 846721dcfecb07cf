"""The canvases of a comparison drawn in turn, one per pass of the GUI thread's event loop.

Qt paints every widget with a change in one pass, so five runs' frames that arrive together
were five frames set and five canvases painted at once: stalls of 50-90 ms. Here each
canvas's change waits its turn: the next is made once the canvas changed last has painted
(or PAINT_WAIT_MS passed without its paint: a canvas out of sight paints nothing), taking
the canvases in their order round from the last one drawn, so none waits behind a busy one.
"""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

PAINT_WAIT_MS = 100          # a change whose paint has not come by then paints nothing


class DrawTurns(QObject):
    """Changes of numbered canvases made one at a time; a canvas's later change replaces
    one still waiting (only the last is worth drawing)."""

    drained = Signal()          # every change made and painted (at each time it comes to be)

    def __init__(self, parent: QObject | None = None, paint_wait_ms: int = PAINT_WAIT_MS):
        super().__init__(parent)
        self._due: dict[int, Callable[[], bool]] = {}
        self._painting: int | None = None     # the canvas changed last, until it paints
        self._last = -1                       # the canvas whose turn came last
        self._next = QTimer(self, singleShot=True, interval=0)
        self._next.timeout.connect(self._turn)
        self._patience = QTimer(self, singleShot=True, interval=paint_wait_ms)
        self._patience.timeout.connect(lambda: self.painted(self._painting))

    def put(self, k: int, change: Callable[[], bool]) -> None:
        """Make `change()` to canvas k in its turn; it says whether a paint is to come."""
        self._due[k] = change
        self._soon()

    def painted(self, k: int | None) -> None:
        """Canvas k painted: the next change may come."""
        if k is not None and k == self._painting:
            self._painting = None
            self._patience.stop()
            self._soon()

    def clear(self) -> None:
        """Forget every change waiting (a new comparison, or a kept one, is shown)."""
        self._due.clear()
        self._painting = None
        self._patience.stop()
        self._next.stop()

    def _soon(self) -> None:
        if self._painting is not None or self._next.isActive():
            return
        if self._due:
            self._next.start()          # in a pass of its own, after the paint's
        else:
            self.drained.emit()

    def _turn(self) -> None:
        if not self._due or self._painting is not None:
            return
        k = min(self._due, key=lambda j: (j <= self._last, j))
        self._last = k
        if self._due.pop(k)():
            self._painting = k
            self._patience.start()
        else:
            self._soon()
