"""What the window opens and remembers: data, session and model files, and recent files.

Reading happens off the GUI thread (`read_document` has no Qt in it); the window applies the
result. The type of a file comes from its content where the extension is ambiguous (a .json
file may hold a model or a session).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from ...core import DataError
from ...formats import load_dataset, load_session, model_json_reading, session
from ...formats.checked_json import read_json
from ...formats.points import DATA_SUFFIXES
from ...formats.targets import load_targets
from ...i18n import tr

_DATA_PATTERNS = " ".join(f"*{suffix}" for suffix in DATA_SUFFIXES)
MAX_RECENT = 8


# The file dialogs' filters, in the language chosen (their patterns stay as they are)
def session_files() -> str:
    return tr("svmdesk sessions ({patterns})").format(patterns=f"*{session.SUFFIX}")


def model_files() -> str:
    return tr("svmdesk models ({patterns})").format(patterns="*.json")


def data_files() -> str:
    return tr("Data ({patterns})").format(patterns=_DATA_PATTERNS)


def open_files() -> str:
    every = tr("All svmdesk files ({patterns})").format(
        patterns=f"*{session.SUFFIX} *.json {_DATA_PATTERNS}")
    return ";;".join((every, session_files(), model_files(), data_files()))


@dataclass(frozen=True)
class Opened:
    file_type: str     # "data", "samples", "session" or "model"
    path: Path
    value: object      # a Dataset, Samples, Session or fitted estimator


def read_document(path, task: str = "classification") -> Opened:
    """Read any file the window opens; DataError says what is wrong with it. A .json file
    holds a model or a session: its own "format" field says which. A data file is read for
    the `task` the window does: in regression its label column holds targets (Samples)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == session.SUFFIX:
        return Opened("session", path, load_session(path))
    if suffix == ".json":
        doc = read_json(path, "svmdesk model file", model_json_reading.MAX_BYTES)
        if isinstance(doc, dict) and doc.get("format") == session.FORMAT:
            return Opened("session", path, session.session_from_document(doc, path.name))
        return Opened("model", path, model_json_reading.model_from_document(doc, path.name))
    if suffix == ".model":
        raise DataError(tr("{name}: svmdesk exports LIBSVM models but reads its own JSON "
                           "models only; open the .json model the file was exported from")
                        .format(name=path.name))
    if task == "regression":
        return Opened("samples", path, load_targets(path))
    return Opened("data", path, load_dataset(path))


def range_warning(svc, X, slack: float = 0.25) -> str:
    """A sentence when points lie well outside the range the model was trained on (by more
    than `slack` of that range on a feature), or '' (also when the model keeps no range)."""
    low, high = getattr(svc, "feature_min_", None), getattr(svc, "feature_max_", None)
    X = np.asarray(X, dtype=np.float64).reshape(-1, len(low) if low is not None else 2)
    if low is None or high is None or not len(X):
        return ""
    span = np.maximum(np.asarray(high) - np.asarray(low), 1e-12)
    below = X.min(axis=0) < low - slack * span
    above = X.max(axis=0) > high + slack * span
    if not (below | above).any():
        return ""
    k = int(np.flatnonzero(below | above)[0])
    return tr("these points reach {low} to {high} on feature {feature}, but the model was "
              "trained on {trained_low} to {trained_high}; its predictions out there are "
              "guesses (extrapolation).").format(
        low=f"{X[:, k].min():.3g}", high=f"{X[:, k].max():.3g}", feature=k + 1,
        trained_low=f"{low[k]:.3g}", trained_high=f"{high[k]:.3g}")


class RecentFiles:
    """The File menu's recent files, remembered in the settings file (newest first)."""

    KEY = "recent_files"

    def __init__(self, settings: QSettings, menu: QMenu, open_path):
        self.settings, self.menu, self.open_path = settings, menu, open_path
        self.rebuild()

    def paths(self) -> list:
        value = self.settings.value(self.KEY, [])
        if isinstance(value, str):          # QSettings returns a lone entry as a string
            value = [value]
        return [str(p) for p in value] if isinstance(value, list) else []

    def add(self, path) -> None:
        path = str(Path(path).resolve())
        paths = [path] + [p for p in self.paths() if p != path]
        self.settings.setValue(self.KEY, paths[:MAX_RECENT])
        self.settings.sync()
        self.rebuild()

    def rebuild(self) -> None:
        self.menu.clear()
        paths = self.paths()
        for k, path in enumerate(paths, 1):
            action = QAction(f"&{k}  {Path(path).name}   —   {Path(path).parent}", self.menu)
            action.setData(path)
            action.triggered.connect(lambda checked=False, p=path: self.open_path(p))
            self.menu.addAction(action)
        self.menu.setEnabled(bool(paths))
