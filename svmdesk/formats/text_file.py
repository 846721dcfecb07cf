"""A text file somebody hands us: not too large, not binary, UTF-8 or Shift-JIS, not empty.
Its problems are DataErrors that name the file (and the line, and the column)."""
from __future__ import annotations

import re
import stat
from pathlib import Path

from ..core.errors import DataError

MAX_BYTES = 50 * 2**20       # a teaching canvas has no use for more; refuse rather than hang
NOT_SHIFT_JIS = re.compile("[\x80\uf8f0-\uf8f3]")   # lone bytes cp932 lets through
MAGIC = {b"\x89PNG": "a PNG image", b"\xff\xd8\xff": "a JPEG image", b"GIF8": "a GIF image",
         b"%PDF": "a PDF document", b"\x1f\x8b": "a gzip archive",
         b"PK\x03\x04": "a zip archive or an Excel workbook (.xlsx)",
         b"\xd0\xcf\x11\xe0": "an Excel workbook (.xls)",
         b"\xff\xfe": "UTF-16 text", b"\xfe\xff": "UTF-16 text"}


def file_error(path: Path, what: str, line: int | None = None,
               where: str | None = None) -> DataError:
    place = "".join([path.name or str(path), f", line {line}" if line else "",
                     f", {where}" if where else ""])
    return DataError(f"{place}: {what}")


def read_text(path: Path) -> str:
    try:
        info = path.stat()
    except FileNotFoundError:
        raise file_error(path, f"no such file in {path.absolute().parent}; check the name and "
                               "folder") from None
    except OSError as e:
        raise file_error(path, f"cannot open it ({e.strerror or e})") from None
    if stat.S_ISDIR(info.st_mode):
        raise file_error(path, "this is a folder, not a file; choose a CSV or LIBSVM file")
    if not stat.S_ISREG(info.st_mode):
        raise file_error(path, "this is not a regular file; choose a CSV or LIBSVM file")
    if info.st_size > MAX_BYTES:
        raise _too_large(path, info.st_size)
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise file_error(path, f"cannot read it ({e.strerror or e})") from None
    if len(data) > MAX_BYTES:      # it grew after the size check
        raise _too_large(path, len(data))
    _refuse_binary(data, path)
    text = _decode(data, path)
    if not text.strip():
        raise file_error(path, "the file has only blank lines: no points to load" if text
                             else "the file is empty: no points to load")
    return text


def _too_large(path: Path, size: int) -> DataError:
    return file_error(path, f"the file is {size / 2**20:.0f} MB; svmdesk reads files up to "
                            f"{MAX_BYTES // 2**20} MB: load a sample of the points instead")


def _refuse_binary(data: bytes, path: Path) -> None:
    for magic, kind in MAGIC.items():
        if data.startswith(magic):
            raise file_error(path, f"this is {kind}, not CSV or LIBSVM text; export the points "
                                   "as CSV (in Excel: Save As 'CSV UTF-8')")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise file_error(path, "a NUL byte: this looks like a binary file, not CSV or LIBSVM "
                               "text; export the points as CSV",
                         line=data.count(b"\n", 0, nul) + 1)


def _decode(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("cp932")      # the Shift-JIS that Excel writes in Japan
        if not NOT_SHIFT_JIS.search(text):
            return text
    except UnicodeDecodeError:
        pass
    try:
        data.decode("utf-8")             # (utf-8-sig counts positions after the BOM)
    except UnicodeDecodeError as e:
        raise file_error(path, f"byte 0x{data[e.start]:02x} is neither UTF-8 nor Shift-JIS text; "
                               "save the file as 'CSV UTF-8'",
                         line=data.count(b"\n", 0, e.start) + 1) from None
    raise AssertionError("utf-8 decoded text that utf-8-sig refused")     # cannot happen
