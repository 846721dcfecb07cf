"""The side panel: data, solver and kernel with only their own parameters, run controls and
the readout (readout.py). It holds widgets and reports what the user asks for; the window
acts."""
from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ...core import GENERATORS, Kernel, catalog, kinds
from ...core.point_generators import (
    GENERATOR_TITLES,
    NOVELTY_GENERATOR_TITLES,
    NOVELTY_GENERATORS,
)
from ...core.regression_generators import REGRESSION_GENERATOR_TITLES, REGRESSION_GENERATORS
from ...i18n import N_, both, either, tr
from .canvas import SYMBOL_NAMES, class_color
from .number_fields import IntField, RealField
from .param_offers import offer
from .param_rows import ParamControl, check_setting, clamped, read, write
from .readout import Readout

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
    kind_chosen = Signal(str)       # the user chose a kind of machine in the Task box
    fit_view_requested = Signal()
    hard_regions_toggled = Signal(bool)
    by_probability_toggled = Signal(bool)
    residuals_toggled = Signal(bool)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._task_shown = "classification"             # the task the Data box is set for
        self._generator_of: dict = {}   # task -> generator its Data box had when left
        self._kernel_of: dict = {}      # task -> kernel it had when left
        # the kind last chosen of each task
        self._kind_of = {task: kinds.of_task(task)[0].key
                         for task in (kinds.CLASSIFICATION, kinds.NOVELTY, kinds.REGRESSION)}
        # the run controls first: the model group's parameter rows enable Train as they change
        self.run_box = self._run_group()              # the window keeps it in sight
        self.readout_box = Readout()                  # the window places it by the charts
        self.readout = self.readout_box.values
        layout = QVBoxLayout(self)
        layout.addWidget(self._data_group())
        layout.addWidget(self._model_group())
        layout.addStretch(1)
        self._update_visibility()

    # -- groups ---------------------------------------------------------------------------
    def _data_group(self) -> QGroupBox:
        box = QGroupBox(tr("Data"))
        form = QFormLayout(box)
        self.generator = QComboBox()
        self._fill_generators("classification")
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
        self.generate_button = generate
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
        self._data_form = form
        # the hint is as tall as the longest task's: the boxes under it never move
        self.hints = QStackedWidget()
        self._hint_labels = [QLabel(tr(HINTS[task])) for task in GENERATOR_SETS]
        for hint in self._hint_labels:
            hint.setWordWrap(True)
            hint.setStyleSheet("color: #555; font-size: 11px")
            self.hints.addWidget(hint)
        self.hint = self._hint_labels[0]              # the task's
        form.addRow(self.hints)
        return box

    def _fill_generators(self, task: str) -> None:
        """The generators of the task's data (the name is the item's data; its title shows)."""
        generators, titles = GENERATOR_SETS[task]
        self.generator.clear()
        for name in generators:
            self.generator.addItem(tr(titles.get(name, name)), name)

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
        last_choice = [n for n, c in self.controls.items() if c.param.kind == "choice"][-1]
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

    def _run_group(self) -> QGroupBox:
        box = QGroupBox(tr("Training"))
        grid = QGridLayout(box)
        self.train_button = QPushButton(tr("Train (F5)"))
        self.pause_button = QPushButton(tr("Pause (Space)"))
        self.pause_button.setCheckable(True)
        self.step_button = QPushButton(tr("Step"))
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
        for k, w in enumerate((self.train_button, self.pause_button, self.step_button,
                               self.stop_button, self.reset_button, fit)):
            grid.addWidget(w, k // 3, k % 3)
        for widget, tip in (
                (self.train_button, tr("Train on the points with these settings, drawing "
                                       "each step (F5).")),
                (self.pause_button, tr("Pause the run where it stands, or resume it "
                                       "(Space).")),
                (self.step_button, tr("Take one step of the run and pause there.")),
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
                                    "line to the curve."))):
            widget.setToolTip(tip)
        grid.addWidget(self.auto_retrain, 2, 0, 1, 2)
        grid.addWidget(self.hard_regions, 2, 2)
        grid.addWidget(self.residuals, 2, 2)
        grid.addWidget(self.by_probability, 3, 2)
        self.train_button.clicked.connect(self.train_requested)
        self.pause_button.clicked.connect(self.pause_clicked)
        self.step_button.clicked.connect(self.step_requested)
        self.stop_button.clicked.connect(self.stop_requested)
        self.reset_button.clicked.connect(self.reset_requested)
        fit.clicked.connect(self.fit_view_requested)
        self.hard_regions.toggled.connect(self.hard_regions_toggled)
        self.by_probability.toggled.connect(self.by_probability_toggled)
        # the probability picture has no hard version: the box would do nothing
        self.by_probability.toggled.connect(lambda on: self.hard_regions.setEnabled(not on))
        self.residuals.toggled.connect(self.residuals_toggled)
        self.show_run_state("idle")
        return box

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

    # -- state ----------------------------------------------------------------------------
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
            self._leave_task(self._task_shown)
            self._task_shown = task
            self._enter_task(task)

    def _leave_task(self, task: str) -> None:
        """Keep what the Data box and the kernel were in `task`, for a return to it."""
        self._generator_of[task] = self.generator.currentData()     # None: from a file
        self._kernel_of[task] = self.kernel_key()

    def _enter_task(self, task: str) -> None:
        """The Data box of `task`: its generators (the one it had; a file's points keep no
        generator), its hint and what a click adds; its kernel (novelty detection starts on
        rbf: a linear kernel's region is a half-plane)."""
        from_file = self.generator.currentIndex() < 0
        self._fill_generators(task)
        self.generator.setCurrentIndex(-1 if from_file else max(
            0, self.generator.findData(self._generator_of.get(task))))
        kernel = self._kernel_of.get(task, "rbf" if task == "novelty" else None)
        if kernel is not None and kernel != self.kernel_key():
            control = self.controls["kernel"]
            control.blockSignals(True)           # the points changed: that says it already
            control.show_value(kernel)
            control.blockSignals(False)
            self._update_visibility()
        self.hint = self._hint_labels[list(GENERATOR_SETS).index(task)]
        self.hints.setCurrentWidget(self.hint)
        label, words = CLICK_ADDS[task]
        self.click_adds_label.setText(tr(label))
        self.click_adds.setText(tr(words))
        self.klass_or_words.setCurrentIndex(0 if task == "classification" else 1)
        self.hard_regions.setVisible(task != "regression")     # a curve has no regions
        self.residuals.setVisible(task == "regression")

    def offer_probabilities(self, available: bool) -> None:
        """Offer shading by probability while the model drawn has probabilities."""
        self.by_probability.setVisible(available)

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
        self.train_button.setEnabled(not reason)

    def _show_row(self, widget, visible: bool) -> None:
        widget.setVisible(visible)
        label = self._model_form.labelForField(widget)
        if label is not None:
            label.setVisible(visible)

    # -- settings (sessions) ----------------------------------------------------------------
    def _setting_widgets(self) -> dict:
        """Every control by its session setting's name: the data's, each parameter's (and
        its check box's), the run's."""
        widgets = {"kind": self.task, "generator": self.generator, "n": self.n_points,
                   "noise": self.noise,
                   "seed": self.seed, "test_fraction": self.test_fraction}
        for name, control in self.controls.items():
            widgets[name] = control.widget
            if control.choice is not None:
                widgets[control.control.setting] = control.choice
        widgets.update(auto_retrain=self.auto_retrain, hard_regions=self.hard_regions,
                       by_probability=self.by_probability,
                       residuals=self.residuals)
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
        try:
            checked = {name: check_setting(name, widgets[name], value)
                       for name, value in settings.items() if name in widgets}
        except ValueError:
            self.show_task(kinds.KINDS[was].task)
            raise
        self._select_kind(checked.pop("kind", kind))
        for name, value in checked.items():
            write(widgets[name], value)

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
        choices = [c for c in self.controls.values() if c.param.kind == "choice"]
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

    def show_run_state(self, state: str) -> None:
        """The run controls as the run's state is: Pause pressed (and saying Resume) while
        paused, Pause and Stop usable only while a run is under way."""
        under_way = state in ("running", "paused", "stepping")
        paused = state in ("paused", "stepping")
        self.pause_button.setEnabled(under_way)
        self.pause_button.setChecked(paused)
        self.pause_button.setText(tr("Resume (Space)") if paused else tr("Pause (Space)"))
        self.stop_button.setEnabled(under_way)


def _keep_room_when_hidden(widget) -> None:
    """Hidden, `widget` leaves its room empty: what lies below it stays where it was."""
    policy = widget.sizePolicy()
    policy.setRetainSizeWhenHidden(True)
    widget.setSizePolicy(policy)


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
