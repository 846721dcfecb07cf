"""Autosave, crash recovery, and unsaved work kept across a clean exit.

Each running window owns `autosave-<pid>-<token>.svmdesk` in the state folder and holds a
lock file beside it for as long as it runs. It rewrites the file (atomically, off the GUI
thread through background.py) AFTER_EDIT_SECONDS after the user's last edit (a laptop whose
battery dies mid-lab loses seconds, not minutes), every AUTOSAVE_SECONDS when a new model is
all that changed, and when
training starts after the user changed the work (a new model alone waits for the interval:
training again gives it back, and a write beside the solver would slow the run's start). A
file whose lock is no longer held belongs to a window that died (a crash, kill -9, a power
cut): the next start offers to restore it.

A clean exit with changes that were never saved to a session file keeps them as
`unsaved-<token>.svmdesk`, which the next start offers too: closing the window never loses
a student's points, and no dialog stands between them and the close button. The exit waits
for a write under way at most FLUSH_SECONDS, then writes the work itself.

SVMDESK_STATE_DIR moves the state folder (tests, portable installs);
SVMDESK_AUTOSAVE_SECONDS changes the interval.
"""
from __future__ import annotations

import os
import secrets
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, QTimer, Signal

from ...formats.session import save_session
from ...i18n import tr
from ..background import in_background
from ..settings import state_dir

AUTOSAVE_SECONDS = 30.0
AFTER_EDIT_SECONDS = 2.0     # quiet time after an edit before it is written (a drag is many)
SUFFIX = ".svmdesk"
# The writer rests this long between pieces of the file's text. Every Qt call the window
# makes gives up the GIL and must win it back; a writer that never rests makes each wait
# (20,000 points at a run's start: 15-21 ms frames instead of 9).
REST = 0.0005
FLUSH_SECONDS = 3.0   # a clean exit waits this long at most for a write under way


def _rest() -> None:
    time.sleep(REST)


def _rest_beside_the_gui():
    """The rest for a writer off the GUI thread; none for a write on it (no loop running:
    a script, a test), where resting would only stall the thread the rest is meant for."""
    return None if threading.current_thread() is threading.main_thread() else _rest


@dataclass(frozen=True)
class Leftover:
    """A session a previous window left: after a crash, or unsaved at a clean exit."""
    path: Path
    crashed: bool
    saved_at: float

    def discard(self) -> None:
        self.path.unlink(missing_ok=True)
        if self.crashed:
            self.path.with_suffix(".lock").unlink(missing_ok=True)


class Autosave(QObject):
    failed = Signal(str)          # a readable reason, once per failure streak

    def __init__(self, snapshot, parent=None):
        """`snapshot()` returns the Session to save (called on the GUI thread)."""
        super().__init__(parent)
        self._snapshot = snapshot
        self.folder = state_dir()
        self.leftovers = _leftovers(self.folder)        # before this window adds its own
        self.token = f"{os.getpid()}-{secrets.token_hex(4)}"
        self.path = self.folder / f"autosave-{self.token}{SUFFIX}"
        self._lock = QLockFile(str(self.path.with_suffix(".lock")))
        self._lock.setStaleLockTime(0)                  # stale only when its process is gone
        self._lock.tryLock(0)
        self.dirty = False           # changed since the last autosave
        self.work_changed = False    # the user's own work changed since then (not a model)
        self.unsaved = False         # changed since the last save to a session file
        self._closed = False
        self._failing = False
        self._pending = None         # the newest session waiting for the writer
        self._guard = threading.Lock()
        self._idle = threading.Event()   # no write under way
        self._idle.set()
        self.timer = QTimer(self)
        seconds = float(os.environ.get("SVMDESK_AUTOSAVE_SECONDS", AUTOSAVE_SECONDS))
        self.timer.setInterval(max(50, int(seconds * 1000)))
        self.timer.timeout.connect(self.save_if_dirty)
        self.timer.start()
        self.soon = QTimer(self, singleShot=True, interval=int(AFTER_EDIT_SECONDS * 1000))
        self.soon.timeout.connect(self.save_if_work_changed)

    def mark_dirty(self) -> None:
        """The user changed the work (points, settings, an opened file): it is written
        once the edits pause for AFTER_EDIT_SECONDS."""
        self.dirty = self.unsaved = self.work_changed = True
        if not self._closed:
            self.soon.start()

    def mark_clean(self) -> None:
        """Nothing worth keeping yet (the demo as it ships)."""
        self.dirty = self.unsaved = self.work_changed = False
        self.soon.stop()

    def mark_model(self) -> None:
        """The model changed (a run ended): written at the next interval, not as the user's
        unsaved work (training again gives it back)."""
        self.dirty = True

    def mark_saved(self) -> None:
        """The work is in a session file the user chose."""
        self.unsaved = False

    def save_if_dirty(self) -> None:
        if self.dirty:
            self.save_now()

    def save_if_work_changed(self) -> None:
        if self.work_changed:
            self.save_now()

    def save_now(self) -> None:
        """Write the current session in the background. Writes never queue up: while one
        runs, only the newest session waits for the next."""
        if self._closed:
            return
        self.dirty = self.work_changed = False
        try:
            session = self._snapshot()
        except Exception as e:  # noqa: BLE001 - an autosave must never break the window
            self._report(tr("Autosave failed: {error}").format(error=e))
            return
        with self._guard:
            self._pending = session
            if not self._idle.is_set():
                return                       # the write under way takes it next
            self._idle.clear()
        in_background(self._drain, self._written, self._written)

    def _drain(self) -> None:
        """Write the newest pending session until none waits (off the GUI thread)."""
        while True:
            with self._guard:
                session, self._pending = self._pending, None
                if session is None:
                    self._idle.set()
                    return
            try:
                save_session(session, self.path, between=_rest_beside_the_gui())
                self._failing = False
            except Exception as e:  # noqa: BLE001 - reported, never raised in the writer
                self._report(tr("Autosave failed: {error}").format(error=e))
            if self._closed:         # the window closed meanwhile, its work kept by finish:
                self.path.unlink(missing_ok=True)    # this late write is no crash to offer

    def _written(self, result=None) -> None:
        if isinstance(result, Exception):    # the writer itself failed: never stuck
            self._idle.set()
            self._report(tr("Autosave failed: {error}").format(error=result))

    def _report(self, message: str) -> None:
        if not self._failing:
            self._failing = True
            self.failed.emit(message)

    def wait(self, timeout: float = FLUSH_SECONDS) -> bool:
        """Block until the writes under way have finished, `timeout` seconds at most;
        True when they have."""
        return self._idle.wait(timeout)

    def finish(self) -> None:
        """A clean exit: keep unsaved changes for the next start, remove the autosave and
        release the lock (nothing crashed)."""
        if self._closed:
            return
        self._closed = True
        self.timer.stop()
        self.soon.stop()
        self.wait(FLUSH_SECONDS)             # bounded: then the work is written here
        if self.unsaved:
            try:
                save_session(self._snapshot(), self.folder / f"unsaved-{self.token}{SUFFIX}")
            except Exception:  # noqa: BLE001 - the autosave below stays: still recoverable
                self._lock.unlock()
                return
        self.path.unlink(missing_ok=True)
        self._lock.unlock()
        self.path.with_suffix(".lock").unlink(missing_ok=True)


def _leftovers(folder: Path) -> list:
    """Sessions earlier windows left, newest first: autosaves whose lock is free (their
    window died) and unsaved work kept at a clean exit."""
    found = []
    for path in folder.glob(f"*{SUFFIX}"):
        crashed = path.name.startswith("autosave-")
        if not (crashed or path.name.startswith("unsaved-")):
            continue
        if crashed:
            lock = QLockFile(str(path.with_suffix(".lock")))
            lock.setStaleLockTime(0)
            if not lock.tryLock(0):          # its window is still running
                continue
            lock.unlock()
        try:
            found.append(Leftover(path, crashed, path.stat().st_mtime))
        except OSError:                      # another window took it meanwhile
            continue
    return sorted(found, key=lambda leftover: leftover.saved_at, reverse=True)
