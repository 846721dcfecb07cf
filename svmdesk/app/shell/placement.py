"""Where the window opens: inside the screen it opens on, and on later starts where it was
left (brought back inside when the screen is now smaller, or gone).

Lab laptops often have 1280x720 screens; a window taller than the screen hides its status
bar and its lowest controls, so every placement ends inside the screen's available area.
"""
from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow, QSplitter

from ..settings import app_settings

PREFERRED = QSize(1280, 820)  # the window's size on a screen with room for it
FRAME_ALLOWANCE = QSize(16, 40)  # a window manager's border and title bar, before they are
                                 # known (the frame is only measured once the window shows)
KEYS = ("window/geometry", "window/state")
SPLITTER_KEYS = ("window/splitter", "window/column")   # the side panel's, the canvas's


def inside(wanted: QRect, available: QRect) -> QRect:
    """`wanted` moved, and shrunk where it must be, to lie inside `available`."""
    width = min(wanted.width(), available.width())
    height = min(wanted.height(), available.height())
    x = min(max(wanted.x(), available.x()), available.x() + available.width() - width)
    y = min(max(wanted.y(), available.y()), available.y() + available.height() - height)
    return QRect(x, y, width, height)


def place(window: QMainWindow, *splitters: QSplitter) -> None:
    """Before the window shows: its last place and layout (its splitters' in the order of
    SPLITTER_KEYS), or its preferred size inside the screen's available area (with room
    for a title bar)."""
    settings = app_settings()
    geometry = settings.value(KEYS[0])
    if geometry is not None and window.restoreGeometry(geometry):
        state = settings.value(KEYS[1])
        if state is not None:
            window.restoreState(state)
        for key, splitter in zip(SPLITTER_KEYS, splitters):
            value = settings.value(key)
            if value is not None:
                splitter.restoreState(value)
        return
    area = _area(window)
    frame = inside(QRect(area.topLeft(), PREFERRED + FRAME_ALLOWANCE), area)
    window.resize(frame.size() - FRAME_ALLOWANCE)
    window.move(frame.topLeft())


def keep_inside(window: QMainWindow) -> None:
    """Once the window shows (its frame measured): move and shrink it into the screen's
    available area if any of it, title bar included, lies outside."""
    frame, area = window.frameGeometry(), _area(window)
    if area.contains(frame):
        return
    margins = frame.size() - window.size()
    target = inside(frame, area)
    window.resize(target.size() - margins)
    window.move(target.topLeft())


def _area(window: QMainWindow) -> QRect:
    screen = window.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry()


def remember(window: QMainWindow, *splitters: QSplitter) -> None:
    """Keep the window's place and layout (as place takes them) for the next start."""
    settings = app_settings()
    states = [window.saveGeometry(), window.saveState(), *(s.saveState() for s in splitters)]
    for key, value in zip(KEYS + SPLITTER_KEYS, states):
        settings.setValue(key, value)
    settings.sync()
