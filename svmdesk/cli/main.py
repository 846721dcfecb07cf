"""The entry point: `svmdesk` alone (or with a file) opens the window; a command runs
headless, its errors one line on stderr and an exit code."""
from __future__ import annotations

import argparse
import os
import sys
import traceback
from pathlib import Path

from .. import version
from ..core import catalog
from ..i18n import ENVIRONMENT, LANGUAGES, N_, chosen_language, normalise, set_language, tr
from . import argparse_words, compare, evaluate, grid_search, options, predict, render, train
from .common import BAD_INPUT, COMMANDS, EXIT_FAILURE, EXIT_USAGE, PROG, described
from .terminal_text import HelpFormatter

MAIN_HELP = N_("""\
A desktop lab for support vector machines.  Without a command, svmdesk opens the
window (on FILE when given: a session .svmdesk, a JSON model .json, or a CSV or LIBSVM
data file).  The commands run without a display, for scripts:

  train    fit an SVM to a data file and save the model (JSON or LIBSVM)
  predict  print the predictions of a saved model for a data file, as CSV
  evaluate print how a saved model does on labelled data: confusion matrix,
           accuracy, precision, recall, F1 and AUC (a regressor: R^2, MSE, MAE)
  render   draw the points (and a model's regions, boundary, margins and support
           vectors) into a PNG or SVG image
  grid     cross-validate every combination of C and gamma values, print the
           best and write the table as CSV (and a heat map with --plot)
  compare  train several solvers (or values of C) on the same points and write
           the comparison's table as CSV (and its picture with --plot)

'svmdesk COMMAND --help' describes each command's options.

{data_formats}

{exit_codes}

examples:
  svmdesk                                   open the window
  svmdesk points.csv                        open the window on points.csv
  svmdesk lab.svmdesk                       reopen a saved session
  svmdesk train moons.csv --kernel rbf -C 10 --test-fraction 0.2 --out moons.json
  svmdesk predict moons.json new_points.csv > predictions.csv
  svmdesk evaluate moons.json moons_test.csv
  svmdesk render moons.csv --model moons.json --out moons.png
  svmdesk grid moons.csv --C 1e-2:1e3:11 --gamma 1e-3:1e2:11 --out grid.csv
  svmdesk compare moons.csv --solver smo --solver pegasos --kernel linear --out t.csv
  svmdesk --lab-check                       does the window train on this computer?""")


def main(argv=None) -> int:
    """Run the command line; returns the exit code (argv: the arguments after the program
    name, default sys.argv[1:])."""
    argv = sys.argv[1:] if argv is None else list(argv)
    lang, rest = split_language(argv)
    if rest == ["--lab-check"]:
        from ..app.lab_check import lab_check

        set_language(chosen_language(lang))
        return lab_check()
    if opens_window(rest) and (lang is None or normalise(lang)):
        from ..app import main as open_window

        return open_window([sys.argv[0] if sys.argv and sys.argv[0] else PROG, *rest],
                           lang=normalise(lang))
    set_language(chosen_language(lang))    # --lang, SVMDESK_LANG, else the system's
    argparse_words.speak()
    args = build_parser().parse_args(options.joined(argv, catalog.TABLE))
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print(tr("{prog}: interrupted").format(prog=PROG), file=sys.stderr)
        return 130
    except BrokenPipeError:      # stdout closed early (| head): not an error of ours
        _silence_stdout()
        return EXIT_FAILURE
    except Exception as e:       # noqa: BLE001 - every error becomes one line and a code
        return report_error(e, args.debug)


def split_language(argv: list) -> tuple:
    """(the value of a leading --lang, the other arguments); (None, argv) without one (a
    --lang without its value is left to the parser's message)."""
    if argv and argv[0].startswith("--lang="):
        return argv[0].split("=", 1)[1], argv[1:]
    if len(argv) >= 2 and argv[0] == "--lang":
        return argv[1], argv[2:]
    return None, argv


def opens_window(argv: list) -> bool:
    """No arguments, or one that is not a command or option: the path of a file to open
    (one that exists or has an extension; any other word is a mistyped command)."""
    if not argv:
        return True
    if len(argv) != 1 or argv[0] in COMMANDS or argv[0].startswith("-"):
        return False
    return Path(argv[0]).exists() or bool(Path(argv[0]).suffix)


def report_error(error: BaseException, debug: bool) -> int:
    if debug:
        traceback.print_exception(type(error), error, error.__traceback__)
    bad_input = isinstance(error, BAD_INPUT)
    message = str(error) or type(error).__name__
    if not bad_input:
        message = f"{type(error).__name__}: {message}"
    print(tr("{prog}: error: {message}").format(prog=PROG, message=" ".join(message.split())),
          file=sys.stderr)
    return EXIT_USAGE if bad_input else EXIT_FAILURE


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line ("svmdesk: error: ...") and exit code 2."""

    def error(self, message):
        self.exit(EXIT_USAGE, tr("{prog}: error: {message}; see '{help}'").format(
            prog=PROG, message=message, help=f"{self.prog} --help") + "\n")


_CHOICES = "{" + ",".join(COMMANDS) + "}"      # the usage's list of commands


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description=described(MAIN_HELP),
                     formatter_class=HelpFormatter,
                     usage=f"{PROG} [-h] [--version] [--debug] {_CHOICES} ...\n"
                           f"       {PROG} [--lang {{en,ja}}] [FILE]\n"
                           f"       {PROG} [--lang {{en,ja}}] --lab-check")
    parser.add_argument("--version", action="version", version=f"{PROG} {version()}",
                        help=tr("show program's version number and exit"))
    parser.add_argument("--lang", choices=sorted(LANGUAGES), metavar="{" + ",".join(
                            sorted(LANGUAGES)) + "}",
                        help=tr("the language of the window and the commands: English or "
                                "Japanese (default: {variable}, then View > Language, then "
                                "the system's)").format(variable=ENVIRONMENT))
    parser.add_argument("--lab-check", action="store_true",
                        help=tr("open the window, train an example in it and close, saying "
                                "whether svmdesk works on this computer (after a lab's "
                                "offline install, or in the frozen app)"))
    parser.add_argument("--debug", action="store_true",
                        help=tr("on an error, print the Python traceback too"))
    commands = parser.add_subparsers(dest="command", metavar=_CHOICES,
                                     required=True)
    train.add_parser(commands)
    predict.add_parser(commands)
    evaluate.add_parser(commands)
    render.add_parser(commands)
    grid_search.add_parser(commands)
    compare.add_parser(commands)
    return parser
