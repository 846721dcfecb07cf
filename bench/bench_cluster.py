"""When a Dask cluster pays for a grid search: the same grid on this machine (one process, and
loky's pool of processes) and on a Dask LocalCluster of worker processes, start-up
included, with the cost of reaching the cluster measured apart.

    python bench/bench_cluster.py [--points 2000] [--size 8] [--folds 5] [--workers 2]

Data: 2-D moons (noise 0.3); grid: C in logspace(-2, 3, size), gamma in logspace(-3, 2,
size). "per task" is a column's fold: one task of the cluster. The cluster's fixed cost is
its start (processes, a scheduler) plus scattering the points; past it, a grid's time on N
workers is about its one-process time / N, but never less than its longest task, so the
estimate printed for more workers is max(one-process time / N, the longest task) plus the
measured fixed cost (one machine has only so many cores to show it on).
"""
from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")     # one thread per worker, as the app

import numpy as np  # noqa: E402

from svmdesk.core import SVC, grid_search, make_dataset  # noqa: E402


def timed(call) -> tuple[float, object]:
    start = time.perf_counter()
    out = call()
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=2000)
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    from dask.distributed import Client, LocalCluster

    data = make_dataset("moons", n=args.points, noise=0.3, seed=0)
    X, y = np.asarray(data.X), np.asarray(data.y)
    grid = {"C": np.logspace(-2, 3, args.size), "gamma": np.logspace(-3, 2, args.size)}
    tasks = args.size * args.folds
    print(f"{args.points} points, {args.size} x {args.size} grid, {args.folds} folds "
          f"({tasks} tasks), {os.cpu_count()} cores")

    serial, local = timed(lambda: grid_search(SVC(), X, y, grid, folds=args.folds, seed=0,
                                              n_jobs=1))
    pool, _ = timed(lambda: grid_search(SVC(), X, y, grid, folds=args.folds, seed=0,
                                        n_jobs=args.workers))
    start = time.perf_counter()
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      scheduler_port=0, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        started = time.perf_counter() - start
        scatter, _ = timed(lambda: client.scatter([X, y], broadcast=True, hash=False))
        on_cluster, remote = timed(lambda: grid_search(
            SVC(), X, y, grid, folds=args.folds, seed=0, executor=client.get_executor()))
    same = all((a.scores == b.scores).all() for a, b in zip(local.cells, remote.cells))
    fixed = started + scatter
    print(f"{'run':<44}{'seconds':>9}")
    for name, seconds in [("one process", serial),
                          (f"{args.workers} loky processes (n_jobs={args.workers})", pool),
                          (f"LocalCluster, {args.workers} workers: start", started),
                          ("  scatter the points", scatter),
                          ("  the grid", on_cluster),
                          ("  all", started + on_cluster)]:
        print(f"{name:<44}{seconds:>9.2f}")
    print(f"per task, one process: {serial / tasks * 1e3:.0f} ms; the cluster's table is the "
          f"local one: {'yes' if same else 'NO'}")
    longest = longest_task(local)
    print(f"longest task: {longest:.2f} s (no number of workers finishes sooner)")
    print("estimate on N workers (max(one-process time / N, the longest task) + the "
          "cluster's fixed cost):")
    for n in (4, 8, 16, 32):
        print(f"  {n:>3} workers: {max(serial / n, longest) + fixed:7.2f} s")


def longest_task(result) -> float:
    """The longest fit time of one column (the cells sharing every value but C) on one
    fold: a task, which one worker runs whole."""
    columns: dict = {}
    for cell in result.cells:
        key = tuple((name, value) for name, value in cell.params.items() if name != "C")
        columns[key] = columns.get(key, 0.0) + cell.fit_times
    return float(max(times.max() for times in columns.values()))


if __name__ == "__main__":
    main()
