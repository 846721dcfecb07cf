"""What opening a file does to the window, and the session the window holds now: a data
file's points (a wide one asks which two columns to show), a session's points, settings,
view and model, a model drawn over the points. The File menu asks; a file the window cannot
take is a message, and what it shows stays as it was."""
from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QUndoStack

from ...core import MAX_CLASSES
from ...core.kinds import KINDS
from ...drawing.model_frames import model_frame
from ...formats import Session
from ...formats.label_matching import foreign_classes_warning, match_labels
from ...i18n import N_, tr
from ..tasks import MARK
from .columns import ColumnChooser, remember_columns, remembered_columns
from .file_types import range_warning

if TYPE_CHECKING:
    from ...drawing.decision_grid import GridSpec
    from ..document.editing import Editing
    from ..document.work import Work
    from ..training.display import RunDisplay
    from ..training.run import RunController
    from ..widgets.canvas import Canvas
    from ..widgets.notices import Notices
    from ..widgets.panel import SidePanel

# Novelty detection: the class names of a data file whose points are outlier marks (the
# words svmdesk writes, and the one-class SVM's label)
MARK_NAMES = ("outlier", "-1")
# The model's classes (-1 outlier, +1 inlier) as the points' indices (1 a mark, 0 a point)
ONE_CLASS_COLOURS = np.array([MARK, 0])

# What a model of a task other than the points' asks for, by the model's task
OTHER_TASK = {
    "classification": N_("{name} holds a classifier: choose a classification task in the Task "
                         "box first, then open it again."),
    "novelty": N_("{name} holds a one-class SVM (novelty detection): choose Novelty detection "
                  "in the Task box first, then open it again."),
    "regression": N_("{name} holds a regressor: choose a regression task in the Task box "
                     "first, then open it again.")}

# Coordinates the canvas draws and the kernels square without leaving float64 (pyqtgraph
# draws nothing at 1e160; the core refuses squares beyond 1e300)
CANVAS_LIMIT = 1e150


class Opener(QObject):
    def __init__(self, work: Work, undo: QUndoStack, canvas: Canvas, panel: SidePanel,
                 notices: Notices, editing: Editing, run: RunController,
                 run_display: RunDisplay, discard_model: Callable[[], None],
                 grid_spec: Callable[[], GridSpec], parent: QObject | None = None):
        """`discard_model()` stops any run and clears the model drawn; `grid_spec()` is the
        grid of the rectangle the canvas shows."""
        super().__init__(parent)
        self.work, self.points, self.undo = work, work.points, undo
        self.canvas, self.panel, self.notices = canvas, panel, notices
        self.editing, self.run, self.run_display = editing, run, run_display
        self.discard_model, self.grid_spec = discard_model, grid_spec
        self.goals_met: Callable[[], tuple] = tuple   # the exercise's goals the model meets
        self.applying = False        # a file is being applied: no auto-retrain meanwhile
        # the open "which two columns?" dialog of a wide file
        self.column_chooser: ColumnChooser | None = None

    def apply_dataset(self, path, data) -> bool:
        """Show a data file's points. A file of more than two feature columns first asks
        which two the canvas shows (the window stays usable meanwhile; Cancel keeps the
        points it has)."""
        if self._points_locked(path):
            return False
        if len(data.class_names) > MAX_CLASSES:
            self.notices.file_error(tr("{name} has {n} classes; the canvas shows at most "
                                       "{most}.").format(name=Path(path).name,
                                                         n=len(data.class_names),
                                                         most=MAX_CLASSES))
            return False
        names = data.feature_names
        if len(names) == 2:
            self._show_dataset(path, data, (0, 1))
            return True
        chooser = ColumnChooser(Path(path).name, names, remembered_columns(path, names),
                                self.canvas.window())
        chooser.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        chooser.chosen.connect(lambda x, y: self.run.after_run(
            lambda: self._show_dataset(path, data, (x, y))))
        self.column_chooser = chooser
        chooser.open()
        return True

    def _show_dataset(self, path, data, columns: tuple) -> None:
        names, shown = data.feature_names, [data.feature_names[c] for c in columns]
        if self._beyond_the_canvas(Path(path).name, data.X[:, list(columns)]):
            return
        codes = np.asarray(data.y, dtype=np.intp)    # class indices into class_names
        classes = data.class_names
        if self.points.novelty:          # a class of outlier marks, the rest one class
            marks = np.array([c.casefold() in MARK_NAMES for c in classes], dtype=bool)
            codes, classes = np.where(marks[codes], MARK, 0), None
        self.panel.data_box.show_points_source(Path(path).name)
        self.editing.replace_points(data.X[:, list(columns)], codes, classes,
                                    tr("Open {name}").format(name=Path(path).name))
        self.canvas.set_axis_names(shown)
        self.canvas.fit_view()
        message = tr("Opened {path}: {n} points.").format(path=path, n=len(codes))
        if self.points.novelty:
            message = tr("Opened {path}: {n} points, {marks} of them outlier marks (a class "
                         "named outlier or -1); the other classes are points of the one "
                         "class.").format(path=path, n=len(codes),
                                          marks=int((codes == MARK).sum()))
        if len(names) > 2:
            remember_columns(path, names, columns)
            message = tr("Opened {path}: {n} points; the canvas shows {x} and {y} of its "
                         "{columns} feature columns, and trains on them.").format(
                path=path, n=len(codes), x=shown[0], y=shown[1], columns=len(names))
        self.notices.say(message, 10000)

    def _beyond_the_canvas(self, name: str, shown: np.ndarray) -> bool:
        """Whether the coordinates `shown` reach past CANVAS_LIMIT (then said, as the
        file's error)."""
        top = float(np.abs(shown).max(initial=0.0))
        if top <= CANVAS_LIMIT:
            return False
        self.notices.file_error(tr("{name}: its points reach {top}, beyond what the canvas "
                                   "can draw and the kernels can square (about {limit}); "
                                   "divide the columns by a common scale").format(
            name=name, top=f"{top:.2g}", limit=f"{CANVAS_LIMIT:.0e}"))
        return True

    def current_session(self) -> Session:
        X, y, test, _, task = self.points.state()
        (x0, x1), (y0, y1) = self.canvas.view.viewRange()
        evaluation = {**self.run_display.evaluation.state(),
                      "cross_validations": tuple(self.work.cross_validations)}
        session = Session(X=X, y=y, held_out=test,
                          class_names=tuple(self.work.used_class_names()),
                          feature_names=self.canvas.axis_names, settings=self.panel.settings(),
                          view=(x0, x1, y0, y1), model=self.work.fitted, task=task,
                          evaluation=evaluation, tuning=self.work.tuning,
                          comparison=self.work.comparison,
                          exercise=self._exercise_as_done())
        if task == "novelty":
            session = replace(session, y=np.zeros(len(y), dtype=np.intp), outliers=y == MARK)
        elif task == "regression":       # a sample's target is its height on the canvas
            session = replace(session, y=np.zeros(len(y), dtype=np.intp), targets=X[:, 1])
        return session

    def _exercise_as_done(self):
        """The work's exercise, with the goals the model drawn meets (None: none)."""
        exercise = self.work.exercise
        if exercise is None:
            return None
        return replace(exercise, met=self.goals_met() if exercise.goals else None)

    def apply_session(self, session: Session, name: str) -> bool:
        """Show a session's points, settings, view and model. A setting this window cannot
        take, or a model it cannot draw, is an error that changes nothing."""
        problem = session.model is not None and self.model_problem(
            session.model, name, session.class_names, session.task)
        locks = self.work.locks
        if not problem and session.exercise is None and locks:   # an exercise: its own
            problem = (locks.points_refusal(tr("Opening {name}").format(name=name))
                       or locks.settings_refusal(session.settings, name))
        if problem:
            self.notices.file_error(problem)
            return False
        with self._applying_file():
            try:
                self.panel.apply_settings(session.settings)
            except ValueError as e:
                self.notices.file_error(f"{name}: {e}")
                return False
            X, values = _points_of(session)
            self.points.replace(X, values, session.held_out, session.class_names,
                                session.task)
            self.panel.data_box.show_points_source(name)
            self.undo.clear()
            self.canvas.set_axis_names(session.feature_names)
            self.discard_model()
            if session.view is not None:
                x0, x1, y0, y1 = session.view
                self.canvas.view.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)
            else:
                self.canvas.fit_view()
            self.notices.clear_error()
            if session.model is not None:
                self.show_model(session.model, name, own=True)
            self._apply_evaluation(session.evaluation)
            self.work.replace_tuning(session.tuning)
            self.work.replace_comparison(session.comparison)
            if session.exercise is not None:
                self.work.replace_exercise(session.exercise, session.settings)
        opened = tr("Opened {path}: {n} points.").format(path=name, n=len(session.y))
        self.notices.say(" ".join([opened, *session.notes]), 15000)
        return True

    def _apply_evaluation(self, evaluation: dict) -> None:
        """A session's evaluation view and cross-validations (none before version 4)."""
        self.work.cross_validations = list(evaluation.get("cross_validations", ()))
        view = self.run_display.evaluation
        view.show_cv_results(self.work.cross_validations)
        view.apply_state(evaluation)

    def model_problem(self, svc, name: str, class_names=None, task: str | None = None) -> str:
        """Why the canvas cannot draw `svc` over points of these classes ('' if it can): a
        model of another task than the points' (`task`, by default the window's), of a
        number of features the canvas does not draw, of more classes than it shows."""
        kind = svc.model_.kind
        wanted, task = KINDS[kind].task, self.points.task if task is None else task
        if wanted != task:
            return tr(OTHER_TASK[wanted]).format(name=name)
        features = 1 if task == "regression" else 2
        if svc.n_features_in_ != features:
            return (tr("{name} is a regressor of {n} features; the canvas draws regressors of "
                       "1 feature only.") if task == "regression" else
                    tr("{name} is a model of {n} features; the canvas draws models of 2 "
                       "features only.")).format(name=name, n=svc.n_features_in_)
        if task != "classification":
            return ""
        names = self.work.used_class_names() if class_names is None else list(class_names)
        unmatched = int((match_labels([str(c) for c in svc.classes_], names) < 0).sum())
        if len(names) + unmatched > MAX_CLASSES:
            return tr("{name} and these points have {n} classes between them; the canvas "
                      "shows at most {most}.").format(name=name, n=len(names) + unmatched,
                                                      most=MAX_CLASSES)
        return ""

    def show_model(self, svc, name: str, own: bool = False) -> bool:
        """Draw a fitted model over the current points (an opened model file, or with
        `own` a session's model of its own points). Model classes that match the points'
        class names take their colours; others the next free ones."""
        problem = self.model_problem(svc, name) or (
            "" if own else self.work.locks.settings_refusal(
                self.panel.settings_of(svc.get_params(), svc.model_.kind), name))
        if problem:
            self.notices.file_error(problem)
            return False
        X, y, test, _, _ = self.points.state()
        kind = svc.model_.kind
        if KINDS[kind].novelty:
            frame, strangers = model_frame(svc, X, y, self.grid_spec(), ONE_CLASS_COLOURS,
                                           held_out=test | (y == MARK)), ""
        elif self.points.regression:     # a sample's x is the feature, its height the target
            frame, strangers = model_frame(svc, X[:, :1], X[:, 1], self.grid_spec(),
                                           held_out=test), ""
        else:
            frame, strangers = self._classifier_frame(svc, X, y, test)
        params = svc.get_params()
        with self._applying_file():
            notes = self.panel.apply_params(params, kind)   # names what it could not show
        self.discard_model()
        self.work.take_model(svc, params, kind)
        self.panel.readout_box.mark_objective(params["solver"])
        self.panel.readout_box.show_kind(kind)
        self.run_display.show(frame, tr("model from {name}").format(name=name))
        # a session's model was trained on its own points (its held-out points may lie a
        # little outside the training range: no extrapolation worth a warning)
        extrapolation = "" if own else range_warning(svc, X)
        warning = " ".join(filter(None, [strangers, extrapolation, notes]))
        if warning:                          # holds while this model is drawn
            self.notices.error(f"{name}: {warning}", cause=lambda: self.work.fitted is svc)
        return True

    def _classifier_frame(self, svc, X, y, test) -> tuple:
        """(frame, warning) of a classifier over the points: model classes that match the
        points' class names take their colours; others the next free ones (named after
        them); the warning says when the classes look foreign."""
        used = self.work.used_class_names()
        of_model = match_labels(used, svc.classes_)         # data class -> model class
        colours = np.full(len(svc.classes_), -1)
        colours[of_model[of_model >= 0]] = np.flatnonzero(of_model >= 0)
        for k in np.flatnonzero(colours < 0):               # a class these points lack
            colours[k] = len(used)
            self.points.name_class(len(used), str(svc.classes_[k]))
            used.append(str(svc.classes_[k]))
        frame = model_frame(svc, X, y, self.grid_spec(), colours, held_out=test)
        strangers = foreign_classes_warning(used[:len(of_model)], svc.classes_) if len(y) else ""
        return frame, strangers

    def take_task(self, task: str) -> None:
        """The points become points of `task` (an undoable step), in the kind of it the Task
        box chose last."""
        self.editing.choose_kind(self.panel.kind_for(task))

    def apply_samples(self, path, samples) -> bool:
        """Show a regression data file's samples: its first feature along x and its target
        as the height (a file of more features says which one the canvas shows)."""
        X, z, names = samples
        name = Path(path).name
        if self._points_locked(path):
            return False
        if self._beyond_the_canvas(name, np.column_stack([X[:, 0], z])):
            return False
        self.panel.data_box.show_points_source(name)
        self.editing.replace_points(np.column_stack([X[:, 0], z]), np.zeros(len(z), np.intp),
                                    None, tr("Open {name}").format(name=name))
        self.canvas.set_axis_names((names[0], tr("target")))
        self.canvas.fit_view()
        message = tr("Opened {path}: {n} samples.").format(path=path, n=len(z))
        if X.shape[1] > 1:
            message = tr("Opened {path}: {n} samples; the canvas shows and trains on its "
                         "first feature, {x}, of {columns}.").format(
                path=path, n=len(z), x=names[0], columns=X.shape[1])
        self.notices.say(message, 10000)
        return True

    def _points_locked(self, path) -> bool:
        """Whether an exercise fixes the points a data file would replace (then said)."""
        refusal = self.work.locks.points_refusal(
            tr("Opening {name}").format(name=Path(path).name))
        if refusal:
            self.notices.file_error(refusal)
        return bool(refusal)

    @contextlib.contextmanager
    def _applying_file(self):
        """Controls set from a file are not the user's edits: no auto-retrain meanwhile."""
        was, self.applying = self.applying, True
        try:
            yield
        finally:
            self.applying = was


def _points_of(session: Session) -> tuple:
    """(canvas positions, y) of a session's points as the window keeps them (app/tasks.py):
    a regression sample's height is its target."""
    if session.task == "regression":
        return (np.column_stack([session.X[:, 0], session.per_point()]),
                np.zeros(len(session.X), dtype=np.intp))
    if session.task == "novelty":
        return session.X, np.where(session.per_point(), MARK, 0)
    return session.X, session.y
