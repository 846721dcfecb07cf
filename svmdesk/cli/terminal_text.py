"""Text laid out in a terminal's columns: a wide (CJK) character takes two, so Japanese
tables are aligned and help texts wrapped by what the terminal shows, not by characters
(str.ljust and textwrap count characters)."""
from __future__ import annotations

import argparse
import re
import unicodedata

from ..i18n import tr

# what never starts a line in Japanese (kinsoku): it stays with the character before it;
# what never ends one: it stays with the character after it
NO_LINE_START = "、。，．）」』】〕：；！？ー・"
NO_LINE_END = "（「『【〔"
_UNITS = re.compile(r"\s+|[^\s]")


def columns(text: str) -> int:
    """The columns `text` takes in a terminal: a wide (CJK) character counts two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def ljust(text: str, width: int) -> str:
    """`text` padded with spaces to `width` terminal columns."""
    return text + " " * max(0, width - columns(text))


def rjust(text: str, width: int) -> str:
    return " " * max(0, width - columns(text)) + text


def labelled_lines(lines: list, gap: int = 1) -> str:
    """'name: value' lines ((name, value) pairs), the values aligned in one column `gap`
    spaces after the longest name's colon."""
    labels = [tr("{name}:").format(name=name) for name, _ in lines]
    width = max(columns(label) for label in labels)
    return "\n".join(ljust(label, width + gap) + value
                     for label, (_, value) in zip(labels, lines))


def wrapped(text: str, width: int) -> list:
    """`text` in lines of at most `width` columns (a longer word alone on its line): lines
    break at spaces, and between two wide characters, never before a closing mark or after
    an opening one."""
    lines: list = []
    line = ""
    for unit, space in _units(text):
        piece = (" " if space and line else "") + unit
        if line and columns(line + piece) > width:
            lines.append(line)
            line = unit
        else:
            line += piece
    return [*lines, line] if line else lines


def _units(text: str) -> list:
    """(unit, after a space) pairs: an English word is one unit, a wide character another
    (with the closing marks that follow it)."""
    units: list = []
    space = False
    for token in _UNITS.findall(" ".join(text.split())):
        if token.isspace():
            space = True
            continue
        narrow = columns(token) == 1
        joins = units and not space and (
            token in NO_LINE_START or units[-1][0][-1] in NO_LINE_END
            or narrow and columns(units[-1][0][-1]) == 1)
        if joins:
            units[-1] = (units[-1][0] + token, units[-1][1])
        else:
            units.append((token, space))
        space = False
    return units


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's help: descriptions as written, an option's help wrapped by terminal
    columns."""

    def _split_lines(self, text, width):
        return wrapped(text, width)
