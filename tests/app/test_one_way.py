"""Every piece of the window is handed the few objects it works with; only the main window
knows them all. Of the window itself a piece may use what Qt gives every main window (a
parent for its dialogs, the status bar, Quit). A piece that reads the window's own
attributes (window.panel, self.window.work, ...) fails here, naming them."""
import ast
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMainWindow

import svmdesk.app

APP = Path(svmdesk.app.__file__).parent
# they build and wire (and the lab check drives a whole window, as a person would)
WIRING = {APP / "__init__.py", APP / "shell" / "main_window.py", APP / "lab_check.py"}


def _window_attributes(source: str) -> set:
    """Every name read as window.<name>, self.window.<name> or w.<name>."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "window" and isinstance(node.value.value, ast.Name):
            names.add(node.attr)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in ("w", "window"):
            names.add(node.attr)
    return names


PIECES = sorted(path for path in APP.rglob("*.py") if path not in WIRING)


@pytest.mark.parametrize("path", PIECES, ids=lambda p: str(p.relative_to(APP)))
def test_no_piece_reaches_into_the_window(path):
    used = _window_attributes(path.read_text(encoding="utf-8"))
    ours = {name for name in used if not hasattr(QMainWindow, name)}
    assert ours == set(), f"{path.name} reads the window's own {sorted(ours)}"


def test_the_check_sees_a_piece_that_reaches_into_the_window():
    source = ("class Piece:\n    def __init__(self, window):\n"
              "        self.panel = window.panel\n        self.window = window\n"
              "    def go(self):\n        self.window.work.fitted = None\n"
              "        w = self.window\n        w.notices.say('')\n"
              "        self.window.statusBar()\n")
    assert _window_attributes(source) - {"statusBar"} == {"panel", "work", "notices"}
    assert len(PIECES) > 20
