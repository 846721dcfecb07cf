"""The grid search on Dask's distributed scheduler (the optional extra svmdesk[cluster]):
an in-process client and a two-process LocalCluster give the table of a run on this machine,
cell for cell; the points reach the workers once, scattered, and every task names them by
reference; a worker killed mid-grid costs only its tasks, which run again; Cancel cancels
the cluster's futures."""
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")
from distributed import Client, Future, LocalCluster  # noqa: E402

from svmdesk.core import SVC, Cancelled, NuSVC, grid_search, make_dataset  # noqa: E402
from svmdesk.core.model_selection import grid_search as grid_module  # noqa: E402

from .in_workers import large_array_mapped  # noqa: E402

GRID = {"C": [0.1, 1.0, 10.0], "gamma": [0.5, 2.0]}


def _moons(n=120, seed=3):
    data = make_dataset("moons", n=n, noise=0.3, seed=seed)
    return np.asarray(data.X), np.asarray(data.y)


def _scores(result):
    return np.array([cell.scores for cell in result.cells])


@pytest.fixture
def client():
    """An in-process cluster (threads): starts in a few hundredths of a second."""
    with Client(processes=False, n_workers=1, threads_per_worker=2,
                dashboard_address=None) as client:
        yield client


@pytest.mark.parametrize("estimator", [SVC(), NuSVC(nu=0.3)], ids=["shared", "one by one"])
def test_an_in_process_client_gives_the_local_table(client, estimator):
    X, y = _moons()
    grid = GRID if isinstance(estimator, SVC) and not isinstance(estimator, NuSVC) else {
        "gamma": [0.5, 2.0]}
    local = grid_search(estimator, X, y, grid, folds=3, seed=1, n_jobs=1)
    heard = []
    remote = grid_search(estimator, X, y, grid, folds=3, seed=1,
                         executor=client.get_executor(), progress=heard.append)
    np.testing.assert_array_equal(_scores(remote), _scores(local))
    assert [dict(cell.params) for cell in remote.cells] == [dict(c.params) for c in local.cells]
    assert sorted(cell.index for cell in heard) == list(range(len(local.cells)))


def test_the_points_are_scattered_once_and_each_task_names_them(client, monkeypatch):
    scattered, submitted = [], []
    scatter = client.scatter
    monkeypatch.setattr(client, "scatter", lambda data, **kw: scattered.append(kw) or scatter(
        data, **kw))
    submit = client.submit
    monkeypatch.setattr(client, "submit", lambda fn, *args, **kw: submitted.append(args) or submit(
        fn, *args, **kw))
    X, y = _moons()
    grid_search(SVC(), X, y, GRID, folds=3, seed=1, executor=client.get_executor())
    assert len(scattered) == 1 and scattered[0]["broadcast"]
    assert len(submitted) == 2 * 3                     # a task per column and fold
    for _task, *points in submitted:
        assert all(isinstance(p, Future) for p in points)
    assert len({p.key for _task, *points in submitted for p in points}) == 2


def test_a_result_fetched_as_its_worker_dies_is_the_result(client, monkeypatch):
    """A task's result is fetched, and then its worker dies: the scheduler marks the
    future lost (to run it again should anyone ask). The result in hand is the cell's
    (distributed's own executor read the status afterwards and raised the result as an
    error: "cannot unpack non-iterable _Scored object")."""
    fetch = Future._result

    async def fetched_then_lost(self, *args, **kwargs):
        result = await fetch(self, *args, **kwargs)
        self._state.lose()
        return result

    monkeypatch.setattr(Future, "_result", fetched_then_lost)
    X, y = _moons()
    local = grid_search(SVC(), X, y, GRID, folds=3, seed=1, n_jobs=1)
    remote = grid_search(SVC(), X, y, GRID, folds=3, seed=1, executor=client.get_executor())
    np.testing.assert_array_equal(_scores(remote), _scores(local))


_RUN_TASK = grid_module.run_task
_GATE = threading.Event()
_STARTED: list = []


def _gated(task, *points):
    """run_task, but a task of any column but the first waits at the gate (module-level:
    the client pickles what it runs, by reference here)."""
    _STARTED.append(task.column)
    if task.column:
        assert _GATE.wait(timeout=10)
    return _RUN_TASK(task, *points)


def test_cancel_cancels_the_clusters_futures(client, monkeypatch):
    """The first column's tasks run; every other task waits at a gate until the run is
    cancelled. Cancel is heard while they wait, and of the 30 tasks only those already
    running (two threads) start at all: the others' futures were cancelled."""
    _GATE.clear()
    _STARTED.clear()
    monkeypatch.setattr(grid_module, "run_task", _gated)
    X, y = _moons(200)
    grid = {"C": [0.1, 1.0, 10.0], "gamma": [0.1, 0.3, 1.0, 3.0, 10.0, 30.0]}
    heard = []
    try:
        with pytest.raises(Cancelled) as stop:
            grid_search(SVC(), X, y, grid, folds=5, seed=0, executor=client.get_executor(),
                        progress=heard.append, cancelled=lambda: bool(heard))
        # Cancelling reaches the worker a moment later: the gate opens once it holds no
        # task ready to run (opened at once, a loaded machine's worker started two more)
        _until(lambda: _not_started(client) == 0)
    finally:
        _GATE.set()
    assert [cell.index for cell in stop.value.finished] == [0, 6, 12]    # gamma 0.1's Cs
    distributed.wait(list(client.futures.values()), timeout=10)
    assert len(_STARTED) <= 5 + 2


def _not_started(client) -> int:
    """Tasks waiting to start: queued on the scheduler or ready on a worker."""
    waiting = client.run_on_scheduler(lambda dask_scheduler: sum(
        ts.state in ("queued", "waiting", "no-worker") for ts in dask_scheduler.tasks.values()))
    return waiting + sum(client.run(lambda dask_worker: len(dask_worker.state.ready)).values())


def _until(condition, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the workers still hold tasks to start"
        time.sleep(0.02)


@pytest.fixture(scope="module")
def two_processes():
    """Two worker processes on this machine, the scheduler on a free port."""
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, scheduler_port=0,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        yield client


@pytest.mark.slow
def test_two_worker_processes_give_the_local_table(two_processes):
    X, y = _moons()
    local = grid_search(SVC(), X, y, GRID, folds=3, seed=2, n_jobs=1)
    remote = grid_search(SVC(), X, y, GRID, folds=3, seed=2,
                         executor=two_processes.get_executor())
    np.testing.assert_array_equal(_scores(remote), _scores(local))


@pytest.mark.slow
def test_a_worker_killed_mid_grid_costs_only_its_tasks(two_processes):
    """The first cell heard kills one worker process outright; the scheduler runs its tasks
    again on the other (and on the nanny's new one), and the table is the local one."""
    X, y = _moons(200)
    grid = {"C": [0.1, 1.0, 10.0], "gamma": [0.3, 1.0, 3.0]}
    local = grid_search(SVC(), X, y, grid, folds=5, seed=3, n_jobs=1)
    pids = two_processes.run(os.getpid)
    victim = sorted(pids.values())[0]
    killed = threading.Event()

    def kill_once(_cell):
        if not killed.is_set():
            killed.set()
            os.kill(victim, signal.SIGKILL)

    remote = grid_search(SVC(), X, y, grid, folds=5, seed=3,
                         executor=two_processes.get_executor(), progress=kill_once)
    assert killed.is_set()
    np.testing.assert_array_equal(_scores(remote), _scores(local))
    two_processes.wait_for_workers(2, timeout=10)
    assert victim not in two_processes.run(os.getpid).values()


_MAPPED_BLOCKS = """
from svmdesk.core import cluster_workers
from tests.core.in_workers import large_array_mapped

before = large_array_mapped()[1]
cluster_workers.arrays_on_the_heap()
print(before, large_array_mapped()[1])
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc")
def test_a_dask_workers_large_arrays_come_from_the_heap_again():
    """Under Dask's nanny (MALLOC_TRIM_THRESHOLD_ set) a 2 MiB array is a block mapped for
    it alone, zero-filled afresh each time; once svmdesk's worker setup has run, it is heap
    memory."""
    env = {**os.environ, "MALLOC_TRIM_THRESHOLD_": "65536"}
    out = subprocess.run([sys.executable, "-c", _MAPPED_BLOCKS], env=env, capture_output=True,
                         text=True, timeout=50, cwd=Path(__file__).resolve().parents[2])
    if "mallinfo2" in out.stderr:
        pytest.skip("no glibc mallinfo2 here")
    assert out.stdout.split() == ["1", "0"], out.stderr


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc")
def test_a_grid_on_a_cluster_sets_up_each_workers_malloc():
    """A grid handed a cluster through the Python API's executor= puts a nanny-started
    worker's large arrays back on the heap (a worker plugin: every worker, those that join
    later too), where before the grid they were mapped afresh."""
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, scheduler_port=0,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        ((trimmed, mapped_before),) = client.run(large_array_mapped).values()
        if not trimmed:
            pytest.skip("this Dask's nanny leaves MALLOC_TRIM_THRESHOLD_ unset")
        X, y = _moons(60)
        grid_search(SVC(), X, y, {"C": [1.0]}, folds=2, seed=0, executor=client.get_executor())
        ((_, mapped_after),) = client.run(large_array_mapped).values()
    assert (mapped_before, mapped_after) == (1, 0)
