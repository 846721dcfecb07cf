"""Atomic writes: a file is replaced whole or not at all."""
from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

from ..core.errors import DataError
from ..i18n import tr

StrPath = str | os.PathLike   # a file's path, as the callers hold it


def write_atomic(path: StrPath, data: str | bytes) -> None:
    """Write `data` (str, UTF-8 encoded, or bytes) to a temporary file beside `path`, fsync
    it, then rename it over `path`: a reader sees the old file or the new one, never half of
    one, even if the process dies mid-write. An existing file keeps its permissions."""
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                     0o666)
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
        if path.is_file():
            os.chmod(tmp, stat.S_IMODE(path.stat().st_mode))
        os.replace(tmp, path)
    except BaseException as e:
        tmp.unlink(missing_ok=True)
        if isinstance(e, OSError):
            raise DataError(tr("{file}: cannot save it ({error}); check the folder exists and "
                               "you may write there").format(file=path.name or path,
                                                             error=e.strerror or e)) from e
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX; folders cannot be opened on Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
