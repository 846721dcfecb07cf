"""What svmdesk can train, said once: the solvers, the kernels and every training parameter
with its type, range, default, the solvers and kernels that use it, a one-line description
and its formula.

This is a table of facts, not of code (the constraints in the spirit of scikit-learn's
`_parameter_constraints`): the estimator validates against it, the CLI builds its options,
help and summary from it. A maintainer adding a solver adds a `Solver` row naming its module
(which provides `solve`, see `svmdesk.core.solvers`); a new parameter is a `Param` row, and
the estimators built on the table (`TableEstimator`) take it as an argument; if the window
should show it, it is also a row of the window's offers (`svmdesk.app.widgets.param_offers`:
its control's range, scale, start value, label and effect). Solvers read typed fields of
the problem (`BinaryProblem`, `DualProblem`) only: a new parameter a solver needs becomes a
field, which the estimators fill from their checked parameters.
"""
from __future__ import annotations

import dataclasses
import importlib
import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType, ModuleType
from typing import Any

import numpy as np

from ..i18n import N_, both, either, tr

MAX_CLASSES = 8     # classes a data set may hold: the canvas has 8 colours and marker shapes
ALL = None          # a parameter that every solver (or every kernel) uses


@dataclass(frozen=True)
class KernelKind:
    name: str
    title: str
    formula: str


@dataclass(frozen=True)
class Solver:
    name: str
    title: str              # how the window names it
    about: str              # one line: what it does
    module: str             # the module that implements it: it provides solve()
    kernels: tuple          # the kernels it can train
    hard_margin: bool       # whether it trains C = inf
    objective: str          # "dual" (it maximises D) or "primal" (it minimises P)
    # up to how many training points the one-vs-one machines share one kernel matrix
    # (BinaryProblem.gram; 0: never). The gradient solvers form each machine's whole
    # matrix: sharing saves them the same-class blocks (memory is the limit). SMO reads
    # the rows of its pairs only: measured (3-6 classes, 2-30 features, rbf), one matrix
    # is 10-28 % faster at 300 points, 10-70 % slower from 600 (digits, 1,797: 27 %).
    shares_gram_up_to: int = 0
    short: str = ""         # its name where room is short (a small canvas's title)

    def implementation(self) -> ModuleType:
        return importlib.import_module(self.module)


@dataclass(frozen=True)
class Param:
    """One training parameter. value_type: "choice" (one of `choices`), "real", "int", "bool"
    or "weights" (a mapping from class label to a non-negative weight).
    Numbers lie between low and high (open or closed ends); `words` are strings accepted
    besides numbers, (word, meaning) pairs; `none` says what None means ('' if None is
    refused) and `none_value` is what None stands for once checked."""

    name: str
    value_type: str
    default: object
    about: str
    low: float = -math.inf
    high: float = math.inf
    low_open: bool = True
    high_open: bool = True
    choices: tuple = ()
    words: tuple = ()           # (word, meaning) pairs
    none: str = ""
    none_value: object = None
    solvers: tuple | None = ALL
    kernels: tuple | None = ALL
    formula: str = ""
    in_old_files: bool = True   # False: model files written before it existed lack it
    shapes: str = "model"       # what it shapes: "model" (the optimum), "data", "training"
                                # or "output" (what the fitted estimator returns)

    def applies(self, solver: str, kernel: str) -> bool:
        """Whether training `solver` with `kernel` uses this parameter."""
        return ((self.solvers is ALL or solver in self.solvers)
                and (self.kernels is ALL or kernel in self.kernels))

    def allowed(self) -> str:
        """The values it takes, in words: 'a positive number, or None (or inf) for the hard
        margin', in the language chosen (svmdesk.i18n: the window's; the command line and
        the errors of an English process say it in English)."""
        if self.value_type == "choice":
            quoted = [repr(c) for c in self.choices]
            text = (tr("one of {choices}").format(choices=quoted[0]) if len(quoted) == 1
                    else tr("one of {choices} or {last}").format(
                        choices=", ".join(quoted[:-1]), last=quoted[-1]))
        elif self.value_type == "bool":
            text = tr("True or False")
        elif self.value_type == "weights":
            text = tr("a mapping from class label to a non-negative weight")
        else:
            text = self._numbers()
        if self.words:
            text = tr("{words} or {values}").format(
                words=", ".join(f"{w!r} ({meaning})" for w, meaning in self.words), values=text)
        if self.none:
            said = (tr("{values}, or None (or inf) for {meaning}")
                    if self.none_value == math.inf else tr("{values}, or None for {meaning}"))
            text = said.format(values=text, meaning=tr(self.none))
        return text

    def _numbers(self) -> str:
        integer = self.value_type == "int"
        if self.high == math.inf:
            if self.low == -math.inf:
                return tr("a finite integer") if integer else tr("a finite number")
            if self.low_open and self.low == 0 or integer and self.low == 1:
                return tr("a positive integer") if integer else tr("a positive number")
            if self.low == 0:
                return tr("a non-negative integer") if integer else tr("a non-negative number")
        low = "" if self.low == -math.inf else f"{self.low:g} {'<' if self.low_open else '<='} "
        high = "" if self.high == math.inf else f" {'<' if self.high_open else '<='} {self.high:g}"
        bounds = f"{low}{self.name}{high}"
        return (tr("an integer with {bounds}") if integer
                else tr("a number with {bounds}")).format(bounds=bounds)

    def check(self, value: Any) -> Any:
        """`value` as training uses it (floats, ints, none_value for None), or a ValueError
        naming the parameter, the value and what it allows."""
        if value is None and self.none:
            return self.none_value
        if isinstance(value, str) and any(value == word for word, _ in self.words):
            return value
        if self.value_type == "choice":
            ok = isinstance(value, str) and value in self.choices
            return self._ok(ok, value, value)
        if self.value_type == "bool":
            return self._ok(isinstance(value, (bool, np.bool_)), value, bool(value))
        if self.value_type == "weights":
            return self._weights(value)
        integral = isinstance(value, numbers.Integral)
        real = isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))
        if not real or (self.value_type == "int" and not integral) or math.isnan(value):
            raise self._bad(value)
        number = int(value) if self.value_type == "int" else float(value)
        above = number > self.low if self.low_open else number >= self.low
        below = number < self.high if self.high_open else number <= self.high
        return self._ok(above and below, value, number)

    def _weights(self, value) -> dict:
        """A mapping of label -> weight, as a dict of floats: each weight a finite number
        >= 0 (0 drops the class's points, as LIBSVM drops points of weight 0)."""
        if not isinstance(value, Mapping):
            raise self._bad(value)
        for weight in value.values():
            real = isinstance(weight, numbers.Real) and not isinstance(weight, (bool, np.bool_))
            if not real or not math.isfinite(weight) or weight < 0:
                raise self._bad(value)
        return {label: float(weight) for label, weight in value.items()}

    def _ok(self, ok: bool, value, checked):
        if not ok:
            raise self._bad(value)
        return checked

    def _bad(self, value) -> ValueError:
        return ValueError(tr("{name} must be {allowed}; got {value}").format(
            name=self.name, allowed=self.allowed(), value=repr(value)))


def _either(names) -> str:
    """'a', 'b' or 'c' (in the language chosen)."""
    return either([repr(n) for n in names])


@dataclass(frozen=True)
class Table:
    kernels: Mapping[str, KernelKind]
    solvers: Mapping[str, Solver]
    params: tuple       # of Param, in the order an estimator's __init__ lists them

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def names(self) -> tuple:
        return tuple(p.name for p in self.params)

    @property
    def defaults(self) -> dict:
        return {p.name: p.default for p in self.params}

    def with_rows(self, *rows: Solver | KernelKind | Param) -> Table:
        """A copy with more rows (Solver, KernelKind or Param), the solver and kernel choices
        widened to take them."""
        kernels = {**self.kernels, **{r.name: r for r in rows if isinstance(r, KernelKind)}}
        solvers = {**self.solvers, **{r.name: r for r in rows if isinstance(r, Solver)}}
        params = [dataclasses.replace(p, choices=tuple(kernels)) if p.name == "kernel" else
                  dataclasses.replace(p, choices=tuple(solvers)) if p.name == "solver" else p
                  for p in self.params]
        params += [r for r in rows if isinstance(r, Param)]
        return Table(MappingProxyType(kernels), MappingProxyType(solvers), tuple(params))

    def rows_for(self, param: Param) -> Mapping | None:
        """The rows a choice parameter chooses from (the solvers, or the kernels); None for
        a choice of plain words."""
        return {"solver": self.solvers, "kernel": self.kernels}.get(param.name)

    def used(self, params: Mapping, shapes: tuple = ("model", "data", "training")) -> list:
        """(row, value) of the parameters that the solver and kernel of `params` use and
        that shape what `shapes` names, the solver and kernel left out; an unset optional
        one (None that stands for nothing else) too."""
        return [(p, params[p.name]) for p in self.params
                if p.value_type != "choice" and p.shapes in shapes
                and p.applies(params["solver"], params["kernel"]) and p.name in params
                and not (params[p.name] is None and p.none_value is None)]

    def check(self, params: Mapping) -> dict:
        """Every parameter checked against its row, and the solver against the kernel and
        the margin: the values as training uses them (C = inf for the hard margin)."""
        missing = [name for name in self.names if name not in params]
        if missing:
            raise ValueError(tr("missing parameters: {names}").format(
                names=tr(", ").join(missing)))
        checked = {p.name: p.check(params[p.name]) for p in self.params}
        self.check_pairing(checked["solver"], checked["kernel"], checked.get("C"))
        return checked

    def check_pairing(self, solver: str, kernel: str, C: float | None) -> None:
        """A ValueError unless `solver` trains `kernel` with this C (None: a machine with
        no C, such as the one-class SVM), saying what would."""
        row = self.solvers[solver]
        if kernel not in row.kernels:
            others = [s.name for s in self.solvers.values() if kernel in s.kernels]
            raise ValueError(tr(
                "solver {solver} trains {kernels} models only, not kernel={kernel}; choose "
                "kernel={choices}, or solver {others} for the {name} kernel").format(
                solver=repr(solver), kernels=both(list(row.kernels)), kernel=repr(kernel),
                choices=_either(row.kernels), others=_either(others), name=kernel))
        if C == math.inf and not row.hard_margin:
            hard = [s.name for s in self.solvers.values() if s.hard_margin]
            raise ValueError(tr(
                "solver {solver} minimises the hinge loss and needs a finite C; for a hard "
                "margin (C = inf) use solver {others}").format(
                solver=repr(solver), others=_either(hard)))


_PRIMAL = "P(w, b) = 1/2 ||w||^2 + C sum_i max(0, 1 - y_i f(x_i))"

KERNELS = MappingProxyType({k.name: k for k in (
    KernelKind("linear", N_("linear"), "k(x, x') = <x, x'>"),
    KernelKind("poly", N_("poly"), "k(x, x') = (gamma <x, x'> + coef0)^degree"),
    KernelKind("rbf", N_("rbf"), "k(x, x') = exp(-gamma ||x - x'||^2)"),
    KernelKind("sigmoid", N_("sigmoid"), "k(x, x') = tanh(gamma <x, x'> + coef0)"),
)})

_EVERY_KERNEL = tuple(KERNELS)
SHARED_GRAM_POINTS = 2896       # a shared kernel matrix of at most 64 MB (float64)

SOLVERS = MappingProxyType({s.name: s for s in (
    Solver("smo", N_("SMO (libsvm's algorithm)"),
           N_("LIBSVM's sequential minimal optimisation of the dual, two multipliers at a "
              "time"),
           "svmdesk.core.solvers.smo", _EVERY_KERNEL, hard_margin=True, objective="dual",
           shares_gram_up_to=400, short=N_("SMO")),
    Solver("dual-gradient", N_("Dual gradient ascent"),
           N_("projected gradient ascent on the dual"), "svmdesk.core.solvers.dual_gradient",
           _EVERY_KERNEL, hard_margin=True, objective="dual",
           shares_gram_up_to=SHARED_GRAM_POINTS, short=N_("Dual gradient")),
    Solver("primal-subgradient", N_("Primal sub-gradient (linear)"),
           N_("sub-gradient descent on the primal's weight vector w"),
           "svmdesk.core.solvers.primal_subgradient", ("linear",), hard_margin=False,
           objective="primal", short=N_("Primal sub-gradient")),
    Solver("kernel-gradient", N_("Kernel gradient descent"),
           N_("gradient descent on the primal through the representer theorem"),
           "svmdesk.core.solvers.kernel_gradient", _EVERY_KERNEL, hard_margin=False,
           objective="primal", shares_gram_up_to=SHARED_GRAM_POINTS,
           short=N_("Kernel gradient")),
    Solver("pegasos", N_("Pegasos SGD (linear)"),
           N_("stochastic sub-gradient descent on the primal, in mini-batches"),
           "svmdesk.core.solvers.pegasos", ("linear",), hard_margin=False,
           objective="primal", short=N_("Pegasos")),
)})

_GRADIENT = tuple(name for name in SOLVERS if name != "smo")

PARAMS = (
    Param("solver", "choice", "smo", N_("the training algorithm"), choices=tuple(SOLVERS)),
    Param("kernel", "choice", "rbf", N_("the kernel k(x, x')"), choices=tuple(KERNELS)),
    Param("C", "real", 1.0, N_("the soft-margin penalty on margin violations"), low=0.0,
          none=N_("hard margin"), none_value=math.inf, high_open=False, formula=_PRIMAL),
    Param("gamma", "real", "scale", N_("the kernel width"), low=0.0,
          words=(("scale", "1 / (n_features * X.var())"), ("auto", "1 / n_features")),
          kernels=("poly", "rbf", "sigmoid"), formula="exp(-gamma ||x - x'||^2)"),
    Param("degree", "int", 3, N_("the polynomial kernel's degree"), low=1, low_open=False,
          kernels=("poly",), formula="(gamma <x, x'> + coef0)^degree"),
    Param("coef0", "real", 0.0, N_("the constant term of the poly and sigmoid kernels"),
          kernels=("poly", "sigmoid"), formula="tanh(gamma <x, x'> + coef0)"),
    Param("tol", "real", 1e-3, N_("the stopping tolerance"), low=0.0,
          formula=N_("SMO: m(a) - M(a) <= tol; the others: P - D <= tol |P|"),
          shapes="training"),
    Param("max_iter", "int", None, N_("the iteration budget per machine"), low=1,
          low_open=False, none=N_("the solver's own budget"), shapes="training"),
    Param("max_time", "real", None, N_("a bound on SMO's solving time per machine, in "
                                       "seconds (the one stop that reads a clock: a model "
                                       "it stops depends on the machine)"),
          low=0.0, none=N_("no bound: a run that is getting somewhere goes on"),
          solvers=("smo",), shapes="training", in_old_files=False),
    Param("learning_rate", "real", None, N_("the step size of the gradient solvers"),
          low=0.0, none=N_("a safe automatic step"), solvers=_GRADIENT,
          formula="w <- w - eta grad", shapes="training"),
    Param("batch_size", "int", None, N_("the points per stochastic step"), low=1,
          low_open=False, none=N_("the solver's own (32)"), solvers=("pegasos",),
          shapes="training"),
    Param("standardize", "bool", False,
          N_("scale every feature to mean 0 and standard deviation 1 before the kernel"),
          formula="x <- (x - mean) / std", shapes="data"),
    Param("random_state", "int", None,
          N_("the seed of Pegasos's sampling and of the probability folds"), low=0,
          low_open=False, none=N_("a fresh seed each run"), solvers=("pegasos",),
          shapes="training"),
    Param("probability", "bool", False,
          N_("fit Platt's sigmoid on the decision values of an internal 5-fold "
             "cross-validation, for predict_proba (five more fits per machine)"),
          formula="P(i | f) = 1 / (1 + exp(A f + B))", in_old_files=False),
    Param("class_weight", "weights", None,
          N_("each class's weight: its points' margin violations cost C times it"),
          words=(("balanced", "n_samples / (n_classes * np.bincount(y))"),),
          none=N_("every class weighing 1"),
          formula="C_i = C * class_weight[y_i] * sample_weight_i", in_old_files=False),
    Param("decision_function_shape", "choice", "ovr",
          N_("what decision_function returns for three or more classes: one column per "
             "class ('ovr', scikit-learn's default) or per one-vs-one machine ('ovo')"),
          choices=("ovr", "ovo"), shapes="output", in_old_files=False),
)

TABLE = Table(KERNELS, SOLVERS, PARAMS)



def _kind_table(solvers: tuple, *rows: str | Param) -> Table:
    """The table of a kind of machine: the solvers that train it, and its rows in the order
    its estimator takes them (a name stands for that row of PARAMS)."""
    shared = {p.name: p for p in PARAMS}
    params = tuple(shared[row] if isinstance(row, str) else row for row in rows)
    return Table(KERNELS, MappingProxyType({name: SOLVERS[name] for name in solvers}),
                 tuple(dataclasses.replace(p, choices=solvers) if p.name == "solver" else p
                       for p in params))


# nu-SVC (Schölkopf et al. 2000): C-SVC's classifier with nu in place of C, an upper bound on
# the fraction of margin errors and a lower bound on the fraction of support vectors. SMO
# solves its dual in the nu form (LIBSVM's Solver_NU); class_weight is accepted and ignored,
# as LIBSVM's nu solver does.
_KERNEL_AND_TRAINING = ("gamma", "degree", "coef0", "tol", "max_iter", "max_time")
NU_TABLE = _kind_table(
    ("smo",), "solver", "kernel",
    Param("nu", "real", 0.5, N_("an upper bound on the fraction of margin errors and a lower "
                                "bound on the fraction of support vectors"),
          low=0.0, high=1.0, high_open=False,
          formula="min 1/2 a'Qa, 0 <= a_i <= 1, y'a = 0, sum_i a_i = nu n"),
    *_KERNEL_AND_TRAINING, "standardize", "probability", "random_state",
    # accepted and ignored (LIBSVM's nu solver weighs every class 1)
    "class_weight", "decision_function_shape")

# The one-class SVM (novelty detection, Schölkopf et al. 2001): no labels and no C; nu bounds
# the fraction of training points outside the boundary from above and the fraction of
# support vectors from below. SMO solves it as LIBSVM does, and dual gradient ascent too; each
# solver's module provides solve_problem for it (the primal solvers have no dual to solve).
ONE_CLASS_TABLE = _kind_table(
    ("smo", "dual-gradient"), "solver", "kernel",
    Param("nu", "real", 0.5, N_("an upper bound on the fraction of training points "
                                "outside the boundary, and a lower bound on the "
                                "fraction of support vectors"),
          low=0.0, high=1.0, high_open=False,
          formula="min 1/2 a'Ka, 0 <= a_i <= 1, sum_i a_i = nu n"),
    *_KERNEL_AND_TRAINING, "learning_rate", "standardize")

# Regression (Vapnik's epsilon-SVR; Schölkopf et al.'s nu-SVR): f(x) = sum_i (a_i - a*_i)
# k(x_i, x) + b fitted within a tube of half-width epsilon, errors outside it costing C each.
# C is finite (no hard margin: a tube may not hold every point). SMO trains both; dual
# gradient ascent epsilon-SVR too (its projection is C-SVC's on the 2l variables).
_C_SVC_C = TABLE.param("C")
_REGRESSION_C = dataclasses.replace(
    _C_SVC_C, about=N_("the penalty on errors outside the tube"), none="", none_value=None,
    formula="P(w, b) = 1/2 ||w||^2 + C sum_i max(0, |y_i - f(x_i)| - epsilon)")
SVR_TABLE = _kind_table(
    ("smo", "dual-gradient"), "solver", "kernel", _REGRESSION_C,
    Param("epsilon", "real", 0.1, N_("the half-width of the tube within which errors cost "
                                     "nothing"),
          low=0.0, low_open=False, formula="max(0, |y - f(x)| - epsilon)"),
    *_KERNEL_AND_TRAINING, "learning_rate", "standardize")
NU_SVR_TABLE = _kind_table(
    ("smo",), "solver", "kernel",
    Param("nu", "real", 0.5, N_("an upper bound on the fraction of points outside the tube "
                                "and a lower bound on the fraction of support vectors; the "
                                "tube's width is found with the curve"),
          low=0.0, high=1.0, high_open=False,
          formula="e'(a + a*) = nu C n"),
    _REGRESSION_C, *_KERNEL_AND_TRAINING, "standardize")
