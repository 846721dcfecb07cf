"""The main window: its layout, its menus, and the wiring between the pieces that do the work.

The data flows one way: the document (document/work.py: points, model, session file) changes
through undoable edits (document/editing.py) or a file opened (files/opening.py, asked by the
File menu, files/file_menu.py); the run controller (training/run.py) owns the training run and
reports frames, which training/display.py draws; every message goes through the notices
(widgets/notices.py). Edits with auto-retrain on stop
the current run and start one fresh run when it has ended, however many edits came in
between (coalescing).
"""
from __future__ import annotations

import numpy as np

# np.unique imports numpy.ma on its first call: 20-35 ms under PySide's import hook, which
# reads every module's source. Imported with the window, not on the GUI thread at the first
# Train, where it stalled the window.
import numpy.ma  # noqa: F401
from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut, QUndoStack
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QHBoxLayout,
    QMainWindow,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QTabWidget,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from ...core import class_labels, make_dataset
from ...core.training_job import Job
from ...drawing.decision_grid import GridSpec
from ...formats.tuning_map import map_table_text
from ...i18n import tr
from ..actions import make_action as _action
from ..document.editing import Editing
from ..document.point_set import MAX_CLASSES
from ..document.work import TITLE, Work
from ..files.file_menu import FileActions
from ..files.opening import Opener
from ..icon import app_icon
from ..tasks import MARK, NOVELTY_LABELS
from ..training.cross_validation import CrossValidation
from ..training.display import RunDisplay
from ..training.run import RunController, RunRefused
from ..training.tuning import Tuning
from ..widgets.canvas import Canvas
from ..widgets.charts import TrainingCharts
from ..widgets.evaluation.view import EvaluationView
from ..widgets.exercise_pane import ExercisePane
from ..widgets.help import SHEET_NAME
from ..widgets.notices import Notices
from ..widgets.pair_inset import PairInset
from ..widgets.panel import SidePanel
from ..widgets.tabs import whole_titles
from ..widgets.tuning_panel import TuningPanel
from .comparison_window import ComparisonWindow
from .evaluation_window import EvaluationWindow
from .exercise_room import ExerciseRoom
from .help_menu import HelpMenu
from .hover_text import hover_terms, hover_text, point_words
from .language_menu import LanguageMenu
from .model_shelf import ModelShelf
from .placement import keep_inside, place, remember

GRID = 200                   # decision grid resolution per axis
RUN_KEYS = (Qt.Key.Key_Space, Qt.Key.Key_Escape, Qt.Key.Key_F5)   # act from any field
PANEL_WIDTH = 390            # the side panel's width at least (its scroll bar included)
BELOW_HEIGHT = 275           # the charts' and evaluation's tabs under the canvas, at first
CANVAS_MINIMUM = 200         # the canvas keeps this much height whatever the splitter says
EXERCISE_WIDTH = 250         # an exercise's pane beside the canvas, at first


class MainWindow(QMainWindow):
    TITLE = TITLE
    frame_shown = Signal(object)    # a frame was drawn (GUI thread)
    training_ended = Signal(object) # the final frame was drawn
    training_failed = Signal(str)   # the error was shown

    def __init__(self, path: str | None = None):
        super().__init__()
        self.setWindowTitle(tr(self.TITLE))
        self.setWindowIcon(app_icon())
        self.notices = Notices(self)  # every message to the user goes through it
        self.work = Work(self)       # the document: points, model, session file
        self.points = self.work.points
        self.undo = QUndoStack(self)
        self.canvas = Canvas()
        self.panel = SidePanel()
        self._placed = False         # kept inside the screen once it first showed
        self._build_layout()
        self.canvas.viewport().installEventFilter(self)
        for field in self.panel.findChildren(QAbstractSpinBox):
            field.installEventFilter(self)
        self._build_controllers()
        self._build_menus()
        self._wire()
        self._load_demo()
        self.files.autosave.mark_clean()     # the demo as it ships is nothing to recover
        self.setAcceptDrops(True)
        # inside the screen; where it was left last time
        place(self, self.splitter, self.column_splitter)
        if path:
            self.files.open(path, quiet=True)     # named on the command line

    # -- construction ---------------------------------------------------------------------
    def _build_layout(self) -> None:
        self.charts = TrainingCharts()
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        self._column = column
        column.addWidget(self.notices.banner)
        # Under the canvas (a splitter between them gives either more height): the training
        # charts and the evaluation as tabs, the readout beside them. The evaluation takes
        # the readout's width too while its tab is in front: its matrices and curves need
        # it, and its matrices say what the readout's accuracies say.
        training = QWidget()
        curves = QHBoxLayout(training)
        curves.setContentsMargins(0, 0, 0, 0)
        curves.addWidget(self.charts.objective_plot)
        curves.addWidget(self.charts.gap_plot)
        self.pair_inset = PairInset()      # SMO's pair subproblem, while a run stands paused
        self.pair_inset.hide()
        curves.addWidget(self.pair_inset)
        self.evaluation_view = EvaluationView()
        self.below = whole_titles(QTabWidget())
        self.below.addTab(training, tr("Training"))
        self.below.addTab(self.evaluation_view, tr("Evaluation"))
        self.tuning_panel = TuningPanel()
        self.below.addTab(self.tuning_panel, tr("Tune C and gamma"))
        # its pages' own wishes (plots ask for 480 px) must not take the canvas's height
        self.below.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        # the evaluation and the Tune tab take the readout's width too while in front (the
        # evaluation may be in its own window: then its tab's stand-in leaves it room)
        self.below.currentChanged.connect(
            lambda index: self.panel.readout_box.setVisible(
                self.below.widget(index) not in (self.evaluation_view, self.tuning_panel)))
        lower = QWidget()           # at least as tall as the readout's lines ask (its layout
                                    # says so to the splitter, as they change)
        beside = QHBoxLayout(lower)
        beside.setContentsMargins(0, 0, 0, 0)
        beside.addWidget(self.below, 6)
        beside.addWidget(self.panel.readout_box, 2)
        self.canvas.setMinimumHeight(CANVAS_MINIMUM)
        # an exercise's pane beside the canvas (hidden without one): the charts and the
        # readout under them keep their width
        self.exercise_pane = ExercisePane()
        self.exercise_pane.hide()
        beside_canvas = QSplitter(Qt.Orientation.Horizontal)
        beside_canvas.addWidget(self.exercise_pane)
        beside_canvas.addWidget(self.canvas)
        beside_canvas.setStretchFactor(1, 1)
        beside_canvas.setCollapsible(1, False)
        beside_canvas.setSizes([EXERCISE_WIDTH, 10_000])
        self.column_splitter = QSplitter(Qt.Orientation.Vertical)
        self.column_splitter.addWidget(beside_canvas)
        self.column_splitter.addWidget(lower)
        self.column_splitter.setStretchFactor(0, 1)
        self.column_splitter.setCollapsible(0, False)
        self.column_splitter.setCollapsible(1, False)
        self.column_splitter.setSizes([10_000, BELOW_HEIGHT])    # the canvas takes the rest
        column.addWidget(self.column_splitter, 1)
        # The training buttons stay in sight above the settings, which scroll vertically
        # when a small screen has no room for them all (never sideways: long texts wrap).
        self.panel_scroll = QScrollArea()
        self.panel_scroll.setWidget(self.panel)
        self.panel_scroll.setWidgetResizable(True)
        self.panel_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # the scroll bar's room is kept when nothing scrolls: a bar that came and went as
        # rows showed would move every control of the panel sideways under the cursor
        self.panel_scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.panel_scroll.setMinimumWidth(PANEL_WIDTH)
        right = QWidget()
        side = QVBoxLayout(right)
        side.setContentsMargins(0, 0, 0, 0)
        side.addWidget(self.panel.run_box)
        side.addWidget(self.panel_scroll, 1)
        self.splitter = QSplitter()
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setCollapsible(1, False)
        self.setCentralWidget(self.splitter)
        self.notices.say(tr("Press Train (F5) to fit the demo data."))

    def _build_controllers(self) -> None:
        """The pieces that act, each handed the few it works with (never the window)."""
        self.run = RunController(self._job, self.grid_spec, self)
        self.run_display = RunDisplay(         # draws what the run reports
            self.run, self.canvas, self.charts, self.panel, self.notices, self.work,
            self._refusal, self.grid_spec, self.evaluation_view, self)
        self.shelf = ModelShelf(self.run_display, self.panel, self.notices, self.discard_model)
        self.editing = Editing(                # what clicks and the Data box do to the points
            self.work, self.undo, self.canvas, self.panel, self.notices, self.discard_model,
            self.shelf, self)
        self.cross_validation = CrossValidation(   # the evaluation view's k folds
            self.evaluation_view, self._job, self.notices, self.work, self)
        self.tuner = Tuning(                   # the Tune tab's C-gamma map
            self.tuning_panel, self._job, self._take_cell, self.notices, self.work, self)
        self.comparison = ComparisonWindow(    # Compare solvers: its own window, when asked
            self, self._job, self.panel.params, self.work, self.canvas)
        self.opener = Opener(                  # what opening a file does to the window
            self.work, self.undo, self.canvas, self.panel, self.notices, self.editing,
            self.run, self.run_display, self.discard_model, self.grid_spec, self)
        self.exercise = ExerciseRoom(          # the exercise's pane, locks and goals
            self.exercise_pane, self.work, self.panel, self.canvas, self.notices, self)
        self.opener.goals_met = lambda: self.exercise.met      # a student's work keeps them

    def _build_menus(self) -> None:
        self.files = FileActions(self, self.menuBar().addMenu(tr("&File")), self.work,
                                 self.opener, self.canvas, self.run, self.notices)
        self.files.make_job = self._script_job  # File > Export Python script's run
        if self.files.recovery_bar is not None:     # what an earlier window left: above all
            self._column.insertWidget(0, self.files.recovery_bar)
        edit = self.menuBar().addMenu(tr("&Edit"))
        undo = self.undo.createUndoAction(self, tr("&Undo"))
        undo.setShortcut(QKeySequence("Ctrl+Z"))
        redo = self.undo.createRedoAction(self, tr("&Redo"))
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        # the items name what they undo in a whole sentence (Qt's "prefix action" is English
        # word order): set after Qt's own update, which runs first. Slots of the window, so
        # they go with it (a closure would outlive the actions while the stack is deleted;
        # so did the slots of a QObject of the Edit menu's own)
        self.undo_action, self.redo_action = undo, redo
        self.undo.undoTextChanged.connect(self._name_undo)
        self.undo.redoTextChanged.connect(self._name_redo)
        undo.setProperty(SHEET_NAME, tr("Undo"))
        redo.setProperty(SHEET_NAME, tr("Redo"))
        edit.addActions([undo, redo])
        edit.addAction(_action(self, tr("&Delete point under mouse"), "Delete",
                               lambda: self.editing.delete_under_mouse()))
        train = self.menuBar().addMenu(tr("&Train"))
        self.train_action = _action(self, tr("&Train"), "F5", self.train)
        self.train_action.setShortcuts([QKeySequence("F5"), QKeySequence("Ctrl+Return")])
        train.addAction(self.train_action)
        train.addAction(_action(self, tr("&Pause / resume"), "Space",
                                lambda: self.run.toggle_pause()))
        train.addAction(_action(self, tr("&Step"), "", lambda: self.step()))
        train.addAction(_action(self, tr("Step ×1&0"), "", lambda: self.step(10)))
        train.addAction(_action(self, tr("Step ×&100"), "", lambda: self.step(100)))
        train.addAction(_action(self, tr("P&lay / pause"), "",
                                lambda: self.run.toggle_play()))
        train.addAction(_action(self, tr("St&op"), "Esc", self.stop))
        train.addAction(_action(self, tr("&Reset"), "", self.reset))
        train.addSeparator()
        train.addAction(_action(self, tr("T&une C and gamma..."), "Ctrl+G", self.show_tuning))
        train.addAction(_action(self, tr("&Compare solvers..."), "Ctrl+K",
                                self.comparison.open))
        view = self.menuBar().addMenu(tr("&View"))
        view.addAction(_action(self, tr("&Fit view to data"), "Ctrl+0", self.canvas.fit_view))
        view.addAction(_action(self, tr("&Log"), "Ctrl+L", self.notices.show_log))
        self.language_menu = LanguageMenu(self, view.addMenu(tr("Lan&guage")), self.notices)
        self.help = HelpMenu(self, self.menuBar().addMenu(tr("&Help")), self.files, self.run)
        for k in range(MAX_CLASSES):
            key = QShortcut(QKeySequence(str(k + 1)), self)
            key.activated.connect(lambda k=k: self.panel.data_box.klass.setCurrentIndex(k))

    def _name_undo(self, step: str) -> None:
        self.undo_action.setText(tr("&Undo {action}").format(action=step) if step
                                 else tr("&Undo"))

    def _name_redo(self, step: str) -> None:
        self.redo_action.setText(tr("&Redo {action}").format(action=step) if step
                                 else tr("&Redo"))

    @property
    def last_frame(self):
        """The frame drawn."""
        return self.run_display.last_frame

    @property
    def fitted(self):
        """The model drawn (the document's)."""
        return self.work.fitted

    @property
    def running(self) -> bool:
        """A run is under way (running, paused, stepping or stopping)."""
        return self.run.active

    def _wire(self) -> None:
        self.points.changed.connect(self._points_changed)
        c, p = self.canvas, self.panel
        c.hovered.connect(self._hovered)
        p.data_box.open_requested.connect(self.files.choose_and_open)
        p.run_box.train_requested.connect(self.train)
        p.run_box.pause_clicked.connect(self.run.toggle_pause)
        p.run_box.step_requested.connect(self.step)
        p.run_box.play_clicked.connect(self.run.toggle_play)
        p.run_box.rate_changed.connect(self.run.set_rate)
        self.run.set_rate(p.run_box.steps_a_second)
        p.solver.currentIndexChanged.connect(
            lambda: p.run_box.count_pairs(p.solver_key() == "smo"))
        p.run_box.count_pairs(p.solver_key() == "smo")
        p.run_box.stop_requested.connect(self.stop)
        p.run_box.reset_requested.connect(self.reset)
        p.run_box.fit_view_requested.connect(c.fit_view)
        p.run_box.hard_regions_toggled.connect(c.set_hard_regions)
        p.run_box.by_probability_toggled.connect(c.set_by_probability)
        c.probabilities_available.connect(p.run_box.offer_probabilities)
        p.run_box.residuals_toggled.connect(c.set_residuals)
        p.run_box.slack_toggled.connect(c.set_slack)
        self.evaluation_view.threshold_changed.connect(
            lambda t, chosen, on_probability: c.set_threshold(t, chosen, on_probability))
        self.evaluation_view.seen.connect(self.run.want_evaluation)
        self.evaluation_window = EvaluationWindow(self.evaluation_view, self.below, self)
        self.evaluation_view.save_requested.connect(
            lambda: self.files.choose_evaluation_picture(self.evaluation_view))
        self.comparison.save_picture_requested.connect(lambda: self.files.choose_figure(
            tr("Save the comparison as a picture"), "comparison.png", self.comparison.figure))
        self.comparison.save_table_requested.connect(lambda: self.files.choose_table(
            tr("Save the comparison's table"), "comparison.csv", self.comparison.table))
        self.tuning_panel.save_picture_requested.connect(lambda: self.files.choose_figure(
            tr("Save the C-gamma map as a picture"), "c-gamma-map.png",
            self.tuning_panel.figure))
        self.tuning_panel.save_table_requested.connect(lambda: self.files.choose_table(
            tr("Save the C-gamma map's table"), "c-gamma-map.csv",
            lambda: None if self.tuner.tuning is None else map_table_text(self.tuner.tuning)))
        p.params_changed.connect(self._auto_retrain)
        v = self.run_display
        v.frame_shown.connect(self.frame_shown)
        v.frame_shown.connect(self._show_pair)
        self.run.state_changed.connect(self._hide_pair_at_rest)
        v.training_ended.connect(self.training_ended)
        v.training_failed.connect(self.training_failed)
        v.run_started.connect(self.files.autosave.save_if_work_changed)  # saved work first
        v.model_changed.connect(self.files.autosave.mark_model)
        for changed in (self.points.changed, p.params_changed):
            changed.connect(v.inputs_changed)
        self.points.changed.connect(self.work.mark_changed)
        for changed in (self.points.changed, p.params_changed):   # after _points_changed
            changed.connect(self._judge_cross_validations)
        p.params_changed.connect(self.work.mark_changed)
        self.work.title_changed.connect(self.setWindowTitle)
        self.work.modified_changed.connect(self.setWindowModified)

    def _load_demo(self) -> None:
        data = make_dataset("two_disks", n=100, seed=0)
        self.points.replace(data.X, data.y, class_names=data.class_names)
        self.panel.data_box.choose_generator("two_disks")
        self.panel.kernel.setCurrentIndex(self.panel.kernel.findData("linear"))
        self.canvas.fit_view()

    def _points_changed(self) -> None:
        X, y, test = self.points.X, self.points.y, self.points.test_mask
        task = self.points.task
        self.canvas.set_points(X, y, test, self.points.class_names, task)
        self.comparison.show_points()
        self.panel.show_task(task)
        self.panel.data_box.set_class_names(self.points.class_names)
        # novelty detection: a left click adds a point of the one class (a right, a mark);
        # regression: a sample, whichever button
        classification = task == "classification"
        klass = self.panel.data_box.klass
        self.canvas.current_class = klass.currentIndex() if classification else 0
        self.canvas.right_class = 1 if task != "regression" else 0
        self._auto_retrain()

    def _judge_cross_validations(self) -> None:
        """The evaluation view shows its results beside the settings and points they
        scored."""
        try:
            params = self.panel.params()
        except ValueError:                   # settings no run can train: none of theirs
            params = None
        job = None
        if self.work.cross_validations or self.work.tuning:   # the points' digest only
            try:                             # when there are results to judge (a drag
                job = self._job()            # edits many times)
            except RunRefused:               # points no run can train on: none of theirs
                pass
        self.cross_validation.judge(self.panel.kind_key(), params, job)
        self.tuner.follow(self.panel.kind_key(), params, job)
        self.comparison.follow_panel()

    def after_run(self, action) -> None:
        """Do `action` now, or once a running training has stopped (it would draw its
        final frame over whatever the action shows)."""
        self.run.after_run(action)

    def dragEnterEvent(self, event) -> None:
        if self.files.accepts(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        event.acceptProposedAction()
        self.files.drop(event.mimeData())

    # -- training: intents go to the run controller; the window draws what it reports ----
    def train(self) -> None:
        self.run.train()

    def show_tuning(self) -> None:
        """Ctrl+G: the Tune tab in front."""
        self.below.setCurrentWidget(self.tuning_panel)

    def _take_cell(self, C: float, gamma: float) -> None:
        """A cell of the map clicked: the panel takes its C and gamma and trains them."""
        refusal = self.work.locks.settings_refusal({"C": C, "gamma": gamma},
                                                   tr("The cell clicked"))
        if refusal:
            self.notices.error(refusal)
            return
        self.panel.take_values({"C": C, "gamma": gamma})
        self.train()

    def _show_pair(self, frame) -> None:
        """The pair subproblem of SMO's last pair step beside the charts while the run
        stands paused there (None, or any other frame: out of sight)."""
        step = frame.reading.pair_step if frame is not None and frame.run.paused else None
        self.pair_inset.setVisible(step is not None)
        self.pair_inset.show_step(step)

    def _hide_pair_at_rest(self, state: str) -> None:
        if state not in ("paused", "stepping", "playing"):
            self._show_pair(None)

    def step(self, count: int = 1) -> None:
        """Step (`count` iterations, the last shown)."""
        self.run.step(count)

    def stop(self) -> None:
        self.run.stop()

    def reset(self) -> None:
        """The user's Reset: no run, no model, and the status bar says so."""
        self.discard_model()
        self.notices.say(tr("Reset: no model. Train (F5) starts again from the beginning."))

    def discard_model(self) -> None:
        """Stop any run and clear the model, its drawing, the readout, and a banner about
        the model (its cause is gone)."""
        self.run.reset()
        self.work.fitted = None
        self.run_display.clear()
        self.notices.recheck()

    def _job(self) -> Job:
        """The run the controller starts: the training points and the panel's parameters
        (RunRefused says why they cannot be trained)."""
        refusal = self._refusal()
        if refusal:
            raise RunRefused(refusal)
        X, y, test = self.points.X, self.points.y, self.points.test_mask
        estimator = self.panel.estimator()
        if self.points.regression:   # a sample's x is its feature, its height its target
            return Job(X[~test, :1], X[~test, 1], estimator, X[test, :1], X[test, 1])
        if self.points.novelty:      # marks and held-out points: what the model never sees
            unseen = test | (y == MARK)
            return Job(X[~unseen], y[~unseen], estimator, X[unseen], y[unseen],
                       labels=NOVELTY_LABELS)
        return Job(X[~test], y[~test], estimator, X[test], y[test],
                   labels=class_labels(self.work.used_class_names()))

    def _script_job(self) -> Job:
        """`_job()` for the script's export, its refusal a ValueError (the files' room
        knows no run)."""
        try:
            return self._job()
        except RunRefused as e:
            raise ValueError(str(e)) from None

    def _refusal(self) -> str:
        """Why the points and parameters cannot be trained now ('' when they can)."""
        try:
            self.panel.params()
        except ValueError as e:
            return str(e)
        y = self.points.y[~self.points.test_mask]
        if self.points.regression:
            return "" if len(y) >= 2 else tr(
                "Regression needs at least two samples to learn from: click the canvas to "
                "add some (held-out samples are never trained on).")
        if self.points.novelty:
            return "" if (y == 0).any() else tr(
                "Novelty detection needs points to learn from: left-click the canvas to add "
                "some (outlier marks and held-out points are never trained on).")
        if len(np.unique(y)) < 2:
            return tr("Training needs points of at least two classes: left-click and "
                      "right-click the canvas to add some.")
        return ""

    def grid_spec(self) -> GridSpec:
        (x0, x1), (y0, y1) = self.canvas.view.viewRange()
        return GridSpec(x0, x1, y0, y1, GRID, GRID)

    def _auto_retrain(self) -> None:
        if (self.panel.run_box.auto_retrain.isChecked() and len(self.points)
                and not (self.opener.applying or self.shelf.putting_back)):
            self.train()

    # -- events ---------------------------------------------------------------------------
    def eventFilter(self, watched, event) -> bool:
        # A number field would take Space (and Esc, F5) as typing: it never belongs in a
        # number, so the run's keys win there and the field's text stays as it was.
        if (event.type() == QEvent.Type.ShortcutOverride
                and isinstance(watched, QAbstractSpinBox) and event.key() in RUN_KEYS
                and event.modifiers() == Qt.KeyboardModifier.NoModifier):
            return True
        return False

    def _hovered(self, x: float, y: float) -> None:
        """The status bar says the place under the cursor and what f is made of there; the
        canvas rings the points of f's largest terms, and its tooltip lists them."""
        line = hover_text(self.last_frame, self.points, self.canvas.axis_names, x, y)
        terms = hover_terms(self.last_frame, self.points, x, y)
        point = point_words(self.last_frame, self.points, self.canvas.hovered_point)
        tip = "" if terms is None else terms.tip
        if point:       # the cursor on a point: what it does in f, before f's terms (the
            line += "   " + point     # line is cut at the bar's end), last in the tooltip
            tip += "\n" + point
        if terms is not None:
            line += "   " + terms.line
        self.canvas.setToolTip(tip)
        self.canvas.show_terms(np.empty((0, 2)) if terms is None else terms.where)
        self.notices.say(line)

    # -- shutdown -------------------------------------------------------------------------
    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._placed:                 # the first show: the frame is known now
            self._placed = True
            QTimer.singleShot(0, lambda: keep_inside(self))

    def closeEvent(self, event) -> None:
        remember(self, self.splitter, self.column_splitter)
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self) -> None:
        """Stop any run and join the worker thread (never leave a QThread running)."""
        self.cross_validation.cancel()
        self.tuner.cancel()
        self.comparison.shutdown()
        self.run.shutdown()
        self.files.finish()                 # unsaved work is kept for the next start
        self.canvas.setToolTip("")          # no tooltip of f's terms outlives the window
        QToolTip.hideText()
