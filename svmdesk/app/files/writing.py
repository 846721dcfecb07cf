"""Writing a file the File menu saves: the name it gets (its suffix), and the write itself,
off the GUI thread, said in the notices when done or failed."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ...core import DataError
from ...i18n import tr
from ..background import in_background

if TYPE_CHECKING:
    from ..widgets.notices import Notices


def write_file(notices: Notices, write, path, done=None, on_gui_thread=False) -> bool:
    """Run write() off the GUI thread (on the app's loop; inline without one), then say
    what was saved and call done(); a failure is a message. Returns False when the
    write failed at once, else True (under the loop: the write is under way)."""
    failed_now = []

    def succeeded(written) -> None:
        names = (", ".join(str(p) for p in written) if isinstance(written, list)
                 else str(path))
        notices.clear_error()
        notices.say(tr("Saved {names}.").format(names=names), 6000)
        if done is not None:
            done()

    def failed(e: Exception) -> None:
        failed_now.append(True)
        name = Path(path).name
        text = str(e) if isinstance(e, (DataError, OSError, ValueError)) else \
            f"{type(e).__name__}: {e}"
        notices.file_error(text if text.startswith(name) else
                           tr("Could not save {name}: {reason}")
                           .format(name=name, reason=text))

    if on_gui_thread:
        try:
            written = write()
        except Exception as e:  # noqa: BLE001 - every failure is a message
            failed(e)
            return False
        succeeded(written)
        return True
    in_background(write, succeeded, failed)
    return not failed_now


def with_suffix(path, suffix: str) -> Path:
    """`path` ending in `suffix` ("week3.1" becomes "week3.1.svmdesk")."""
    path = Path(path)
    return path if path.suffix.lower() == suffix else path.with_name(path.name + suffix)
