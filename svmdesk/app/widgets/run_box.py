"""The side panel's Training box: Train, Pause or Resume, Step, Stop, Reset and Fit view, Play
at a pace chosen on a slider, and how the model is drawn (retrain on every edit, hard
regions, shading by probability, a regression's residuals)."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSlider,
    QToolButton,
    QWidget,
)

from ...i18n import tr
from ..pace import DEFAULT_RATE, RATES


class RunBox(QGroupBox):
    train_requested = Signal()
    pause_clicked = Signal()        # Pause or Resume, as the run's state says
    step_requested = Signal(int)    # iterations: the last of them shown
    play_clicked = Signal()         # Play, or Pause while playing
    rate_changed = Signal(float)    # Play's steps a second
    stop_requested = Signal()
    reset_requested = Signal()
    fit_view_requested = Signal()
    hard_regions_toggled = Signal(bool)
    by_probability_toggled = Signal(bool)
    residuals_toggled = Signal(bool)
    slack_toggled = Signal(bool)

    def __init__(self, parent=None):
        super().__init__(tr("Training"), parent)
        grid = QGridLayout(self)
        self.train_button = QPushButton(tr("Train (F5)"))
        self.pause_button = QPushButton(tr("Pause (Space)"))
        self.pause_button.setCheckable(True)
        # as wide as its wider word: the panel, the canvas and the readout beside it must
        # not shift each time a run pauses or resumes
        widths = []
        for text in (tr("Resume (Space)"), tr("Pause (Space)")):
            self.pause_button.setText(text)
            widths.append(self.pause_button.sizeHint().width())
        self.pause_button.setMinimumWidth(max(widths))
        self.step_button = QPushButton(tr("Step"))
        # tool buttons: a push button is at least 80 px wide, and three in one cell would
        # widen the side panel (the canvas's room on a 1280 x 720 screen)
        self.step_10_button, self.step_100_button = QToolButton(), QToolButton()
        self.step_10_button.setText(tr("×10"))
        self.step_100_button.setText(tr("×100"))
        self.play_button = QPushButton(tr("Play"))
        self.play_button.setCheckable(True)
        # a log scale: 1 to 1,000 steps a second, each stop about 1.5 times the last
        self.rate = QSlider(Qt.Orientation.Horizontal)
        self.rate.setRange(0, len(RATES) - 1)
        self.rate.setValue(RATES.index(DEFAULT_RATE))
        self.rate_label = QLabel()
        self.pairs = False                  # SMO: a step is a pair step
        self.stop_button = QPushButton(tr("Stop (Esc)"))
        self.reset_button = QPushButton(tr("Reset"))
        fit = QPushButton(tr("Fit view"))
        self.auto_retrain = QCheckBox(tr("retrain on every edit"))
        self.hard_regions = QCheckBox(tr("hard regions"))
        self.by_probability = QCheckBox(tr("shade by probability"))
        self.by_probability.hide()          # until a model with probabilities is drawn
        _keep_room_when_hidden(self.by_probability)     # the boxes under it never move
        self.residuals = QCheckBox(tr("residuals"))     # in its place, for a regression
        self.residuals.setChecked(True)
        self.residuals.hide()
        self.slack = QCheckBox(tr("slack ξ"))
        steps = QWidget()                      # Step and its multiples share a cell
        row = QHBoxLayout(steps)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(2)
        row.addWidget(self.step_button, 1)
        for button in (self.step_10_button, self.step_100_button):
            button.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)
            row.addWidget(button)
        for k, w in enumerate((self.train_button, self.pause_button, steps,
                               self.stop_button, self.reset_button, fit)):
            grid.addWidget(w, k // 3, k % 3)
        for widget, tip in (
                (self.train_button, tr("Train on the points with these settings, drawing "
                                       "each step (F5).")),
                (self.pause_button, tr("Pause the run where it stands, or resume it "
                                       "(Space).")),
                (self.step_button, tr("Take one step of the run and pause there (SMO: one "
                                      "pair step, its pair marked i and j).")),
                (self.step_10_button, tr("Take ten steps of the run and pause after the "
                                         "tenth.")),
                (self.step_100_button, tr("Take a hundred steps of the run and pause after "
                                          "the hundredth.")),
                (self.play_button, tr("Step on by itself at the pace the slider sets, "
                                      "each step shown as Step shows it; click again or "
                                      "press Space to pause.")),
                (self.rate, tr("Play's pace: 1 to 1,000 steps a second. Above 60 a "
                               "second, each picture shows the last of several steps.")),
                (self.stop_button, tr("Stop the run and keep the model it reached (Esc).")),
                (self.reset_button, tr("Stop any run and clear the model: the next run "
                                       "starts from the beginning.")),
                (fit, tr("Show all the points (Ctrl+0).")),
                (self.auto_retrain, tr("Train again after every change of the points or "
                                       "settings.")),
                (self.hard_regions, tr("Colour the regions flat, without the paler band "
                                       "near the boundary.")),
                (self.by_probability, tr("Tint each place by its most probable class, "
                                         "stronger as that class grows surer, and draw "
                                         "the boundary where the probabilities tie.")),
                (self.residuals, tr("Draw each sample's residual y - f(x) as a thin vertical "
                                    "line to the curve.")),
                (self.slack, tr("Draw each margin violator's slack ξ = 1 − y f(x) as a "
                                "line to its margin, ξ/‖w‖ long (a linear kernel's). The "
                                "readout sums them beside the primal objective."))):
            widget.setToolTip(tip)
        grid.addWidget(self.play_button, 2, 0)
        grid.addWidget(self.rate, 2, 1)
        grid.addWidget(self.rate_label, 2, 2)
        grid.addWidget(self.auto_retrain, 3, 0, 1, 2)
        grid.addWidget(self.hard_regions, 3, 2)
        grid.addWidget(self.residuals, 3, 2)
        grid.addWidget(self.by_probability, 4, 2)
        grid.addWidget(self.slack, 4, 0, 1, 2)
        self.train_button.clicked.connect(self.train_requested)
        self.pause_button.clicked.connect(self.pause_clicked)
        self.step_button.clicked.connect(lambda: self.step_requested.emit(1))
        self.step_10_button.clicked.connect(lambda: self.step_requested.emit(10))
        self.step_100_button.clicked.connect(lambda: self.step_requested.emit(100))
        self.play_button.clicked.connect(self._play_clicked)
        self.rate.valueChanged.connect(self._rate_moved)
        self.stop_button.clicked.connect(self.stop_requested)
        self.reset_button.clicked.connect(self.reset_requested)
        fit.clicked.connect(self.fit_view_requested)
        self.hard_regions.toggled.connect(self.hard_regions_toggled)
        self.by_probability.toggled.connect(self.by_probability_toggled)
        # the probability picture has no hard version: the box would do nothing
        self.by_probability.toggled.connect(lambda on: self.hard_regions.setEnabled(not on))
        self.residuals.toggled.connect(self.residuals_toggled)
        self.slack.toggled.connect(self.slack_toggled)
        self.show_run_state("idle")
        self.count_pairs(False)

    def _play_clicked(self) -> None:
        """Play asked for; the button then says the run's state, whatever the click did to
        it (a click checks it even where Play does nothing: while a run stops)."""
        self.play_clicked.emit()
        self.play_button.setChecked(self._state == "playing")

    @property
    def steps_a_second(self) -> float:
        return float(RATES[self.rate.value()])

    def count_pairs(self, pairs: bool) -> None:
        """Word Play's pace in pair steps (SMO's steps) or in steps (the other solvers')."""
        self.pairs = pairs
        # as wide as its widest words: the slider must not shrink and grow as it moves
        widest = self.rate_label.fontMetrics().horizontalAdvance(self._rate_words(RATES[-1]))
        self.rate_label.setMinimumWidth(widest)
        self._rate_moved(self.rate.value())

    def _rate_words(self, rate: int) -> str:
        words = tr("{rate} pairs/s") if self.pairs else tr("{rate} steps/s")
        return words.format(rate=rate)

    def _rate_moved(self, place: int) -> None:
        self.rate_label.setText(self._rate_words(RATES[place]))
        self.rate_changed.emit(float(RATES[place]))

    def show_task(self, task: str) -> None:
        """A curve has no regions to draw hard: a regression offers its residuals instead."""
        self.hard_regions.setVisible(task != "regression")
        self.residuals.setVisible(task == "regression")
        self.slack.setEnabled(task == "classification")    # margins are a classifier's

    def offer_probabilities(self, available: bool) -> None:
        """Offer shading by probability while the model drawn has probabilities."""
        self.by_probability.setVisible(available)

    def show_run_state(self, state: str) -> None:
        """The run controls as the run's state is: Pause pressed (and saying Resume) while
        paused, Pause and Stop usable only while a run is under way."""
        self._state = state
        under_way = state in ("running", "paused", "stepping", "playing")
        paused = state in ("paused", "stepping")
        self.play_button.setChecked(state == "playing")
        self.pause_button.setEnabled(under_way)
        self.pause_button.setChecked(paused)
        self.pause_button.setText(tr("Resume (Space)") if paused else tr("Pause (Space)"))
        self.stop_button.setEnabled(under_way)


def _keep_room_when_hidden(widget) -> None:
    """Hidden, `widget` leaves its room empty: what lies below it stays where it was."""
    policy = widget.sizePolicy()
    policy.setRetainSizeWhenHidden(True)
    widget.setSizePolicy(policy)

