"""The window's File menu: open anything, sessions, models, pictures, recent files, drag and
drop, autosave and the offer to restore what an earlier window left.

It talks to the document (document/work.py: the points, the model, the session file), the
notices (widgets/notices.py), the opener (opening.py: what a file opened does to the window,
and the session the window holds) and the canvas it draws pictures of; never to the window's
own methods. Every write is atomic; a file that cannot be read or written is a message, and
what the window shows stays as it was. The writes themselves are writing.py's, the picture
options dialog picture_options.py's, the restore bar recovery.py's.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtWidgets import QMainWindow, QMenu, QWidget

from ...core import DataError, Dataset
from ...core.kinds import KINDS
from ...core.training_job import Job
from ...formats import export_libsvm, save_dataset, save_model
from ...formats.atomic import write_atomic
from ...formats.exercise import Exercise
from ...formats.run_script import write_script
from ...formats.session import SUFFIX, Session, save_session
from ...formats.targets import save_targets
from ...i18n import N_, tr
from ...resources import WINDOW_EXAMPLES, Example, example_path
from ..actions import make_action
from ..background import in_background
from ..settings import app_settings
from ..widgets import pictures
from ..widgets.exercise_form import ExerciseForm
from .autosave import Autosave
from .dialogs import OPEN, SAVE, ask, ask_path
from .file_types import (
    DATA_SUFFIXES,
    RecentFiles,
    data_files,
    model_files,
    open_files,
    read_document,
    session_files,
)
from .opening import Opener
from .picture_options import PICTURE_FILES, PictureOptions
from .recovery import leftover_question, recovery_bar, still_there
from .writing import with_suffix, write_file

if TYPE_CHECKING:
    from ..document.work import Work
    from ..training.run import RunController
    from ..widgets.canvas import Canvas
    from ..widgets.notices import Notices

NOVELTY_CLASSES = ("inlier", "outlier")   # a novelty point set's classes in a data file


TABLE_FILES = N_("CSV table (*.csv)")


class FileActions(QObject):
    def __init__(self, window: QMainWindow, menu: QMenu, work: Work, opener: Opener,
                 canvas: Canvas, run: RunController, notices: Notices):
        """`window`: the parent of its dialogs and what Quit closes, nothing more."""
        super().__init__(window)
        self.window = window
        self.notices, self.work = notices, work
        self.opener, self.canvas, self.run = opener, canvas, run
        self._request = 0                      # the newest open request: older ones lose
        self.dialog: QWidget | None = None     # the dialog last opened (it may be open)
        self.autosave = Autosave(self._autosaved_session, self)
        self.autosave.failed.connect(self._autosave_failed)
        self.work.edited.connect(self.autosave.mark_dirty)
        self.work.saved.connect(self.autosave.mark_saved)
        self._build_menu(menu)
        self.recent = RecentFiles(app_settings(), self.recent_menu, self.open)
        self.recovery_bar: QWidget | None = None
        self.make_job: Callable[[], Job] = _no_job   # the window's run now (the window's)
        if self.autosave.leftovers:
            self._offer_recovery()

    # -- menu -----------------------------------------------------------------------------
    def _build_menu(self, menu) -> None:
        w = self.window
        add = lambda text, keys, slot: menu.addAction(make_action(w, text, keys, slot))  # noqa
        add(tr("&Open…"), "Ctrl+O", self.choose_and_open)
        self.recent_menu = menu.addMenu(tr("Open &recent"))
        self.examples_menu = menu.addMenu(tr("E&xamples"))
        for example in WINDOW_EXAMPLES:
            self.examples_menu.addAction(make_action(
                w, tr(example.title), "", lambda _=False, e=example: self.open_example(e)))
        menu.addSeparator()
        add(tr("&Save session"), "Ctrl+S", self.save)
        add(tr("Save session &as…"), "Ctrl+Shift+S", self.save_as)
        add(tr("Sa&ve as exercise…"), "", self.save_as_exercise)
        add(tr("Save &points as…"), "", self.choose_points_path)
        menu.addSeparator()
        add(tr("Save &model…"), "", self.choose_model_path)
        add(tr("&Export model for LIBSVM…"), "Ctrl+E", self.choose_export_path)
        add(tr("Expor&t Python script…"), "", self.choose_script_path)
        menu.addSeparator()
        add(tr("Save p&icture…"), "Ctrl+Shift+P", self.choose_picture)
        add(tr("&Copy picture"), "Ctrl+Shift+C", self.copy_picture)
        menu.addSeparator()
        # Ctrl+Q itself: the platform's standard Quit key is none on some (offscreen, and
        # desktops whose theme names none), where the page's keys then lacked it
        add(tr("&Quit"), "Ctrl+Q", w.close)

    # -- opening --------------------------------------------------------------------------
    def choose_and_open(self) -> None:
        self.dialog = ask_path(self.window, tr("Open a session, model or data"),
                               self._folder(), open_files(), OPEN, self.open)

    def open(self, path, remember: bool = True, quiet: bool = False) -> None:
        """Open a data, session or model file, read off the GUI thread (inline when no
        event loop runs). When several opens overlap, the last one asked for wins.
        `remember`: list it among the recent files (whose folder the save dialogs open in);
        `quiet`: a refusal is the banner alone (a file named on the command line: no work
        on screen yet for a dialog to return to)."""
        self._request += 1
        request, task = self._request, self.work.points.task     # a data file is read for it
        in_background(lambda: _read_or_error(path, task),
                      lambda result: self._apply(result, request, remember, quiet),
                      lambda e: self._apply(tr("cannot open {path}: {reason}")
                                            .format(path=path, reason=e), request,
                                            quiet=quiet))

    def open_example(self, example: Example) -> None:
        """An example data set or exercise, as any file is opened, but kept out of the
        recent files and unnamed: the save dialogs must not offer the installed package's
        folder, nor Ctrl+S overwrite it. The window takes the example's task first (an
        undoable step) if it does another."""
        if example.task != self.work.points.task:
            self.opener.take_task(example.task)
            if example.task != self.work.points.task:     # refused (an exercise's lock)
                return
        self.open(example_path(example), remember=False)

    def _apply(self, result, request: int, remember: bool = True, quiet: bool = False
               ) -> None:
        """`quiet`: a refusal is the banner alone (open)."""
        if request != self._request:
            return                                      # a newer open superseded this one
        if isinstance(result, str):
            with self.notices.banner_only(quiet):
                self.notices.file_error(result)
            return
        self.run.after_run(lambda: self._apply_now(result, remember, quiet))

    def _apply_now(self, opened, remember: bool = True, quiet: bool = False) -> None:
        with self.notices.banner_only(quiet):      # the opener's refusals too
            self._show_opened(opened, remember)

    def _show_opened(self, opened, remember: bool) -> None:
        o, name = self.opener, opened.path.name
        self.notices.clear_error()              # an earlier problem is not this file's
        try:
            if opened.file_type == "data":
                done = o.apply_dataset(opened.path, opened.value)
            elif opened.file_type == "samples":
                done = o.apply_samples(opened.path, opened.value)
            elif opened.file_type == "session":
                done = o.apply_session(opened.value, name)
            else:
                done = o.show_model(opened.value, name)
        except Exception as e:  # noqa: BLE001 - a file we read but cannot show
            self.notices.file_error(tr("{name} could not be shown: {error}").format(
                name=name, error=f"{type(e).__name__}: {e}"))
            return
        if done:
            if remember:
                self.recent.add(opened.path)
            if opened.file_type == "session" and remember:
                self.work.name_session(opened.path)
                self.work.mark_saved()
            elif opened.file_type == "session":   # an example exercise: Ctrl+S asks where
                self.work.detach()                # (never over the installed file)
                self.work.mark_saved()
            else:
                self.work.mark_changed()

    # -- drag and drop ---------------------------------------------------------------------
    def accepts(self, mime) -> bool:
        return any(url.isLocalFile() for url in mime.urls())

    def drop(self, mime) -> None:
        files = [url.toLocalFile() for url in mime.urls() if url.isLocalFile()]
        if files:
            self.open(files[0])

    # -- saving ---------------------------------------------------------------------------
    def save(self) -> None:
        if self.work.session_path is None:
            self.save_as()
        else:
            self.save_session_to(self.work.session_path)

    def save_as(self) -> None:
        self._ask_save(tr("Save session"), session_files(),
                       self.work.session_path.name if self.work.session_path
                       else f"session{SUFFIX}", self.save_session_to)

    def save_session_to(self, path) -> bool:
        path = with_suffix(path, SUFFIX)
        session = self.opener.current_session()         # as it is now, on the GUI thread

        def saved() -> None:
            self.work.name_session(path)
            self.recent.add(path)
            self.work.mark_saved()

        return write_file(self.notices, lambda: save_session(session, path), path, saved)

    def save_as_exercise(self) -> None:
        """The work as an exercise a teacher hands out: the form (title, instructions,
        what it fixes, its goals), then where to save it."""
        panel = self.opener.panel
        form = ExerciseForm(panel.lockable(), panel.points_made(), self.work.exercise,
                            self.window)
        self.dialog = ask(form, lambda: self._ask_exercise_path(form.exercise()))

    def _ask_exercise_path(self, exercise: Exercise) -> None:
        self._ask_save(tr("Save exercise"), session_files(), f"exercise{SUFFIX}",
                       lambda path: self.save_exercise_to(path, exercise))

    def save_exercise_to(self, path, exercise: Exercise) -> bool:
        """The points and settings as they are, with `exercise`: no model (the students
        train their own) and none of the teacher's evaluations, maps or comparisons. The
        work itself stays as it was (the teacher's controls are not locked)."""
        path = with_suffix(path, SUFFIX)
        session = replace(self.opener.current_session(), exercise=exercise, model=None,
                          evaluation={}, tuning=None, comparison=None)
        return write_file(self.notices, lambda: save_session(session, path), path)

    def choose_points_path(self) -> None:
        self._ask_save(tr("Save points"), data_files(), "points.csv", self.save_points_to)

    def save_points_to(self, path) -> bool:
        path = Path(path)
        if path.suffix.lower() not in DATA_SUFFIXES:
            path = with_suffix(path, ".csv")
        s = self.opener.current_session()
        if s.task == "regression":       # the feature, then the target (its canvas height)
            return write_file(self.notices, lambda: save_targets(s.X[:, :1], s.per_point(),
                                                                 s.feature_names, path),
                              Path(path))
        if s.task == "novelty":          # the marks as a class "outlier": a reopen marks them
            data = Dataset(X=s.X, y=s.per_point().astype(np.intp), class_names=NOVELTY_CLASSES,
                           feature_names=s.feature_names)
        else:
            data = Dataset(X=s.X, y=s.y, class_names=s.class_names,
                           feature_names=s.feature_names)
        return write_file(self.notices, lambda: save_dataset(data, path), Path(path))

    def choose_model_path(self) -> None:
        if self._fitted() is not None:
            self._ask_save(tr("Save model"), model_files(), "model.json", self.save_model_to)

    def save_model_to(self, path) -> bool:
        svc = self._fitted()
        path = with_suffix(path, ".json")
        return svc is not None and write_file(self.notices, lambda: save_model(svc, path),
                                              path)

    def choose_export_path(self) -> None:
        if self._fitted() is not None:
            self._ask_save(tr("Export model for LIBSVM"), tr("LIBSVM model ({patterns})")
                           .format(patterns="*.model"),
                           "model.model", self.export_to)

    def export_to(self, path) -> bool:
        svc = self._fitted()
        path = with_suffix(path, ".model")
        return svc is not None and write_file(self.notices,
                                              lambda: export_libsvm(svc, path), path)

    def choose_script_path(self) -> None:
        if self._fitted() is not None:
            self._ask_save(tr("Export Python script"), tr("Python script ({patterns})")
                           .format(patterns="*.py"), "svmdesk_run.py", self.script_to)

    def script_to(self, path) -> bool:
        """A script that trains the model drawn again, as the window's run did: its
        parameters, the training and held-out points now (an edit since would have taken
        the model away), every step iterated."""
        svc, path = self._fitted(), with_suffix(path, ".py")
        try:
            job = self.make_job()
        except ValueError as e:            # RunRefused: the points cannot be trained
            self.notices.error(str(e))
            return False
        params = self.work.trained_params
        if svc is None or params is None:
            return False
        estimator = KINDS[self.work.trained_kind].estimator(**params)
        novelty = KINDS[self.work.trained_kind].novelty
        y = None if novelty else job.training_labels()
        y_test = None if novelty else (job.y_test if job.labels is None
                                       else np.asarray(job.labels)[job.y_test])
        title = tr("svmdesk's run of {name}").format(
            name=self.work.session_path.name if self.work.session_path else tr("the window"))
        return write_file(self.notices, lambda: write_script(
            path, estimator, job.X, y, job.X_test, y_test, "iter_fit", title), path)

    def _fitted(self):
        svc = self.work.fitted
        if svc is None:
            self.notices.error(tr("There is no model yet: train one (F5) or open a model "
                                  "file first."))
        return svc

    # -- pictures -------------------------------------------------------------------------
    def default_width(self) -> int:
        """Twice the canvas's size on screen, in device pixels."""
        return int(round(2 * self.canvas.width() * self.canvas.devicePixelRatioF()))

    def choose_picture(self) -> None:
        options = PictureOptions(self.default_width(), self.caption(), self.window)

        def where(width: int, caption: str) -> None:
            self._ask_save(tr("Save picture"), tr(PICTURE_FILES), "svmdesk.png",
                           lambda path: self.save_picture_to(path, width, caption))

        # the options dialog is deleted once it closes: read its answers as it is accepted
        self.dialog = ask(options, lambda: where(options.width_box.value(),
                                                 options.caption_text()))

    def save_picture_to(self, path, width: int, caption: str = "") -> bool:
        path = Path(path)
        if path.suffix.lower() not in pictures.FORMATS:
            path = with_suffix(path, ".png")
        return write_file(self.notices,
                          lambda: pictures.save_picture(self.canvas, path, width, caption),
                          path, on_gui_thread=True)         # it paints the canvas

    def choose_evaluation_picture(self, view) -> None:
        """Ask where to save a picture of the evaluation view, then write the figure
        view.figure(width) makes of it (as wide as a picture of the canvas)."""
        if view.evaluation is None:
            self.notices.error(tr("There is nothing to evaluate yet: train a model (F5) "
                                  "first."))
            return
        self.choose_figure(tr("Save the evaluation as a picture"), "evaluation.png",
                           view.figure)

    def choose_figure(self, title: str, name: str, figure_of) -> None:
        """Ask where to save a picture (`name` suggested), then write the figure
        figure_of(width) makes, as wide as a picture of the canvas (None: nothing to
        draw, said)."""
        width = self.default_width()
        self._ask_save(title, tr(PICTURE_FILES), name,
                       lambda path: self.save_figure_to(path, figure_of, width))

    def save_figure_to(self, path, figure_of, width: int) -> bool:
        path = Path(path)
        if path.suffix.lower() not in pictures.FORMATS:
            path = with_suffix(path, ".png")

        def write() -> None:
            figure = figure_of(width)
            if figure is None:
                raise ValueError(tr("there is nothing to draw yet"))
            # laid out without a window on the screen, as the exporter needs its size
            figure.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
            figure.show()
            try:
                pictures.save_picture(figure, path, width)
            finally:
                figure.close()
                figure.deleteLater()

        return write_file(self.notices, write, path, on_gui_thread=True)

    def choose_table(self, title: str, name: str, text_of) -> None:
        """Ask where to save a table (`name` suggested), then write the CSV text_of()
        gives (None: no table yet, said)."""
        self._ask_save(title, tr(TABLE_FILES), name,
                       lambda path: self.save_table_to(path, text_of))

    def save_table_to(self, path, text_of) -> bool:
        path = with_suffix(path, ".csv")
        text = text_of()
        if text is None:
            self.notices.error(tr("There is no table to save yet."))
            return False
        return write_file(self.notices, lambda: write_atomic(path, text), path)

    def caption(self) -> str:
        """The suggested caption of a picture of what the canvas shows."""
        return pictures.caption(self.work, self.canvas.frame)

    def copy_picture(self) -> None:
        pictures.copy_to_clipboard(self.canvas, self.default_width(), self.caption())
        self.notices.say(tr("Picture copied to the clipboard."), 4000)

    # -- autosave and what earlier windows left ---------------------------------------------
    def _offer_recovery(self) -> None:
        self.recovery_bar, self.recovery_text = recovery_bar(self.restore,
                                                             self.discard_recovery)
        # (the window shows the bar above the canvas)
        self._show_next_leftover()

    def _show_next_leftover(self) -> None:
        leftovers = self.autosave.leftovers
        bar = self.recovery_bar
        assert bar is not None, "built by _offer_recovery before any leftover is shown"
        if not leftovers:
            bar.hide()
            return
        self.recovery_text.setText(leftover_question(leftovers))
        bar.show()

    @Slot()
    def restore(self) -> None:
        leftover = self.autosave.leftovers[0]
        result = _read_or_error(leftover.path)
        if isinstance(result, str):
            self.notices.file_error(tr("The session could not be restored: {reason}")
                                    .format(reason=result))
            return
        self.run.after_run(lambda: self._restore_now(leftover, result))

    def _autosaved_session(self) -> Session:
        """What the autosave keeps: the work as it is, and the session file it belongs to
        (absolute: the next start may run in another folder), which a restore names again.
        A session saved by the user never records its own path: only the autosave does."""
        session = self.opener.current_session()
        path = self.work.session_path
        return session if path is None else replace(session, session_file=path.absolute())

    def _restore_now(self, leftover, opened) -> None:
        session = opened.value
        if self.opener.apply_session(session, tr("the restored session")):
            self.discard_recovery()
            said = tr("Restored the session.")
            path = session.session_file
            if path is not None:
                # It is that file's work again, with changes the file does not hold: the title
                # names it, marked modified, and Ctrl+S writes there without asking. A file
                # deleted or moved since is written again where it was.
                self.work.name_session(path)
                said = (tr("Restored {name} with changes it does not hold yet: Ctrl+S "
                           "saves them there.") if still_there(path) else
                        tr("Restored {name}; the file is no longer in {folder}: Ctrl+S saves "
                           "it there again, or choose Save session as….")
                        ).format(name=path.name, folder=path.parent)
            self.work.mark_changed()            # it is this window's work now
            self.autosave.save_now()
            self.notices.say(" ".join([said, *session.notes]), 15000)

    @Slot()
    def discard_recovery(self) -> None:
        """Forget the session offered, and offer the next one if there is one."""
        self.autosave.leftovers.pop(0).discard()
        self._show_next_leftover()

    @Slot(str)
    def _autosave_failed(self, message: str) -> None:
        self.notices.say(message, 10000)

    def finish(self) -> None:
        self.autosave.finish()

    # -- helpers --------------------------------------------------------------------------
    def _ask_save(self, title: str, filters: str, name: str, then) -> None:
        """Ask where to save (the save methods add a missing extension), then(path). The
        dialog opens in the folder of the newest recent file, on a suggested name."""
        suggested = str(Path(self._folder()) / name)
        self.dialog = ask_path(self.window, title, suggested, filters, SAVE, then)

    def _folder(self) -> str:
        if self.work.session_path is not None:
            return str(self.work.session_path.parent)
        recent = self.recent.paths() if hasattr(self, "recent") else []
        return str(Path(recent[0]).parent) if recent else str(Path.home())


def _no_job() -> Job:
    raise ValueError("no window gave its job")


def _read_or_error(path, task: str = "classification"):
    """An Opened document (a data file read for `task`), or the message to show (runs off
    the GUI thread)."""
    try:
        return read_document(path, task)
    except DataError as e:
        return str(e)
    except OSError as e:
        return tr("cannot open {path}: {reason}").format(path=path, reason=e.strerror or e)
