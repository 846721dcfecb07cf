"""The side panel's Data box: a generator and its n, noise and seed, Generate, Open and Clear,
the share of points held out for testing, the class a click adds (or, in a task without
classes, what a click adds) and the hint of what clicks do."""
from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QStackedWidget,
)

from ...core import GENERATORS
from ...core.point_generators import (
    GENERATOR_TITLES,
    NOVELTY_GENERATOR_TITLES,
    NOVELTY_GENERATORS,
)
from ...core.regression_generators import REGRESSION_GENERATOR_TITLES, REGRESSION_GENERATORS
from ...i18n import N_, tr
from .canvas import SYMBOL_NAMES, class_color
from .number_fields import IntField, RealField

MAX_GENERATED = 50_000       # points a generator makes: a lab trains 20,000 in under a second
# What a click does, by task
HINTS = {"classification": N_("Left click: add · right click: add class 2 · drag: move · "
                              "Ctrl+click or Delete: remove · keys 1–8: class"),
         "novelty": N_("Left click: add a point · right click: add an outlier mark (the model "
                       "never trains on it; it shows whether the model flags it) · drag: "
                       "move · Ctrl+click or Delete: remove"),
         "regression": N_("Click: add a sample (x, y), its height the target · drag: move · "
                          "Ctrl+click or Delete: remove")}
# The Data box's row of what a click adds, by task: its label, and (without classes to
# pick) its words
CLICK_ADDS = {"classification": (N_("Click adds class"), ""),
              "novelty": (N_("Click adds"), N_("a point (right click: an outlier mark)")),
              "regression": (N_("Click adds"), N_("a sample (x, y)"))}
# Each task's generators and the titles the Data box shows them by
GENERATOR_SETS: dict[str, tuple[Mapping, Mapping]] = {
    "classification": (GENERATORS, GENERATOR_TITLES),
    "novelty": (NOVELTY_GENERATORS, NOVELTY_GENERATOR_TITLES),
    "regression": (REGRESSION_GENERATORS, REGRESSION_GENERATOR_TITLES)}

class DataBox(QGroupBox):
    generate_requested = Signal(str, int, float, int)   # name, n, noise, seed
    open_requested = Signal()
    clear_requested = Signal()
    test_fraction_changed = Signal(float)
    class_selected = Signal(int)

    def __init__(self, parent=None):
        super().__init__(tr("Data"), parent)
        self._generator_of: dict = {}   # task -> generator the box had when left
        form = QFormLayout(self)
        self.generator = QComboBox()
        self.fill_generators("classification")
        self.n_points = _int_spin(tr("n"), 100, 4, MAX_GENERATED)
        self.noise = _float_spin(tr("noise"), 0.2, 0.0, 5.0, 0.05)
        self.seed = _int_spin(tr("seed"), 0, 0, 1_000_000)
        form.addRow(tr("Generator"), self.generator)
        row = QHBoxLayout()
        for label, widget in ((tr("n"), self.n_points), (tr("noise"), self.noise),
                              (tr("seed"), self.seed)):
            row.addWidget(QLabel(label))
            row.addWidget(widget)
        form.addRow(row)
        buttons = QHBoxLayout()
        generate, open_file, clear = (QPushButton(tr("Generate")), QPushButton(tr("Open…")),
                                     QPushButton(tr("Clear")))
        for b in (generate, open_file, clear):
            buttons.addWidget(b)
        form.addRow(buttons)
        self.generate_button, self.open_button, self.clear_button = generate, open_file, clear
        for control, tip in (
                (self.generator, tr("The kind of data set Generate makes.")),
                (self.n_points, tr("How many points Generate makes.")),
                (self.noise, tr("How far Generate scatters the points: more noise, more "
                                "overlap between the classes.")),
                (self.seed, tr("The seed of Generate: the same seed makes the same points.")),
                (generate, tr("Replace the points with a new data set (Ctrl+Z brings them "
                              "back).")),
                (open_file, tr("Open a data file (CSV or LIBSVM), a session or a model "
                               "(Ctrl+O).")),
                (clear, tr("Remove every point (Ctrl+Z brings them back)."))):
            control.setToolTip(tip)
        self.generator.setPlaceholderText(tr("points from a file"))
        self.generator.currentIndexChanged.connect(
            lambda index: generate.setEnabled(index >= 0))
        generate.clicked.connect(lambda: self.generate_requested.emit(
            self.generator.currentData(), self.n_points.value(), self.noise.value(),
            self.seed.value()))
        open_file.clicked.connect(self.open_requested)
        clear.clicked.connect(self.clear_requested)
        self.test_fraction = _float_spin(tr("Test fraction"), 0.0, 0.0, 0.9, 0.05)
        self.test_fraction.setToolTip(tr("Share of points held out for testing (drawn hollow)"))
        self.test_fraction.valueChanged.connect(self.test_fraction_changed)
        form.addRow(tr("Test fraction"), self.test_fraction)
        self.klass = QComboBox()
        for k, name in enumerate(SYMBOL_NAMES):
            self.klass.addItem(f"{k + 1}: {tr(name)}")
            self.klass.setItemData(k, class_color(k), Qt.ItemDataRole.DecorationRole)
        self.klass.setToolTip(tr("The class a left click adds (keys 1–8 choose it too)."))
        self.klass.currentIndexChanged.connect(self.class_selected)
        # Beside the class picker, what a click adds in a task without classes: a row of
        # one height in every task, so the boxes under it never move with the task
        self.click_adds = QLabel()          # one short line (a wrapped label in a stack
                                            # asked for the height of many)
        self.klass_or_words = QStackedWidget()
        self.klass_or_words.addWidget(self.klass)
        self.klass_or_words.addWidget(self.click_adds)
        self.click_adds_label = QLabel(tr(CLICK_ADDS["classification"][0]))
        form.addRow(self.click_adds_label, self.klass_or_words)
        # the hint is as tall as the longest task's: the boxes under it never move
        self.hints = QStackedWidget()
        self._hint_labels = [QLabel(tr(HINTS[task])) for task in GENERATOR_SETS]
        for hint in self._hint_labels:
            hint.setWordWrap(True)
            hint.setStyleSheet("color: #555; font-size: 11px")
            self.hints.addWidget(hint)
        self.hint = self._hint_labels[0]              # the task's
        form.addRow(self.hints)

    def point_makers(self) -> tuple:
        """The controls that make or replace points (an exercise may fix the points)."""
        return (self.generator, self.n_points, self.noise, self.seed, self.generate_button,
                self.open_button, self.clear_button)

    def fill_generators(self, task: str) -> None:
        """The generators of the task's data (the name is the item's data; its title shows)."""
        generators, titles = GENERATOR_SETS[task]
        self.generator.clear()
        for name in generators:
            self.generator.addItem(tr(titles.get(name, name)), name)
    def show_task(self, was: str, task: str) -> None:
        """The box of `task`, left in `was`: its generators (the one it had; a file's points
        keep no generator), its hint and what a click adds."""
        self._generator_of[was] = self.generator.currentData()      # None: from a file
        from_file = self.generator.currentIndex() < 0
        self.fill_generators(task)
        self.generator.setCurrentIndex(-1 if from_file else max(
            0, self.generator.findData(self._generator_of.get(task))))
        self.hint = self._hint_labels[list(GENERATOR_SETS).index(task)]
        self.hints.setCurrentWidget(self.hint)
        label, words = CLICK_ADDS[task]
        self.click_adds_label.setText(tr(label))
        self.click_adds.setText(tr(words))
        self.klass_or_words.setCurrentIndex(0 if task == "classification" else 1)

    def show_points_source(self, name: str) -> None:
        """The points came from a file: no generator made them (Generate waits for one to
        be chosen)."""
        self.generator.setCurrentIndex(-1)
        self.generator.setToolTip(tr("The points come from {name}; choose a generator to "
                                     "make new ones.").format(name=name))

    def choose_generator(self, name: str) -> None:
        """Select the generator `name` (the item's data; its title is translated)."""
        self.generator.setCurrentIndex(self.generator.findData(name))

    def set_class_names(self, names) -> None:
        """Show the data's class names in the class picker (with the marker of each)."""
        for k, symbol in enumerate(SYMBOL_NAMES):
            self.klass.setItemText(k, tr("{number}: {name} ({symbol})").format(
                number=k + 1, name=names[k], symbol=tr(symbol)))


def _int_spin(name: str, value, low, high) -> QSpinBox:
    spin = IntField(name)
    spin.setRange(low, high)
    spin.setValue(value)
    return spin


def _float_spin(name: str, value, low, high, step) -> QDoubleSpinBox:
    spin = RealField(name)
    spin.setRange(low, high)
    spin.setSingleStep(step)
    spin.setDecimals(3)
    spin.setValue(value)
    return spin
