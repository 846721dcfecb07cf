"""argparse's own words (usage:, the headings, its errors) in the command line's language.
argparse translates them with gettext's global domain, which svmdesk does not use: its words
are listed here (those of every Python svmdesk runs on, 3.10 to 3.13, which differ) so that
svmdesk's catalogue holds them, and `speak()` has argparse look them up there."""
from __future__ import annotations

import argparse

from ..i18n import N_, tr

WORDS = (
    N_("usage: "), N_("positional arguments"), N_("options"), N_("subcommands"),
    N_("show this help message and exit"), N_("show program's version number and exit"),
    N_(" (default: %(default)s)"), N_("%(heading)s:"),
    N_("%(prog)s: error: %(message)s\n"), N_("%(prog)s: warning: %(message)s\n"),
    N_("the following arguments are required: %s"), N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"), N_("argument %(argument_name)s: %(message)s"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("expected one argument"), N_("expected at most one argument"),
    N_("expected at least one argument"), N_("expected %s argument"),
    N_("expected %s arguments"), N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"), N_("ignored explicit argument %r"),
    N_("unexpected option string: %s"), N_("can't open '%(filename)s': %(error)s"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("option '%(option)s' is deprecated"), N_("argument '%(argument_name)s' is deprecated"),
    N_("command '%(parser_name)s' is deprecated"),
)


def speak() -> None:
    """argparse's words from svmdesk's catalogue, in the language chosen (i18n)."""
    argparse._ = tr                                  # type: ignore[attr-defined]
    argparse.ngettext = lambda one, many, n: tr(one if n == 1 else many)  # type: ignore[attr-defined]
    argparse.ArgumentError.__str__ = _argument_error  # type: ignore[method-assign, assignment]


def _argument_error(error: argparse.ArgumentError) -> str:
    """An option's error as Python 3.11 and later say it, its heading translated (3.10's
    argparse leaves "argument %(argument_name)s: ..." out of gettext)."""
    if error.argument_name is None:
        return error.message
    return tr("argument %(argument_name)s: %(message)s") % dict(
        message=error.message, argument_name=error.argument_name)
