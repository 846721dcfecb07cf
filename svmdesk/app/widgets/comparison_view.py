"""What the Compare solvers window shows: which solvers to train (those that cannot train the
panel's kernel greyed, with the reason) and at which values of C, Compare and Stop, one
small canvas per run (their pans and zooms linked, each titled with its settings), one chart
of every run's objectives against wall time and one against iteration (log scale), and the
table of what each run came to. It shows what it is handed and asks through signals; the
runs are the comparison controller's."""
from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.catalog import TABLE
from ...core.comparison import MOST_RUNS, Row
from ...i18n import N_, tr
from .canvas import Canvas, plain_numbers

HEADINGS = (N_("run"), N_("time (s)"), N_("iterations"), N_("primal P"), N_("dual D"),
            N_("gap P − D"), N_("support vectors"), N_("train accuracy"),
            N_("test accuracy"), N_("agrees with SMO"), N_("state"))
CURVE_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e")


def parse_Cs(text: str) -> tuple:
    """The values of C written in the field, separated by commas or spaces: a ValueError
    says what is wrong (each a positive number; 'inf' is the hard margin)."""
    words = text.replace(",", " ").split()
    if not words:
        raise ValueError(tr("Write at least one value of C (e.g. 0.1, 1, 10)."))
    values = []
    for word in words:
        try:
            value = float(word)
        except ValueError:
            raise ValueError(tr("{word!r} is not a number: write values of C such as "
                                "0.1, 1, 10.").format(word=word)) from None
        values.append(TABLE.param("C").check(value))
    return tuple(values)


class ComparisonView(QWidget):
    compare_requested = Signal(tuple, tuple)    # the solvers chosen, the values of C
    stop_requested = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.boxes = {name: QCheckBox(tr(row.title)) for name, row in TABLE.solvers.items()}
        for name, box in self.boxes.items():
            box.setChecked(name in ("smo", "dual-gradient", "kernel-gradient"))
        self.Cs = QLineEdit("1")
        self.Cs.setToolTip(tr("The values of C each chosen solver trains with, separated by "
                              "commas: one solver at C = 0.1, 1, 10 compares the margins."))
        self.compare = QPushButton(tr("Compare"))
        self.compare.setToolTip(tr("Train every chosen solver at every value of C on the "
                                   "same points, with the panel's other settings, at once."))
        self.stop = QPushButton(tr("Stop"))
        self.said = QLabel()                 # what was refused, the settings, the outcome
        self.said.setWordWrap(True)
        self.titles: list[QLabel] = []
        self.canvases: list[Canvas] = []
        self.cells: list[QWidget] = []
        self.by_time = self._chart(tr("objective against wall time (s)"))
        self.by_iteration = self._chart(tr("objective against iteration"))
        self.table = QTableWidget(0, len(HEADINGS))
        self.table.setHorizontalHeaderLabels([tr(h) for h in HEADINGS])
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self._layout()
        self.compare.clicked.connect(self._ask)
        self.stop.clicked.connect(self.stop_requested)
        self.show_running(False)

    def _chart(self, title: str) -> pg.PlotWidget:
        chart = pg.PlotWidget(background="w")
        plain_numbers(chart)
        chart.setTitle(title, size="9pt")
        chart.setLogMode(x=True, y=False)
        chart.setLabel("left", tr("P (solid), D (dashed)"))
        chart.setMenuEnabled(False)
        chart.addLegend(offset=(-8, 8), labelTextSize="8pt",
                        brush=pg.mkBrush(255, 255, 255, 200))
        return chart

    def _layout(self) -> None:
        choices = QHBoxLayout()
        choices.addWidget(QLabel(tr("Solvers:")))
        for box in self.boxes.values():
            choices.addWidget(box)
        choices.addStretch(1)
        asks = QHBoxLayout()
        asks.addWidget(QLabel(tr("Values of C:")))
        asks.addWidget(self.Cs)
        asks.addWidget(self.compare)
        asks.addWidget(self.stop)
        asks.addWidget(self.said, 1)
        self.multiples = QGridLayout()
        row = QWidget()
        row.setLayout(self.multiples)
        for k in range(MOST_RUNS):
            cell = QWidget()
            column = QVBoxLayout(cell)
            column.setContentsMargins(0, 0, 0, 0)
            title = QLabel()
            title.setWordWrap(True)
            title.setAlignment(Qt.AlignmentFlag.AlignHCenter)
            canvas = Canvas()
            canvas.setMinimumSize(160, 140)
            canvas.legend.hide()            # the main canvas says what the marks are
            column.addWidget(title)
            column.addWidget(canvas, 1)
            self.multiples.addWidget(cell, 0, k)
            if k:                           # one pan, one zoom: every canvas shows the same
                canvas.view.setXLink(self.canvases[0].view)
                canvas.view.setYLink(self.canvases[0].view)
            self.titles.append(title)
            self.canvases.append(canvas)
            self.cells.append(cell)
            cell.hide()
        charts = QWidget()
        beside = QHBoxLayout(charts)
        beside.setContentsMargins(0, 0, 0, 0)
        beside.addWidget(self.by_time)
        beside.addWidget(self.by_iteration)
        below = QSplitter(Qt.Orientation.Horizontal)
        below.addWidget(charts)
        below.addWidget(self.table)
        below.setSizes([500, 700])
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(row)
        split.addWidget(below)
        split.setSizes([400, 260])
        column = QVBoxLayout(self)
        column.setContentsMargins(4, 4, 4, 4)
        column.addLayout(choices)
        column.addLayout(asks)
        column.addWidget(split, 1)

    def _ask(self) -> None:
        try:
            Cs = parse_Cs(self.Cs.text())
        except ValueError as e:
            self.say(str(e))
            return
        chosen = tuple(name for name, box in self.boxes.items()
                       if box.isChecked() and box.isEnabled())
        self.compare_requested.emit(chosen, Cs)

    # -- what it shows ----------------------------------------------------------------------
    def offer(self, reasons: dict) -> None:
        """Each solver's box: enabled where it can train the panel's settings, greyed with
        the reason where it cannot."""
        for name, box in self.boxes.items():
            why = reasons.get(name, "")
            box.setEnabled(not why)
            box.setToolTip(why or tr(TABLE.solvers[name].about))

    def say(self, words: str) -> None:
        self.said.setText(words)

    def show_running(self, running: bool) -> None:
        self.compare.setEnabled(not running)
        self.stop.setEnabled(running)

    def show_runs(self, titles: list) -> None:
        """One canvas, one curve and one table row per run, named by `titles`."""
        for k, cell in enumerate(self.cells):
            cell.setVisible(k < len(titles))
            self.titles[k].setText(titles[k] if k < len(titles) else "")
            self.canvases[k].clear_model()
        self.table.setRowCount(len(titles))
        for k, title in enumerate(titles):
            self._cell(k, 0, title)
            for column in range(1, len(HEADINGS)):
                self._cell(k, column, "")
        for chart in (self.by_time, self.by_iteration):
            chart.clear()
            chart.plotItem.legend.clear()
        self._curves = [self._curves_of(k, title) for k, title in enumerate(titles)]

    def _curves_of(self, k: int, title: str) -> tuple:
        colour = CURVE_COLOURS[k % len(CURVE_COLOURS)]
        solid, dashed = pg.mkPen(colour, width=2), pg.mkPen(colour, width=1,
                                                            style=Qt.PenStyle.DashLine)
        return tuple(chart.plot(pen=pen, name=title if pen is solid else None)
                     for chart in (self.by_time, self.by_iteration) for pen in (solid, dashed))

    def show_curve(self, k: int, seconds: np.ndarray, rows: np.ndarray) -> None:
        """Run k's objectives: rows (iteration, primal, dual, gap), each at its time."""
        if not len(rows):
            return
        # log scales: the first iteration (0) and the first instant are drawn at their
        # neighbours' scale, not at minus infinity
        iterations = np.maximum(rows[:, 0], 1.0)
        seconds = np.maximum(seconds, 1e-4)
        primal, dual = rows[:, 1], rows[:, 2]
        time_p, time_d, step_p, step_d = self._curves[k]
        for curve, x, y in ((time_p, seconds, primal), (time_d, seconds, dual),
                            (step_p, iterations, primal), (step_d, iterations, dual)):
            finite = np.isfinite(y)
            curve.setData(x[finite], y[finite])

    def show_row(self, k: int, row: Row | None, state: str) -> None:
        """Run k's line of the table (None: under way, only its state)."""
        if row is not None:
            for column, value in enumerate(row_cells(row), start=1):
                self._cell(k, column, value)
        self._cell(k, len(HEADINGS) - 1, state)

    def _cell(self, row: int, column: int, text: str) -> None:
        item = QTableWidgetItem(text)
        if column:
            item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.table.setItem(row, column, item)

    def cell_text(self, row: int, column: int) -> str:
        item = self.table.item(row, column)
        return "" if item is None else item.text()


def row_cells(row: Row) -> tuple:
    """The table's texts for a row, after its run's name and before its state."""
    def number(value, form):
        return "—" if value is None or not math.isfinite(value) else format(value, form)

    def share(value):
        return "—" if value is None else f"{100 * value:.1f} %"

    return (f"{row.seconds:.3f}", str(row.iterations), number(row.primal, ".6g"),
            number(row.dual, ".6g"), number(row.gap, ".3g"),
            "—" if row.support is None else str(row.support),
            share(row.train_accuracy), share(row.test_accuracy), share(row.agreement))
