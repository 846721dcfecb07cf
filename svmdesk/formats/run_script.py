"""A standalone Python script that reproduces a run: its points, its estimator's exact
parameters (seed included), the fit called as the run called it, and a summary; with
`--sklearn` scikit-learn's equivalent estimator fitted on the same points beside it, where
one exists. Written by File > Export Python script... and `svmdesk train --script`.

Every float is written with repr (nothing is rounded). Up to INLINE_POINTS points are
written into the script; more go to a NumPy file beside it (`<script>.npz`), which the
script reads by its own folder. The script imports svmdesk.core only (and scikit-learn
behind --sklearn); `--json` prints the summary as JSON, with every point's prediction, for
scripts and notebooks (`from run import fit` gives the fitted model).
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from ..core.estimators import SVC, SVR, NuSVC, NuSVR, OneClassSVM, TableEstimator
from ..i18n import tr
from .atomic import StrPath, write_atomic

INLINE_POINTS = 5000
PATHS = ("iter_fit", "fit")       # the window iterates every step; the command line fits
_ESTIMATORS = {cls.__name__: cls for cls in (SVC, NuSVC, OneClassSVM, SVR, NuSVR)}
# scikit-learn's parameters of the same problem: the kernel's, the box's, the tolerance
_SKLEARN_PARAMS = ("kernel", "C", "gamma", "degree", "coef0", "tol", "nu", "epsilon",
                   "class_weight", "probability", "decision_function_shape")


def python_value(v: Any) -> str:
    """`v` as Python source that evaluates to exactly `v` (repr; an infinite or NaN float
    as float('inf'), which repr does not write)."""
    if isinstance(v, float) and not math.isfinite(v):
        return f"float({str(v)!r})"
    if isinstance(v, np.generic):
        return python_value(v.item())
    if isinstance(v, dict):
        return "{" + ", ".join(f"{python_value(k)}: {python_value(x)}"
                               for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        inner = ", ".join(python_value(x) for x in v)
        return f"[{inner}]" if isinstance(v, list) else f"({inner}{',' if len(v) == 1 else ''})"
    return repr(v)


def _array(values: np.ndarray) -> str:
    """A NumPy array's source: np.array([...]) of repr'd items, a line a row."""
    values = np.asarray(values)
    if values.ndim == 2 and not len(values):
        return f"np.empty((0, {values.shape[1]}))"
    if values.ndim == 2:
        rows = ",\n    ".join(python_value(row.tolist()) for row in values)
        return f"np.array([\n    {rows},\n], dtype=float).reshape(-1, {values.shape[1]})"
    return f"np.array({python_value(values.tolist())})"


def script_text(estimator: TableEstimator, X: np.ndarray, y: np.ndarray | None = None,
                X_test: np.ndarray | None = None, y_test: np.ndarray | None = None,
                path: str = "iter_fit", data_file: str | None = None,
                title: str = "") -> str:
    """The script of a run: `estimator` (unfitted, its parameters the run's) fitted on X
    (and y: labels or targets; None for a one-class SVM) by `path` ("iter_fit": every
    step, as the window; "fit": as the command line). `X_test`, `y_test`: the held-out
    points it is scored on. `data_file`: the .npz the points are in (more than
    INLINE_POINTS of them), read from the script's folder."""
    if path not in PATHS:
        raise ValueError(tr("path must be one of {paths}; got {path!r}").format(paths=PATHS,
                                                                                path=path))
    name = type(estimator).__name__
    if name not in _ESTIMATORS:
        raise ValueError(tr("no script for a {name}").format(name=name))
    params = estimator.get_params()
    has_y = y is not None
    lines = [
        "#!/usr/bin/env python",
        f'"""{title or "A svmdesk run"}, reproduced: the same points, the same '
        "parameters, the same fit.",
        "",
        "    python this_script.py            svmdesk's fit and its summary",
        "    python this_script.py --sklearn  and scikit-learn's equivalent beside it",
        "    python this_script.py --json     the summary as JSON, every point's prediction",
        "",
        "In a notebook: `from this_script import fit` (renamed as you saved it); fit()",
        'returns the fitted model."""',
        "import argparse",
        "import json",
        "from pathlib import Path",
        "",
        "import numpy as np",
        "",
        f"from svmdesk.core import {name}",
        "",
    ]
    if data_file is None:
        lines += [f"X = {_array(X)}"]
        lines += ["y = None" if y is None else f"y = {_array(y)}"]
        held = X_test if X_test is not None else np.empty((0, np.shape(X)[1]))
        lines += [f"X_test = {_array(held)}"]
        lines += [f"y_test = {_array(y_test)}" if y_test is not None and has_y
                  else "y_test = None"]
    else:
        lines += [
            f"_DATA = np.load(Path(__file__).with_name({data_file!r}), allow_pickle=False)",
            'X, X_test = _DATA["X"], _DATA["X_test"]',
            'y = _DATA["y"] if "y" in _DATA else None',
            'y_test = _DATA["y_test"] if "y_test" in _DATA else None',
        ]
    fit_call = {"iter_fit": ["    for _step in model.iter_fit(*data, every=1):"
                             "   # every step, as the window's run",
                             "        pass"],
                "fit": ["    model.fit(*data)"]}[path]
    lines += [
        "",
        f"PARAMS = {python_value(params)}",
        "",
        "",
        "def fit():",
        f'    """svmdesk\'s {name}, fitted as the run fitted it."""',
        f"    model = {name}(**PARAMS)",
        "    data = (X,) if y is None else (X, y)",
        *fit_call,
        "    return model",
        "",
        "",
        _SUMMARY,
        "",
        "",
        _sklearn_function(name, params),
        "",
        "",
        _MAIN,
        "",
    ]
    return "\n".join(lines)


_SUMMARY = '''def summary(model):
    """What the run reports: iterations, objective, support vectors, and the scores on
    the training and held-out points (accuracy; R^2 for a regressor; the share of
    points outside for a one-class SVM)."""
    said = {"estimator": type(model).__name__,
            "iterations": np.asarray(getattr(model, "n_iter_", 0)).tolist(),
            "objective": np.asarray(getattr(model, "objective_", float("nan"))).tolist(),
            "support_vectors": int(len(model.support_))}
    for part, (points, values) in {"train": (X, y), "test": (X_test, y_test)}.items():
        if len(points) == 0:
            continue
        if values is None:       # a one-class SVM: the share of points it puts outside
            said[part + "_outside"] = float(np.mean(model.predict(points) < 0))
        else:
            said[part + "_score"] = float(model.score(points, values))
    return said'''

_MAIN = '''def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sklearn", action="store_true",
                        help="fit scikit-learn's equivalent estimator too")
    parser.add_argument("--json", action="store_true",
                        help="print the summary as JSON, with every point's prediction")
    args = parser.parse_args()
    model = fit()
    said = summary(model)
    if args.json:
        points = np.vstack([X, X_test]) if len(X_test) else X
        said["predictions"] = model.predict(points).tolist()
    if args.sklearn:
        theirs = sklearn_estimator()
        if theirs is None:
            said["sklearn"] = "no scikit-learn estimator solves this problem"
        else:
            theirs.fit(*((X,) if y is None else (X, y)))
            said["sklearn"] = summary_of_sklearn(theirs)
    if args.json:
        print(json.dumps(said))
    else:
        for key, value in said.items():
            print(f"{key:>16}: {value}")


def summary_of_sklearn(model):
    estimator = model[-1] if hasattr(model, "steps") else model
    said = {"estimator": type(estimator).__name__,
            "support_vectors": int(len(estimator.support_))}
    for part, (points, values) in {"train": (X, y), "test": (X_test, y_test)}.items():
        if len(points) and values is not None:
            said[part + "_score"] = float(model.score(points, values))
    return said


if __name__ == "__main__":
    main()'''


def _sklearn_function(name: str, params: dict) -> str:
    """The source of sklearn_estimator(): scikit-learn's estimator of the same problem
    (LIBSVM's), or None where it has none: a hard margin (C = inf), or a solver's own
    problem that LIBSVM does not solve (the primal solvers' objective is LIBSVM's too:
    every svmdesk solver solves LIBSVM's problem, so only C = inf is left out)."""
    C = params.get("C")
    if isinstance(C, float) and math.isinf(C):
        return ('def sklearn_estimator():\n    """None: scikit-learn has no hard margin '
                '(C = inf)."""\n    return None')
    theirs = {k: v for k, v in params.items() if k in _SKLEARN_PARAMS}
    if name in ("OneClassSVM", "SVR", "NuSVR"):
        theirs.pop("class_weight", None)
        theirs.pop("probability", None)
        theirs.pop("decision_function_shape", None)
    if name == "SVR":
        theirs.pop("nu", None)
    if not theirs.get("probability"):          # deprecated in scikit-learn's newest
        theirs.pop("probability", None)
    theirs["max_iter"] = -1 if not params.get("max_iter") else int(params["max_iter"])
    body = ["    from sklearn import svm",
            f"    model = svm.{name}(**{python_value(theirs)})"]
    if params.get("standardize"):
        body += ["    from sklearn.pipeline import make_pipeline",
                 "    from sklearn.preprocessing import StandardScaler",
                 "    return make_pipeline(StandardScaler(), model)"]
    else:
        body += ["    return model"]
    return ("def sklearn_estimator():\n    \"\"\"scikit-learn's estimator of the same "
            "problem (LIBSVM's).\"\"\"\n" + "\n".join(body))


def write_script(path: StrPath, estimator: TableEstimator, X: np.ndarray,
                 y: np.ndarray | None = None, X_test: np.ndarray | None = None,
                 y_test: np.ndarray | None = None, fit_path: str = "iter_fit",
                 title: str = "") -> list:
    """Write the script (and, for more than INLINE_POINTS points, its .npz beside it);
    the paths written."""
    path = Path(path)
    n = len(X) + (0 if X_test is None else len(X_test))
    written = [path]
    data_file = None
    if n > INLINE_POINTS:
        data = path.with_suffix(".npz")
        arrays: dict[str, Any] = {"X": np.asarray(X, dtype=float),
                  "X_test": np.asarray(X_test if X_test is not None
                                       else np.empty((0, np.asarray(X).shape[1])), float)}
        if y is not None:
            arrays["y"] = np.asarray(y)
            arrays["y_test"] = np.asarray(y_test if y_test is not None else y[:0])
        with open(data, "wb") as f:
            np.savez(f, **arrays)
        data_file, written = data.name, [path, data]
    write_atomic(path, script_text(estimator, X, y, X_test, y_test, fit_path, data_file,
                                   title))
    return written
