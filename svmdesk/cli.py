"""svmdesk's command line: open the window, or train, predict and render headless.

`svmdesk` alone, or with one data file, opens the window (svmdesk.app.main). A subcommand
runs without a display: `train` fits an SVC and writes a model file, `predict` prints CSV
predictions of a JSON model, `render` draws the canvas into a PNG or SVG file (Qt is
imported there only, on the offscreen platform). Exit codes: 0 success, 2 bad input or
usage, 1 anything else; errors are one line on stderr unless --debug asks for the traceback.
"""
from __future__ import annotations

import argparse
import csv
import math
import os
import sys
import time
import traceback
import warnings
from pathlib import Path

import numpy as np

from .core import SOLVERS, SVC, ConvergenceWarning, DataError
from .formats import export_libsvm, load_model, save_model
from .core.datasets import class_labels
from .formats.points import load_dataset, match_labels
from .core.kernels import KERNELS

PROG = "svmdesk"
COMMANDS = ("train", "predict", "render")
EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2
# bad input: the user can fix it (exit 2); anything else is a failure (exit 1)
BAD_INPUT = (ValueError, FileNotFoundError, IsADirectoryError, NotADirectoryError,
             PermissionError)
DUAL_SOLVERS = ("smo", "dual-gradient")   # their objective_ is the dual; the others' the primal
MAX_CLASSES = 8              # the canvas draws at most 8 classes
RENDER_WIDTH = (200, 8000)   # pixels
SHOWN_VALUES = 6             # per-machine values listed in the summary

EXIT_CODES = """\
exit codes:
  0  success
  2  bad input or usage: unknown option, bad parameter value, missing or unreadable
     file, a data or model file that cannot be used
  1  anything else (an unexpected failure; rerun with --debug for the traceback)
  130  interrupted (Ctrl+C)
Errors are one line on stderr, "svmdesk: error: ...".  --debug (before or after the
command) prints the Python traceback as well."""

DATA_FORMATS = """\
data files:
  CSV (.csv .tsv): ',', ';' or tab separated, a header row or none, UTF-8 or
  Shift-JIS; the last column is the label (text or numbers), every other column a
  feature.  LIBSVM/svmlight (.libsvm .svm .svmlight): 'label index:value ...' lines.
  Other extensions (.txt, .dat, ...) are read by their content: LIBSVM lines as
  LIBSVM, the rest as CSV.  train uses every feature column."""

MAIN_HELP = f"""\
A desktop lab for support vector machines.  Without a command, svmdesk opens the
window (on FILE when given: a session .svmdesk, a JSON model .json, or a CSV or LIBSVM
data file).  The commands run without a display, for scripts:

  train    fit an SVM to a data file and save the model (JSON or LIBSVM)
  predict  print the predictions of a saved model for a data file, as CSV
  render   draw the points (and a model's regions, boundary, margins and support
           vectors) into a PNG or SVG image

'svmdesk COMMAND --help' describes each command's options.

{DATA_FORMATS}

{EXIT_CODES}

examples:
  svmdesk                                   open the window
  svmdesk points.csv                        open the window on points.csv
  svmdesk lab.svmdesk                       reopen a saved session
  svmdesk train moons.csv --kernel rbf -C 10 --test-fraction 0.2 --out moons.json
  svmdesk predict moons.json new_points.csv > predictions.csv
  svmdesk render moons.csv --model moons.json --out moons.png"""

TRAIN_HELP = f"""\
Fit an SVM (svmdesk.core.SVC) to DATA, holding out a seeded random test fraction, save
the model to --out and print a summary: data file, points, classes, solver, kernel and
parameters, iterations, objective, convergence, support vectors per class, train and
test accuracy, time.

Class labels: when every class name is an integer (such as 1 and -1, or 0, 1, 2) the
model's labels are those integers, else the class names as text.

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

PREDICT_HELP = f"""\
Print the predictions of MODEL for the points of DATA as CSV on stdout: the feature
columns (with their names), then 'label', the predicted class, then the decision
values:
  two classes:   one column 'decision', f(x); f(x) > 0 predicts the model's second
                 class (in sorted order), f(x) < 0 the first
  K classes:     one column per one-vs-one machine, 'decision_A_vs_B' for each pair of
                 classes A before B (in sorted order, as scikit-learn's 'ovo' shape);
                 a positive value is a vote for A; the label is the class with the most
                 votes (ties go to the earlier class, as in libsvm)

MODEL is an svmdesk JSON model (from 'svmdesk train --out FILE.json' or svmdesk.formats.save_model).
LIBSVM .model files are refused: use libsvm's svm-predict for them.

DATA holds the model's features in the same order, optionally followed by a label
column (ignored): a CSV file with exactly as many columns as the model has features has
no label column; with one more, the last is the label.  In a LIBSVM file features
missing at the end are 0.

{DATA_FORMATS}

{EXIT_CODES}

example:
  svmdesk predict moons.json new_points.csv > predictions.csv"""

RENDER_HELP = f"""\
Draw what svmdesk's canvas shows into an image file, without a display: the points of
DATA (one colour and marker per class, a legend, axes named after the feature columns),
in a view fitted to them, and with --model the model's decision regions, boundary
f(x) = 0 (solid), margins f(x) = +-1 (dashed) and support vectors (rings: circles free,
red squares bounded).  Data with more than two features shows its first two (a model
must have exactly two).  The image is W pixels wide and 3/4 of that high.

{DATA_FORMATS}

{EXIT_CODES}

example:
  svmdesk render moons.csv --model moons.json --out moons.png --width 1600"""


# ============================================================================ entry point
def main(argv=None) -> int:
    """Run the command line; returns the exit code (argv: the arguments after the program
    name, default sys.argv[1:])."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if opens_window(argv):
        from .app import main as open_window

        return open_window([sys.argv[0] if sys.argv and sys.argv[0] else PROG, *argv])
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:      # stdout closed early (| head): not an error of ours
        _silence_stdout()
        return EXIT_FAILURE
    except Exception as e:       # noqa: BLE001 - every error becomes one line and a code
        return report_error(e, args.debug)


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
    print(f"{PROG}: error: {' '.join(message.split())}", file=sys.stderr)
    return EXIT_USAGE if bad_input else EXIT_FAILURE


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


# ============================================================================ the parser
class _Parser(argparse.ArgumentParser):
    """Usage errors as one line ("svmdesk: error: ...") and exit code 2."""

    def error(self, message):
        self.exit(EXIT_USAGE, f"{PROG}: error: {message}; see '{self.prog} --help'\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description=MAIN_HELP,
                     formatter_class=argparse.RawDescriptionHelpFormatter,
                     usage=f"{PROG} [-h] [--version] [--debug] {{train,predict,render}} ...\n"
                           f"       {PROG} [FILE]")
    parser.add_argument("--version", action="version", version=f"{PROG} {_version()}")
    parser.add_argument("--debug", action="store_true",
                        help="on an error, print the Python traceback too")
    commands = parser.add_subparsers(dest="command", metavar="{train,predict,render}",
                                     required=True)
    _train_parser(commands)
    _predict_parser(commands)
    _render_parser(commands)
    return parser


def _command(commands, name: str, summary: str, description: str, run):
    sub = commands.add_parser(name, prog=f"{PROG} {name}", help=summary,
                              description=description,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    sub.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                     help="on an error, print the Python traceback too")
    sub.set_defaults(run=run)
    return sub


def _train_parser(commands) -> None:
    p = _command(commands, "train", "fit an SVM to a data file and save the model",
                 TRAIN_HELP, run_train)
    p.add_argument("data", metavar="DATA", help="the training points (CSV or LIBSVM file)")
    p.add_argument("--solver", choices=tuple(SOLVERS), default="smo", metavar="S",
                   help="smo (default; libsvm's SMO), dual-gradient, kernel-gradient (all "
                        "kernels), primal-subgradient or pegasos (linear kernel only)")
    p.add_argument("--kernel", choices=KERNELS, default="rbf", metavar="K",
                   help="linear, poly ((gamma <x,x'> + coef0)^degree), rbf (default; "
                        "exp(-gamma ||x-x'||^2)) or sigmoid (tanh(gamma <x,x'> + coef0))")
    p.add_argument("-C", type=_c_value, default=1.0, metavar="C",
                   help="the soft-margin penalty: a positive number (default 1), or 'inf' "
                        "or 'none' for the hard margin")
    p.add_argument("--gamma", type=_gamma_value, default="scale", metavar="G",
                   help="the kernel width (poly, rbf, sigmoid): 'scale' (default; "
                        "1 / (features * variance of X)), 'auto' (1 / features) or a "
                        "positive number")
    p.add_argument("--degree", type=int, default=3, metavar="D",
                   help="the poly kernel's degree, a positive integer (default 3)")
    p.add_argument("--coef0", type=float, default=0.0, metavar="R",
                   help="the poly and sigmoid kernels' constant term (default 0)")
    p.add_argument("--tol", type=float, default=1e-3, metavar="T",
                   help="the stopping tolerance, a positive number (default 0.001)")
    p.add_argument("--max-iter", type=int, default=None, metavar="N",
                   help="the iteration budget per machine (default: the solver's own)")
    p.add_argument("--learning-rate", type=float, default=None, metavar="LR",
                   help="the step size of the gradient solvers (default: a safe automatic "
                        "step)")
    p.add_argument("--batch-size", type=int, default=None, metavar="B",
                   help="pegasos' mini-batch size (default: the solver's own)")
    p.add_argument("--standardize", action="store_true",
                   help="scale every feature to mean 0 and standard deviation 1 before the "
                        "kernel (the model applies it to new points itself)")
    p.add_argument("--test-fraction", type=_fraction, default=0.0, metavar="F",
                   help="share of the points held out at random to measure test accuracy, "
                        "from 0 (default: train on all) to below 1")
    p.add_argument("--seed", type=_seed, default=0, metavar="N",
                   help="seed of the test split and of pegasos' sampling, a non-negative "
                        "integer (default 0, as the window's); the same seed gives the same "
                        "split")
    p.add_argument("--out", required=True, metavar="MODEL",
                   help="the model file to write: .json (svmdesk) or .model (LIBSVM)")


def _predict_parser(commands) -> None:
    p = _command(commands, "predict", "print a saved model's predictions for a data file "
                 "as CSV", PREDICT_HELP, run_predict)
    p.add_argument("model", metavar="MODEL", help="an svmdesk JSON model file")
    p.add_argument("data", metavar="DATA",
                   help="the points to classify (CSV or LIBSVM file; label column optional)")


def _render_parser(commands) -> None:
    p = _command(commands, "render", "draw the points and a model into a PNG or SVG image",
                 RENDER_HELP, run_render)
    p.add_argument("data", metavar="DATA", help="the points to draw (CSV or LIBSVM file)")
    p.add_argument("--model", metavar="MODEL", default=None,
                   help="an svmdesk JSON model with two features to draw with the points "
                        "(default: the points only)")
    p.add_argument("--out", required=True, metavar="FILE",
                   help="the image to write: FILE.png or FILE.svg")
    p.add_argument("--width", type=_width, default=1200, metavar="W",
                   help=f"the image width in pixels, {RENDER_WIDTH[0]} to {RENDER_WIDTH[1]} "
                        "(default 1200); the height is 3/4 of it")


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("svmdesk")
    except Exception:  # noqa: BLE001 - not installed: running from a checkout
        return "(not installed)"


# -- option values ----------------------------------------------------------------------
def _c_value(text: str):
    if text.strip().lower() in ("inf", "none", "infinity"):
        return None
    return _number(text, "a positive number, or 'inf' or 'none' for the hard margin")


def _gamma_value(text: str):
    if text in ("scale", "auto"):
        return text
    return _number(text, "'scale', 'auto' or a positive number")


def _fraction(text: str) -> float:
    value = _number(text, "a number from 0 to below 1")
    if not 0.0 <= value < 1.0:
        raise argparse.ArgumentTypeError(f"must be from 0 to below 1; got {text!r}")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer; got {text!r}")
    return value


def _width(text: str) -> int:
    lo, hi = RENDER_WIDTH
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not lo <= value <= hi:
        raise argparse.ArgumentTypeError(f"must be a whole number of pixels from {lo} to "
                                         f"{hi}; got {text!r}")
    return value


def _number(text: str, allowed: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be {allowed}; got {text!r}") from None
    if math.isnan(value):
        raise argparse.ArgumentTypeError(f"must be {allowed}; got {text!r}")
    return value


# ============================================================================ train
def run_train(args) -> int:
    out = Path(args.out)
    if out.suffix.lower() not in (".json", ".model"):
        raise ValueError(f"--out {args.out}: the model file must end in .json (svmdesk's "
                         "model) or .model (LIBSVM's)")
    _check_folder(out)
    data = load_dataset(args.data)
    labels = class_labels(data.class_names)[np.asarray(data.y)]
    train, test = split(len(labels), args.test_fraction, args.seed)
    if len(np.unique(labels[train])) < 2:
        raise DataError(f"{Path(args.data).name}: the {len(train)} training points left by "
                        f"--test-fraction {args.test_fraction:g} hold fewer than two classes; "
                        "use a smaller test fraction or another --seed")
    svc = SVC(solver=args.solver, kernel=args.kernel, C=args.C, gamma=args.gamma,
              degree=args.degree, coef0=args.coef0, tol=args.tol, max_iter=args.max_iter,
              learning_rate=args.learning_rate, batch_size=args.batch_size,
              standardize=args.standardize, random_state=args.seed)
    start = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        svc.fit(data.X[train], labels[train])
    elapsed = time.perf_counter() - start
    written = [save_model(svc, out)] if out.suffix.lower() == ".json" else export_libsvm(svc, out)
    print(summary(args, data, labels, train, test, svc, elapsed, written))
    for w in caught:
        print(f"{PROG}: warning: {' '.join(str(w.message).split())}", file=sys.stderr)
    return EXIT_OK


def _check_folder(path: Path) -> None:
    folder = path.parent
    if not folder.is_dir():
        raise FileNotFoundError(f"cannot write {path}: the folder {folder} does not exist")


def split(n: int, fraction: float, seed: int):
    """Indices of the training and the test points: round(fraction * n) points drawn by
    the seed are held out, as the window's test fraction does."""
    k = int(round(fraction * n))
    order = np.random.default_rng(seed).permutation(n)
    return np.sort(order[k:]), np.sort(order[:k])


def summary(args, data, labels, train, test, svc, elapsed, written) -> str:
    classes = svc.classes_
    counts = {c: int(np.sum(labels == c)) for c in classes.tolist()}
    machines = len(svc.model_.machines)
    iterations = np.asarray(svc.n_iter_).tolist()
    objective = np.atleast_1d(svc.objective_).tolist()
    kind = "dual" if args.solver in DUAL_SOLVERS else "primal"
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
        ("kernel", f"{args.kernel}  {_kernel_params(args, svc)}"),
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


def _kernel_params(args, svc) -> str:
    parts = ["C=inf (hard margin)" if args.C is None else f"C={args.C:g}"]
    if args.kernel != "linear":
        gamma = (f"gamma={args.gamma} ({svc.gamma_:.6g})" if isinstance(args.gamma, str)
                 else f"gamma={svc.gamma_:.6g}")
        parts.append(gamma)
    if args.kernel == "poly":
        parts.append(f"degree={args.degree}")
    if args.kernel in ("poly", "sigmoid"):
        parts.append(f"coef0={args.coef0:g}")
    parts += [f"tol={args.tol:g}", f"standardize={'yes' if args.standardize else 'no'}"]
    for name in ("max_iter", "learning_rate", "batch_size"):
        if getattr(args, name) is not None:
            parts.append(f"{name}={getattr(args, name):g}")
    return "  ".join(parts)


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


# ============================================================================ predict
def run_predict(args) -> int:
    svc = read_model(args.model)
    X, names = read_points(args.data, svc.n_features_in_)
    labels = svc.predict(X)
    values = svc.decision_function(X)
    classes = [str(c) for c in svc.classes_.tolist()]
    if values.ndim == 1:
        values, columns = values[:, None], ["decision"]
    else:
        columns = [f"decision_{classes[m.positive]}_vs_{classes[m.negative]}"
                   for m in svc.model_.machines]
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow([*names, "label", *columns])
    for row, label, f in zip(X.tolist(), labels.tolist(), values.tolist()):
        writer.writerow([*row, label, *f])
    sys.stdout.flush()
    return EXIT_OK


def read_model(path) -> SVC:
    """A fitted SVC from an svmdesk JSON model; a LIBSVM model file gets a clear error."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            head = f.read(64).lstrip()
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no such model file") from None
    except IsADirectoryError:
        raise IsADirectoryError(f"{path} is a folder, not a model file") from None
    if head.startswith(b"svm_type"):
        raise DataError(f"{path.name} is a LIBSVM model; svmdesk reads its own JSON models "
                        "(svmdesk train --out MODEL.json): use libsvm's svm-predict for "
                        "LIBSVM models")
    return load_model(path)


def read_points(path, n_features: int):
    """The feature matrix and feature names of a data file for prediction.

    The reader is load_dataset's (its parts, so that errors name the file, line and column
    the same way), without its rule that the file holds two classes: a CSV file with
    exactly n_features columns has no label column, otherwise the last column is the label
    (ignored); a LIBSVM file's missing trailing features are 0."""
    from .formats import points as io

    path = Path(path)
    text = io._read_text(path)
    if io._is_libsvm(path, text):
        X, _, names = io._load_libsvm(text, path, None, None, None)
        if X.shape[1] < n_features:
            X = np.hstack([X, np.zeros((len(X), n_features - X.shape[1]))])
            names = [f"x{j}" for j in range(1, n_features + 1)]
        return _check_features(X, names, n_features, path, "")
    X, names = _unlabelled_csv(text, path, n_features)
    if X is None:
        X, _, names = io._load_csv(text, path, None, None, None)
    return _check_features(X, names, n_features, path, " besides the label (the last column)")


def _unlabelled_csv(text: str, path: Path, n_features: int):
    """(X, names) when the CSV file has exactly n_features columns, else (None, None)."""
    from .formats import points as io

    delimiter = "\t" if path.suffix.lower() == ".tsv" else io._guess_delimiter(text)
    rows = io._csv_rows(text, path, delimiter)
    if not rows:
        raise DataError(f"{path.name}: every row is empty: no points to load")
    header, rows = io._split_header(rows, path)
    width = len(header or rows[0][1])
    if width != n_features:
        return None, None
    io._check_widths(rows, width, header, delimiter, path)
    names = header or [f"x{j}" for j in range(1, width + 1)]
    where = [f"column '{n}'" for n in names] if header else \
        [f"column {c + 1}" for c in range(width)]
    X = np.array([[io._number(cell, path, line, where[c]) for c, cell in enumerate(cells)]
                  for line, cells in rows], dtype=np.float64).reshape(len(rows), width)
    return X, list(names)


def _check_features(X, names, n_features: int, path: Path, where: str):
    if X.shape[1] != n_features:
        raise DataError(f"{path.name} has {X.shape[1]} feature columns{where} "
                        f"({', '.join(names)}) but the model was trained on {n_features} "
                        "features; give the model's features in the same order")
    return X, list(names)


# ============================================================================ render
def run_render(args) -> int:
    out = Path(args.out)
    suffix = out.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise ValueError(f"--out {args.out}: the image file must end in .png or .svg")
    _check_folder(out)
    data = load_dataset(args.data)
    if len(data.class_names) > MAX_CLASSES:
        raise DataError(f"{Path(args.data).name} has {len(data.class_names)} classes; the "
                        f"canvas draws at most {MAX_CLASSES}")
    svc = None
    if args.model is not None:
        svc = read_model(args.model)
        if svc.n_features_in_ != 2:
            raise DataError(f"{Path(args.model).name} has {svc.n_features_in_} features; "
                            "render draws models of two features only")
        _check_features(data.X, data.feature_names, 2, Path(args.data), "")
    canvas = _draw(data, svc, args.width)
    from .app.pictures import save_picture
    save_picture(canvas, out, args.width)
    print(f"wrote {out}")
    return EXIT_OK


def _draw(data, svc, width: int):
    """The canvas with the points (and the model) drawn, sized width x 3/4 width."""
    os.environ["QT_QPA_PLATFORM"] = "offscreen"     # before Qt loads: no display needed
    import pyqtgraph as pg
    from PySide6.QtWidgets import QApplication

    pg.setConfigOptions(imageAxisOrder="row-major", antialias=True)   # as the window
    app = QApplication.instance() or QApplication([PROG])
    from .app.canvas import Canvas
    from .view.frames import model_frame
    from .view.grid import GridSpec

    codes, names = _colour_codes(data, svc)
    canvas = Canvas()
    canvas.setFixedSize(width, width * 3 // 4)
    canvas.set_points(data.X[:, :2], codes, np.zeros(len(codes), dtype=bool), names)
    canvas.set_axis_names(data.feature_names[:2])
    canvas.show()
    app.processEvents()
    canvas.fit_view()
    if svc is not None:
        (x0, x1), (y0, y1) = canvas.view.viewRange()
        grid = min(max(200, width // 4), 600)
        canvas.show_frame(model_frame(svc, data.X, codes, GridSpec(x0, x1, y0, y1, grid, grid)))
    app.processEvents()
    canvas._app = app        # keep the application alive as long as the canvas
    return canvas


def _colour_codes(data, svc):
    """Class index per point and the class names the canvas colours and labels them by:
    the data's classes, or with a model the model's classes (the data's other classes
    after them)."""
    if svc is None:
        return np.asarray(data.y, dtype=np.intp), list(data.class_names)
    names = [str(c) for c in svc.classes_.tolist()]
    of_class = match_labels(data.class_names, svc.classes_)
    for k in np.flatnonzero(of_class < 0):
        of_class[k] = len(names)
        names.append(str(data.class_names[k]))
    return of_class[np.asarray(data.y)], names


if __name__ == "__main__":
    sys.exit(main())
