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
from PySide6.QtGui import QColor, QFontMetrics
from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.catalog import TABLE
from ...core.comparison import MOST_RUNS, Row, row_texts
from ...i18n import N_, tr
from .canvas import Canvas, plain_numbers

# the table's columns: (heading, what its tooltip says): short, so that every column is in
# sight beside the charts at 1280 px
HEADINGS = ((N_("run"), N_("the solver and C of the run; its colour is its curves'")),
            (N_("time (s)"), N_("wall time of the run, in seconds (the runs share the "
                                "machine's cores)")),
            (N_("iterations"), N_("iterations, counted on across one-vs-one machines")),
            (N_("P"), N_("the primal objective reached")),
            (N_("D"), N_("the dual objective reached (— for a solver of the primal)")),
            (N_("P − D"), N_("the duality gap")),
            (N_("SVs"), N_("support vectors of its model")),
            (N_("train"), N_("accuracy on the training points")),
            (N_("test"), N_("accuracy on the held-out points")),
            (N_("= SMO"), N_("share of all points predicted as SMO's solution of the same "
                             "settings predicts them")),
            (N_("state"), N_("how the run ended")))
MOST_DECADES = 4             # labelled powers of ten along a chart's x axis at most
WIDE_TICK = "-123.456"      # a chart's left axis has room for labels this wide from the start
CURVE_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e")
EARLY_SHARE = 0.2            # the first fifth of a curve is left out of the charts' y range:
                             # a dual's first values (thousands below its optimum) would
                             # flatten every curve to a line


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
        if not value > 0:            # NaN too
            raise ValueError(tr("Each value of C must be a positive number (inf: the hard "
                                "margin); got {word}.").format(word=word))
        values.append(TABLE.param("C").check(value))
    return tuple(values)


class ComparisonView(QWidget):
    compare_requested = Signal(tuple, tuple)    # the solvers chosen, the values of C
    stop_requested = Signal()
    save_picture_requested = Signal()           # "Save picture…" was clicked
    save_table_requested = Signal()             # "Save table…" was clicked

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
        self.save_picture = QPushButton(tr("Save picture…"))
        self.save_picture.setToolTip(tr("The last comparison as one picture (PNG or SVG): "
                                        "each run's model and every run's objectives."))
        self.save_table = QPushButton(tr("Save table…"))
        self.save_table.setToolTip(tr("The last comparison's table as CSV, every number "
                                      "in full."))
        self.said = QLabel()                 # what was refused, the settings, the outcome
        self.said.setWordWrap(True)
        # two lines' room whatever it says: a row that shrank from two lines to one moved
        # every canvas by 6 px as the runs began, and five canvases repainted at once
        self.said.setMinimumHeight(2 * self.said.fontMetrics().lineSpacing())
        self.titles: list[QLabel] = []
        self.canvases: list[Canvas] = []
        self.cells: list[QWidget] = []
        self._curves: list = []               # each run's four curves
        self._shown: dict = {}                # run -> its objectives drawn (y range)
        self._stale: set = set()              # charts showing an earlier comparison's
        self._in_chart = [0, 0]               # runs whose curves each chart holds
        self.by_time = self._chart(tr("wall time (s)"))
        self.by_iteration = self._chart(tr("iteration"))
        self.table = QTableWidget(0, len(HEADINGS))
        for column, (heading, about) in enumerate(HEADINGS):
            item = QTableWidgetItem(tr(heading))
            item.setToolTip(tr(about))
            self.table.setHorizontalHeaderItem(column, item)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self._layout()
        self.compare.clicked.connect(self._ask)
        self.stop.clicked.connect(self.stop_requested)
        self.save_picture.clicked.connect(self.save_picture_requested)
        self.save_table.clicked.connect(self.save_table_requested)
        self.show_running(False)

    def _chart(self, across: str) -> _Chart:
        """A chart of the objectives against `across` (log scale); each run's colour is
        the one of its title and its table row (no legend: it covered the curves)."""
        chart = _Chart(background="w")
        plain_numbers(chart)
        chart.setLogMode(x=True, y=False)
        chart.setLabel("bottom", across)
        chart.setLabel("left", tr("P (solid), D (dashed)"))
        chart.setMenuEnabled(False)
        chart.getAxis("bottom").setStyle(maxTickLevel=0)   # powers of ten only: the minor
        # labels ran into each other. The ranges are set in coarse steps (_fit_ranges):
        # following every new row re-lays the axes out, 6 ms each, ten times a second
        chart.disableAutoRange()
        chart.setMouseEnabled(x=False, y=False)
        # a left axis that widens for longer labels and never narrows: one that fits
        # each range's labels re-laid the chart out after each new range, a second paint;
        # and room from the start for labels such as -123.456 (it widened three or four
        # times a run, each time a paint of the whole chart)
        left = chart.getAxis("left")
        left.setStyle(autoReduceTextSpace=False,
                      tickTextWidth=QFontMetrics(left.font()).horizontalAdvance(WIDE_TICK))
        # a run's thousands of rows drawn as the pixels they fill (the chart gives each
        # curve added its modes)
        chart.setDownsampling(auto=True, mode="peak")
        chart.setClipToView(True)
        _set_decades(chart, 0, 2)               # before any run: 1 to 100
        chart.setToolTip(tr("With three or more classes the objectives are the one-vs-one "
                            "machines' summed, trained one after another: a curve climbs "
                            "as each machine starts."))
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
        asks.addWidget(self.save_picture)
        asks.addWidget(self.save_table)
        self.multiples = QGridLayout()
        row = QWidget()
        row.setLayout(self.multiples)
        for k in range(MOST_RUNS):
            cell = QWidget()
            column = QVBoxLayout(cell)
            column.setContentsMargins(0, 0, 0, 0)
            title = QLabel()                # one line: canvases of one height (linked y)
            title.setAlignment(Qt.AlignmentFlag.AlignHCenter)
            title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            canvas = Canvas()
            canvas.setMinimumSize(160, 140)
            canvas.legend.hide()            # the main canvas says what the marks are
            canvas.corner_legend = False
            column.addWidget(title)
            column.addWidget(canvas, 1)
            self.multiples.addWidget(cell, 0, k)
            if k:                           # one pan, one zoom: every canvas shows the same
                canvas.view.setXLink(self.canvases[0].view)
                canvas.view.setYLink(self.canvases[0].view)
            self.titles.append(title)
            self.canvases.append(canvas)
            self.cells.append(cell)
            # set once: a style sheet costs a re-polish, and each run keeps its place
            title.setStyleSheet(f"color: {colour_of(k)}; font-weight: bold")
        # each run's four curves, made once: made at Compare they took 30 ms of the click
        self._all_curves = [self._curves_of(k) for k in range(MOST_RUNS)]
        charts = QWidget()
        beside = QHBoxLayout(charts)
        beside.setContentsMargins(0, 0, 0, 0)
        beside.addWidget(self.by_time)
        beside.addWidget(self.by_iteration)
        below = QSplitter(Qt.Orientation.Horizontal)
        below.addWidget(charts)
        below.addWidget(self.table)
        below.setSizes([440, 800])
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
            if why:                         # greyed and ticked looked as if it would run
                box.setChecked(False)
            box.setToolTip(why or tr(TABLE.solvers[name].about))

    def show_choices(self, solvers: tuple, Cs: tuple) -> None:
        """The solvers ticked and the values of C written (a kept comparison's)."""
        for name, box in self.boxes.items():
            box.setChecked(name in solvers and box.isEnabled())
        self.Cs.setText(", ".join(format(C, "g") for C in Cs))

    def say(self, words: str) -> None:
        self.said.setText(words)

    def show_running(self, running: bool) -> None:
        self.compare.setEnabled(not running)
        self.stop.setEnabled(running)
        self._offer_saving(running)

    def _offer_saving(self, running: bool = False) -> None:
        """A comparison ended (or kept) can be saved; none while one runs."""
        for button in (self.save_picture, self.save_table):
            button.setEnabled(not running and self.table.rowCount() > 0)

    def show_runs(self, titles: list) -> None:
        """One canvas, one curve and one table row per run, named by `titles` (the
        canvases keep their models and the charts their curves until the caller clears
        them, each in its turn: renew_charts)."""
        for k, cell in enumerate(self.cells):
            cell.setVisible(k < len(titles) or not titles)   # all five before any run
            title = titles[k] if k < len(titles) else ""
            self.titles[k].setText(title)
            self.titles[k].setToolTip(title)
        header = self.table.horizontalHeader()
        # the columns sized once for the rows, not at each of their 60 cells (12 ms)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.setRowCount(len(titles))
        for k, title in enumerate(titles):
            self._cell(k, 0, title, colour_of(k))
            for column in range(1, len(HEADINGS)):
                self._cell(k, column, "")
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self._curves = self._all_curves[:len(titles)]
        self._shown = {}
        self._stale = {0, 1}            # the charts show the last runs' curves until renewed

    def renew_charts(self, charts: tuple = (0, 1)) -> None:
        """The `charts` (places in `charts`) made ready for the runs shown: each run's
        curves in them, empty, and the ranges a new comparison starts at."""
        for c in sorted(self._stale.intersection(charts)):
            self._stale.discard(c)
            chart, runs, had = self.charts[c], len(self._curves), self._in_chart[c]
            # the curves stay in the charts from comparison to comparison (taking out and
            # putting back twenty took 17 ms): only those of runs more or fewer move
            for curves in self._all_curves[runs:had]:
                for curve in curves[2 * c:2 * c + 2]:
                    chart.removeItem(curve)
            for curves in self._curves:         # emptied before they are put back: a
                for curve in curves[2 * c:2 * c + 2]:   # curve with data put in a chart
                    curve.setData([], [])       # asks the view for its range too soon
            for curves in self._all_curves[had:runs]:
                for curve in curves[2 * c:2 * c + 2]:
                    chart.addItem(curve)
            self._in_chart[c] = runs
            _set_decades(chart, 0, 2)    # after: empty curves follow the ranges at once
            chart.setYRange(0, 1, padding=0)

    def _curves_of(self, k: int) -> tuple:
        """Run k's curves: its primal and dual against time, then against iteration (in
        no chart until a comparison shows them)."""
        colour = colour_of(k)
        solid, dashed = pg.mkPen(colour, width=2), pg.mkPen(colour, width=1,
                                                            style=Qt.PenStyle.DashLine)
        # thin dashes look the same without antialiasing and draw several times faster
        return tuple(pg.PlotDataItem(pen=pen, antialias=pen is solid)
                     for _chart in range(2) for pen in (solid, dashed))

    @property
    def charts(self) -> tuple:
        """The charts: the objectives against wall time, then against iteration."""
        return (self.by_time, self.by_iteration)

    def show_curves(self, curves: dict, charts: tuple = (0, 1)) -> None:
        """Runs' objectives on the `charts` (their places in `charts`): {run: (seconds,
        rows)}, the rows (iteration, primal, dual, gap) each at its time; each chart's
        ranges fitted once to them all."""
        self.renew_charts(charts)
        for k, (seconds, rows) in curves.items():
            if not len(rows):
                continue
            # log scales: the first iteration (0) and the first instant are drawn at
            # their neighbours' scale, not at minus infinity
            across = (np.maximum(seconds, 1e-4), np.maximum(rows[:, 0], 1.0))
            for c in charts:
                for curve, y in zip(self._curves[k][2 * c:2 * c + 2], (rows[:, 1], rows[:, 2])):
                    finite = np.isfinite(y)
                    curve.setData(across[c][finite], y[finite])
            # the first row (the start, far from any optimum) and the first fifth left out
            start = max(1, int(EARLY_SHARE * len(rows))) if len(rows) > 1 else 0
            self._shown[k] = (*across, rows[start:, 1:3])
        if curves:
            self._fit_ranges(charts)

    def _fit_ranges(self, charts: tuple) -> None:
        """The charts' ranges, changed only when the curves leave them or fill a third of
        them: x by whole powers of ten, y around every curve past its first fifth."""
        shown = list(self._shown.values())
        if not shown:
            return
        heights = np.concatenate([values.ravel() for *_, values in shown])
        heights = heights[np.isfinite(heights)]
        for column in charts:
            chart = self.charts[column]
            xs = np.concatenate([np.asarray(s[column]) for s in shown])
            if len(xs):
                low, high = math.floor(np.log10(xs.min())), math.ceil(np.log10(xs.max()))
                _widen(chart, 0, low, max(high, low + 1))
            if len(heights):
                low, high = float(heights.min()), float(heights.max())
                pad = 0.05 * (high - low) or 0.05 * abs(high) or 1.0
                _widen(chart, 1, low - pad, high + pad, roomy=True)

    def show_row(self, k: int, row: Row | None, state: str) -> None:
        """Run k's line of the table (None: under way, only its state)."""
        if row is not None:
            for column, value in enumerate(row_texts(row), start=1):
                self._cell(k, column, value)
        self._cell(k, len(HEADINGS) - 1, state)

    def _cell(self, row: int, column: int, text: str, colour: str = "") -> None:
        item = QTableWidgetItem(text)
        if colour:
            item.setForeground(QColor(colour))
        if column:
            item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.table.setItem(row, column, item)

    def cell_text(self, row: int, column: int) -> str:
        item = self.table.item(row, column)
        return "" if item is None else item.text()


class _Chart(pg.PlotWidget):
    """A chart that says when it has painted (the comparison draws in turns on it)."""
    painted = Signal()

    def paintEvent(self, ev) -> None:
        super().paintEvent(ev)
        self.painted.emit()


def _widen(chart: pg.PlotWidget, axis: int, low: float, high: float,
           roomy: bool = False) -> None:
    """Set the chart's range along `axis` (0: x, 1: y) to [low, high] when the curves leave
    the range it has or (`roomy`) fill less than a third of it; a range set is widened by a
    fifth on each side, so that a curve creeping on does not move it again at once."""
    (x0, x1), (y0, y1) = chart.viewRange()
    now_low, now_high = (x0, x1) if axis == 0 else (y0, y1)
    spread = high - low
    if low >= now_low and high <= now_high and not (roomy and spread * 3 < now_high - now_low):
        return
    if roomy:
        low, high = low - spread / 5, high + spread / 5
    if axis == 0:
        _set_decades(chart, int(low), int(high))
    else:
        chart.setYRange(low, high, padding=0)


def _set_decades(chart: pg.PlotWidget, low: int, high: int) -> None:
    """The chart's x range from 10^low to 10^high, labelled at powers of ten and nowhere
    between (pyqtgraph's own log ticks label 2..9 within a decade, which ran into each
    other): every one up to MOST_DECADES of them, else every other or third (on a chart
    160 px wide "1000" and "10000" ran together)."""
    chart.setXRange(low, high, padding=0)
    decades = range(low, high + 1)
    stride = math.ceil(len(decades) / MOST_DECADES)
    chart.getAxis("bottom").setTicks([[(k, format(10.0 ** k, "g"))
                                       for k in decades[::stride]], []])


def colour_of(k: int) -> str:
    """Run k's colour: its title's, its curves' and its table row's."""
    return CURVE_COLOURS[k % len(CURVE_COLOURS)]
