"""svmdesk's SVC (SMO) in scikit-learn's tools against LIBSVM (scikit-learn's SVC): the score
each gets with the same parameters on the same folds, and the time ratio.

    python bench/bench_sklearn_tools.py [--repeats 5]

Prints a Markdown table (docs/benchmarks.md's). Score: the tool's mean accuracy (cross-validation),
the best mean score (grid search) or the largest mean importance (permutation importance).
Time: the median of `repeats` runs of the whole tool, svmdesk / LIBSVM.
"""
from __future__ import annotations

import argparse
import statistics
import time
import warnings

import numpy as np
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.inspection import permutation_importance
from sklearn.model_selection import (
    GridSearchCV,
    StratifiedKFold,
    cross_val_predict,
    cross_val_score,
)
from sklearn.multiclass import OneVsRestClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC as LibSVC

from svmdesk.core import SVC

FOLDS = StratifiedKFold(5, shuffle=True, random_state=0)
IRIS = load_iris(return_X_y=True)
CANCER = load_breast_cancer(return_X_y=True)
GRID = {"C": [0.1, 1.0, 10.0], "gamma": [0.1, 1.0]}

TOOLS = {   # name: (data set, tool(estimator class) -> score)
    "cross_val_score": ("iris", lambda E: cross_val_score(E(), *IRIS, cv=FOLDS).mean()),
    "cross_val_predict": ("iris", lambda E: np.mean(
        cross_val_predict(E(), *IRIS, cv=FOLDS) == IRIS[1])),
    "cross_val_predict (decision_function, argmax)": ("iris", lambda E: np.mean(
        cross_val_predict(E(), *IRIS, cv=FOLDS, method="decision_function").argmax(axis=1)
        == IRIS[1])),
    "GridSearchCV (C x gamma, 6 cells)": ("iris", lambda E: GridSearchCV(
        E(), GRID, cv=FOLDS).fit(*IRIS).best_score_),
    "Pipeline(StandardScaler, SVC)": ("breast_cancer", lambda E: cross_val_score(
        make_pipeline(StandardScaler(), E()), *CANCER, cv=FOLDS).mean()),
    "OneVsRestClassifier": ("iris", lambda E: cross_val_score(
        OneVsRestClassifier(E()), *IRIS, cv=FOLDS).mean()),
    "CalibratedClassifierCV": ("iris", lambda E: cross_val_score(
        CalibratedClassifierCV(E(), cv=3), *IRIS, cv=FOLDS).mean()),
    "permutation_importance (largest)": ("iris", lambda E: permutation_importance(
        E().fit(*IRIS), *IRIS, n_repeats=5, random_state=0).importances_mean.max()),
}


def median_seconds(call, repeats: int) -> tuple[float, float]:
    """(the call's result, the median of `repeats` timed runs)."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - t0)
    return result, statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    print("| tool | data | svmdesk | LIBSVM | time svmdesk / LIBSVM |")
    print("|---|---|---|---|---|")
    for name, (data, tool) in TOOLS.items():
        ours, our_time = median_seconds(lambda t=tool: t(SVC), args.repeats)
        theirs, their_time = median_seconds(lambda t=tool: t(LibSVC), args.repeats)
        print(f"| `{name}` | {data} | {ours:.4f} | {theirs:.4f} | "
              f"{our_time / their_time:.1f} |")


if __name__ == "__main__":
    main()
