"""Badly scaled data: svmdesk's SMO against LIBSVM (scikit-learn's SVC), the time to a
converged model or, for svmdesk, to the warning that stops a run making too little progress.

    python bench/bench_scaled.py [--repeats 3] [--cap 120]

Each LIBSVM run is a subprocess killed after `cap` seconds (reported as "> cap s"); a run
that hit the cap is not repeated. Times are medians of `repeats` runs. Prints a Markdown
table.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
import warnings

import numpy as np
from sklearn.datasets import load_breast_cancer, make_classification, make_moons

from svmdesk.core import SVC, ConvergenceWarning


def _classification_times(factor: float):
    X, y = make_classification(1000, 5, n_informative=3, random_state=0)
    X[:, 0] *= factor
    return X, y


CASES = {   # name: (data, parameters shared by both solvers)
    "make_classification(1000, 5), column 0 x 30, linear, C=100":
        (lambda: _classification_times(30.0), dict(kernel="linear", C=100.0)),
    "make_classification(1000, 5), column 0 x 1000, rbf, C=10":
        (lambda: _classification_times(1000.0), dict(kernel="rbf", C=10.0)),
    "breast_cancer unscaled, poly, gamma='auto'":
        (lambda: load_breast_cancer(return_X_y=True), dict(kernel="poly", gamma="auto")),
    "moons(1000) x 50, rbf, C=1":
        (lambda: (make_moons(1000, noise=0.2, random_state=0)[0] * 50,
                  make_moons(1000, noise=0.2, random_state=0)[1]), dict(kernel="rbf")),
    "moons(1000), rbf, C=1000":
        (lambda: make_moons(1000, noise=0.2, random_state=0), dict(kernel="rbf", C=1000.0)),
}

LIBSVM_RUN = """
import sys, time, pickle
from sklearn.svm import SVC
X, y, params = pickle.load(sys.stdin.buffer)
start = time.perf_counter()
model = SVC(**params).fit(X, y)
print(time.perf_counter() - start, model.fit_status_)
"""


def svmdesk_run(X, y, params) -> tuple[float, str]:
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always", ConvergenceWarning)
        start = time.perf_counter()
        model = SVC(**params).fit(X, y)
        seconds = time.perf_counter() - start
    if model.converged_:
        return seconds, "converged"
    said = [str(w.message) for w in heard if issubclass(w.category, ConvergenceWarning)]
    return seconds, "warned: " + (said[0][:60] + "..." if said else "?")


def libsvm_run(X, y, params, cap: float) -> tuple[float, str]:
    import pickle

    try:
        out = subprocess.run([sys.executable, "-c", LIBSVM_RUN], input=pickle.dumps(
            (X, y, params)), capture_output=True, timeout=cap, check=True)
    except subprocess.TimeoutExpired:
        return cap, "capped"
    seconds, status = out.stdout.split()
    return float(seconds), "converged" if status == b"0" else f"fit_status_ {status.decode()}"


def median_of(run, run_args: tuple, repeats: int) -> tuple[float, str]:
    results = []
    for _ in range(repeats):
        results.append(run(*run_args))
        if results[-1][1] == "capped":
            break
    return statistics.median(r[0] for r in results), results[-1][1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=float, default=120.0)
    args = parser.parse_args()
    print("| case | svmdesk SMO | LIBSVM |")
    print("|---|---|---|")
    for name, (data, params) in CASES.items():
        X, y = data()
        X = np.ascontiguousarray(X, dtype=np.float64)
        ours, our_end = median_of(svmdesk_run, (X, y, params), args.repeats)
        theirs, their_end = median_of(libsvm_run, (X, y, params, args.cap), args.repeats)
        theirs_text = f"> {args.cap:.0f} s (capped)" if their_end == "capped" else \
            f"{theirs:.2f} s, {their_end}"
        print(f"| {name} | {ours:.2f} s, {our_end} | {theirs_text} |", flush=True)


if __name__ == "__main__":
    main()
