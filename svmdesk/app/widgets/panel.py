"""The side panel: the Data box (data_box.py), the Model box (the task, solver and kernel with
only their own parameters), the Training box (run_box.py) and the readout (readout.py). It
holds widgets and reports what the user asks for; the window acts."""
from __future__ import annotations

import math

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from ...core import Kernel, catalog, kinds
from ...formats.exercise import POINTS
from ...i18n import both, either, tr
from .data_box import DataBox
from .param_offers import offer
from .param_rows import LogParam, ParamControl, check_setting, clamped, read, write
from .readout import Readout
from .run_box import RunBox

# What an exercise may fix besides the points (File > Save as exercise... offers them)
LOCKABLE = ("kind", "solver", "kernel", "C", "hard_margin", "gamma", "gamma_scale", "degree",
            "coef0", "nu", "epsilon", "tol", "max_iter", "test_fraction")


class SidePanel(QWidget):
    params_changed = Signal()
    kind_chosen = Signal(str)       # the user chose a kind of machine in the Task box

    def __init__(self, parent=None):
        super().__init__(parent)
        self._task_shown = "classification"             # the task the Data box is set for
        self._kernel_of: dict = {}      # task -> kernel it had when left
        self._tips: dict = {}           # a locked control -> its own tooltip
        # the kind last chosen of each task
        self._kind_of = {task: kinds.of_task(task)[0].key
                         for task in (kinds.CLASSIFICATION, kinds.NOVELTY, kinds.REGRESSION)}
        # the run controls first: the model group's parameter rows enable Train as they change
        self.run_box = RunBox()                       # the window keeps it in sight
        self.readout_box = Readout()                  # the window places it by the charts
        self.readout = self.readout_box.values
        layout = QVBoxLayout(self)
        self.data_box = DataBox()
        layout.addWidget(self.data_box)
        layout.addWidget(self._model_group())
        layout.addStretch(1)
        self._update_visibility()

    # -- groups ---------------------------------------------------------------------------
    def _model_group(self) -> QGroupBox:
        """The Task box, then a row per parameter the window offers of any kind it trains
        (and its check box), then the kernel's formula and why the solver cannot train the
        kind or the kernel, under the choices. Only the rows of the kind, solver and kernel
        chosen show."""
        box = QGroupBox(tr("Model"))
        form = self._model_form = QFormLayout(box)
        self.task = QComboBox()
        for kind in kinds.KINDS.values():          # the kinds the window trains: every one
            self.task.addItem(tr(kind.title), kind.key)
        self.task.setToolTip(tr("What the machine learns: classes (with C or with ν), the "
                                "region where the points lie (novelty detection), or a curve "
                                "through samples (x, y) (regression, with ε or with ν)."))
        # the longest title wraps nowhere: the box stays as wide as the others, its list wider
        self.task.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.task.setMinimumContentsLength(20)
        self.task.view().setMinimumWidth(self.task.view().sizeHintForColumn(0) + 8)
        self.task.currentIndexChanged.connect(self._kind_chosen)
        form.addRow(tr("Task"), self.task)
        # read once: the rows the controls are built from
        self.tables = {key: kind.table for key, kind in kinds.KINDS.items()}
        self.controls: dict[str, ParamControl] = {}
        for key, table in self.tables.items():
            for p in table.params:
                offered_as = offer(key, p.name)
                if offered_as is not None and p.name not in self.controls:
                    self.controls[p.name] = ParamControl(p, table, offered_as, self)
        self.formula = QLabel()
        self.formula.setWordWrap(True)                # a long formula never widens the panel
        self.formula.setStyleSheet("font-family: monospace")
        self.reason = QLabel()
        self.reason.setWordWrap(True)
        self.reason.setStyleSheet("color: #B03A2E")
        self.kernel_note = QLabel(tr("Linear kernel: the region is a half-plane."))
        self.kernel_note.setToolTip(tr("A linear kernel's region is one side of a straight "
                                       "line, however the points lie. The RBF kernel draws "
                                       "a region around them."))
        self.kernel_note.setWordWrap(True)
        self.kernel_note.setStyleSheet("color: #555; font-size: 11px")
        self.rows: dict[str, tuple[QWidget | None, QWidget]] = {}
        last_choice = [n for n, c in self.controls.items() if c.param.value_type == "choice"][-1]
        for name, control in self.controls.items():
            label = "" if isinstance(control.widget, QCheckBox) else control.label
            if control.choice is not None:    # above the value its tick hides: the box
                form.addRow("", control.choice)   # stays under the cursor
                self.rows[control.control.setting] = (None, control.choice)
            form.addRow(label, control.widget)
            self.rows[name] = (form.labelForField(control.widget), control.widget)
            control.changed.connect(self.params_changed)
            control.changed.connect(self._update_visibility)
            if name == last_choice:               # the formula and the reason follow them
                form.addRow("", self.formula)
                form.addRow("", self.reason)
                form.addRow("", self.kernel_note)
        self.solver, self.kernel = self.controls["solver"].widget, self.controls["kernel"].widget
        return box

    def _kind_chosen(self) -> None:
        task, was = kinds.KINDS[self.kind_key()].task, self._task_shown
        self._kind_of[task] = self.kind_key()
        self._update_visibility()
        self.kind_chosen.emit(self.kind_key())
        if task == was:                      # another task: its points changed and said so
            self.params_changed.emit()       # (a second signal started a second run)

    def kind_key(self) -> str:
        """The key of the kind of machine chosen (SVMModel.kind)."""
        return self.task.currentData()

    @property
    def table(self) -> catalog.Table:
        """The parameter table of the kind chosen."""
        return self.tables[self.kind_key()]

    def show_task(self, task: str) -> None:
        """The points are now of `task`: the Task box shows a kind of it (the last one
        chosen for classification), the Data box its generators and what clicks do. It
        announces no choice (the points changed, not the user's mind)."""
        if kinds.KINDS[self.kind_key()].task != task:
            kind = self._kind_of[task]
            self.task.blockSignals(True)
            self.task.setCurrentIndex(self.task.findData(kind))
            self.task.blockSignals(False)
            self._update_visibility()
        if task != self._task_shown:
            was, self._task_shown = self._task_shown, task
            self._kernel_of[was] = self.kernel_key()      # for a return to it
            self.data_box.show_task(was, task)
            self._show_kernel_of(task)
            self.run_box.show_task(task)

    def _show_kernel_of(self, task: str) -> None:
        """The kernel `task` had when left (novelty detection starts on rbf: a linear
        kernel's region is a half-plane)."""
        kernel = self._kernel_of.get(task, "rbf" if task == "novelty" else None)
        if kernel is not None and kernel != self.kernel_key():
            control = self.controls["kernel"]
            control.blockSignals(True)           # the points changed: that says it already
            control.show_value(kernel)
            control.blockSignals(False)
            self._update_visibility()

    def kind_for(self, task: str) -> str:
        """The kind of `task` the Task box would show: the one chosen last."""
        return self._kind_of[task]

    def solver_key(self) -> str:
        return self.solver.currentData()

    def kernel_key(self) -> str:
        return self.kernel.currentData()

    def incompatibility(self) -> str:
        """Why the chosen solver cannot train the chosen kind or kernel ('' if it can)."""
        if self.solver_key() not in self.table.solvers:
            titles = [tr(s.title) for s in self.table.solvers.values()]
            return tr("{solver} cannot train the {kind}: pick {solvers}.").format(
                solver=tr(catalog.SOLVERS[self.solver_key()].title),
                kind=tr(kinds.KINDS[self.kind_key()].name), solvers=either(titles))
        solver, kernel = self.table.solvers[self.solver_key()], self.kernel_key()
        if kernel in solver.kernels:
            return ""
        titles = [tr(self.table.kernels[k].title) for k in solver.kernels]
        others = [tr(s.title) for s in self.table.solvers.values() if kernel in s.kernels]
        return tr("{solver} trains {kernels} models only. Pick the {kernel_choices} kernel, "
                  "or {others} for the {kernel} kernel.").format(
            solver=tr(solver.title), kernels=both(titles), kernel_choices=either(titles),
            others=either(others), kernel=tr(self.table.kernels[kernel].title))

    def params(self) -> dict:
        """SVC parameters from the controls (the table's default for those the solver and
        kernel do not use); raises ValueError if they cannot be trained."""
        reason = self.incompatibility()
        if reason:
            raise ValueError(reason)
        solver, kernel = self.solver_key(), self.kernel_key()
        return {param.name: (self.controls[param.name].value(solver, kernel)
                             if self._offered(param) else param.default)
                for param in self.table.params}

    def estimator(self):
        """The unfitted estimator of the kind chosen, with the parameters of the controls
        (params); raises ValueError if they cannot be trained."""
        return kinds.KINDS[self.kind_key()].estimator(**self.params())

    def _offered(self, param) -> bool:
        """Whether the panel offers `param` of the kind chosen (its control stands for it)."""
        return offer(self.kind_key(), param.name) is not None and param.name in self.controls

    def _update_visibility(self) -> None:
        solver, kernel = self.solver_key(), self.kernel_key()
        offered = {p.name for p in self.table.params if self._offered(p)}
        for p in self.table.params:
            offered_as = offer(self.kind_key(), p.name)
            if p.name in offered and offered_as is not None:
                self.controls[p.name].use(p, self.table, offered_as)
        for name, control in self.controls.items():
            value_shown, choice_shown = (control.shown(solver, kernel) if name in offered
                                         else (False, False))
            self._show_row(control.widget, value_shown)
            if control.choice is not None:
                self._show_row(control.choice, choice_shown)
        self.formula.setText(Kernel(kernel).formula)
        self.readout_box.show_kind(self.kind_key())     # the rows of the kind chosen
        reason = self.incompatibility()
        self.reason.setText(reason)
        self.reason.setVisible(bool(reason))
        self._show_row(self.kernel_note, kinds.KINDS[self.kind_key()].novelty
                       and kernel == "linear")
        self.run_box.train_button.setEnabled(not reason)

    def _show_row(self, widget, visible: bool) -> None:
        widget.setVisible(visible)
        label = self._model_form.labelForField(widget)
        if label is not None:
            label.setVisible(visible)

    # -- settings (sessions) ----------------------------------------------------------------
    def _setting_widgets(self) -> dict:
        """Every control by its session setting's name: the data's, each parameter's (and
        its check box's), the run's."""
        data, run = self.data_box, self.run_box
        widgets = {"kind": self.task, "generator": data.generator, "n": data.n_points,
                   "noise": data.noise, "seed": data.seed, "test_fraction": data.test_fraction}
        for name, control in self.controls.items():
            widgets[name] = control.widget
            if control.choice is not None:
                widgets[control.control.setting] = control.choice
        widgets.update(auto_retrain=run.auto_retrain, hard_regions=run.hard_regions,
                       by_probability=run.by_probability, residuals=run.residuals)
        return widgets

    def settings(self) -> dict:
        """Every control's value by name: numbers, text and booleans (for a session)."""
        return {name: read(widget) for name, widget in self._setting_widgets().items()}

    def settings_as_shown(self) -> dict:
        """`settings()` with the kind the Data box is set for: while a new choice in the Task
        box is being carried out (the points are still of the task before), the kind before
        it."""
        return dict(self.settings(), kind=self._kind_of[self._task_shown])

    def apply_settings(self, settings: dict) -> None:
        """Set the controls from `settings` (names as in `settings()`; unknown names, from a
        newer svmdesk, are skipped). All values are checked first: a ValueError naming the
        setting leaves every control as it was."""
        kind = settings.get("kind", kinds.C_SVC.key)   # sessions before the Task box: C-SVC
        if kind not in kinds.KINDS:
            raise ValueError(f"setting 'kind' must be one of {', '.join(kinds.KINDS)}; "
                             f"got {kind!r}")
        was = self.kind_key()
        self.show_task(kinds.KINDS[kind].task)  # the generators of its task, to check
        widgets = self._setting_widgets()
        _widen_for(widgets, settings)     # a value a tuned cell gave: room made, as then
        try:
            checked = {name: check_setting(name, widgets[name], value)
                       for name, value in settings.items() if name in widgets}
        except ValueError:
            self.show_task(kinds.KINDS[was].task)
            raise
        self._select_kind(checked.pop("kind", kind))
        for name, value in checked.items():
            write(widgets[name], value)

    def lockable(self) -> dict:
        """{setting name: its words} of what an exercise may fix, the points first."""
        widgets = self._setting_widgets()
        words = {POINTS: tr("the points"), "kind": tr("Task"),
                 "test_fraction": tr("Test fraction")}
        for name in LOCKABLE:
            widget = widgets[name]
            if name not in words:
                words[name] = (widget.text() if isinstance(widget, QCheckBox)
                               else self.controls[name].label)
        return words

    def settings_of(self, params: dict, kind: str) -> dict:
        """The settings a model of `params` and `kind` would show (apply_params): its kind,
        and each parameter its solver and kernel use as its controls show it (a hard margin
        as its check box, C = inf)."""
        said = {"kind": kind}
        for name, control in self.controls.items():
            if name in params and control.param.applies(params["solver"], params["kernel"]):
                said.update(control.settings_of(params[name]))
        return said

    def points_made(self) -> dict | None:
        """The generator and seed the Data box shows, if one made the points (None: they
        came from a file)."""
        box = self.data_box
        if box.generator.currentIndex() < 0:
            return None
        return {"generator": box.generator.currentData(), "n": box.n_points.value(),
                "noise": box.noise.value(), "seed": box.seed.value()}

    def lock(self, names, points: bool) -> None:
        """Disable the controls of the settings `names` (an exercise fixes them), and with
        `points` the Data box's point makers, each saying why in its tooltip; the others as
        they were (an empty lock frees them all)."""
        locked = [w for name, w in self._setting_widgets().items() if name in names]
        if points:
            locked += [w for w in self.data_box.point_makers() if w not in locked]
        for widget in set(self._tips) - set(locked):          # freed: as it was
            widget.setToolTip(self._tips.pop(widget))
            widget.setEnabled(True)
        for widget in locked:
            self._tips.setdefault(widget, widget.toolTip())
            widget.setEnabled(False)
            widget.setToolTip(tr("The exercise fixes this.") + "\n" + self._tips[widget]
                              if self._tips[widget] else tr("The exercise fixes this."))
        if not points and self.data_box.generator.currentIndex() < 0:
            self.data_box.generate_button.setEnabled(False)   # no generator: nothing to do

    def take_values(self, values: dict) -> None:
        """Show these values of real parameters (a tuned cell's C and gamma) in their
        controls: a value beyond a slider's range widens it, never clamps."""
        for name, value in values.items():
            control = self.controls[name]
            _widen_for({name: control.widget}, {name: value})
            control.show_value(value)

    def _select_kind(self, kind: str) -> None:
        """Show `kind` in the Task box, announcing no choice."""
        self._kind_of[kinds.KINDS[kind].task] = kind
        self.task.blockSignals(True)
        self.task.setCurrentIndex(self.task.findData(kind))
        self.task.blockSignals(False)
        self._update_visibility()

    def apply_params(self, params: dict, kind: str = kinds.C_SVC.key) -> str:
        """Show a model's kind and parameters (a loaded model's) in the controls: those its
        solver and kernel use. A value beyond a control's range is shown at its limit;
        returns a sentence naming the values not shown as they are ('' when every value
        fits)."""
        self._select_kind(kind)
        unshown = []
        choices = [c for c in self.controls.values() if c.param.value_type == "choice"]
        for control in choices:                     # first: they decide the rows in use
            control.show_value(params[control.param.name])
        for name, control in self.controls.items():
            if control in choices or name not in params \
                    or not control.param.applies(params["solver"], params["kernel"]):
                continue
            value = params[name]
            try:
                control.show_value(value)
            except ValueError:
                limit = clamped(control.widget, value)
                if limit is not None:
                    control.show_value(limit)
                unshown.append(f"{name} = {value!r}" if limit is None else
                               tr("{name} = {value} (shown as {limit})").format(
                                   name=name, value=repr(value), limit=f"{limit:g}"))
        if not unshown:
            return ""
        return tr("the panel cannot show {values}; training again uses the values "
                  "shown.").format(values=", ".join(unshown))


def _widen_for(widgets: dict, values: dict) -> None:
    """Widen the log sliders among `widgets` to the positive finite values named."""
    for name, value in values.items():
        widget = widgets.get(name)
        if isinstance(widget, LogParam) and type(value) in (int, float) \
                and math.isfinite(value) and value > 0:
            widget.widen_to(float(value))
