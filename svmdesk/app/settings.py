"""Where svmdesk keeps its state: the folder of autosaves and the settings file (recent files,
the window's place, a wide file's columns), for every room of the window.

SVMDESK_STATE_DIR moves the folder (tests, portable installs)."""
from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths


def state_dir() -> Path:
    """Where svmdesk keeps autosaves and its settings file."""
    folder = os.environ.get("SVMDESK_STATE_DIR") or QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.AppLocalDataLocation) or str(Path.home() / ".svmdesk")
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    return path


def app_settings() -> QSettings:
    """svmdesk's settings (recent files), kept as an INI file in the state folder."""
    return QSettings(str(state_dir() / "svmdesk.ini"), QSettings.Format.IniFormat)
