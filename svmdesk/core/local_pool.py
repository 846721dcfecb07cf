"""The process pool on this machine for grid search and cross-validation: a loky pool, the
kind behind scikit-learn's n_jobs (loky comes with joblib).

Why loky rather than concurrent.futures' ProcessPoolExecutor: its workers start from a fresh
interpreter (never a forked copy of a process that holds Qt or threads) without importing
the caller's __main__ again, so a plain script with no `if __name__ == "__main__":` runs a
parallel grid as it runs GridSearchCV(n_jobs=-1); the workers stay up between calls (a grid
and then a cross-validation pay for starting them once) and leave with the process.
joblib is imported on first use: it costs 0.15 s, which a fit in this thread never pays.
"""
from __future__ import annotations

import atexit
import functools
import threading
from collections.abc import Iterator
from concurrent.futures import BrokenExecutor, Executor
from contextlib import contextmanager
from typing import Any

from ..i18n import tr
from .errors import WorkerLost

IDLE_SECONDS = 300          # loky's own default: idle workers leave after five minutes
# A worker is one core's: its BLAS (numpy's matrix products, a kernel's Gram matrix) runs one
# thread, as joblib's workers do. Left to itself BLAS starts a thread per core in every
# worker, taking the core the window leaves itself (worker_count(-2)) and stalling it
ONE_THREAD = {name: "1" for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                                      "MKL_NUM_THREADS", "BLIS_NUM_THREADS")}

_pool: Any = None              # loky's ProcessPoolExecutor (joblib ships no types)
_pool_size = 0
_pool_lock = threading.Lock()


def cpu_count() -> int:
    """The cores this process may use (loky's count: CPU affinity and a container's quota
    included, as scikit-learn's n_jobs=-1 counts them)."""
    from joblib.externals.loky import cpu_count as loky_count
    return int(loky_count())


def worker_count(n_jobs: object) -> int:
    """How many processes `n_jobs` asks for, as scikit-learn counts: None or 1 this thread
    alone, -1 every core, -2 every core but one (and so on, at least one), n that many."""
    if isinstance(n_jobs, bool) or not (n_jobs is None or isinstance(n_jobs, int)) \
            or n_jobs == 0:
        raise ValueError(tr("n_jobs must be a whole number other than 0 (-1 for every core, "
                            "1 for this thread alone) or None; got {n_jobs}"
                            ).format(n_jobs=repr(n_jobs)))
    if n_jobs is None:
        return 1
    assert isinstance(n_jobs, int)
    return n_jobs if n_jobs > 0 else max(cpu_count() + 1 + n_jobs, 1)


def local_pool(workers: int) -> Executor:
    """svmdesk's pool of `workers` processes: the same processes call after call while the
    size is unchanged, a fresh pool after a resize or a worker's death. Its own, not
    joblib's shared one: joblib expects that one to be built by joblib (a GridSearchCV
    after a grid search here would fail on it), and a pool of ours never restarts theirs."""
    global _pool, _pool_size
    from joblib.externals.loky import ProcessPoolExecutor
    with _pool_lock:
        if _pool is None or _pool_size != workers:
            _shut_down()
            _pool = ProcessPoolExecutor(workers, timeout=IDLE_SECONDS, env=ONE_THREAD)
            _pool_size = workers
            _at_exit_once()
        return _pool


def worker_pids() -> list[int]:
    """The process ids of the pool's live workers (none before the first parallel call)."""
    processes = getattr(_pool, "_processes", None) or {}
    return sorted(pid for pid, process in processes.items() if process.is_alive())


def _shut_down() -> None:
    """Stop the pool's workers (at once: none has work that anyone waits for) and forget it."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=True, kill_workers=True)     # loky's: no worker outlives this
        _pool = None


@functools.cache
def _at_exit_once() -> None:
    """The workers leave with the process: a test runner's worker or a script that ends
    leaves no process behind."""
    atexit.register(_shut_down)


@contextmanager
def worker_deaths_said() -> Iterator[None]:
    """A worker that died mid-task (killed, out of memory, a crash in native code) as one
    error that says so and what to do, in place of the pool's traceback of the child."""
    try:
        yield
    except BrokenExecutor as broken:
        with _pool_lock:
            _shut_down()                   # the next call starts a whole pool again
        raise WorkerLost(tr("A worker process stopped before finishing its work (it may "
                            "have run out of memory or been stopped from outside). Run "
                            "again, or with n_jobs=1 to work in this process alone"
                            )) from broken
