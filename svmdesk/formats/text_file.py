"""A text file somebody hands us: not too large, not binary, UTF-8 or Shift-JIS, not empty.
Its problems are DataErrors that name the file (and the line, and the column)."""
from __future__ import annotations

import re
import stat
from pathlib import Path

from ..core.errors import DataError
from ..i18n import N_, tr

MAX_BYTES = 50 * 2**20       # a teaching canvas has no use for more; refuse rather than hang
NOT_SHIFT_JIS = re.compile("[\x80\uf8f0-\uf8f3]")   # lone bytes cp932 lets through
MAGIC = {b"\x89PNG": N_("a PNG image"), b"\xff\xd8\xff": N_("a JPEG image"),
         b"GIF8": N_("a GIF image"), b"%PDF": N_("a PDF document"),
         b"\x1f\x8b": N_("a gzip archive"),
         b"PK\x03\x04": N_("a zip archive or an Excel workbook (.xlsx)"),
         b"\xd0\xcf\x11\xe0": N_("an Excel workbook (.xls)"),
         b"\xff\xfe": N_("UTF-16 text"), b"\xfe\xff": N_("UTF-16 text")}


def file_error(path: Path, what: str, line: int | None = None,
               where: str | None = None) -> DataError:
    """"<file>, line <n>, <where>: <what>": `what` (a whole clause, translated) and `where`
    (a place in the line, translated) are joined in the language's words."""
    name = path.name or str(path)
    if line and where:
        text = tr("{file}, line {line}, {where}: {what}")
    elif line:
        text = tr("{file}, line {line}: {what}")
    elif where:
        text = tr("{file}, {where}: {what}")
    else:
        text = tr("{file}: {what}")
    return DataError(text.format(file=name, line=line, where=where, what=what))


def read_text(path: Path) -> str:
    try:
        info = path.stat()
    except FileNotFoundError:
        raise file_error(path, tr("no such file in {folder}; check the name and "
                                  "folder").format(folder=path.absolute().parent)) from None
    except OSError as e:
        raise file_error(path, tr("cannot open it ({error})").format(
            error=e.strerror or e)) from None
    if stat.S_ISDIR(info.st_mode):
        raise file_error(path, tr("this is a folder, not a file; choose a CSV or LIBSVM "
                                  "file"))
    if not stat.S_ISREG(info.st_mode):
        raise file_error(path, tr("this is not a regular file; choose a CSV or LIBSVM "
                                  "file"))
    if info.st_size > MAX_BYTES:
        raise _too_large(path, info.st_size)
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise file_error(path, tr("cannot read it ({error})").format(
            error=e.strerror or e)) from None
    if len(data) > MAX_BYTES:      # it grew after the size check
        raise _too_large(path, len(data))
    _refuse_binary(data, path)
    text = _decode(data, path)
    if not text.strip():
        raise file_error(path, tr("the file has only blank lines: no points to load") if text
                         else tr("the file is empty: no points to load"))
    return text


def _too_large(path: Path, size: int) -> DataError:
    return file_error(path, tr("the file is {size} MB; svmdesk reads files up to {most} MB: "
                            "load a sample of the points instead").format(
                                size=f"{size / 2**20:.0f}", most=MAX_BYTES // 2**20))


def _refuse_binary(data: bytes, path: Path) -> None:
    for magic, kind in MAGIC.items():
        if data.startswith(magic):
            raise file_error(path, tr("this is {kind}, not CSV or LIBSVM text; export the "
                                      "points as CSV (in Excel: Save As 'CSV UTF-8')").format(
                                          kind=tr(kind)))
    nul = data.find(b"\x00")
    if nul >= 0:
        raise file_error(path, tr("a NUL byte: this looks like a binary file, not CSV or "
                                  "LIBSVM text; export the points as CSV"),
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
        raise file_error(path, tr("byte {byte} is neither UTF-8 nor Shift-JIS text; save "
                                  "the file as 'CSV UTF-8'").format(byte=f"0x{data[e.start]:02x}"),
                         line=data.count(b"\n", 0, e.start) + 1) from None
    raise AssertionError("utf-8 decoded text that utf-8-sig refused")     # cannot happen
