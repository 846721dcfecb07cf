"""Autosave and crash recovery.

Each running window owns `autosave-<pid>.svmdesk` in the state folder and holds a lock file
beside it for as long as it runs. It rewrites the file (atomically, off the GUI thread) every
AUTOSAVE_SECONDS when something changed, and whenever training starts; a clean exit deletes
both. A file whose lock is no longer held belongs to a window that died (a crash, kill -9,
a power cut): the next start offers to restore it.

SVMDESK_STATE_DIR moves the state folder (tests, portable installs);
SVMDESK_AUTOSAVE_SECONDS changes the interval.
"""
from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, QSettings, QStandardPaths, QTimer, Signal

from ..core import DataError, Session
from ..core.session import save_session

AUTOSAVE_SECONDS = 30.0
PREFIX, SUFFIX = "autosave-", ".svmdesk"


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


@dataclass(frozen=True)
class Orphan:
    """An autosave left behind by a window that did not close properly."""
    path: Path
    lock: Path

    @property
    def saved_at(self) -> float:
        return self.path.stat().st_mtime

    def discard(self) -> None:
        self.path.unlink(missing_ok=True)
        self.lock.unlink(missing_ok=True)


class Autosave(QObject):
    failed = Signal(str)          # a readable reason, once per failure streak

    def __init__(self, snapshot, parent=None):
        """`snapshot()` returns the Session to save (called on the GUI thread)."""
        super().__init__(parent)
        self._snapshot = snapshot
        self.folder = state_dir()
        stem = f"{PREFIX}{os.getpid()}"
        self.path = self.folder / f"{stem}{SUFFIX}"
        self._lock = QLockFile(str(self.folder / f"{stem}.lock"))
        self._lock.setStaleLockTime(0)           # stale only when its process is gone
        self._lock.tryLock(0)
        self.orphans = _orphans(self.folder, self.path)   # before we write our own
        self.dirty = False
        self._failing = False
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="autosave")
        self._pending = None
        self._guard = threading.Lock()
        self.timer = QTimer(self)
        seconds = float(os.environ.get("SVMDESK_AUTOSAVE_SECONDS", AUTOSAVE_SECONDS))
        self.timer.setInterval(max(50, int(seconds * 1000)))
        self.timer.timeout.connect(self.save_if_dirty)
        self.timer.start()

    def mark_dirty(self) -> None:
        self.dirty = True

    def save_if_dirty(self) -> None:
        if self.dirty:
            self.save_now()

    def save_now(self) -> None:
        """Write the current session in the background (the newest one wins)."""
        self.dirty = False
        try:
            session = self._snapshot()
        except Exception as e:  # noqa: BLE001 - an autosave must never break the window
            self._report(f"autosave failed: {e}")
            return
        self._pending = self._writer.submit(self._write, session)

    def _write(self, session: Session) -> None:
        with self._guard:
            try:
                save_session(session, self.path)
                self._failing = False
            except (DataError, OSError) as e:
                if not self._failing:
                    self._failing = True
                    self.failed.emit(f"Autosave failed: {e}")

    def _report(self, message: str) -> None:
        if not self._failing:
            self._failing = True
            self.failed.emit(message)

    def wait(self) -> None:
        """Block until the last write has finished (tests, shutdown)."""
        if self._pending is not None:
            self._pending.result()

    def finish(self) -> None:
        """A clean exit: stop, and remove our autosave and lock (nothing to recover)."""
        self.timer.stop()
        self._writer.shutdown(wait=True)
        self.path.unlink(missing_ok=True)
        self._lock.unlock()


def _orphans(folder: Path, own: Path) -> list:
    """Autosaves whose window is gone, newest first."""
    found = []
    for path in folder.glob(f"{PREFIX}*{SUFFIX}"):
        if path == own:
            continue
        lock_path = path.with_suffix(".lock")
        lock = QLockFile(str(lock_path))
        lock.setStaleLockTime(0)
        if lock.tryLock(0):          # nobody holds it: its window died (or exited mid-way)
            lock.unlock()
            found.append(Orphan(path, lock_path))
    return sorted(found, key=lambda o: o.path.stat().st_mtime, reverse=True)
