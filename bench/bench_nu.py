"""The nu machines and regression against LIBSVM on real data, in one run, with a gate.

    python bench/bench_nu.py [--repeats 7] [--only NuSVR]

Cells: SVR and NuSVR (nu 0.5, epsilon 0.1) on diabetes (442 x 10) and a noisy sine (1,000
x 1, z = sin(3 x) + N(0, 0.1^2)), X and the target standardised, at C 1 and 100; NuSVC on
breast cancer (569 x 30, standardised) and iris (three classes) at nu 0.3 and 0.6 (nu-SVC has
no C); linear, rbf and poly (gamma 'scale'). Each cell is the median of `repeats` alternating
runs of svmdesk's fit and LIBSVM's (scikit-learn's), tol 1e-3, a 200 MB cache, OpenBLAS on
one thread as the window has it. "f off" is the largest difference of the two models'
decision values (NuSVC: each one-vs-one machine's, in units of LIBSVM's largest |f|;
regression: the predictions, in units of the target's standard deviation).

The gate, printed last: no cell over GATE times LIBSVM's time.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
import warnings

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")   # as the app does (svmdesk/app)

import numpy as np  # noqa: E402  (after the thread count: numpy reads it once)
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris  # noqa: E402
from sklearn.svm import SVR as LibSVR  # noqa: E402
from sklearn.svm import NuSVC as LibNuSVC  # noqa: E402
from sklearn.svm import NuSVR as LibNuSVR  # noqa: E402

from svmdesk.core import SVR, NuSVC, NuSVR  # noqa: E402

GATE = 1.5
MACHINES = {"SVR": (SVR, LibSVR), "NuSVR": (NuSVR, LibNuSVR), "NuSVC": (NuSVC, LibNuSVC)}
# each machine's settings besides the kernel: nu-SVC has no C (nu takes its place)
SETTINGS = {"SVR": ({"epsilon": 0.1, "C": 1.0}, {"epsilon": 0.1, "C": 100.0}),
            "NuSVR": ({"nu": 0.5, "C": 1.0}, {"nu": 0.5, "C": 100.0}),
            "NuSVC": ({"nu": 0.3, "decision_function_shape": "ovo"},
                      {"nu": 0.6, "decision_function_shape": "ovo"})}


def _standardised(X: np.ndarray) -> np.ndarray:
    std = X.std(axis=0)
    return (X - X.mean(axis=0)) / np.where(std > 0, std, 1.0)


def data_sets() -> dict:
    """machine -> {data name: (X, y)}."""
    X, z = load_diabetes(return_X_y=True)
    diabetes = (_standardised(X), (z - z.mean()) / z.std())
    rng = np.random.default_rng(0)
    x = rng.uniform(-2, 2, (1000, 1))
    s = np.sin(3 * x[:, 0]) + rng.normal(0, 0.1, 1000)
    sine = (_standardised(x), (s - s.mean()) / s.std())
    regression = {"diabetes": diabetes, "noisy sine": sine}
    cancer = load_breast_cancer(return_X_y=True)
    return {"SVR": regression, "NuSVR": regression,
            "NuSVC": {"breast cancer": (_standardised(cancer[0]), cancer[1]),
                      "iris": load_iris(return_X_y=True)}}


def timed(fit) -> tuple[float, object]:
    start = time.perf_counter()
    model = fit()
    return time.perf_counter() - start, model


def cell(machine: str, X, y, kernel: str, params: dict, repeats: int
         ) -> tuple[float, float, float]:
    """(svmdesk's median seconds, LIBSVM's, f off) for one cell."""
    ours_class, ref_class = MACHINES[machine]
    ours_t, ref_t = [], []
    for _ in range(repeats):
        t, ours = timed(lambda: ours_class(kernel=kernel, **params).fit(X, y))  # noqa: B023
        ours_t.append(t)
        t, ref = timed(lambda: ref_class(kernel=kernel, cache_size=200,         # noqa: B023
                                         **params).fit(X, y))                   # noqa: B023
        ref_t.append(t)
    if machine == "NuSVC":
        mine, theirs = ours.decision_function(X), ref.decision_function(X)
        scale = float(np.abs(theirs).max())
    else:
        mine, theirs, scale = ours.predict(X), ref.predict(X), float(y.std())
    return statistics.median(ours_t), statistics.median(ref_t), float(
        np.abs(mine - theirs).max() / scale)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--only", choices=list(MACHINES), default=None)
    args = parser.parse_args()
    warnings.simplefilter("ignore")           # unconverged runs are seen in the ratio
    print(f"{'machine':<7} {'data':<14} {'kernel':<6} {'C / nu':>6} | {'svmdesk':>9} "
          f"{'libsvm':>9} {'ratio':>6} | {'f off':>8}")
    over = []
    for machine, sets in data_sets().items():
        if args.only not in (None, machine):
            continue
        for name, (X, y) in sets.items():
            for kernel in ("linear", "rbf", "poly"):
                for params in SETTINGS[machine]:
                    ours, ref, off = cell(machine, X, y, kernel, params, args.repeats)
                    ratio = ours / ref
                    setting = f"{params.get('C', params.get('nu')):g}"
                    if ratio > GATE:
                        over.append(f"{machine} {name} {kernel} {setting}: {ratio:.2f}")
                    print(f"{machine:<7} {name:<14} {kernel:<6} {setting:>6} | "
                          f"{ours * 1e3:>7.1f}ms {ref * 1e3:>7.1f}ms {ratio:>6.2f} | "
                          f"{off:>8.1e}", flush=True)
    print(f"gate (no cell over {GATE}x LIBSVM): " + ("passed" if not over else
          f"FAILED, {len(over)} cells: " + "; ".join(over)))


if __name__ == "__main__":
    main()
