"""The side panel: data, solver and kernel with only their own parameters, run controls and
the readout. It holds widgets and reports what the user asks for; the window acts."""
from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGridLayout,
                               QGroupBox, QHBoxLayout, QLabel, QPushButton, QSlider, QSpinBox,
                               QVBoxLayout, QWidget)

from ..core import GENERATORS, KERNELS, SOLVERS, Kernel
from .canvas import SYMBOL_NAMES, class_color

SOLVER_TITLES = {name: row.title for name, row in SOLVERS.items()}
HARD_MARGIN_SOLVERS = tuple(name for name, row in SOLVERS.items() if row.hard_margin)
MAX_GENERATED = 50_000       # points a generator makes: a lab trains 20,000 in under a second


class SciSpinBox(QDoubleSpinBox):
    """A spin box that shows 4 significant digits (1e-06, 0.001, 250) at any magnitude."""

    def __init__(self, low: float, high: float):
        super().__init__()
        self.setDecimals(12)
        self.setRange(low, high)
        self.setStepType(QDoubleSpinBox.StepType.AdaptiveDecimalStepType)

    def textFromValue(self, value: float) -> str:
        return f"{value:.4g}"

    def valueFromText(self, text: str) -> float:
        try:
            return float(text)
        except ValueError:
            return self.value()

    def validate(self, text, pos):
        from PySide6.QtGui import QValidator
        try:
            value = float(text)
        except ValueError:
            return QValidator.State.Intermediate, text, pos
        ok = self.minimum() <= value <= self.maximum()
        return (QValidator.State.Acceptable if ok else QValidator.State.Intermediate), text, pos


class LogParam(QWidget):
    """A positive number on a log scale: a slider for sweeping, a spin box for exact values."""

    changed = Signal(float)
    STEPS = 600

    def __init__(self, value: float, low: float, high: float, parent=None):
        super().__init__(parent)
        self.low, self.high = math.log10(low), math.log10(high)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, self.STEPS)
        self.spin = SciSpinBox(low, high)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.slider, 3)
        layout.addWidget(self.spin, 2)
        self.slider.valueChanged.connect(self._from_slider)
        self.spin.valueChanged.connect(self._from_spin)
        self.set_value(value)

    def value(self) -> float:
        return self.spin.value()

    def set_value(self, value: float) -> None:
        self.spin.setValue(value)

    def _from_slider(self, position: int) -> None:
        value = 10 ** (self.low + (self.high - self.low) * position / self.STEPS)
        if abs(math.log10(self.spin.value()) - math.log10(value)) > 1e-9:  # avoid loops
            self.spin.blockSignals(True)
            self.spin.setValue(float(f"{value:.4g}"))
            self.spin.blockSignals(False)
            self.changed.emit(self.spin.value())

    def _from_spin(self, value: float) -> None:
        position = round((math.log10(value) - self.low) / (self.high - self.low) * self.STEPS)
        self.slider.blockSignals(True)
        self.slider.setValue(position)
        self.slider.blockSignals(False)
        self.changed.emit(value)


class SidePanel(QWidget):
    generate_requested = Signal(str, int, float, int)   # name, n, noise, seed
    open_requested = Signal()
    clear_requested = Signal()
    test_fraction_changed = Signal(float)
    class_selected = Signal(int)
    params_changed = Signal()
    train_requested = Signal()
    pause_clicked = Signal()        # Pause or Resume, as the run's state says
    step_requested = Signal()
    stop_requested = Signal()
    reset_requested = Signal()
    fit_view_requested = Signal()
    hard_regions_toggled = Signal(bool)

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.addWidget(self._data_group())
        layout.addWidget(self._model_group())
        layout.addStretch(1)
        self.run_box = self._run_group()              # the window keeps it in sight
        self.readout_box = self._readout_group()      # the window places it by the charts
        self.solver.currentIndexChanged.connect(self._update_visibility)
        self.kernel.currentIndexChanged.connect(self._update_visibility)
        self._update_visibility()

    # -- groups ---------------------------------------------------------------------------
    def _data_group(self) -> QGroupBox:
        box = QGroupBox("Data")
        form = QFormLayout(box)
        self.generator = QComboBox()
        self.generator.addItems(list(GENERATORS))
        self.n_points = _int_spin(100, 4, MAX_GENERATED)
        self.noise = _float_spin(0.2, 0.0, 5.0, 0.05)
        self.seed = _int_spin(0, 0, 1_000_000)
        form.addRow("Generator", self.generator)
        row = QHBoxLayout()
        for label, widget in (("n", self.n_points), ("noise", self.noise), ("seed", self.seed)):
            row.addWidget(QLabel(label))
            row.addWidget(widget)
        form.addRow(row)
        buttons = QHBoxLayout()
        generate, open_file, clear = (QPushButton("Generate"), QPushButton("Open…"),
                                     QPushButton("Clear"))
        for b in (generate, open_file, clear):
            buttons.addWidget(b)
        form.addRow(buttons)
        self.generate_button = generate
        self.generator.setPlaceholderText("points from a file")
        self.generator.currentIndexChanged.connect(
            lambda index: generate.setEnabled(index >= 0))
        generate.clicked.connect(lambda: self.generate_requested.emit(
            self.generator.currentText(), self.n_points.value(), self.noise.value(),
            self.seed.value()))
        open_file.clicked.connect(self.open_requested)
        clear.clicked.connect(self.clear_requested)
        self.test_fraction = _float_spin(0.0, 0.0, 0.9, 0.05)
        self.test_fraction.setToolTip("Share of points held out for testing (drawn hollow)")
        self.test_fraction.valueChanged.connect(self.test_fraction_changed)
        form.addRow("Test fraction", self.test_fraction)
        self.klass = QComboBox()
        for k, name in enumerate(SYMBOL_NAMES):
            self.klass.addItem(f"{k + 1}: {name}")
            self.klass.setItemData(k, class_color(k), Qt.ItemDataRole.DecorationRole)
        self.klass.currentIndexChanged.connect(self.class_selected)
        form.addRow("Click adds class", self.klass)
        hint = QLabel("Left click: add · right click: add class 2 · drag: move · "
                      "Ctrl+click or Delete: remove · keys 1–8: class")
        hint.setWordWrap(True)
        hint.setStyleSheet("color: #555; font-size: 11px")
        form.addRow(hint)
        return box

    def _model_group(self) -> QGroupBox:
        box = QGroupBox("Model")
        form = QFormLayout(box)
        self.solver = QComboBox()
        for key, title in SOLVER_TITLES.items():
            self.solver.addItem(title, key)
        self.kernel = QComboBox()
        self.kernel.addItems(list(KERNELS))
        self.kernel.setCurrentText("rbf")
        self.formula = QLabel()
        self.formula.setWordWrap(True)                # a long formula never widens the panel
        self.formula.setStyleSheet("font-family: monospace")
        self.reason = QLabel()
        self.reason.setWordWrap(True)
        self.reason.setStyleSheet("color: #B03A2E")
        self.C = LogParam(1.0, 1e-3, 1e3)
        self.hard = QCheckBox("hard margin (C = ∞)")
        self.gamma = LogParam(1.0, 1e-3, 1e3)
        self.gamma_scale = QCheckBox("gamma = 'scale' (1 / (d · var X))")
        self.gamma_scale.setChecked(True)
        self.degree = _int_spin(3, 1, 10)
        self.coef0 = _float_spin(0.0, -10.0, 10.0, 0.1)
        self.tol = LogParam(1e-3, 1e-6, 1e-1)
        self.max_iter = _int_spin(0, 0, 100_000_000)
        self.max_iter.setSpecialValueText("default")
        self.learning_rate = LogParam(0.01, 1e-6, 10.0)
        self.auto_rate = QCheckBox("automatic safe step")
        self.auto_rate.setChecked(True)
        self.batch_size = _int_spin(1, 1, 10_000)
        self.random_state = _int_spin(0, 0, 1_000_000)
        self.standardize = QCheckBox("standardize features")
        self.rows = {}
        for name, label, widget in (
                ("solver", "Solver", self.solver), ("kernel", "Kernel", self.kernel),
                ("formula", "", self.formula), ("reason", "", self.reason),
                ("C", "C", self.C), ("hard", "", self.hard), ("gamma", "gamma", self.gamma),
                ("gamma_scale", "", self.gamma_scale), ("degree", "degree", self.degree),
                ("coef0", "coef0", self.coef0), ("tol", "tol", self.tol),
                ("max_iter", "max_iter", self.max_iter),
                ("learning_rate", "learning rate", self.learning_rate),
                ("auto_rate", "", self.auto_rate), ("batch_size", "batch size",
                                                    self.batch_size),
                ("random_state", "random state", self.random_state),
                ("standardize", "", self.standardize)):
            form.addRow(label, widget)
            self.rows[name] = (form.labelForField(widget), widget)
        for signal in (self.C.changed, self.gamma.changed, self.tol.changed,
                       self.learning_rate.changed, self.degree.valueChanged,
                       self.coef0.valueChanged, self.max_iter.valueChanged,
                       self.batch_size.valueChanged, self.random_state.valueChanged,
                       self.hard.toggled, self.gamma_scale.toggled, self.auto_rate.toggled,
                       self.standardize.toggled, self.solver.currentIndexChanged,
                       self.kernel.currentIndexChanged):
            signal.connect(self.params_changed)
        for toggle in (self.hard, self.gamma_scale, self.auto_rate):
            toggle.toggled.connect(self._update_visibility)
        return box

    def _run_group(self) -> QGroupBox:
        box = QGroupBox("Training")
        grid = QGridLayout(box)
        self.train_button = QPushButton("Train (F5)")
        self.pause_button = QPushButton("Pause (Space)")
        self.pause_button.setCheckable(True)
        self.step_button = QPushButton("Step")
        self.stop_button = QPushButton("Stop (Esc)")
        self.reset_button = QPushButton("Reset")
        fit = QPushButton("Fit view")
        self.auto_retrain = QCheckBox("retrain on every edit")
        self.hard_regions = QCheckBox("hard regions")
        for k, w in enumerate((self.train_button, self.pause_button, self.step_button,
                               self.stop_button, self.reset_button, fit)):
            grid.addWidget(w, k // 3, k % 3)
        grid.addWidget(self.auto_retrain, 2, 0, 1, 2)
        grid.addWidget(self.hard_regions, 2, 2)
        self.train_button.clicked.connect(self.train_requested)
        self.pause_button.clicked.connect(self.pause_clicked)
        self.step_button.clicked.connect(self.step_requested)
        self.stop_button.clicked.connect(self.stop_requested)
        self.reset_button.clicked.connect(self.reset_requested)
        fit.clicked.connect(self.fit_view_requested)
        self.hard_regions.toggled.connect(self.hard_regions_toggled)
        self.show_run_state("idle")
        return box

    def _readout_group(self) -> QGroupBox:
        box = QGroupBox("Readout")
        # A fixed size: values change many times a second, and a box that resized with
        # them would re-lay (and repaint) the whole window each time.
        box.setFixedWidth(360)
        form = QFormLayout(box)
        form.setVerticalSpacing(1)
        self.readout = {}
        for key, label in (("iteration", "iteration"), ("primal", "primal objective"),
                           ("dual", "dual objective"), ("gap", "gap / KKT violation"),
                           ("svs", "support vectors"), ("train", "train accuracy"),
                           ("test", "test accuracy"), ("margin", "margin width 2/‖w‖"),
                           ("elapsed", "elapsed"), ("state", "state")):
            value = QLabel("–")
            value.setMinimumWidth(200)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            form.addRow(label, value)
            self.readout[key] = value
        legend = QLabel("rings: ○ free SV (0 < α < C) · □ bounded SV (α = C)")
        legend.setStyleSheet("color: #555; font-size: 11px")
        form.addRow(legend)
        return box

    def show_points_source(self, name: str) -> None:
        """The points came from a file: no generator made them (Generate waits for one to
        be chosen)."""
        self.generator.setCurrentIndex(-1)
        self.generator.setToolTip(f"The points come from {name}; choose a generator to "
                                  "make new ones.")

    def set_class_names(self, names) -> None:
        """Show the data's class names in the class picker (with the marker of each)."""
        for k, symbol in enumerate(SYMBOL_NAMES):
            self.klass.setItemText(k, f"{k + 1}: {names[k]} ({symbol})")

    # -- state ----------------------------------------------------------------------------
    def solver_key(self) -> str:
        return self.solver.currentData()

    def incompatibility(self) -> str:
        """Why the chosen solver cannot train the chosen kernel ('' if it can)."""
        solver, kernel = self.solver_key(), self.kernel.currentText()
        if kernel not in SOLVERS[solver].kernels:
            return (f"{SOLVER_TITLES[solver]} learns a weight vector w directly, so it only "
                    f"trains linear models. Pick the linear kernel, or SMO, dual gradient or "
                    f"kernel gradient for the {kernel} kernel.")
        return ""

    def params(self) -> dict:
        """SVC parameters from the widgets; raises ValueError if they cannot be trained."""
        reason = self.incompatibility()
        if reason:
            raise ValueError(reason)
        solver = self.solver_key()
        hard = self.hard.isChecked() and solver in HARD_MARGIN_SOLVERS
        return dict(
            solver=solver, kernel=self.kernel.currentText(),
            C=None if hard else self.C.value(),
            gamma="scale" if self.gamma_scale.isChecked() else self.gamma.value(),
            degree=self.degree.value(), coef0=self.coef0.value(), tol=self.tol.value(),
            max_iter=self.max_iter.value() or None,
            learning_rate=None if self.auto_rate.isChecked() else self.learning_rate.value(),
            batch_size=self.batch_size.value() if solver == "pegasos" else None,
            standardize=self.standardize.isChecked(),
            random_state=self.random_state.value())

    def _update_visibility(self) -> None:
        solver, kernel = self.solver_key(), self.kernel.currentText()
        gradient = solver != "smo"
        shown = {
            "hard": solver in HARD_MARGIN_SOLVERS,
            "C": not (self.hard.isChecked() and solver in HARD_MARGIN_SOLVERS),
            "gamma_scale": kernel != "linear",
            "gamma": kernel != "linear" and not self.gamma_scale.isChecked(),
            "degree": kernel == "poly", "coef0": kernel in ("poly", "sigmoid"),
            "learning_rate": gradient and not self.auto_rate.isChecked(),
            "auto_rate": gradient, "batch_size": solver == "pegasos",
            "random_state": solver == "pegasos",
        }
        for name, (label, widget) in self.rows.items():
            visible = shown.get(name, True)
            widget.setVisible(visible)
            if label is not None:
                label.setVisible(visible)
        self.formula.setText(Kernel(kernel).formula)
        reason = self.incompatibility()
        self.reason.setText(reason)
        self.reason.setVisible(bool(reason))
        self.train_button.setEnabled(not reason) if hasattr(self, "train_button") else None

    # -- settings (sessions) ----------------------------------------------------------------
    def _setting_widgets(self) -> dict:
        return {"generator": self.generator, "n": self.n_points, "noise": self.noise,
                "seed": self.seed, "test_fraction": self.test_fraction, "solver": self.solver,
                "kernel": self.kernel, "C": self.C, "hard_margin": self.hard,
                "gamma": self.gamma, "gamma_scale": self.gamma_scale, "degree": self.degree,
                "coef0": self.coef0, "tol": self.tol, "max_iter": self.max_iter,
                "learning_rate": self.learning_rate, "auto_rate": self.auto_rate,
                "batch_size": self.batch_size, "random_state": self.random_state,
                "standardize": self.standardize, "auto_retrain": self.auto_retrain,
                "hard_regions": self.hard_regions}

    def settings(self) -> dict:
        """Every control's value by name: numbers, text and booleans (for a session)."""
        return {name: _read(widget) for name, widget in self._setting_widgets().items()}

    def apply_settings(self, settings: dict) -> None:
        """Set the controls from `settings` (names as in `settings()`; unknown names, from a
        newer svmdesk, are skipped). All values are checked first: a ValueError naming the
        setting leaves every control as it was."""
        widgets = self._setting_widgets()
        checked = {name: _checked(name, widgets[name], value)
                   for name, value in settings.items() if name in widgets}
        for name, value in checked.items():
            _write(widgets[name], value)

    def apply_params(self, params: dict) -> str:
        """Show an SVC's parameters (a loaded model's) in the controls, one by one. A value
        beyond a control's range is shown at its limit; returns a sentence naming those
        ('' when every value fits)."""
        C, gamma = params.get("C"), params.get("gamma")
        hard = C is None or C == "inf" or (isinstance(C, float) and math.isinf(C))
        settings = {"solver": params.get("solver"), "kernel": params.get("kernel"),
                    "hard_margin": hard, "gamma_scale": gamma == "scale",
                    "C": None if hard else float(C),
                    "gamma": float(gamma) if type(gamma) in (int, float) else None,
                    "degree": params.get("degree"), "coef0": params.get("coef0"),
                    "tol": params.get("tol"), "standardize": params.get("standardize")}
        widgets, unshown = self._setting_widgets(), []
        for name, value in settings.items():
            if value is None:
                continue
            widget = widgets[name]
            try:
                _write(widget, _checked(name, widget, value))
            except ValueError:
                limit = _clamped(widget, value)
                if limit is not None:
                    _write(widget, limit)
                unshown.append(f"{name} = {value!r}" + (f" (shown as {limit:g})"
                                                        if limit is not None else ""))
        if not unshown:
            return ""
        return (f"the panel cannot show {', '.join(unshown)}; training again uses the "
                "values shown.")

    def show_run_state(self, state: str) -> None:
        """The run controls as the run's state is: Pause pressed (and saying Resume) while
        paused, Pause and Stop usable only while a run is under way."""
        under_way = state in ("running", "paused", "stepping")
        paused = state in ("paused", "stepping")
        self.pause_button.setEnabled(under_way)
        self.pause_button.setChecked(paused)
        self.pause_button.setText("Resume (Space)" if paused else "Pause (Space)")
        self.stop_button.setEnabled(under_way)


def _read(widget):
    if isinstance(widget, QComboBox):
        if widget.currentIndex() < 0:         # nothing chosen (the points came from a file)
            return None
        data = widget.currentData()
        return data if isinstance(data, str) else widget.currentText()
    if isinstance(widget, QCheckBox):
        return widget.isChecked()
    return widget.value()


def _checked(name: str, widget, value):
    """`value` as the widget takes it, or a ValueError saying what the setting allows."""
    if isinstance(widget, QComboBox):
        choices = [widget.itemData(k) if isinstance(widget.itemData(k), str)
                   else widget.itemText(k) for k in range(widget.count())]
        if value is None and widget.placeholderText():   # a box that may show no choice
            return None
        if value not in choices:
            raise ValueError(f"setting {name!r} must be one of {', '.join(choices)}; "
                             f"got {value!r}")
        return value
    if isinstance(widget, QCheckBox):
        if type(value) is not bool:
            raise ValueError(f"setting {name!r} must be true or false; got {value!r}")
        return value
    spin = widget.spin if isinstance(widget, LogParam) else widget
    integral = isinstance(spin, QSpinBox)
    if type(value) not in ((int,) if integral else (int, float)):
        raise ValueError(f"setting {name!r} must be {'an integer' if integral else 'a number'}; "
                         f"got {value!r}")
    if not spin.minimum() <= value <= spin.maximum():
        raise ValueError(f"setting {name!r} must be between {spin.minimum():g} and "
                         f"{spin.maximum():g}; got {value!r}")
    return value


def _clamped(widget, value):
    """A numeric value moved into a numeric control's range, or None."""
    if isinstance(widget, (QComboBox, QCheckBox)) or type(value) not in (int, float):
        return None
    spin = widget.spin if isinstance(widget, LogParam) else widget
    limited = min(max(value, spin.minimum()), spin.maximum())
    return int(limited) if isinstance(spin, QSpinBox) else float(limited)


def _write(widget, value) -> None:
    if isinstance(widget, QComboBox) and value is None:
        widget.setCurrentIndex(-1)
    elif isinstance(widget, QComboBox):
        index = widget.findData(value)
        widget.setCurrentIndex(index if index >= 0 else widget.findText(value))
    elif isinstance(widget, QCheckBox):
        widget.setChecked(value)
    elif isinstance(widget, LogParam):
        widget.set_value(float(value))
    else:
        widget.setValue(value)


def _int_spin(value, low, high) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(low, high)
    spin.setValue(value)
    return spin


def _float_spin(value, low, high, step) -> QDoubleSpinBox:
    spin = QDoubleSpinBox()
    spin.setRange(low, high)
    spin.setSingleStep(step)
    spin.setDecimals(3)
    spin.setValue(value)
    return spin
