"""`svmdesk train`: fit an SVC to a data file, write the model, print a summary."""
from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

import numpy as np

from ..core import SVC, ConvergenceWarning, DataError, catalog
from ..core.datasets import class_labels
from ..formats import export_libsvm, load_dataset, save_model
from .common import DATA_FORMATS, EXIT_CODES, EXIT_OK, PROG, check_folder, command, fraction, seed
from .options import add_options, chosen, trained_with

SHOWN_VALUES = 6             # per-machine values listed in the summary

TRAIN_HELP = f"""\
Fit an SVM (svmdesk.core.SVC) to DATA, holding out a seeded random test fraction, save
the model to --out and print a summary: data file, points, classes, solver, kernel and
parameters, iterations, objective, convergence, support vectors per class, train and
test accuracy, time.

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

{DATA_FORMATS}

{EXIT_CODES}

example:
  svmdesk train moons.csv --kernel rbf -C 10 --gamma 2 --test-fraction 0.2 --seed 1 \\
      --out moons.json"""


def add_parser(commands) -> None:
    p = command(commands, "train", "fit an SVM to a data file and save the model",
                 TRAIN_HELP, run)
    p.add_argument("data", metavar="DATA", help="the training points (CSV or LIBSVM file)")
    add_options(p, catalog.TABLE)
    p.add_argument("--test-fraction", type=fraction, default=0.0, metavar="F",
                   help="share of the points held out at random to measure test accuracy, "
                        "from 0 (default: train on all) to below 1")
    sampling = catalog.TABLE.param("random_state").solvers or ("every solver",)
    p.add_argument("--seed", type=seed, default=0, metavar="N",
                   help="seed of the test split and the random_state of solver "
                        f"{', '.join(sampling)}: a non-negative integer (default 0, as the "
                        "window's); the same seed gives the same split")
    p.add_argument("--out", required=True, metavar="MODEL",
                   help="the model file to write: .json (svmdesk) or .model (LIBSVM)")


def run(args) -> int:
    out = Path(args.out)
    if out.suffix.lower() not in (".json", ".model"):
        raise ValueError(f"--out {args.out}: the model file must end in .json (svmdesk's "
                         "model) or .model (LIBSVM's)")
    check_folder(out)
    data = load_dataset(args.data)
    labels = class_labels(data.class_names)[np.asarray(data.y)]
    train, test = split(len(labels), args.test_fraction, args.seed)
    if len(np.unique(labels[train])) < 2:
        raise DataError(f"{Path(args.data).name}: the {len(train)} training points left by "
                        f"--test-fraction {args.test_fraction:g} hold fewer than two classes; "
                        "use a smaller test fraction or another --seed")
    params = chosen(args, catalog.TABLE, class_labels(data.class_names))
    svc = SVC(**params)
    start = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        svc.fit(data.X[train], labels[train])
    elapsed = time.perf_counter() - start
    written = [save_model(svc, out)] if out.suffix.lower() == ".json" else export_libsvm(svc, out)
    print(summary(args, params, data, labels, train, test, svc, elapsed, written))
    for w in caught:
        print(f"{PROG}: warning: {' '.join(str(w.message).split())}", file=sys.stderr)
    return EXIT_OK


def split(n: int, fraction: float, seed: int):
    """Indices of the training and the test points: round(fraction * n) points drawn by
    the seed are held out, as the window's test fraction does."""
    k = int(round(fraction * n))
    order = np.random.default_rng(seed).permutation(n)
    return np.sort(order[k:]), np.sort(order[:k])


def summary(args, params, data, labels, train, test, svc, elapsed, written) -> str:
    classes = svc.classes_
    counts = {c: int(np.sum(labels == c)) for c in classes.tolist()}
    machines = len(svc.model_.machines)
    iterations = np.asarray(svc.n_iter_).tolist()
    objective = np.atleast_1d(svc.objective_).tolist()
    kind = catalog.TABLE.solvers[params["solver"]].objective
    held = (f"{len(test)} held out for testing (fraction {args.test_fraction:g}, seed "
            f"{args.seed})" if len(test) else "none held out")
    lines = [
        ("data", f"{args.data}"),
        ("points", f"{len(labels)}: {len(train)} for training, {held}"),
        ("features", f"{data.X.shape[1]}: {', '.join(data.feature_names)}"),
        ("classes", f"{len(classes)}: " + ", ".join(f"{c} ({n} points)"
                                                    for c, n in counts.items())),
        ("solver", args.solver + ("" if machines == 1 else
                                  f", {machines} one-vs-one machines")),
        ("kernel", f"{args.kernel}  {trained_with(params, svc, catalog.TABLE)}"),
        ("iterations", _listed(iterations, machines, total=True)),
        ("objective", f"{_listed(objective, machines)} ({kind})"),
        ("converged", "yes" if svc.converged_ else "no (the iteration budget ran out "
                                                    "first; see the warning below)"),
        ("support vectors", f"{int(np.sum(svc.n_support_))} (" + ", ".join(
            f"class {c}: {int(n)}" for c, n in zip(classes.tolist(), svc.n_support_)) + ")"),
        ("accuracy", f"train {_percent(svc.score(data.X[train], labels[train]))}, test "
                     + (_percent(svc.score(data.X[test], labels[test])) if len(test)
                        else "- (no test points; see --test-fraction)")),
        ("time", f"{elapsed:.3f} s"),
        ("model", ", ".join(str(p) for p in written)),
    ]
    width = max(len(name) for name, _ in lines)
    return "\n".join(f"{name + ':':<{width + 2}}{value}" for name, value in lines)


def _listed(values: list, machines: int, total: bool = False) -> str:
    if machines == 1:
        return _num(values[0])
    shown = ", ".join(_num(v) for v in values[:SHOWN_VALUES])
    shown += ", ..." if len(values) > SHOWN_VALUES else ""
    head = f"{_num(sum(values))} in all; " if total else ""
    return f"{head}per machine: {shown}"


def _num(v) -> str:
    return str(v) if isinstance(v, int) else f"{v:.6g}"


def _percent(v: float) -> str:
    return f"{100 * v:.1f} %"
