"""SMO against libsvm (scikit-learn's SVC) in one run: time ratio, objective, peak memory.

    python bench/bench_smo.py [--sizes 1000 5000 20000] [--repeats 5] [--long] [--nu] [--svr]
    python bench/bench_smo.py --small [--repeats 21]

Both solvers see the same 2-D moons data (noise 0.2), the RBF kernel with gamma='scale',
tol=1e-3 and a 200 MB kernel cache. Runs alternate between the two and the median is
reported, since the machines are shared and noisy. A ratio below 1 means svmdesk is faster.
Peak memory is numpy's allocations during our fit (tracemalloc), in a separate untimed run.

--nu times NuSVC against scikit-learn's NuSVC instead (nu 0.2 and 0.5; the same data and
tolerance), with the fraction of predictions that agree.

--svr times SVR (C 1 and 10, epsilon 0.1) and NuSVR (nu 0.5, C 1) against scikit-learn's on
a regression of the same 2-D points, z = sin(2 x1) + x2 + N(0, 0.1^2): the largest
difference of the predictions, in units of z's standard deviation.

--small times small real data instead (iris, wine, breast cancer, digits, standardised;
rbf and linear; C 1, 10, 100; default 21 alternating runs, since a cell takes about a
millisecond): svmdesk's fit, LIBSVM's, their ratio, svmdesk's fixed cost (the same fit
with max_iter=1: everything but the pair steps) and the fraction of predictions that agree.
OpenBLAS runs one thread, as the app sets it.

--ab REV times this checkout's SMO against revision REV's (git archive into a temporary
folder): children that load one or the other take turns, each fitting every --sizes and --Cs
cell --repeats times after a warm-up (n 200 and 1,000 by default: small fits show a pair
step's cost the most); the medians and their ratio (this / REV).

--long adds one long fit that the progress watch once cut short at 10.5 s (test accuracy
0.777 against LIBSVM's 0.921): make_classification(50000, n_features=10, n_informative=5,
random_state=0), 80 % for training, the RBF kernel, C = 100; one run each (minutes).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import warnings

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")   # as the app does (svmdesk/app)

import numpy as np  # noqa: E402  (after the thread count: numpy reads it once)
from sklearn.svm import SVC as LibSVC
from sklearn.svm import SVR as LibSVR
from sklearn.svm import NuSVC as LibNuSVC
from sklearn.svm import NuSVR as LibNuSVR

from svmdesk.core import SVC, SVR, NuSVC, NuSVR, make_dataset


def dual_objective(dual_coef, sv, kernel) -> float:
    return float(np.abs(dual_coef).sum() - 0.5 * dual_coef @ kernel.matvec(sv, sv, dual_coef))


def timed(fit) -> tuple[float, object]:
    start = time.perf_counter()
    model = fit()
    return time.perf_counter() - start, model


def peak_mb(fit) -> float:
    tracemalloc.start()
    fit()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def cell(X, y, C, repeats):
    ours_fit = lambda: SVC(C=C).fit(X, y)                     # noqa: E731
    ref_fit = lambda: LibSVC(C=C, cache_size=200).fit(X, y)   # noqa: E731
    ours_t, ref_t = [], []
    for _ in range(repeats):
        t, ours = timed(ours_fit)
        ours_t.append(t)
        t, ref = timed(ref_fit)
        ref_t.append(t)
    kernel = ours.model_.kernel
    ref_obj = dual_objective(ref.dual_coef_[0], ref.support_vectors_, kernel)
    return dict(ours=statistics.median(ours_t), ref=statistics.median(ref_t),
                obj_rel=(ours.objective_ - ref_obj) / abs(ref_obj),
                iters=int(ours.n_iter_[0]), ref_iters=int(ref.n_iter_[0]),
                sv=int(ours.n_support_.sum()), ref_sv=int(ref.n_support_.sum()),
                agree=float(np.mean(ours.predict(X) == ref.predict(X))),
                mem=peak_mb(ours_fit))


def nu_rows(sizes, repeats) -> None:
    """NuSVC against LIBSVM's, per size and nu: medians of alternating runs."""
    print(f"{'n':>6} {'nu':>4} | {'svmdesk':>9} {'libsvm':>9} {'ratio':>6} | {'SVs':>11} | "
          f"{'agree':>6}")
    for n in sizes:
        data = make_dataset("moons", n=n, noise=0.2, seed=0)
        X, y = np.asarray(data.X), np.asarray(data.y)
        runs = repeats if n <= 5000 else max(3, repeats // 2)
        for nu in (0.2, 0.5):
            ours_t, ref_t = [], []
            for _ in range(runs):
                t, ours = timed(lambda: NuSVC(nu=nu).fit(X, y))              # noqa: B023
                ours_t.append(t)
                t, ref = timed(lambda: LibNuSVC(nu=nu, cache_size=200).fit(X, y))  # noqa: B023
                ref_t.append(t)
            a, b = statistics.median(ours_t), statistics.median(ref_t)
            agree = float(np.mean(ours.predict(X) == ref.predict(X)))
            print(f"{n:>6} {nu:>4g} | {a * 1e3:>7.1f}ms {b * 1e3:>7.1f}ms {a / b:>6.2f} | "
                  f"{len(ours.support_):>5}/{len(ref.support_):<5} | {agree:>6.1%}", flush=True)


def svr_rows(sizes, repeats) -> None:
    """SVR and NuSVR against LIBSVM's, per size and setting: medians of alternating runs."""
    print(f"{'n':>6} {'machine':<16} | {'svmdesk':>9} {'libsvm':>9} {'ratio':>6} | "
          f"{'pairs':>13} | {'SVs':>11} | {'max |df|/std':>12}")
    settings = (("SVR C=1", lambda: SVR(C=1.0), lambda: LibSVR(C=1.0, cache_size=200)),
                ("SVR C=10", lambda: SVR(C=10.0), lambda: LibSVR(C=10.0, cache_size=200)),
                ("NuSVR nu=.5 C=1", lambda: NuSVR(nu=0.5),
                 lambda: LibNuSVR(nu=0.5, cache_size=200)))
    for n in sizes:
        X = np.asarray(make_dataset("moons", n=n, noise=0.2, seed=0).X)
        z = np.sin(2 * X[:, 0]) + X[:, 1] + np.random.default_rng(0).normal(0, 0.1, n)
        runs = repeats if n <= 5000 else max(3, repeats // 2)
        for name, ours_model, ref_model in settings:
            ours_t, ref_t = [], []
            for _ in range(runs):
                t, ours = timed(lambda: ours_model().fit(X, z))      # noqa: B023
                ours_t.append(t)
                t, ref = timed(lambda: ref_model().fit(X, z))        # noqa: B023
                ref_t.append(t)
            a, b = statistics.median(ours_t), statistics.median(ref_t)
            diff = float(np.abs(ours.predict(X) - ref.predict(X)).max() / z.std())
            print(f"{n:>6} {name:<16} | {a * 1e3:>7.1f}ms {b * 1e3:>7.1f}ms {a / b:>6.2f} | "
                  f"{ours.n_iter_:>6}/{int(ref.n_iter_):<6} | "
                  f"{len(ours.support_):>5}/{len(ref.support_):<5} | {diff:>12.1e}", flush=True)


def small_sets() -> dict:
    """The small real data sets, standardised: name -> (X, y)."""
    from sklearn.datasets import load_breast_cancer, load_digits, load_iris, load_wine

    sets = {}
    for name, load in (("iris", load_iris), ("wine", load_wine),
                       ("breast_cancer", load_breast_cancer), ("digits", load_digits)):
        X, y = load(return_X_y=True)
        std = X.std(axis=0)
        sets[name] = ((X - X.mean(axis=0)) / np.where(std > 0, std, 1.0), y)
    return sets


def small_rows(repeats: int) -> None:
    """Each small set, kernel and C: medians of `repeats` alternating runs of our fit,
    LIBSVM's and our fit with max_iter=1 (the fixed cost)."""
    print(f"{'data':<14} {'kernel':<6} {'C':>4} | {'svmdesk':>8} {'libsvm':>8} {'ratio':>6} | "
          f"{'fixed':>8} | {'agree':>6}")
    ratios = []
    warnings.filterwarnings("ignore", message="SMO stopped after max_iter")   # max_iter=1
    for name, (X, y) in small_sets().items():
        for kernel in ("rbf", "linear"):
            for C in (1.0, 10.0, 100.0):
                ours_t, ref_t, fixed_t = [], [], []
                for _ in range(repeats):
                    t, ours = timed(lambda: SVC(C=C, kernel=kernel).fit(X, y))  # noqa: B023
                    ours_t.append(t)
                    t, ref = timed(lambda: LibSVC(C=C, kernel=kernel,           # noqa: B023
                                                  cache_size=200).fit(X, y))   # noqa: B023
                    ref_t.append(t)
                    fixed_t.append(timed(lambda: SVC(C=C, kernel=kernel,       # noqa: B023
                                                     max_iter=1).fit(X, y))[0])  # noqa: B023
                a, b = statistics.median(ours_t), statistics.median(ref_t)
                ratios.append(a / b)
                agree = float(np.mean(ours.predict(X) == ref.predict(X)))
                print(f"{name:<14} {kernel:<6} {C:>4g} | {a * 1e3:>6.2f}ms {b * 1e3:>6.2f}ms "
                      f"{a / b:>6.2f} | {statistics.median(fixed_t) * 1e3:>6.2f}ms | "
                      f"{agree:>6.1%}", flush=True)
    print(f"median ratio {statistics.median(ratios):.2f}, worst {max(ratios):.2f}")


def long_fit() -> None:
    """The 50,000-point fit once cut short: time, convergence and test accuracy of both."""
    from sklearn.datasets import make_classification

    X, y = make_classification(50000, n_features=10, n_informative=5, random_state=0)
    n = 40000
    print(f"{'50k, rbf, C=100':<16} | {'seconds':>8} | {'converged':>9} | {'test acc':>8}")
    for name, fit in (("svmdesk", lambda: SVC(C=100.0).fit(X[:n], y[:n])),
                      ("libsvm", lambda: LibSVC(C=100.0, cache_size=200).fit(X[:n], y[:n]))):
        t, model = timed(fit)
        converged = (model.converged_ if hasattr(model, "converged_")
                     else model.fit_status_ == 0)
        accuracy = float(np.mean(model.predict(X[n:]) == y[n:]))
        print(f"{name:<16} | {t:>8.1f} | {bool(converged)!s:>9} | {accuracy:>8.3f}",
              flush=True)


AB_CHILD = """
import json, os, sys, time, warnings
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, sys.argv[1])
import numpy as np
from svmdesk.core import SVC, make_dataset
cells, repeats, times = json.loads(sys.argv[2]), int(sys.argv[3]), {}
for n, C in cells:
    d = make_dataset("moons", n=n, noise=0.2, seed=0)
    X, y = np.asarray(d.X), np.asarray(d.y)
    SVC(C=C).fit(X, y)
    took = []
    for _ in range(repeats):
        start = time.perf_counter()
        SVC(C=C).fit(X, y)
        took.append(time.perf_counter() - start)
    times[f"{n} {C:g}"] = took
print(json.dumps(times))
"""


def ab_rows(rev: str, sizes: list, Cs: list, repeats: int, rounds: int = 5) -> None:
    """This checkout's SMO fits against revision `rev`'s, in alternating child processes."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cells = json.dumps([[n, C] for n in sizes for C in Cs])
    times: dict = {"this": {}, rev: {}}
    with tempfile.TemporaryDirectory() as old:
        archive = subprocess.run(["git", "-C", here, "archive", rev, "svmdesk"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", old], input=archive, check=True)
        for k in range(rounds):
            for name, path in (("this", here), (rev, old))[::(-1) ** k]:
                ran = subprocess.run([sys.executable, "-c", AB_CHILD, path, cells,
                                      str(repeats)], capture_output=True, text=True,
                                     check=True)
                for cell, took in json.loads(ran.stdout.splitlines()[-1]).items():
                    times[name].setdefault(cell, []).extend(took)
    print(f"{'n C':>10} | {'this':>9} {rev[:9]:>9} {'ratio':>6}   (medians of {rounds} x "
          f"{repeats} fits each)")
    for cell in times["this"]:
        a, b = (statistics.median(times[name][cell]) for name in ("this", rev))
        print(f"{cell:>10} | {a * 1e3:>7.2f}ms {b * 1e3:>7.2f}ms {a / b:>6.3f}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 5000, 20000])
    parser.add_argument("--Cs", type=float, nargs="+", default=[1.0, 10.0, 100.0])
    parser.add_argument("--repeats", type=int, default=None,
                        help="runs per cell (5; --small: 21)")
    parser.add_argument("--long", action="store_true", help="also the 50,000-point fit")
    parser.add_argument("--nu", action="store_true", help="NuSVC against LIBSVM's instead")
    parser.add_argument("--svr", action="store_true", help="SVR and NuSVR instead")
    parser.add_argument("--small", action="store_true", help="small real data instead")
    parser.add_argument("--ab", metavar="REV", help="this checkout's SMO against REV's")
    args = parser.parse_args()
    if args.ab:
        ab_rows(args.ab, args.sizes if "--sizes" in sys.argv else [200, 1000], args.Cs,
                args.repeats or 20)
        return
    if args.small:
        small_rows(args.repeats or 21)
        return
    args.repeats = args.repeats or 5
    if args.nu or args.svr:
        (nu_rows if args.nu else svr_rows)(args.sizes, args.repeats)
        return
    print(f"{'n':>6} {'C':>5} | {'svmdesk':>9} {'libsvm':>9} {'ratio':>6} | "
          f"{'obj rel diff':>12} | {'pairs':>13} | {'SVs':>11} | {'agree':>6} | {'peak MB':>7}")
    for n in args.sizes:
        data = make_dataset("moons", n=n, noise=0.2, seed=0)
        X, y = np.asarray(data.X), np.asarray(data.y)
        repeats = args.repeats if n <= 5000 else max(3, args.repeats // 2)
        for C in args.Cs:
            r = cell(X, y, C, repeats)
            print(f"{n:>6} {C:>5g} | {r['ours'] * 1e3:>7.1f}ms {r['ref'] * 1e3:>7.1f}ms "
                  f"{r['ours'] / r['ref']:>6.2f} | {r['obj_rel']:>12.1e} | "
                  f"{r['iters']:>6}/{r['ref_iters']:<6} | {r['sv']:>5}/{r['ref_sv']:<5} | "
                  f"{r['agree']:>6.1%} | {r['mem']:>7.1f}", flush=True)
    if args.long:
        long_fit()


if __name__ == "__main__":
    main()
