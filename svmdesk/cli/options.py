"""The training parameters as command-line options, built from the catalog's table: one
option per parameter, with its type, default and help, and the summary's line of the values
a model was trained with. A parameter added to the table is an option with no change here."""
from __future__ import annotations

import argparse
import math

from ..core.catalog import KernelKind

SET_BY_CLI = ("random_state",)   # --seed sets it, and draws the test split as well
NONE_WORDS = ("none",)
INF_WORDS = ("inf", "infinity")


def flag(param) -> str:
    """-C for a one-letter name, --max-iter for max_iter."""
    return f"-{param.name}" if len(param.name) == 1 else "--" + param.name.replace("_", "-")


def add_options(parser, table) -> None:
    for param in table.params:
        if param.name not in SET_BY_CLI:
            parser.add_argument(flag(param), dest=param.name, **_argument(param, table))


def chosen(args, table) -> dict:
    """The estimator's parameters from parsed options (random_state from --seed)."""
    return {param.name: args.seed if param.name == "random_state" else getattr(args, param.name)
            for param in table.params}


def trained_with(params: dict, svc, table) -> str:
    """'C=10  gamma=scale (0.5)  tol=0.001  standardize=no': the values of the parameters
    the solver and kernel use, besides the solver, the kernel and the seed (their own lines
    show them); an unset optional one is left out."""
    return "  ".join(f"{param.name}={_shown(param, value, svc)}"
                     for param, value in table.used(params)
                     if param.name not in SET_BY_CLI)


def _shown(param, value, svc) -> str:
    if value is None:
        return f"{param.none_value:g} ({param.none})"
    if isinstance(value, str):     # a word the fit resolves to a number: show that too
        resolved = getattr(svc, param.name + "_", None)
        return value if resolved is None else f"{value} ({resolved:.6g})"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return f"{value:g}"


def _argument(param, table) -> dict:
    described = dict(default=param.default, help=_help(param, table))
    if param.kind == "bool":
        action = argparse.BooleanOptionalAction if param.default else "store_true"
        return dict(action=action, **described)
    if param.kind == "choice":
        return dict(choices=param.choices, metavar=param.name.upper(), **described)
    return dict(type=_parse(param), metavar=param.name.upper(), **described)


def _parse(param):
    """The option's type: a word of the parameter, 'none' (and 'inf' where None stands for
    infinity) or a number of its kind. Ranges are the estimator's to check."""
    def parse(text: str):
        if text in dict(param.words):
            return text
        lowered = text.strip().lower()
        if param.none and (lowered in NONE_WORDS
                           or lowered in INF_WORDS and param.none_value == math.inf):
            return None
        try:
            value = int(text) if param.kind == "int" else float(text)
        except ValueError:
            value = math.nan
        if isinstance(value, float) and math.isnan(value):
            raise argparse.ArgumentTypeError(f"must be {_in_cli_words(param)}; got {text!r}")
        return value
    return parse


def _in_cli_words(param) -> str:
    return param.allowed().replace("None (or inf)", "'inf' or 'none'").replace(
        "None", "'none'").replace("True or False", "given or not")


def _help(param, table) -> str:
    rows = table.rows_for(param)
    if param.kind == "choice" and rows is not None:
        text = f"{param.about}: " + "; ".join(_choice(row, table) for row in rows.values())
    elif param.kind == "choice":
        text = f"{param.about}: {param.allowed()}"
    elif param.kind == "bool":
        text = param.about
    else:
        text = f"{param.about}: {_in_cli_words(param)}"
    used = []
    if param.solvers is not None:
        used.append("solver " + ", ".join(param.solvers))
    if param.kernels is not None:
        used.append("kernel " + ", ".join(param.kernels))
    if used:
        text += f"; used by {' and '.join(used)}"
    if param.kind != "bool":
        text += f" (default {_default(param)})"
    return text


def _choice(row, table) -> str:
    if isinstance(row, KernelKind):
        return f"{row.name}: {row.formula}"
    every = set(row.kernels) == set(table.kernels)
    return f"{row.name}: {row.about} ({'every kernel' if every else ', '.join(row.kernels)})"


def _default(param) -> str:
    if param.default is None:
        return param.none
    return f"{param.default:g}" if isinstance(param.default, float) else str(param.default)
