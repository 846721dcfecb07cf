"""Session files (.svmdesk): the points, their classes, the panel's settings and the model.

A session is what a student reopens next week on another laptop: one JSON document, data
only, written atomically and checked field by field on load like a model file.

Format, version 7::

    {"format": "svmdesk-session", "version": 7,
     "task": "classification", "novelty" or "regression",
     "points": {"x": [[x1, x2], ...], "held_out": [bool, ...], and by task:
                "class": [index, ...] (classification), "outlier": [bool, ...] (novelty: a
                mark the model never sees), "target": [number, ...] (regression)},
     "class_names": [names, one per class index] (classification; [] otherwise),
     "feature_names": [two names],
     "settings": {name: number, string, bool or null, ...} (the window's controls),
     "view": [x_min, x_max, y_min, y_max] or null,
     "model": a model document (see model_json) or null,
     "evaluation": {"threshold": number, "scale": "f" or "P", "class": name or null,
                    "row_shares": bool,
                    "cross_validations": [{"settings": text, "metric": "accuracy" or "R²",
                                           "folds": k, "seed": integer,
                                           "scores": [k numbers]}, ...]}   (optional)
     "tuning": the Tune panel's C-gamma map (see tuning_map)   (optional, version 5)
     "comparison": the Compare solvers window's last comparison (see comparison_record)
                   (optional, version 6)
     "exercise": the exercise the session is, or a student's work on (see exercise)
                 (optional, version 7)
     "session_file": "/absolute/path/of/lab.svmdesk"}     (autosaves only, optional)

`evaluation` is the evaluation view's state: its decision threshold, on f(x) or (a
two-class model with probabilities) on P(class | x) as `scale` says, the class it applies
to (three or more classes), whether the matrices show row shares, and the
cross-validations run, oldest first. Version 3 had none: its sessions open with the
threshold at 0 and no cross-validation. Version 4 had no `tuning`, version 5 no
`comparison`, version 6 no `exercise`.

`session_file` is written by the autosave alone (a saved session never records where it
lies): the session file the autosaved work belongs to, so that a restored autosave saves
there again. It is optional, and an autosave without it (an older svmdesk's) restores
unnamed. A value that is not an absolute path (damage) is ignored, never an error: the
points are what a restore must not lose. A path that is not valid UTF-8 (a Linux file name's
stray bytes) is written with JSON escapes, so that it comes back exactly.

The model's classes are the labels of the class names (`class_labels`); its kind is the
task's (a classifier, a one-class model, a regressor). Version 2 had no task: its sessions
are classification. Version 1 is read too: the window of that time trained on class
indices, so a version 1 model whose classes are indices 0..k-1 gets its labels back
(`relabelled`), and the session says so in `notes`.
"""
from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core.catalog import MAX_CLASSES
from ..core.datasets import class_labels
from ..core.errors import DataError
from ..core.estimators import TableEstimator
from ..core.kinds import CLASSIFICATION, KINDS, NOVELTY, REGRESSION
from ..i18n import N_, tr
from .atomic import StrPath, write_atomic
from .checked_json import SESSION_FILE, Checker, describe, read_json
from .comparison_record import ComparisonRecord, comparison_document, read_comparison
from .exercise import POINTS, Exercise, exercise_document, read_exercise
from .model_json import model_document
from .model_json_reading import model_from_document
from .relabelling import relabelled
from .tuning_map import TuningMap, read_tuning, tuning_document

FORMAT = "svmdesk-session"
VERSION = 7                   # 3: "task", and the points' targets or outlier marks;
                              # 4: "evaluation" (optional); 5: "tuning" (optional);
                              # 6: "comparison" (optional); 7: "exercise" (optional)
LEGACY_VERSION = 1            # models trained on class indices
TASKS = (CLASSIFICATION, NOVELTY, REGRESSION)
SUFFIX = ".svmdesk"
MAX_BYTES = 200 * 2**20
_KEYS = ("format", "version", "points", "class_names", "feature_names", "settings", "view",
         "model")
_OPTIONAL_KEYS = ("session_file", "evaluation", "tuning", "comparison", "exercise")
METRICS = ("accuracy", "R²")  # what a cross-validation scored
SCALES = ("f", "P")           # what the evaluation's threshold is on
MOST_FOLDS = 1000
_POINT_KEY = {"classification": "class", "novelty": "outlier", "regression": "target"}
MAX_PATH_CHARS = 32767        # the longest path any system svmdesk runs on takes (Windows)
# Checker.array's sentences for the lists of a session
_POINTS = N_("{field} has {n} points but {length} are needed")
_NAMES = N_("{field} has {n} names but {length} are needed")
_CLASSES = N_("{field} has {n} classes (one per point) but {length} are needed")
_FLAGS = N_("{field} has {n} flags (one per point) but {length} are needed")
_TARGETS = N_("{field} has {n} targets (one per point) but {length} are needed")
_VIEW = N_("{field} has {n} numbers (x_min, x_max, y_min, y_max) but {length} are needed")


@dataclass(frozen=True)
class CVRecord:
    """One cross-validation as the window shows it and a session keeps it."""

    settings: str            # the settings it judged, in words (pictures.settings_parts)
    metric: str              # "accuracy" or "R²"
    folds: int
    seed: int
    scores: tuple            # one per fold
    # what the training points were (a digest; None: not known, as for a record read from
    # a file): the window marks a result of other points. Not kept in a session.
    points: str | None = field(default=None, compare=False)

    @property
    def mean(self) -> float:
        return float(np.mean(self.scores))

    @property
    def std(self) -> float:          # the population's, as CVResult's and scikit-learn's
        return float(np.std(self.scores))


@dataclass(frozen=True)
class Session:
    X: np.ndarray                           # (n, 2) points
    y: np.ndarray                           # (n,) class indices into class_names
                                            # (classification; zeros otherwise)
    held_out: np.ndarray                    # (n,) bool: kept out of training (test points)
    class_names: tuple                      # () for novelty and regression
    feature_names: tuple = ("x1", "x2")
    settings: dict = field(default_factory=dict)
    view: tuple | None = None            # (x_min, x_max, y_min, y_max)
    model: TableEstimator | None = None  # a fitted estimator of the task's kind
    notes: tuple = ()                       # what was repaired on reading, for the user
    session_file: Path | None = None        # autosaves only: the session file of this work
    task: str = "classification"            # TASKS
    targets: np.ndarray | None = None       # (n,) regression: each point's target
    outliers: np.ndarray | None = None      # (n,) bool novelty: marked, never trained on
    evaluation: dict = field(default_factory=dict)   # the evaluation view's state (above)
    tuning: TuningMap | None = None         # the Tune panel's map
    comparison: ComparisonRecord | None = None   # the Compare solvers window's last
    exercise: Exercise | None = None        # the exercise it is (or a student's work on)

    def per_point(self) -> np.ndarray:
        """What each point is in the task: its class index, outlier mark or target."""
        values = {"classification": self.y, "novelty": self.outliers,
                  "regression": self.targets}[self.task]
        if values is None:
            raise ValueError(tr("a {task} session needs its points' values").format(
                task=self.task))
        return values


def session_document(session: Session) -> dict:
    """The JSON document of a session (plain dicts, lists, numbers, strings)."""
    X = np.asarray(session.X, dtype=np.float64).reshape(-1, 2)
    if not np.isfinite(X).all():
        raise DataError(tr("cannot save this session: a point has a NaN or infinite coordinate"))
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "task": session.task,
        "points": {"x": _listed(X),
                   _POINT_KEY[session.task]: _listed(_point_values(session)),
                   "held_out": _listed(np.asarray(session.held_out, dtype=bool))},
        "class_names": [str(c) for c in session.class_names],
        "feature_names": [str(c) for c in session.feature_names],
        "settings": dict(session.settings),
        "view": None if session.view is None else [float(v) for v in session.view],
        "model": None if session.model is None else model_document(session.model),
    }
    if session.evaluation:
        doc["evaluation"] = _evaluation_document(session.evaluation)
    if session.tuning is not None:
        doc["tuning"] = tuning_document(session.tuning)
    if session.comparison is not None:
        doc["comparison"] = comparison_document(session.comparison)
    if session.exercise is not None:
        doc["exercise"] = exercise_document(session.exercise)
    if session.session_file is not None:
        doc["session_file"] = str(session.session_file)
    return doc


def _evaluation_document(evaluation: dict) -> dict:
    chosen = evaluation.get("class")
    return {"threshold": float(evaluation.get("threshold", 0.0)),
            "scale": str(evaluation.get("scale", "f")),
            "class": None if chosen is None else str(chosen),
            "row_shares": bool(evaluation.get("row_shares", False)),
            "cross_validations": [
                {"settings": str(r.settings), "metric": str(r.metric), "folds": int(r.folds),
                 "seed": int(r.seed), "scores": [float(v) for v in r.scores]}
                for r in evaluation.get("cross_validations", ())]}


def _point_values(session: Session) -> np.ndarray:
    """The task's value of every point as the file holds it."""
    values = session.per_point()
    if session.task == "regression":
        targets = np.asarray(values, dtype=np.float64)
        if not np.isfinite(targets).all():
            raise DataError(tr("cannot save this session: a point has a NaN or infinite "
                               "target"))
        return targets
    return np.asarray(values, dtype=bool if session.task == "novelty" else np.int64)


def session_text(session: Session, between: Callable[[], None] | None = None) -> str:
    """The file's text: one top-level key per line, so that a diff of two sessions reads.

    It is made in pieces, each a short C call; `between()`, when given, is called after
    each (a writer beside the window rests there)."""
    pieces = []
    try:
        for piece in _pieces(session):
            pieces.append(piece)
            if between is not None:
                between()
    except ValueError as e:
        raise DataError(tr("cannot save this session: {error}").format(error=e)) from None
    return "".join(pieces)


def _pieces(session: Session):
    doc = session_document(session)
    yield "{\n"
    for i, (key, value) in enumerate(doc.items()):
        yield (",\n" if i else "") + f"  {json.dumps(key)}: "
        yield from _json_pieces(value)
    yield "\n}\n"


# Long arrays are listed and written in pieces of this many items. One C call over 20,000
# points holds the GIL for 25 ms (2,000: 1.6 ms), and the autosave runs beside the window
# and the solver: between two pieces the other threads get their turn.
PIECE = 500


def _listed(values: np.ndarray) -> list:
    """values.tolist(), a piece at a time."""
    return [item for start in range(0, len(values), PIECE)
            for item in values[start:start + PIECE].tolist()]


def _json_pieces(value):
    """json.dumps(value) (NaN refused), in pieces of at most PIECE list items."""
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        yield "{"
        for i, (key, item) in enumerate(value.items()):
            yield (", " if i else "") + f"{json.dumps(key, ensure_ascii=False)}: "
            yield from _json_pieces(item)
        yield "}"
    elif isinstance(value, list) and len(value) > PIECE:
        yield "["
        for start in range(0, len(value), PIECE):
            piece = json.dumps(value[start:start + PIECE], allow_nan=False, ensure_ascii=False)
            yield (", " if start else "") + piece[1:-1]
        yield "]"
    elif isinstance(value, str) and not _utf8(value):
        yield json.dumps(value)          # lone surrogates (a file name's stray bytes): escaped
    else:
        yield json.dumps(value, allow_nan=False, ensure_ascii=False)


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def save_session(session: Session, path: StrPath,
                 between: Callable[[], None] | None = None) -> Path:
    """Write `session` to `path` atomically; returns the path. `between`: session_text's."""
    path = Path(path)
    write_atomic(path, session_text(session, between))
    return path


def load_session(path: StrPath) -> Session:
    """The session in `path`. A damaged or foreign file raises DataError naming the file
    and the field, and nothing is half-loaded."""
    path = Path(path)
    return session_from_document(read_json(path, SESSION_FILE, MAX_BYTES), path.name)


def session_from_document(doc: object, name: str) -> Session:
    return _Reader(name).session(doc)


class _Reader(Checker):
    def session(self, doc) -> Session:
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            found = doc.get("format") if isinstance(doc, dict) else None
            self.fail("", tr("{field} is not a svmdesk session file (it is a model file: open it "
                             "as a model)") if found == "svmdesk-model" else
                      tr("{field} is not a svmdesk session file"))
        version = self.integer(doc.get("version"), "version")
        if not LEGACY_VERSION <= version <= VERSION:
            self.fail("version", tr("{field} is {version}; this svmdesk reads session versions "
                                    "{legacy} and {current} (a newer svmdesk wrote it?)"),
                      version=version, legacy=LEGACY_VERSION, current=VERSION)
        self.obj(doc, "", _KEYS + (("task",) if version >= 3 else ()), _OPTIONAL_KEYS)
        task = self.string(doc["task"], "task", TASKS) if version >= 3 else "classification"
        listed = self.array(doc["class_names"], "class_names")
        if task != "classification":
            if listed:
                self.fail("class_names", tr("{field} must be empty: a {task} session has no "
                                            "classes"), task=task)
        elif not 1 <= len(listed) <= MAX_CLASSES:
            self.fail("class_names", tr("{field} must name 1 to {most} classes; got {n}"),
                      most=MAX_CLASSES, n=len(listed))
        names = tuple(self.string(v, f"class_names[{k}]") for k, v in enumerate(listed))
        if len(set(names)) != len(names):
            self.fail("class_names", tr("{field} must not name a class twice"))
        axes = self.array(doc["feature_names"], "feature_names", 2, _NAMES)
        features = tuple(self.string(v, f"feature_names[{k}]") for k, v in enumerate(axes))
        X, values, held_out = self.points(doc["points"], len(names), task)
        model, notes = self.model(doc["model"], task), ()
        settings = self.settings(doc["settings"])
        if version == LEGACY_VERSION and model is not None:
            model, notes = _labels_repaired(model, names)
        by_task = {"classification": {}, "novelty": {"outliers": values},
                   "regression": {"targets": values}}[task]
        return Session(X=X, y=values if task == "classification" else np.zeros(len(X), int),
                       held_out=held_out, class_names=names, feature_names=features,
                       settings=settings, view=self.view(doc["view"]),
                       model=model, notes=notes,
                       session_file=_session_file(doc.get("session_file")), task=task,
                       evaluation=self.evaluation(doc.get("evaluation"), version),
                       tuning=self.tuning(doc.get("tuning"), version),
                       comparison=self.comparison(doc.get("comparison"), version),
                       exercise=self.exercise(doc.get("exercise"), version, settings),
                       **by_task)

    def points(self, v, n_classes: int, task: str):
        """(X, each point's value in the task, held_out)."""
        key = _POINT_KEY[task]
        v = self.obj(v, "points", ("x", key, "held_out"))
        n = len(self.array(v["x"], "points.x"))
        X = self.matrix(v["x"], "points.x", n, 2, _POINTS)
        if task == "classification":
            values = self.indices(v[key], "points.class", n, _CLASSES, hi=n_classes - 1)
        elif task == "regression":
            values = self.reals(v[key], "points.target", n, what=_TARGETS)
        else:
            values = self.flags(v[key], "points.outlier", n)
        return X, values, self.flags(v["held_out"], "points.held_out", n)

    def flags(self, v, where: str, n: int) -> np.ndarray:
        listed = self.array(v, where, n, _FLAGS)
        return np.array([self.boolean(b, f"{where}[{k}]") for k, b in enumerate(listed)],
                        dtype=bool).reshape(n)

    def settings(self, v) -> dict:
        if not isinstance(v, dict):
            self.fail("settings", tr("{field} must be an object; got {value}"),
                      value=describe(v))
        for key, value in v.items():
            if not (value is None or type(value) in (bool, int, float, str)):
                self.fail(f"settings.{key}", tr("{field} must be a number, text, true/false or "
                                                "null"))
            if type(value) is float and not math.isfinite(value):
                self.fail(f"settings.{key}", tr("{field} must be a finite number"))
        return dict(v)

    def evaluation(self, v, version: int) -> dict:
        """The evaluation view's state (version 4), {} when there is none."""
        if v is None:
            return {}
        if version < 4:
            self.fail("evaluation", tr("{field} is not a field of this format version"))
        v = self.obj(v, "evaluation", ("threshold", "scale", "class", "row_shares",
                                       "cross_validations"))
        chosen = v["class"]
        return {"threshold": self.real(v["threshold"], "evaluation.threshold"),
                "scale": self.string(v["scale"], "evaluation.scale", SCALES),
                "class": None if chosen is None else self.string(chosen, "evaluation.class"),
                "row_shares": self.boolean(v["row_shares"], "evaluation.row_shares"),
                "cross_validations": tuple(
                    self.cross_validation(r, f"evaluation.cross_validations[{k}]")
                    for k, r in enumerate(self.array(v["cross_validations"],
                                                     "evaluation.cross_validations")))}

    def comparison(self, v, version: int) -> ComparisonRecord | None:
        if v is None:
            return None
        if version < 6:
            self.fail("comparison", tr("{field} is not a field of this format version"))
        return read_comparison(self, v)

    def exercise(self, v, version: int, settings: dict) -> Exercise | None:
        """The exercise, whose locks are settings of the session (or the points)."""
        if v is None:
            return None
        if version < 7:
            self.fail("exercise", tr("{field} is not a field of this format version"))
        exercise = read_exercise(self, v)
        for k, name in enumerate(exercise.locks):
            if name != POINTS and name not in settings:
                self.fail(f"exercise.locks[{k}]", tr("{field} locks {name}, which the "
                                                     "session's settings do not hold"),
                          name=name)
        return exercise

    def tuning(self, v, version: int) -> TuningMap | None:
        if v is None:
            return None
        if version < 5:
            self.fail("tuning", tr("{field} is not a field of this format version"))
        return read_tuning(self, v)

    def cross_validation(self, v, where: str) -> CVRecord:
        v = self.obj(v, where, ("settings", "metric", "folds", "seed", "scores"))
        folds = self.integer(v["folds"], f"{where}.folds", 2, MOST_FOLDS)
        return CVRecord(settings=self.string(v["settings"], f"{where}.settings"),
                        metric=self.string(v["metric"], f"{where}.metric", METRICS),
                        folds=folds, seed=self.integer(v["seed"], f"{where}.seed", 0),
                        scores=tuple(float(s) for s in self.reals(v["scores"],
                                                                  f"{where}.scores", folds)))

    def view(self, v):
        if v is None:
            return None
        x0, x1, y0, y1 = self.reals(v, "view", 4, what=_VIEW)
        if not (x0 < x1 and y0 < y1):
            self.fail("view", tr("{field} must have x_min < x_max and y_min < y_max"))
        return (x0, x1, y0, y1)

    def model(self, v, task: str):
        """The session's model, of a kind its task holds."""
        if v is None:
            return None
        model = model_from_document(v, f"{self.name}: model")
        if KINDS[model.model_.kind].task != task:     # a model of a kind its task serves
            self.fail("model", tr("{field} is a {kind} model, which a {task} session does not "
                                  "hold"), kind=model.model_.kind, task=task)
        return model


def _session_file(v) -> Path | None:
    """The session file an autosave belongs to, or None: anything but an absolute path is
    ignored (the work restores unnamed, as an older svmdesk's autosave does)."""
    if not isinstance(v, str) or not v or len(v) > MAX_PATH_CHARS or "\x00" in v:
        return None
    path = Path(v)
    return path if path.is_absolute() else None


def _labels_repaired(svc, class_names) -> tuple:
    """(model, notes) for a version 1 session's model. Its window trained on class indices,
    so classes 0..k-1 that are not the class names' labels are indices: the model gets the
    labels back. A model with other classes (opened from a file) is left as it is."""
    classes, labels = np.asarray(svc.classes_), class_labels(class_names)
    if classes.dtype.kind not in "iu" or not ((classes >= 0) & (classes < len(labels))).all():
        return svc, ()
    wanted = labels[classes]
    if wanted.dtype == classes.dtype and (wanted == classes).all():
        return svc, ()
    repaired = relabelled(svc, wanted)
    shown = ", ".join(str(v) for v in repaired.classes_.tolist())
    return repaired, (tr("Its model was saved by an older svmdesk under class numbers; its "
                         "classes are the labels {labels} again.").format(labels=shown),)
