"""Open the window on an offscreen screen of a given size and report every layout problem
as JSON: run as `python -m tests.app.layout_probe WIDTH HEIGHT` (the screen size must be
set before Qt starts, so each size needs a process of its own).

Problems: the window outside the screen's available area; for every solver and kernel the
panel can show, a control cut off at the side (reachable only by scrolling sideways), a
horizontal scroll bar, a training button or the status bar outside the window.
"""
import json
import os
import sys
import tempfile
from pathlib import Path


def configure_screen(width: int, height: int) -> None:
    config = Path(tempfile.mkdtemp()) / "screen.json"
    config.write_text(json.dumps({"screens": [{
        "name": "laptop", "x": 0, "y": 0, "width": width, "height": height,
        "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}), encoding="utf-8")
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={config}"
    os.environ["SVMDESK_STATE_DIR"] = tempfile.mkdtemp()


def problems_of(window, app) -> list:
    from PySide6.QtCore import QRect
    from PySide6.QtWidgets import QAbstractButton, QAbstractSpinBox, QComboBox, QLabel, QSlider

    found = []
    area = app.primaryScreen().availableGeometry()
    if not area.contains(window.frameGeometry()):
        found.append(f"window {window.frameGeometry().getRect()} outside the screen's "
                     f"available area {area.getRect()}")
    panel, scroll = window.panel, window.panel_scroll
    controls = (QAbstractButton, QAbstractSpinBox, QComboBox, QSlider, QLabel)
    setting = f"{panel.solver.currentText()} / {panel.kernel.currentText()}"
    if scroll.horizontalScrollBar().maximum() > 0:
        found.append(f"{setting}: the panel scrolls sideways by "
                     f"{scroll.horizontalScrollBar().maximum()} px")
    width = scroll.viewport().width()
    for widget in _controls(panel, controls):
        if widget.isVisibleTo(panel) and widget.width() > 0:
            left = widget.mapTo(panel, widget.rect().topLeft()).x()
            if left < 0 or left + widget.width() > width:
                found.append(f"{setting}: {_name(widget)} spans x {left}..{left + widget.width()}"
                             f" of a {width} px wide panel")
    inner = QRect(0, 0, window.width(), window.height())
    for widget in [*_controls(panel.run_box, controls), window.statusBar()]:
        if widget.isVisibleTo(window):
            rect = QRect(widget.mapTo(window, widget.rect().topLeft()), widget.size())
            if not inner.contains(rect):
                found.append(f"{setting}: {_name(widget)} at {rect.getRect()} is outside "
                             f"the {inner.width()}x{inner.height()} window")
    return found


def _controls(parent, kinds) -> list:
    from PySide6.QtWidgets import QWidget

    return [w for w in parent.findChildren(QWidget) if isinstance(w, kinds)]


def _name(widget) -> str:
    text = widget.text() if hasattr(widget, "text") else ""
    return f"{type(widget).__name__} {text!r}"


def main(width: int, height: int) -> list:
    configure_screen(width, height)
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    from svmdesk.app.shell.main_window import MainWindow

    window = MainWindow()
    window.show()
    app.processEvents()
    panel, found = window.panel, []
    try:
        for s in range(panel.solver.count()):
            panel.solver.setCurrentIndex(s)
            for k in range(panel.kernel.count()):
                panel.kernel.setCurrentIndex(k)
                for toggle in (False, True):     # rows shown or hidden by the check boxes
                    boxes = [c.choice for c in panel.controls.values() if c.choice]
                    for box in boxes:
                        box.setChecked(toggle)
                    app.processEvents()
                    found += [p for p in problems_of(window, app) if p not in found]
    finally:
        window.shutdown()
    return found


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]), int(sys.argv[2]))))
