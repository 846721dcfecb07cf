"""The Evaluation tab opened as a window of its own: on a laptop's 1280x720 the tab under
the canvas has no room for two matrices of many classes and their curves; a window as large
as the screen has. The view moves there and back (one view, one state); the tab holds a
line saying where it went meanwhile, and the window keeps the main window's keys."""
from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...i18n import tr
from ..widgets.evaluation.view import EvaluationView

MARGIN = 40                  # px the window leaves of the screen's free area, each way


class EvaluationWindow(QObject):
    def __init__(self, view: EvaluationView, tabs: QTabWidget, main: QMainWindow):
        super().__init__(main)
        self.view, self.tabs, self.main = view, tabs, main
        self.window: QWidget | None = None
        self.stand_in = self._stand_in()
        view.window_requested.connect(self.toggle)

    def _stand_in(self) -> QWidget:
        """What the tab shows while the view is in its window."""
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addWidget(QLabel(tr("The evaluation is open in a window of its own.")))
        back = QPushButton(tr("Back to the tab"))
        back.clicked.connect(self.attach)
        layout.addWidget(back, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addStretch(1)
        return page

    def toggle(self) -> None:
        if self.window is None:
            self.detach()
        else:
            self.attach()

    def detach(self) -> None:
        index = self.tabs.indexOf(self.view)
        title = self.tabs.tabText(index)
        self.tabs.removeTab(index)
        self.tabs.insertTab(index, self.stand_in, title)
        self.tabs.setCurrentIndex(index)
        window = self.window = _Window(self, self.main)
        window.setWindowTitle(tr("Evaluation — svmdesk"))
        window.addActions(self.main.actions())          # F5, Space, Esc… work there too
        QVBoxLayout(window).addWidget(self.view)
        self.view.set_roomy(True)
        free = self.main.screen().availableGeometry()
        window.setGeometry(free.adjusted(MARGIN // 2, MARGIN // 2, -MARGIN // 2, -MARGIN // 2))
        window.show()
        self.view.show()

    def attach(self) -> None:
        """The view back in its tab; the window goes."""
        window, self.window = self.window, None
        if window is None:
            return
        index = self.tabs.indexOf(self.stand_in)
        title = self.tabs.tabText(index)
        self.tabs.removeTab(index)
        self.view.set_roomy(False)
        self.tabs.insertTab(index, self.view, title)
        self.tabs.setCurrentWidget(self.view)
        window.hide()
        window.deleteLater()


class _Window(QWidget):
    """A top-level window of the main one (it closes with it); closing it brings the view
    back to its tab."""

    def __init__(self, owner: EvaluationWindow, main: QMainWindow):
        super().__init__(main, Qt.WindowType.Window)
        self.owner = owner

    def closeEvent(self, event) -> None:
        if self.owner.window is self:
            self.owner.attach()
        super().closeEvent(event)
