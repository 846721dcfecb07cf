"""The window on a small laptop screen: it opens inside the screen, comes back where it was
left (inside the screen even when that is now smaller), and every control of the panel is
reachable at 1280x720 and 1366x768 without scrolling sideways."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication

from svmdesk.app.shell.placement import inside

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.parametrize("width, height", [(1280, 720), (1366, 768)])
def test_every_control_is_reachable_on_a_laptop_screen(width, height):
    """For every solver, kernel and check box state (a process per screen size: the
    offscreen screen's size is fixed when Qt starts)."""
    result = subprocess.run([sys.executable, "-m", "tests.app.layout_probe", str(width),
                             str(height)], cwd=ROOT, capture_output=True, text=True,
                            timeout=50)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []


def test_inside_moves_and_shrinks_a_rectangle_into_the_screen():
    screen = QRect(0, 0, 1280, 720)
    assert inside(QRect(0, 0, 1296, 860), screen) == QRect(0, 0, 1280, 720)
    assert inside(QRect(100, 50, 800, 600), screen) == QRect(100, 50, 800, 600)
    assert inside(QRect(2500, 1400, 800, 600), screen) == QRect(480, 120, 800, 600)
    assert inside(QRect(-300, -20, 800, 600), screen) == QRect(0, 0, 800, 600)
    second = QRect(1280, 0, 1024, 768)                   # a screen right of the first
    assert inside(QRect(1300, 10, 1280, 820), second) == QRect(1280, 0, 1024, 768)


def _available():
    return QApplication.primaryScreen().availableGeometry()


def test_the_window_opens_inside_the_screen(window, qtbot):
    qtbot.waitUntil(lambda: _available().contains(window.frameGeometry()), timeout=5000)
    assert window.statusBar().isVisible()


def test_the_window_opens_where_it_was_left(window, another_window):
    window.resize(640, 480)
    window.move(40, 30)
    window.splitter.setSizes([400, 240])
    QApplication.processEvents()
    place, sizes = window.geometry(), window.splitter.sizes()
    window.close()                                   # the user closes it
    other = another_window()
    assert other.geometry() == place
    assert other.splitter.sizes() == sizes


def test_a_place_off_a_now_smaller_screen_is_brought_back(window, another_window, qtbot):
    window.move(5000, 4000)                          # on a big monitor, unplugged since
    window.resize(1800, 1200)
    QApplication.processEvents()
    window.close()
    other = another_window()
    qtbot.waitUntil(lambda: _available().contains(other.frameGeometry()), timeout=5000)
