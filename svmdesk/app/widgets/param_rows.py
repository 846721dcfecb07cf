"""The panel's controls for training parameters, built from the catalog's rows: a combo box
for a choice, a check box for a yes or no, a log-scale slider with a spin box or a plain spin
box for a number, and a check box for a number's alternative (None, or a word such as
gamma's 'scale') or for class weights ('balanced' or None). Which of them show for a solver
and a kernel, the values they take and give the estimator come from the row; their ranges,
labels, check boxes and the first line of their tooltips from the window's offer of it
(param_offers.py)."""
from __future__ import annotations

import math
from collections.abc import Mapping

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QSlider,
    QSpinBox,
    QWidget,
)

from ...i18n import tr
from .number_fields import IntField, RealField
from .param_offers import Control


class SciSpinBox(RealField):
    """A spin box that shows 4 significant digits (1e-06, 0.001, 250) at any magnitude."""

    def __init__(self, low: float, high: float, name: str = ""):
        super().__init__(name)
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

    def __init__(self, value: float, low: float, high: float, name: str = "", parent=None):
        super().__init__(parent)
        self.low, self.high = math.log10(low), math.log10(high)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, self.STEPS)
        self.spin = SciSpinBox(low, high, name)
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

    def widen_to(self, value: float) -> None:
        """Make room for `value` (positive): the range grows to it, never clamps it."""
        if value < self.spin.minimum():
            self.spin.setMinimum(value)
            self.low = math.log10(value)
        elif value > self.spin.maximum():
            self.spin.setMaximum(value)
            self.high = math.log10(value)
        else:
            return
        self._place_slider(self.spin.value())    # its place on the new scale

    def _from_slider(self, position: int) -> None:
        value = 10 ** (self.low + (self.high - self.low) * position / self.STEPS)
        if abs(math.log10(self.spin.value()) - math.log10(value)) > 1e-9:  # avoid loops
            self.spin.blockSignals(True)
            self.spin.setValue(float(f"{value:.4g}"))
            self.spin.blockSignals(False)
            self.changed.emit(self.spin.value())

    def _from_spin(self, value: float) -> None:
        self._place_slider(value)
        self.changed.emit(value)

    def _place_slider(self, value: float) -> None:
        position = round((math.log10(value) - self.low) / (self.high - self.low) * self.STEPS)
        self.slider.blockSignals(True)
        self.slider.setValue(position)
        self.slider.blockSignals(False)


class ParamControl(QObject):
    """One parameter's controls, as `control` (the window's offer of it) shapes them:
    `widget` holds its value; `choice`, a check box, chooses its alternative where the
    offer has one (None, or its first word) and an integer's lowest spin-box place says
    None instead. `label` names the row. A
    "weights" row is one check box: ticked, the row's first word; unticked, None; half
    ticked, the mapping of weights a loaded model carries (`weights`)."""

    changed = Signal()

    def __init__(self, param, table, control: Control, parent=None):
        super().__init__(parent)
        self.param, self.table, self.control = param, table, control
        self.label = (tr(control.label) if control and control.label
                      else param.name.replace("_", " "))
        self.widget = _value_widget(param, table, control, self.label)
        self.choice = None
        if control and control.choice and param.value_type == "real":
            self.choice = QCheckBox(tr(control.choice))
            self.choice.setChecked(param.default is None or isinstance(param.default, str))
            self.choice.toggled.connect(self.changed)
        self.tip = _tooltip(param, control)
        for w in (self.widget, self.choice):
            if w is not None:
                w.setToolTip(self.tip)
        self.weights: dict | None = None
        if param.value_type == "weights":     # half ticked to ticked is no toggle: watch the state
            self.widget.checkStateChanged.connect(self._plain_box)
            self.widget.checkStateChanged.connect(self.changed)
        else:
            _changed_signal(self.widget).connect(self.changed)

    def use(self, param, table, control: Control) -> None:
        """Stand for `param` of `table`, as that kind offers it (`control`), from now on:
        the same name in another kind of machine (C-SVC's C has a hard margin, a
        regressor's none; nu-SVC's nu and the one-class SVM's say different things), with
        its tooltip."""
        if param is self.param and control is self.control:
            return
        self.param, self.table, self.control = param, table, control
        self.tip = _tooltip(param, control)
        for w in (self.widget, self.choice):
            if w is not None:
                w.setToolTip(self.tip)

    @property
    def _has_choice(self) -> bool:
        """The check box stands for an alternative of the row in use."""
        return self.choice is not None and bool(self.control and self.control.choice)

    @property
    def alternative(self):
        """What the check box stands for: None, or the first word."""
        return self.param.words[0][0] if self.param.words else None

    def shown(self, solver: str, kernel: str) -> tuple:
        """(value shown, check box shown) for this solver and kernel."""
        applies = self.param.applies(solver, kernel)
        if self.choice is None or not self._has_choice or not applies \
                or not self._offered(solver):
            return applies, False
        return not self.choice.isChecked(), True

    def value(self, solver: str, kernel: str):
        """The estimator's value: the table's default where the solver and kernel do not
        use the parameter."""
        if not self.param.applies(solver, kernel):
            return self.param.default
        if self.param.value_type == "weights":
            return self._weights_value()
        if (self.choice is not None and self._has_choice and self.choice.isChecked()
                and self._offered(solver)):
            return self.alternative
        value = read(self.widget)
        if self._none_at_low and value == self.widget.minimum():
            return None
        return value

    def _weights_value(self):
        """Ticked: the word ('balanced'); half ticked: the model's weights; else None."""
        state = self.widget.checkState()
        if state == Qt.CheckState.PartiallyChecked:
            return self.weights
        return self.alternative if state == Qt.CheckState.Checked else None

    def _show_weights(self, value) -> None:
        """A model's own mapping of weights is neither the word nor None: a tick or an empty
        box would misstate it, so the box shows half ticked, the weights in its tooltip,
        and training again keeps them until the box is clicked."""
        if not isinstance(value, Mapping):
            self.widget.setChecked(value == self.alternative)
            return
        self.widget.setCheckState(Qt.CheckState.PartiallyChecked)
        self.weights = dict(value)
        shown = ", ".join(f"{label}: {weight:g}" for label, weight in self.weights.items())
        self.widget.setToolTip(tr("This model's class weights: {weights}").format(
            weights=shown) + "\n" + self.tip)

    def _plain_box(self, state) -> None:
        """Ticked or not again (a click, a setting): the loaded weights are forgotten and a
        click no longer passes through half ticked."""
        if state != Qt.CheckState.PartiallyChecked:
            self.widget.setTristate(False)
            self.weights = None
            self.widget.setToolTip(self.tip)

    @property
    def _none_at_low(self) -> bool:
        """An integer whose spin box says None at its lowest place."""
        return self.param.value_type == "int" and bool(self.param.none and self.control.choice)

    def _offered(self, solver: str) -> bool:
        """A None that stands for infinity (C's hard margin) needs a solver that trains it."""
        if self.alternative is None and self.param.none_value == math.inf:
            return self.table.solvers[solver].hard_margin
        return True

    def show_value(self, value) -> None:
        """Show an estimator's value in the controls; a ValueError if they cannot (a value
        beyond the control's range, or a word other than the check box's)."""
        if self.param.value_type == "weights":
            self._show_weights(value)
            return
        if self.choice is not None and self._chooses(value):
            self.choice.setChecked(True)
            return
        if value is None and self._none_at_low:
            value = self.widget.minimum()
        write(self.widget, check_setting(self.param.name, self.widget, value))
        if self.choice is not None:
            self.choice.setChecked(False)


    def _chooses(self, value) -> bool:
        """Whether `value` is what the check box stands for (gamma 'scale', C = inf)."""
        return self.choice is not None and (
            value == self.alternative if self.alternative is not None
            else value is None or value == self.param.none_value)

    def settings_of(self, value) -> dict:
        """The settings that showing an estimator's `value` gives: the check box's, and
        the field's unless the box stands for the value (class weights: none)."""
        said: dict = {}
        if self.choice is not None:
            said[self.control.setting] = self._chooses(value)
            if said[self.control.setting]:
                return said
        if self.param.value_type == "weights":
            return said
        if value is None and self._none_at_low:
            value = self.widget.minimum()
        said[self.param.name] = value
        return said


def _value_widget(param, table, control: Control, label: str):
    """The control of `param`, as `control` offers it; a number field says `label` in its
    refusals."""
    if param.value_type == "choice":
        box = QComboBox()
        rows = table.rows_for(param)
        for name in param.choices:
            box.addItem(tr(rows[name].title) if rows is not None else name, name)
        box.setCurrentIndex(box.findData(param.default))
        return box
    if param.value_type in ("bool", "weights"):
        check = QCheckBox(tr(control.label) if control and control.label else tr(param.about))
        check.setChecked(bool(param.default))
        return check
    start = control.start if control.start is not None else param.default
    if param.value_type == "int":
        spin = IntField(label)
        spin.setRange(int(control.low), int(control.high))
        if param.none and control.choice:        # the lowest place says None
            spin.setSpecialValueText(tr(control.choice))
        spin.setValue(int(control.low) if start is None else int(start))
        return spin
    if control.log:
        return LogParam(float(start), control.low, control.high, label)
    real = RealField(label)
    real.setRange(control.low, control.high)
    real.setSingleStep(control.step)
    real.setDecimals(3)
    real.setValue(float(start))
    return real


def _tooltip(param, control: Control | None) -> str:
    """What it does to the picture (the offer's effect), then what it is, the values it
    takes, its formula."""
    effect = tr(control.effect) if control and control.effect else ""
    line = tr("{name}: {about} ({values})").format(name=param.name, about=tr(param.about),
                                                   values=param.allowed())
    tip = (f"{effect}\n" if effect else "") + line
    return tip + (f"\n{tr(param.formula)}" if param.formula else "")   # the tol's has words


def _changed_signal(widget):
    if isinstance(widget, QComboBox):
        return widget.currentIndexChanged
    if isinstance(widget, QCheckBox):
        return widget.toggled
    if isinstance(widget, LogParam):
        return widget.changed
    return widget.valueChanged


# -- any control's value, for settings ----------------------------------------------------------
def read(widget):
    if isinstance(widget, QComboBox):
        if widget.currentIndex() < 0:         # nothing chosen (the points came from a file)
            return None
        data = widget.currentData()
        return data if isinstance(data, str) else widget.currentText()
    if isinstance(widget, QCheckBox):     # half ticked (a model's weights) is not ticked
        return widget.checkState() == Qt.CheckState.Checked
    return widget.value()


def check_setting(name: str, widget, value):
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


def clamped(widget, value):
    """A numeric value moved into a numeric control's range, or None."""
    if isinstance(widget, (QComboBox, QCheckBox)) or type(value) not in (int, float):
        return None
    spin = widget.spin if isinstance(widget, LogParam) else widget
    limited = min(max(value, spin.minimum()), spin.maximum())
    return int(limited) if isinstance(spin, QSpinBox) else float(limited)


def write(widget, value) -> None:
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
