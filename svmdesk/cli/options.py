"""The training parameters as command-line options, built from the catalog's tables (one
per kind of machine): one option per parameter, with its type, default and help, and the
summary's line of the values a model was trained with. A parameter added to a table is an
option with no change here. An option the chosen kind does not take is refused."""
from __future__ import annotations

import argparse
import math
from collections.abc import Sequence

import numpy as np

from ..core.catalog import KernelKind, Table
from ..i18n import N_, tr
from .common import must_be

SET_BY_CLI = ("random_state",)   # --seed sets it, and draws the test split as well
UNSET = object()                 # an option not given: its kind's default applies
NONE_WORDS = ("none",)
INF_WORDS = ("inf", "infinity")


def flag(param) -> str:
    """-C for a one-letter name, --max-iter for max_iter."""
    return flag_of(param.name)


def flag_of(name: str) -> str:
    return f"-{name}" if len(name) == 1 else "--" + name.replace("_", "-")


def add_options(parser, tables: dict) -> None:
    """One option per parameter of any of `tables` ({kind: table}), described by the first
    table that has it; its help says which kinds take it when not all do."""
    rows: dict = {}
    for kind, table in tables.items():
        for param in table.params:
            if param.name not in SET_BY_CLI:
                rows.setdefault(param.name, (param, table, []))[2].append(kind)
    for param, table, kinds in rows.values():
        argument = _argument(param, table)
        if len(kinds) < len(tables):
            argument["help"] += tr("; --type {types}").format(types=", ".join(kinds))
        parser.add_argument(flag(param), dest=param.name, **{**argument, "default": UNSET})


def without(table: Table, names: tuple) -> Table:
    """The table less the parameters `names` (a command sets them its own way)."""
    return Table(table.kernels, table.solvers,
                 tuple(p for p in table.params if p.name not in names))


def chosen(args, table, classes: Sequence | np.ndarray = (), kind: str = "",
           every: Sequence[str] = ()) -> dict:
    """The estimator's parameters from parsed options (random_state from --seed; an option
    not given: the table's default), the labels of class weights matched to `classes`, the
    data's. An option of `every` parameter name that the table lacks is refused, naming
    `kind`."""
    for name in every:
        if name not in table.names and getattr(args, name, UNSET) is not UNSET:
            takes = ", ".join(flag(p) for p in table.params if p.name not in SET_BY_CLI)
            raise ValueError(tr("{option} is not a parameter of --type {kind} (it takes "
                                "{takes})").format(option=flag_of(name), kind=kind,
                                                   takes=takes))
    params = {}
    for param in table.params:
        value = args.seed if param.name == "random_state" else getattr(args, param.name)
        if value is UNSET:
            value = param.default
        if isinstance(value, TypedWeights):
            value = value.matched(flag(param), classes)
        params[param.name] = value
    return params



def joined(argv: list, table) -> list:
    """`argv` with '--class-weight -1=2' made '--class-weight=-1=2': argparse takes a value
    that starts with '-' (and is no number) for an option, and would say the option lacks
    its value."""
    flags = {flag(param) for param in table.params if param.value_type == "weights"}
    out: list = []
    for arg in argv:
        if out and out[-1] in flags and arg.startswith("-") and not arg.startswith("--"):
            out[-1] = f"{out[-1]}={arg}"
        else:
            out.append(arg)
    return out


class TypedWeights(dict):
    """{label as typed: weight}: a class weight option's pairs before the data is read.
    The labels are text; `matched` finds the data's classes they name."""

    def matched(self, option: str, classes: Sequence | np.ndarray) -> dict:
        known = list(np.asarray(classes).tolist())
        out = {}
        for text, weight in self.items():
            label = _class_named(text, known)
            if label is None:
                raise ValueError(tr("{option}: {text!r} is not a class of the data; its "
                                    "classes are {classes}").format(
                                        option=option, text=text,
                                        classes=", ".join(str(c) for c in known)))
            if label in out:
                raise ValueError(tr("{option}: class {label} is given twice").format(
                    option=option, label=label))
            out[label] = weight
        return out


def _class_named(text: str, classes: list):
    """The class `text` names: one written as `text`, or a number equal to it ('+1' and '1.0'
    name class 1); None for none."""
    for c in classes:
        if str(c) == text:
            return c
    try:
        number = float(text)
    except ValueError:
        return None
    numeric = [c for c in classes if isinstance(c, (int, float)) and not isinstance(c, bool)]
    return next((c for c in numeric if c == number), None)


def trained_with(params: dict, svc, table) -> str:
    """'C=10  gamma=scale (0.5)  tol=0.001  standardize=no': the values of the parameters
    the solver and kernel use, besides the solver, the kernel and the seed (their own lines
    show them); an unset optional one is left out."""
    return "  ".join(f"{param.name}={_shown(param, value, svc)}"
                     for param, value in table.used(params)
                     if param.name not in SET_BY_CLI)


def _shown(param, value, svc) -> str:
    if param.value_type == "weights":
        return _shown_weights(value, svc)
    if value is None:
        return f"{param.none_value:g} ({param.none})"
    if isinstance(value, str):     # a word the fit resolves to a number: show that too
        resolved = getattr(svc, param.name + "_", None)
        return value if resolved is None else f"{value} ({resolved:.6g})"
    if isinstance(value, bool):
        return tr("yes") if value else tr("no")
    return f"{value:g}"


def _shown_weights(value, svc) -> str:
    """'-1=2,1=0.5' as the option is written; 'balanced (-1=2.5,1=0.625)' with the weights
    the fit worked out."""
    if isinstance(value, str):
        resolved = getattr(svc, "class_weight_", None)
        if resolved is None:
            return value
        return f"{value} ({_pairs(zip(svc.classes_.tolist(), np.asarray(resolved).tolist()))})"
    return _pairs(value.items())


def _pairs(pairs) -> str:
    return ",".join(f"{label}={float(weight):.6g}" for label, weight in pairs)


def _argument(param, table) -> dict:
    described = dict(default=param.default, help=_help(param, table))
    if param.value_type == "bool":
        action = argparse.BooleanOptionalAction if param.default else "store_true"
        return dict(action=action, **described)
    if param.value_type == "choice":
        return dict(choices=param.choices, metavar=param.name.upper(), **described)
    if param.value_type == "weights":
        return dict(type=_parse_weights(param), metavar=param.name.upper(), **described)
    return dict(type=_parse(param), metavar=param.name.upper(), **described)


def _parse_weights(param):
    """The type of a class weight option: a word of the parameter, 'none', or
    LABEL=WEIGHT pairs separated by commas (TypedWeights: the data's classes are not known
    yet), each weight a finite number >= 0."""
    def parse(text: str):
        if text in dict(param.words):
            return text
        if param.none and text.strip().lower() in NONE_WORDS:
            return None
        weights = TypedWeights()
        for item in text.split(","):
            label, equals, number = (part.strip() for part in item.partition("="))
            if not equals or not label:
                raise argparse.ArgumentTypeError(must_be(_in_cli_words(param), text))
            weights[label] = _weight(label, number, weights)
        return weights
    return parse


def _weight(label: str, text: str, earlier: dict) -> float:
    if label in earlier:
        raise argparse.ArgumentTypeError(tr("class {label} is given twice").format(
            label=label))
    try:
        weight = float(text)
    except ValueError:
        weight = math.nan
    if not (math.isfinite(weight) and weight >= 0):
        raise argparse.ArgumentTypeError(tr(
            "the weight of class {label} must be a number >= 0 (0 leaves its points out); "
            "got {text!r}").format(label=label, text=text))
    return weight


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
            value = int(text) if param.value_type == "int" else float(text)
        except ValueError:
            value = math.nan
        if isinstance(value, float) and math.isnan(value):
            raise argparse.ArgumentTypeError(must_be(_in_cli_words(param), text))
        return value
    return parse


# the catalog's words for Python values, and what a command line types instead (each in the
# language chosen: the Japanese of "None (or inf)" is the words the catalog's sentence holds)
CLI_WORDS = (
    (N_("a mapping from class label to a non-negative weight"),
     N_("LABEL=WEIGHT pairs separated by commas, such as -1=2,1=0.5 or cat=3 (a class not "
        "named weighs 1)")),
    (N_("None (or inf)"), N_("'inf' or 'none'")),
    ("None", "'none'"),
    (N_("True or False"), N_("given or not")),
)


def _in_cli_words(param) -> str:
    text = param.allowed()
    for python, typed in CLI_WORDS:
        text = text.replace(tr(python), tr(typed))
    return text


def _help(param, table) -> str:
    """The option's help, in the language chosen (argparse %-formats it: a % is doubled)."""
    rows = table.rows_for(param)
    if param.value_type == "choice" and rows is not None:
        values = "; ".join(_choice(row, table) for row in rows.values())
    elif param.value_type == "choice":
        values = param.allowed()
    elif param.value_type == "bool":
        values = ""
    else:
        values = _in_cli_words(param)
    text = tr("{about}: {values}").format(about=tr(param.about), values=values) if values \
        else tr(param.about)
    solvers = None if param.solvers is None else tr("solver {names}").format(
        names=", ".join(param.solvers))
    kernels = None if param.kernels is None else tr("kernel {names}").format(
        names=", ".join(param.kernels))
    if solvers and kernels:
        text += tr("; used by {solvers} and {kernels}").format(solvers=solvers, kernels=kernels)
    elif solvers or kernels:
        text += tr("; used by {users}").format(users=solvers or kernels)
    if param.value_type != "bool":
        text += tr(" (default {default})").format(default=_default(param))
    return text.replace("%", "%%")


def _choice(row, table) -> str:
    if isinstance(row, KernelKind):
        return f"{row.name}: {row.formula}"
    every = set(row.kernels) == set(table.kernels)
    kernels = tr("every kernel") if every else ", ".join(row.kernels)
    return f"{row.name}: {tr(row.about)} ({kernels})"


def _default(param) -> str:
    if param.default is None:
        return tr(param.none)
    return f"{param.default:g}" if isinstance(param.default, float) else str(param.default)
