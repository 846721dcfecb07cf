"""The File menu talks to the document, the notices, the opener, the canvas and the run
controller; of the window it uses only what Qt gives every main window (a parent for its
dialogs, Quit). A call back into the window's own methods fails here, naming it."""
import ast
from pathlib import Path

from PySide6.QtWidgets import QMainWindow

import svmdesk.app.files.file_menu as files

COLLABORATORS = {"notices", "work", "opener", "canvas", "run"}


def _window_attributes(source: str) -> set:
    """Every name read as window.<name>, self.window.<name> or w.<name> (w = self.window)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "window" and isinstance(node.value.value, ast.Name):
            names.add(node.attr)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in ("w", "window"):
            names.add(node.attr)
    return names


def test_the_file_menu_uses_no_method_of_the_window_beyond_qts():
    used = _window_attributes(Path(files.__file__).read_text(encoding="utf-8"))
    ours = {name for name in used - COLLABORATORS if not hasattr(QMainWindow, name)}
    assert ours == set(), f"file_menu.py calls into the window: {sorted(ours)}"
    assert used & COLLABORATORS           # the check sees what it should
