"""The Compare solvers window: the comparison's view in a window of its own (five canvases,
two charts and a table need a screen's room, not a tab's), made the first time it is asked
for. It draws the main window's points and starts where the main canvas's view is; closing
it stops its runs."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QMainWindow, QVBoxLayout, QWidget

from ...core.comparison import Entry
from ...core.datasets import class_labels
from ...formats.comparison_table import table_text
from ...i18n import tr
from ..training.comparison import Comparison
from ..widgets.comparison_picture import Points, comparison_figure
from ..widgets.comparison_view import ComparisonView

MARGIN = 40                  # px the window leaves of the screen's free area, each way


class ComparisonWindow(QObject):
    save_picture_requested = Signal()        # its view's "Save picture…" was clicked
    save_table_requested = Signal()          # its view's "Save table…" was clicked

    def __init__(self, main: QMainWindow, make_job: Callable, panel_params: Callable,
                 work, canvas):
        """`work`: the document (its points the runs' canvases draw, its comparison the
        window shows); `canvas`: the main window's (where the runs' view starts)."""
        super().__init__(main)
        self.main, self.make_job, self.panel_params = main, make_job, panel_params
        self.work, self.points, self.canvas = work, work.points, canvas
        self.window: QWidget | None = None
        self.view: ComparisonView | None = None
        self.comparison: Comparison | None = None

    def open(self) -> None:
        """Show the window (made now the first time) over the main window's points."""
        if self.window is None:
            self._make()
        assert self.window is not None and self.comparison is not None
        self._draw_points()
        self._follow_main_view()
        self.comparison.follow_panel()
        self.comparison.prepare()
        self.window.show()
        self.window.raise_()
        self.window.activateWindow()

    def _make(self) -> None:
        window = self.window = _Window(self, self.main)
        window.setWindowTitle(tr("Compare solvers — svmdesk"))
        window.addActions(self.main.actions())          # Ctrl+S, Ctrl+O… work there too
        self.view = ComparisonView()
        QVBoxLayout(window).addWidget(self.view)
        self.comparison = Comparison(self.view, self.make_job, self.panel_params, self.work,
                                     self)
        free = self.main.screen().availableGeometry()
        window.setGeometry(free.adjusted(MARGIN // 2, MARGIN // 2, -MARGIN // 2, -MARGIN // 2))
        self._show_kept()
        self.work.comparison_replaced.connect(self._show_kept)
        self.view.save_picture_requested.connect(self.save_picture_requested)
        self.view.save_table_requested.connect(self.save_table_requested)

    def figure(self, width: int):
        """The last comparison as one picture `width` pixels wide, over the points in the
        view its canvases show (None: there is none)."""
        record = self.work.comparison
        if record is None or self.view is None:
            return None
        p = self.points
        points = Points(p.X, p.y, p.test_mask, tuple(p.class_names), self.canvas.axis_names)
        labels = class_labels(self.work.used_class_names()).tolist()
        return comparison_figure(record, points, labels, width, tr(
            "Compared: {settings}").format(settings=record.settings),
            tuple(self.view.canvases[0].view.viewRange()))

    def table(self) -> str | None:
        """The last comparison's table as CSV (formats.comparison_table; None: there is
        none)."""
        record = self.work.comparison
        if record is None:
            return None
        return table_text([(Entry(run.solver, run.C),
                            run.row if run.row is not None else run.error)
                           for run in record.runs])

    def _show_kept(self) -> None:
        """The document's comparison (a session's), its models drawn over the points in
        the main canvas's view."""
        assert self.comparison is not None
        self._draw_points()
        self._follow_main_view()
        self.comparison.show_record(self.work.comparison)

    def show_points(self) -> None:
        """The points changed: the runs' canvases draw them, if in sight (else when the
        window opens)."""
        if self.window is not None and self.window.isVisible():
            self._draw_points()
            # once the main canvas has fit new points (after this signal, in the same call)
            QTimer.singleShot(0, self._follow_main_view)

    def _follow_main_view(self) -> None:
        """The runs' canvases show what the main canvas shows (new points fit it)."""
        assert self.view is not None
        (x0, x1), (y0, y1) = self.canvas.view.viewRange()
        self.view.canvases[0].view.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)

    def _draw_points(self) -> None:
        assert self.view is not None
        p = self.points
        for canvas in self.view.canvases:
            canvas.set_points(p.X, p.y, p.test_mask, p.class_names, p.task)
            canvas.set_axis_names(self.canvas.axis_names)

    def follow_panel(self) -> None:
        if self.comparison is not None:
            self.comparison.follow_panel()

    def shutdown(self) -> None:
        if self.comparison is not None:
            self.comparison.shutdown()


class _Window(QWidget):
    """A top-level window of the main one (it closes with it); closing it stops its runs."""

    def __init__(self, owner: ComparisonWindow, main: QMainWindow):
        super().__init__(main, Qt.WindowType.Window)
        self.owner = owner

    def closeEvent(self, event) -> None:
        if self.owner.comparison is not None:
            self.owner.comparison.stop()
        super().closeEvent(event)
