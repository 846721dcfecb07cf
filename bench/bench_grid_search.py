"""Time svmdesk's grid_search against scikit-learn's GridSearchCV(SVC(), n_jobs=-1) on the
same grid and folds, alternating, and check every cell's fold scores against GridSearchCV's.

    python bench/bench_grid_search.py [--repeats 3] [--size 10] [--n-jobs N]

Data: 1,000 2-D moons points (noise 0.3) and breast cancer (569 x 30, standardised). Grid:
C in logspace(-2, 3, size), gamma in logspace(-3, 2, size), 5 stratified folds (seed 0).
Both run on all cores, on the same pool: loky's reusable workers, started by the first run
and kept warm between runs. Each row is the
median of `repeats` alternating runs; "points off" is the largest difference of a fold's
score from GridSearchCV's, in test points (the solvers stop at different places within tol).
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")     # as the app and joblib's workers

import numpy as np  # noqa: E402

from svmdesk.core import SVC, grid_search  # noqa: E402

# scikit-learn is imported inside the functions: the module stays as light as a user's script




def data_sets() -> dict:
    from sklearn.datasets import load_breast_cancer, make_moons

    moons = make_moons(1000, noise=0.3, random_state=0)
    X, y = load_breast_cancer(return_X_y=True)
    return {"moons 1k": moons, "breast cancer": ((X - X.mean(0)) / X.std(0), y)}


def timed(call) -> tuple[float, object]:
    start = time.perf_counter()
    out = call()
    return time.perf_counter() - start, out


def points_off(result, search, folds: int) -> float:
    tests = np.array([len(test) for _train, test in result.indices])
    theirs = np.array([[search.cv_results_[f"split{k}_test_score"][i] for k in range(folds)]
                       for i in range(len(result.cells))])
    ours = np.array([cell.scores for cell in result.cells])
    return float((np.abs(ours - theirs) * tests).max())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--size", type=int, default=10)
    parser.add_argument("--n-jobs", type=int, default=-1)
    args = parser.parse_args()
    from sklearn.model_selection import GridSearchCV, StratifiedKFold
    from sklearn.svm import SVC as LibSVC

    grid = {"C": np.logspace(-2, 3, args.size), "gamma": np.logspace(-3, 2, args.size)}
    folds = 5
    print(f"{args.size} x {args.size} grid, {folds} folds, {os.cpu_count()} cores, "
          f"median of {args.repeats}")
    print(f"{'data':<16}{'svmdesk s':>11}{'GridSearchCV s':>16}{'ratio':>8}"
          f"{'serial s':>10}{'points off':>12}{'same best':>11}")
    for name, (X, y) in data_sets().items():
        ours, theirs, serial = [], [], []
        for _ in range(args.repeats):
            t, result = timed(lambda X=X, y=y: grid_search(SVC(), X, y, grid, folds=folds,
                                                           seed=0, n_jobs=args.n_jobs))
            ours.append(t)
            t, search = timed(lambda X=X, y=y: GridSearchCV(
                LibSVC(), grid, cv=StratifiedKFold(folds, shuffle=True, random_state=0),
                n_jobs=-1).fit(X, y))
            theirs.append(t)
        t, _ = timed(lambda X=X, y=y: grid_search(SVC(), X, y, grid, folds=folds, seed=0,
                                                  n_jobs=1))
        serial.append(t)
        mine, libs = statistics.median(ours), statistics.median(theirs)
        same = dict(result.best.params) == search.best_params_
        print(f"{name:<16}{mine:>11.2f}{libs:>16.2f}{mine / libs:>8.2f}"
              f"{statistics.median(serial):>10.2f}{points_off(result, search, folds):>12.0f}"
              f"{'yes' if same else 'no':>11}")


if __name__ == "__main__":
    main()
