"""What the commands share: the program's name and exit codes, the help texts every command
ends with, option values checked as they are parsed, the output folder's check, and Qt on
the offscreen platform for the commands that draw."""
from __future__ import annotations

import argparse
import math
import os
from pathlib import Path

from ..i18n import N_, tr
from .terminal_text import HelpFormatter

PROG = "svmdesk"

COMMANDS = ("train", "predict", "evaluate", "render", "grid", "compare")
EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2

# bad input: the user can fix it (exit 2); anything else is a failure (exit 1)
BAD_INPUT = (ValueError, FileNotFoundError, IsADirectoryError, NotADirectoryError,
             PermissionError)

RENDER_WIDTH = (200, 8000)   # pixels

EXIT_CODES = N_("""\
exit codes:
  0  success
  2  bad input or usage: unknown option, bad parameter value, missing or unreadable
     file, a data or model file that cannot be used
  1  anything else (an unexpected failure; rerun with --debug for the traceback)
  130  interrupted (Ctrl+C)
Errors are one line on stderr, "svmdesk: error: ...".  --debug (before or after the
command) prints the Python traceback as well.""")

DATA_FORMATS = N_("""\
data files:
  CSV (.csv .tsv): ',', ';' or tab separated, a header row or none, UTF-8 or
  Shift-JIS; the last column is the label (text or numbers), every other column a
  feature.  LIBSVM/svmlight (.libsvm .svm .svmlight): 'label index:value ...' lines.
  Other extensions (.txt, .dat, ...) are read by their content: LIBSVM lines as
  LIBSVM, the rest as CSV.  train uses every feature column.""")


def command(commands, name: str, summary: str, description: str, run, **values):
    """The command `name`: its one-line `summary` and its help text `description` (marked
    with N_: a template of {data_formats}, {exit_codes} and `values`) in the language
    chosen."""
    sub = commands.add_parser(name, prog=f"{PROG} {name}", help=tr(summary),
                              description=described(description, **values),
                              formatter_class=HelpFormatter)
    sub.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                     help=tr("on an error, print the Python traceback too"))
    sub.set_defaults(run=run)
    return sub


def described(template: str, **values) -> str:
    """A help text in the language chosen, the data formats and exit codes filled in."""
    return tr(template).format(data_formats=tr(DATA_FORMATS), exit_codes=tr(EXIT_CODES),
                               **values)


def fraction(text: str) -> float:
    value = _number(text, tr("a number from 0 to below 1"))
    if not 0.0 <= value < 1.0:
        raise argparse.ArgumentTypeError(
            tr("must be from 0 to below 1; got {text!r}").format(text=text))
    return value


def seed(text: str) -> int:
    return _whole(text, 0, tr("a non-negative integer"))


def folds(text: str) -> int:
    return _whole(text, 2, tr("a whole number of folds, 2 or more"))


def jobs(text: str) -> int:
    return _whole(text, 1, tr("a whole number of processes, 1 or more"))


def _whole(text: str, least: int, allowed: str) -> int:
    """`text` as a whole number of at least `least`; `allowed` says what may be given."""
    try:
        value = int(text)
    except ValueError:
        value = least - 1
    if value < least:
        raise argparse.ArgumentTypeError(must_be(allowed, text))
    return value


def add_picture_options(parser, drawn: str) -> None:
    """--plot FILE and --width W: `drawn` says what the picture shows."""
    parser.add_argument("--plot", default=None, metavar="FILE",
                        help=tr("also draw {drawn} into FILE.png or FILE.svg").format(
                            drawn=drawn))
    parser.add_argument("--width", type=width_value, default=1200, metavar="W",
                        help=tr("the --plot picture's width in pixels, {least} to {most} "
                                "(default 1200)").format(least=RENDER_WIDTH[0],
                                                         most=RENDER_WIDTH[1]))


def width_value(text: str) -> int:
    lo, hi = RENDER_WIDTH
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not lo <= value <= hi:
        raise argparse.ArgumentTypeError(must_be(
            tr("a whole number of pixels from {least} to {most}").format(least=lo, most=hi),
            text))
    return value


def _number(text: str, allowed: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(must_be(allowed, text)) from None
    if math.isnan(value):
        raise argparse.ArgumentTypeError(must_be(allowed, text))
    return value


def must_be(allowed: str, text: str) -> str:
    """An option value's error: what it must be (in the language chosen), what was typed."""
    return tr("must be {allowed}; got {text!r}").format(allowed=allowed, text=text)


def warning_line(message) -> str:
    """A warning the fit raised, as one line on stderr (its text, translated where it was
    raised, whitespace folded)."""
    return tr("{prog}: warning: {message}").format(prog=PROG,
                                                   message=" ".join(str(message).split()))


def check_folder(path: Path) -> None:
    folder = path.parent
    if not folder.is_dir():
        raise FileNotFoundError(tr("cannot write {path}: the folder {folder} does not "
                                   "exist").format(path=path, folder=folder))


def offscreen_application():
    """Qt's application on the offscreen platform (no display needed); Qt is imported here,
    by the commands that draw, and only when they do."""
    os.environ["QT_QPA_PLATFORM"] = "offscreen"     # before Qt loads
    import pyqtgraph as pg
    from PySide6.QtWidgets import QApplication

    pg.setConfigOptions(antialias=True)   # as the window
    return QApplication.instance() or QApplication([PROG])


def picture_path(plot: str | None) -> Path | None:
    """--plot's file, checked before any work (None: no picture asked for)."""
    if plot is None:
        return None
    path = Path(plot)
    if path.suffix.lower() not in (".png", ".svg"):
        raise ValueError(tr("--plot {plot}: the image file must end in .png or .svg").format(
            plot=plot))
    check_folder(path)
    return path


def table_path(out: str) -> Path:
    """--out's CSV table, checked before any work."""
    path = Path(out)
    if path.suffix.lower() != ".csv":
        raise ValueError(tr("--out {out}: the table must end in .csv").format(out=out))
    check_folder(path)
    return path


def save_plot(path: Path, width: int, draw) -> None:
    """Qt on the offscreen platform, the figure `draw` makes laid out, then saved."""
    app = offscreen_application()
    from ..app.widgets.pictures import save_picture

    figure = draw()
    figure.show()
    app.processEvents()       # the layout settles before the exporter measures it
    save_picture(figure, path, width)
    print(wrote(path))


def wrote(path) -> str:
    return tr("wrote {path}").format(path=path)
