"""Time decision_grid and contour_path_levels on the canvas' default 200 x 200 grid.

    python bench/bench_grid.py [--repeats 20] [--sizes 100 1000 5000]

Support vectors are standard normal points (all inside the [-3, 3]^2 grid, so the rbf path
prunes none) with uniform coefficients in [-1, 1]. Each row is the median (and minimum) of
`repeats` calls in ms; a slow case (sigmoid: S * 40,000 tanh) stops after ~10 s, at 3 runs
or more. Target: rbf with 5,000 SVs within 10 ms. The rbf time is mostly one float32
matrix product (see svmdesk.drawing.decision_grid): on a busy machine compare
OPENBLAS_NUM_THREADS=1.
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from svmdesk.core import Kernel
from svmdesk.drawing.contours import contour_path_levels
from svmdesk.drawing.decision_grid import GridSpec, decision_grid

SPEC = GridSpec(-3.0, 3.0, -3.0, 3.0, nx=200, ny=200)
KERNELS = {
    "rbf": Kernel("rbf", gamma=0.5),
    "poly(3)": Kernel("poly", gamma=0.5, degree=3, coef0=1.0),
    "linear": Kernel("linear"),
    "sigmoid": Kernel("sigmoid", gamma=0.1, coef0=0.0),
}


def timings(call, repeats: int, budget: float = 10.0) -> list:
    call()  # warm-up
    times, start = [], time.perf_counter()
    while len(times) < repeats and (len(times) < 3 or time.perf_counter() - start < budget):
        t0 = time.perf_counter()
        call()
        times.append((time.perf_counter() - t0) * 1e3)
    return times


def row(name: str, times: list) -> str:
    return (f"{name:<28}{statistics.median(times):>10.2f}{min(times):>10.2f}"
            f"{len(times):>6}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 5000])
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(f"{SPEC.nx} x {SPEC.ny} grid; ms per call")
    print(f"{'case':<28}{'median':>10}{'min':>10}{'runs':>6}")
    for name, kernel in KERNELS.items():
        for S in args.sizes:
            sv, coef = rng.normal(size=(S, 2)), rng.uniform(-1, 1, size=S)
            times = timings(lambda k=kernel, sv=sv, c=coef: decision_grid(k, sv, c, 0.1, SPEC),
                            args.repeats)
            print(row(f"decision_grid {name} S={S}", times), flush=True)
    sv, coef = rng.normal(size=(1000, 2)), rng.uniform(-1, 1, size=1000)
    values = decision_grid(KERNELS["rbf"], sv, coef, 0.0, SPEC)
    xs, ys = SPEC.xs, SPEC.ys
    contours = timings(lambda: contour_path_levels(values, xs, ys), args.repeats)
    print(row("contour_path_levels (-1, 0, 1)", contours))


if __name__ == "__main__":
    main()
