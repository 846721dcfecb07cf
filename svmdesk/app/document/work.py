"""The document the window edits: the points (with their classes and held-out flags), the
model drawn over them with the parameters it was trained with, the session file they were
opened from or saved to, and whether they have changes not saved there."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal

from ...core.kinds import C_SVC
from ...formats.comparison_record import ComparisonRecord
from ...formats.exercise import Exercise
from ...formats.session import CVRecord
from ...formats.tuning_map import TuningMap
from ...i18n import N_, tr
from .locks import Locks
from .point_set import PointSet

TITLE = N_("svmdesk — watch a support vector machine learn")


class Work(QObject):
    title_changed = Signal(str)      # what the window's title says ("[*]": unsaved marker)
    modified_changed = Signal(bool)  # changes not saved to the session file
    edited = Signal()                # the work changed (the autosave keeps it)
    saved = Signal()                 # the work is saved in its session file
    tuning_replaced = Signal()       # a session's C-gamma map replaced the one shown
    comparison_replaced = Signal()   # a session's comparison replaced the one shown
    exercise_replaced = Signal()     # an exercise opened (or none: the work left it)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.points = PointSet(self)
        self.fitted = None             # the SVC drawn: last trained, or opened from a file
        self.trained_params = None     # the parameters it was trained with (for captions)
        self.trained_kind = C_SVC.key  # the kind of machine they are of (kinds.KINDS)
        self.session_path = None       # where Ctrl+S saves without asking
        self.cross_validations: list[CVRecord] = []   # run over these points, oldest first
        self.tuning: TuningMap | None = None   # the Tune panel's C-gamma map
        self.comparison: ComparisonRecord | None = None   # Compare solvers' last
        self.exercise: Exercise | None = None    # the exercise this work is on
        self.locks = Locks()                     # what it fixes

    def replace_tuning(self, tuning: TuningMap | None) -> None:
        """A session's map (None: none) replaces the one shown."""
        self.tuning = tuning
        self.tuning_replaced.emit()

    def replace_comparison(self, comparison: ComparisonRecord | None) -> None:
        """A session's comparison (None: none) replaces the one shown."""
        self.comparison = comparison
        self.comparison_replaced.emit()

    def replace_exercise(self, exercise: Exercise | None, settings: dict) -> None:
        """A session's exercise (None: none) is the work's now, its locks at the session's
        `settings`."""
        self.exercise, self.locks = exercise, Locks(exercise, settings)
        self.exercise_replaced.emit()

    def used_class_names(self) -> list:
        """The class names the points use (two at least: a click adds class 2)."""
        y = self.points.y
        if self.points.task != "classification":  # no classes: their names wait for a return
            return []
        return list(self.points.class_names[:max(2, int(y.max()) + 1 if len(y) else 0)])

    def take_model(self, svc, params, kind: str) -> None:
        self.fitted, self.trained_params, self.trained_kind = svc, params, kind

    def name_session(self, path) -> None:
        """Ctrl+S saves here from now on; the title says which session this is (with a *
        while it has unsaved changes)."""
        self.session_path = Path(path)
        self.title_changed.emit(f"{self.session_path.name}[*] — svmdesk")

    def detach(self) -> None:
        """The points were replaced (a data file, a generator): this is no longer the
        session on disk, and Ctrl+S must ask where to save rather than overwrite it."""
        if self.session_path is not None:
            self.session_path = None
            self.title_changed.emit(tr(TITLE))

    def mark_changed(self) -> None:
        """The work changed: the autosave keeps it, and a named session's title marks it."""
        self.edited.emit()
        if self.session_path is not None:       # only a named session's title has a [*]
            self.modified_changed.emit(True)

    def mark_saved(self) -> None:
        self.saved.emit()
        self.modified_changed.emit(False)
