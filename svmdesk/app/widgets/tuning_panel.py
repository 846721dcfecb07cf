"""The Tune C and gamma panel: the ranges of C and gamma as powers of two (LIBSVM grid.py's
defaults), the folds, what the task is scored by, Tune and Cancel with the progress and the
time, and the heat map with a line saying what the mouse is over. It shows what it is handed
and asks through signals; the run is the tuning controller's."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...formats.tuning_map import MOST_VALUES, TunedCell, TuningMap
from ...i18n import tr
from .heat_map import HeatMap
from .number_fields import IntField
from .pictures import layout_width

# LIBSVM grid.py's ranges: C from 2^-5 to 2^15, gamma from 2^-15 to 2^3, every other power
DEFAULT_C = (-5, 15, 2)
DEFAULT_GAMMA = (-15, 3, 2)
EXPONENT_LIMIT = 40          # 2^40: beyond any C or gamma worth a fit


class _PowersOfTwo(QWidget):
    """A range of powers of two: from 2^a to 2^b, every s-th power."""

    def __init__(self, name: str, start: int, stop: int, step: int, parent=None):
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.start, self.stop = IntField(name), IntField(name)
        self.step = IntField(name)
        for field, value in ((self.start, start), (self.stop, stop)):
            field.setRange(-EXPONENT_LIMIT, EXPONENT_LIMIT)
            field.setPrefix("2^")
            field.setValue(value)
        self.step.setRange(1, 2 * EXPONENT_LIMIT)
        self.step.setPrefix(tr("step "))
        self.step.setValue(step)
        for field in (self.start, self.stop, self.step):   # "2^-15" whole, never cut
            field.setMinimumWidth(field.sizeHint().width())
        row.addWidget(self.start)
        row.addWidget(QLabel("–"))
        row.addWidget(self.stop)
        row.addWidget(self.step)
        row.addStretch(1)

    def values(self) -> tuple:
        """The powers of two, increasing (empty when the start is past the stop)."""
        return tuple(2.0 ** k for k in range(self.start.value(), self.stop.value() + 1,
                                              self.step.value()))


class TuningPanel(QWidget):
    start_requested = Signal(tuple, tuple, int)    # C values, gamma values, folds
    cancel_requested = Signal()
    cell_clicked = Signal(float, float)            # the C and gamma of a cell clicked
    save_picture_requested = Signal()              # "Save picture…" was clicked
    save_table_requested = Signal()                # "Save table…" was clicked

    def __init__(self, parent=None):
        super().__init__(parent)
        self.c_range = _PowersOfTwo("C", *DEFAULT_C)
        self.gamma_range = _PowersOfTwo("gamma", *DEFAULT_GAMMA)
        self.folds = IntField(tr("folds"))
        self.folds.setRange(2, 20)
        self.folds.setValue(5)
        self.folds.setSuffix(tr(" folds"))
        self.tune = QPushButton(tr("Tune"))
        self.tune.setToolTip(tr("Cross-validate the panel's settings at every C and gamma of "
                                "the ranges, on the same folds as Cross-validate; click a "
                                "cell to train its model."))
        self.cancel = QPushButton(tr("Cancel"))
        self.save_picture = QPushButton(tr("Save picture…"))
        self.save_picture.setToolTip(tr("The map as a picture (PNG or SVG), with its colour "
                                        "scale and the best cell ringed."))
        self.save_table = QPushButton(tr("Save table…"))
        self.save_table.setToolTip(tr("The map's cells as CSV, as svmdesk grid writes them, "
                                      "with each fold's score and fit time in full."))
        self.progress = QProgressBar()
        self.progress.setFormat(tr("%v of %m cells"))
        self.times = QLabel()
        self.best_line = QLabel()
        self.best_line.setWordWrap(True)
        self.scored = QLabel()          # what the task is scored by, or why it cannot be
        self.scored.setWordWrap(True)
        self.stale = QLabel(tr("The points or the settings changed since this map was made: "
                               "tune again to see theirs."))
        self.stale.setWordWrap(True)
        self.stale.setStyleSheet("color: #a05000")
        self.hover = QLabel(tr("Hover a cell for its scores; click it to train its model."))
        self.hover.setWordWrap(True)
        self.map = HeatMap()
        self._running = self._refused = False
        self.map.setMinimumSize(240, 120)
        self._layout()
        self.tune.clicked.connect(self._ask)
        self.cancel.clicked.connect(self.cancel_requested)
        self.save_picture.clicked.connect(self.save_picture_requested)
        self.save_table.clicked.connect(self.save_table_requested)
        self.map.clicked.connect(self.cell_clicked)
        self.map.hovered.connect(self._hovered)
        self.show_running(False)
        self.stale.hide()
        for button in (self.save_picture, self.save_table):   # no map yet
            button.setEnabled(False)

    def _layout(self) -> None:
        """The controls and the lines in a column, the map beside them: a tab under the
        canvas is wide and short (1280x720)."""
        grid = QGridLayout()
        grid.addWidget(QLabel("C"), 0, 0)
        grid.addWidget(self.c_range, 0, 1)
        grid.addWidget(QLabel("gamma"), 1, 0)
        grid.addWidget(self.gamma_range, 1, 1)
        buttons = QHBoxLayout()
        for button in (self.folds, self.tune, self.cancel):
            buttons.addWidget(button)
        buttons.addStretch(1)
        saving = QHBoxLayout()
        for button in (self.save_picture, self.save_table):
            saving.addWidget(button)
        saving.addStretch(1)
        column = QVBoxLayout()
        column.addLayout(grid)
        column.addLayout(buttons)
        column.addLayout(saving)
        for widget in (self.scored, self.progress, self.times, self.best_line, self.stale,
                       self.hover):
            column.addWidget(widget)
        column.addStretch(1)
        row = QHBoxLayout(self)
        row.setContentsMargins(4, 4, 4, 4)
        row.addLayout(column, 0)
        row.addWidget(self.map, 1)

    def _ask(self) -> None:
        C, gamma = self.c_range.values(), self.gamma_range.values()
        for name, values in (("C", C), ("gamma", gamma)):
            if not 1 <= len(values) <= MOST_VALUES:
                self.scored.setText(tr("The range of {name} must hold 1 to {most} values "
                                       "(its start at or below its stop); it holds {n}."
                                       ).format(name=name, most=MOST_VALUES, n=len(values)))
                return
        self.start_requested.emit(C, gamma, self.folds.value())

    # -- what it shows ----------------------------------------------------------------------
    def show_metric(self, metric: str) -> None:
        """What the cells are scored by: the settings can be tuned."""
        self._refused = False
        self.tune.setEnabled(not self._running)
        self.scored.setText(tr("Each cell: the mean {metric} over the folds.").format(
            metric=tr("accuracy") if metric == "accuracy" else metric))

    def refuse(self, why: str) -> None:
        """Why the settings cannot be tuned (Tune waits until they can)."""
        self._refused = True
        self.tune.setEnabled(False)
        self.scored.setText(why)

    def show_running(self, running: bool) -> None:
        # enabled, never shown and hidden: a widget that comes and goes lays the whole
        # window out again, a stall as the grid starts and ends
        self._running = running
        self.tune.setEnabled(not running and not self._refused)
        self.cancel.setEnabled(running)

    def show_progress(self, done: int, cells: int, elapsed: float, left: float | None) -> None:
        self.progress.setRange(0, cells)
        self.progress.setValue(done)
        words = tr("{elapsed:.0f} s elapsed").format(elapsed=elapsed)
        if left is not None:
            words += " · " + tr("about {left:.0f} s left").format(left=left)
        self.times.setText(words)

    def show_map(self, tuning: TuningMap | None) -> None:
        self.map.show_map(tuning)
        for button in (self.save_picture, self.save_table):   # a cell done: a map to save
            button.setEnabled(tuning is not None and bool(tuning.cells))
        self.progress.setTextVisible(tuning is not None)
        self.progress.setRange(0, 1 if tuning is None else tuning.size)
        self.progress.setValue(0 if tuning is None else len(tuning.cells))
        best = None if tuning is None else tuning.best()
        if tuning is None or best is None:
            self.best_line.setText("")
            return
        words = (tr("Best: C = {C:.3g}, gamma = {gamma:.3g}: {mean:.3f}")
                 if len(tuning.cells) == tuning.size else
                 tr("Best so far: C = {C:.3g}, gamma = {gamma:.3g}: {mean:.3f}"))
        self.best_line.setText(words.format(C=best.C, gamma=best.gamma, mean=best.mean))

    def show_stale(self, stale: bool) -> None:
        self.stale.setVisible(stale)

    def _hovered(self, cell: TunedCell | None) -> None:
        if cell is None:
            self.hover.setText(tr("Hover a cell for its scores; click it to train its model."))
            return
        self.hover.setText(tr("C = {C:g}, gamma = {gamma:g}: {mean:.3f} ± {std:.3f} over the "
                              "folds, {time:.3g} s a fit").format(
            C=cell.C, gamma=cell.gamma, mean=cell.mean, std=cell.std, time=cell.fit_time))

    def figure(self, width: int):
        """The map shown as a picture `width` pixels wide (pictures.save_picture writes it),
        titled with what it scored; None before a cell is done."""
        tuning = self.map.tuning
        if tuning is None or not tuning.cells:
            return None
        figure = HeatMap()
        wide = layout_width(width)
        figure.setFixedSize(wide, wide * 3 // 4)
        figure.setTitle(tr("Mean {metric} over {folds} folds · {settings}").format(
            metric=tr("accuracy") if tuning.metric == "accuracy" else tuning.metric,
            folds=tuning.folds, settings=tuning.settings), color="#202020")
        figure.show_map(tuning)
        figure.mark_current(*self.map.current_mark())
        return figure
