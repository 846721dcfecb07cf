"""`svmdesk train`: fit a machine of the chosen kind (--type) to a data file, write the
model, print a summary."""
from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

import numpy as np

from ..core import (
    ConvergenceWarning,
    CVResult,
    DataError,
    catalog,
    cross_validate,
    kinds,
)
from ..core.datasets import class_labels
from ..formats import export_libsvm, load_dataset, save_model
from ..formats.points import load_unlabelled
from ..formats.run_script import write_script
from ..formats.targets import load_targets
from ..i18n import N_, tr
from .common import (
    EXIT_OK,
    check_folder,
    command,
    folds,
    fraction,
    seed,
    warning_line,
)
from .options import add_options, chosen, trained_with
from .terminal_text import labelled_lines

TYPES = tuple(kinds.by_option())      # --type: every kind, LIBSVM's -s 0 to 4


def estimators() -> dict:
    """The estimator of each --type (looked up when asked: a test may swap one)."""
    return {option: kind.estimator for option, kind in kinds.by_option().items()}


def tables() -> dict:
    """The parameter table of each --type, as the kinds table has it now."""
    return {option: kind.table for option, kind in kinds.by_option().items()}


SHOWN_VALUES = 6             # per-machine values listed in the summary

TRAIN_HELP = N_("""\
Fit an SVM of the kind --type names to DATA, holding out a seeded random test fraction,
save the model to --out and print a summary: data file, points, classes, solver, kernel
and parameters, iterations, objective, convergence, support vectors, train and test
accuracy (a regressor: R^2; a one-class SVM: the fraction of outliers), time.

kinds (--type, LIBSVM's svm-train -s 0 to 4):
  c-svc        classification with C (svmdesk.core.SVC; the default)
  nu-svc       classification with nu (NuSVC)
  one-class    novelty detection (OneClassSVM): a CSV file's columns are all features
               (no label column); a LIBSVM file's labels are left aside
  epsilon-svr  regression (SVR): the label column holds each point's target, a number
  nu-svr       regression with nu (NuSVR), the tube's width found with the curve
An option a kind does not take is refused (--epsilon with --type nu-svc, say).

Class labels: when every class name is an integer (such as 1 and -1, or 0, 1, 2) the
model's labels are those integers, else the class names as text.
--class-weight names classes by these labels: --class-weight -1=2,1=0.5 makes the
margin violations of class -1 cost 2 C and those of class 1 0.5 C (cat=3 for a class
named cat); --class-weight balanced weighs each class inversely to its number of points.

model files (--out):
  .json   svmdesk's JSON model: what 'svmdesk predict' and 'svmdesk render' read
  .model  LIBSVM's model format, for libsvm's svm-predict; needs integer labels, and a
          --standardize model also writes MODEL.range (svm-scale's range file: scale
          the inputs with 'svm-scale -r MODEL.range' before svm-predict)

{data_formats}

{exit_codes}

example:
  svmdesk train moons.csv --kernel rbf -C 10 --gamma 2 --test-fraction 0.2 --seed 1 \\
      --out moons.json""")


def add_parser(commands) -> None:
    p = command(commands, "train", N_("fit an SVM to a data file and save the model"),
                TRAIN_HELP, run)
    p.add_argument("data", metavar="DATA", help=tr("the training points (CSV or LIBSVM file)"))
    p.add_argument("--type", choices=TYPES, default=kinds.C_SVC.option, metavar="TYPE",
                   help=tr("the kind of machine: {types} (default {default})").format(
                       types=", ".join(TYPES), default=kinds.C_SVC.option))
    add_options(p, tables())
    p.add_argument("--test-fraction", type=fraction, default=0.0, metavar="F",
                   help=tr("share of the points held out at random to measure test "
                           "accuracy, from 0 (default: train on all) to below 1"))
    sampling = catalog.TABLE.param("random_state").solvers or ("every solver",)
    p.add_argument("--seed", type=seed, default=0, metavar="N",
                   help=tr("seed of the test split and the random_state of solver "
                           "{solvers}: a non-negative integer (default 0, as the window's); "
                           "the same seed gives the same split").format(
                               solvers=", ".join(sampling)))
    p.add_argument("--cv", type=folds, default=None, metavar="K",
                   help=tr("also score the parameters by K-fold cross-validation on the "
                           "training points (stratified folds for classes, as "
                           "scikit-learn's StratifiedKFold(K, shuffle=True, "
                           "random_state=--seed); KFold for regression): accuracy, or R^2, "
                           "per fold with its mean and spread"))
    p.add_argument("--out", required=True, metavar="MODEL",
                   help=tr("the model file to write: .json (svmdesk) or .model (LIBSVM)"))
    p.add_argument("--script", metavar="SCRIPT",
                   help=tr("also write a Python script (.py) that reproduces this fit: the "
                           "points (beside it in SCRIPT.npz past 5,000), the exact "
                           "parameters and seed, the fit, its summary, and scikit-learn's "
                           "estimator of the same problem behind its own --sklearn"))


def run(args) -> int:
    out = Path(args.out)
    if out.suffix.lower() not in (".json", ".model"):
        raise ValueError(tr("--out {out}: the model file must end in .json (svmdesk's "
                            "model) or .model (LIBSVM's)").format(out=args.out))
    check_folder(out)
    script = None if args.script is None else Path(args.script)
    if script is not None:
        if script.suffix.lower() != ".py":
            raise ValueError(tr("--script {script}: the script must end in .py").format(
                script=args.script))
        check_folder(script)
    if args.cv is not None and kinds.by_option()[args.type].novelty:
        raise ValueError(tr("--cv scores a model against classes or targets; a one-class "
                            "model has neither"))
    task = _TASKS[kinds.by_option()[args.type].task](args)
    every = tuple(dict.fromkeys(name for table in tables().values() for name in table.names))
    params = chosen(args, tables()[args.type], task.classes, args.type, every)
    estimator = estimators()[args.type](**params)
    start = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        estimator.fit(*task.training())
    elapsed = time.perf_counter() - start
    if args.cv is not None:
        X, y = task.training()           # points and labels (a one-class task has no --cv)
        task.cross_validated = cross_validate(estimators()[args.type](**params), X, y,
                                              folds=args.cv, seed=args.seed)
    written = ([save_model(estimator, out)] if out.suffix.lower() == ".json"
               else export_libsvm(estimator, out))
    scripts = []
    if script is not None:
        X_train, y_train, X_test, y_test = task.script_data()
        scripts = write_script(script, estimators()[args.type](**params), X_train, y_train,
                               X_test, y_test, fit_path="fit",
                               title=f"svmdesk train {Path(args.data).name}")
    print(summary(args, params, task, estimator, elapsed, written, scripts))
    for w in caught:
        print(warning_line(w.message), file=sys.stderr)
    return EXIT_OK


class _Task:
    """The data of one kind of training, split into training and test points: what fit
    takes, and the summary's lines of what the model does with them."""

    classes: np.ndarray | tuple = ()
    cross_validated: CVResult | None = None   # --cv's result
    scored_by = ""                    # what cross-validation scores

    def __init__(self, args, X: np.ndarray, names: list) -> None:
        self.X, self.names = X, names
        self.train, self.test = split(len(X), args.test_fraction, args.seed)

    def training(self) -> tuple:
        return (self.X[self.train],)

    def lines(self, estimator) -> list:
        return []

    def script_data(self) -> tuple:
        """(X, y, X_test, y_test) of the fit's script (y None: no labels)."""
        return self.X[self.train], None, self.X[self.test], None


class _Classification(_Task):
    scored_by = N_("accuracy")

    def __init__(self, args) -> None:
        data = load_dataset(args.data)
        super().__init__(args, data.X, list(data.feature_names))
        self.classes = class_labels(data.class_names)
        self.labels = self.classes[np.asarray(data.y)]
        if len(np.unique(self.labels[self.train])) < 2:
            raise DataError(too_few_classes(Path(args.data).name, len(self.train),
                                            args.test_fraction))

    def training(self) -> tuple:
        return self.X[self.train], self.labels[self.train]

    def script_data(self) -> tuple:
        return (self.X[self.train], self.labels[self.train], self.X[self.test],
                self.labels[self.test])

    def lines(self, svc) -> list:
        counts = {c: int(np.sum(self.labels == c)) for c in svc.classes_.tolist()}
        held = tr(", ").join(tr("{label} ({n} points)").format(label=c, n=n)
                             for c, n in counts.items())
        support = tr(", ").join(tr("class {label}: {n}").format(label=c, n=int(n))
                                for c, n in zip(svc.classes_.tolist(), svc.n_support_))
        return [
            (tr("classes"), f"{len(counts)}: {held}"),
            (tr("support vectors"), f"{int(np.sum(svc.n_support_))} ({support})"),
            (tr("accuracy"), _both(self, lambda rows: _percent(svc.score(
                self.X[rows], self.labels[rows])))),
        ]


class _Novelty(_Task):
    def __init__(self, args) -> None:
        super().__init__(args, *load_unlabelled(args.data))

    def lines(self, model) -> list:
        return [(tr("support vectors"), str(len(model.support_))),
                (tr("outside (f < 0)"), _both(self, lambda rows: _percent(
                    float(np.mean(model.predict(self.X[rows]) < 0)))))]


class _Regression(_Task):
    scored_by = "R^2"

    def __init__(self, args) -> None:
        X, self.z, names = load_targets(args.data)
        super().__init__(args, X, names)

    def training(self) -> tuple:
        return self.X[self.train], self.z[self.train]

    def script_data(self) -> tuple:
        return self.X[self.train], self.z[self.train], self.X[self.test], self.z[self.test]

    def lines(self, model) -> list:
        return [(tr("targets"), tr("{low} to {high}").format(low=f"{self.z.min():.6g}",
                                                            high=f"{self.z.max():.6g}")),
                (tr("support vectors"), str(len(model.support_))),
                (tr("tube"), f"epsilon {model.epsilon_:.6g}"),
                ("R^2", _both(self, lambda rows: f"{model.score(self.X[rows], self.z[rows]):.4f}"))]


_TASKS = {kinds.CLASSIFICATION: _Classification, kinds.NOVELTY: _Novelty,
          kinds.REGRESSION: _Regression}


def _both(task: _Task, measure) -> str:
    """'train M, test M' (test: '-' without test points)."""
    test = (measure(task.test) if len(task.test)
            else tr("- (no test points; see --test-fraction)"))
    return tr("train {train}, test {test}").format(train=measure(task.train), test=test)


def too_few_classes(name: str, training: int, fraction: float) -> str:
    return tr("{name}: the {n} training points left by --test-fraction {fraction} hold fewer "
              "than two classes; use a smaller test fraction or another --seed").format(
                  name=name, n=training, fraction=f"{fraction:g}")



def split(n: int, fraction: float, seed: int):
    """Indices of the training and the test points: round(fraction * n) points drawn by
    the seed are held out, as the window's test fraction does."""
    k = int(round(fraction * n))
    order = np.random.default_rng(seed).permutation(n)
    return np.sort(order[k:]), np.sort(order[:k])


def summary(args, params, task, model, elapsed, written, scripts=()) -> str:
    machines = len(model.model_.machines)
    iterations = np.atleast_1d(model.n_iter_).tolist()
    objective = np.atleast_1d(model.objective_).tolist()
    table = tables()[args.type]
    kind = table.solvers[params["solver"]].objective
    test = task.test
    held = (tr("{n} held out for testing (fraction {fraction}, seed {seed})").format(
        n=len(test), fraction=f"{args.test_fraction:g}", seed=args.seed)
        if len(test) else tr("none held out"))
    machines_used = "" if machines == 1 else tr(", {n} one-vs-one machines").format(n=machines)
    lines = [
        (tr("data"), f"{args.data}"),
        (tr("type"), args.type),
        (tr("points"), tr("{n}: {training} for training, {held}").format(
            n=len(task.X), training=len(task.train), held=held)),
        (tr("features"), f"{task.X.shape[1]}: {', '.join(task.names)}"),
        (tr("solver"), params["solver"] + machines_used),
        (tr("kernel"), f"{params['kernel']}  {trained_with(params, model, table)}"),
        (tr("iterations"), _listed(iterations, machines, total=True)),
        (tr("objective"), f"{_listed(objective, machines)} ({tr(kind)})"),
        (tr("converged"), tr("yes") if model.converged_ else tr(
            "no (the iteration budget ran out first; see the warning below)")),
        *task.lines(model),
        *_cross_validation(task, args),
        (tr("time"), tr("{seconds} s").format(seconds=f"{elapsed:.3f}")),
        (tr("model"), ", ".join(str(p) for p in written)),
        *([(tr("script"), ", ".join(str(p) for p in scripts))] if scripts else []),
    ]
    return labelled_lines(lines)


def _cross_validation(task: _Task, args) -> list:
    """--cv's line: the mean score and its spread, then each fold's."""
    cv = task.cross_validated
    if cv is None:
        return []
    folds = ", ".join(f"{s:.4f}" for s in cv.scores)
    return [(tr("cross-validated"), tr(
        "{score} {mean} ± {std} over {k} folds of the training points (seed {seed}; per "
        "fold: {folds}; fit {seconds} s in all)").format(
            score=tr(task.scored_by), mean=f"{cv.mean:.4f}", std=f"{cv.std:.4f}",
            k=len(cv.scores), seed=args.seed, folds=folds,
            seconds=f"{sum(cv.fit_times):.3f}"))]


def _listed(values: list, machines: int, total: bool = False) -> str:
    if machines == 1:
        return _num(values[0])
    shown = ", ".join(_num(v) for v in values[:SHOWN_VALUES])
    shown += ", ..." if len(values) > SHOWN_VALUES else ""
    each = tr("per machine: {values}").format(values=shown)
    return tr("{total} in all; {each}").format(total=_num(sum(values)), each=each) if total \
        else each


def _num(v) -> str:
    return str(v) if isinstance(v, int) else f"{v:.6g}"


def _percent(v: float) -> str:
    return f"{100 * v:.1f} %"
