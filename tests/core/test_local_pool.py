"""Parallel work on this machine runs on loky's reusable pool, the one behind scikit-learn's
n_jobs: a plain script needs no main guard, the workers serve call after call and leave
with the process, and a worker's death is one clear error."""
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

from svmdesk.core import SVC, Cancelled, cross_validate, grid_search, local_pool
from svmdesk.core.errors import WorkerLost

from .in_workers import blas_threads, killed_on_purpose

SCRIPT = """\
from sklearn.datasets import make_moons
from svmdesk.core import SVC, grid_search
X, y = make_moons(60, noise=0.2, random_state=0)
print(grid_search(SVC(), X, y, param_grid={{"C": [1, 10], "gamma": [0.5, 2]}}, folds=3,
                  n_jobs=2).best.params)
{after}
"""
WORKER_PIDS = """\
from svmdesk.core import local_pool
print(*local_pool.worker_pids())
"""


def _moons(n):
    rng = np.random.RandomState(0)
    X = rng.normal(size=(n, 2))
    return X, (X[:, 0] * X[:, 1] > 0).astype(int)


def _script(tmp_path, after=""):
    path = tmp_path / "plain.py"          # no `if __name__ == "__main__":`, as a student writes
    path.write_text(textwrap.dedent(SCRIPT.format(after=after)))
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          timeout=50, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": os.getcwd()})


@pytest.mark.slow
def test_a_plain_script_runs_a_parallel_grid(tmp_path):
    ran = _script(tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert "'C'" in ran.stdout and "Traceback" not in ran.stderr


@pytest.mark.slow
def test_the_workers_leave_with_the_script(tmp_path):
    ran = _script(tmp_path, WORKER_PIDS)           # returns: no worker holds its output open
    assert ran.returncode == 0, ran.stderr
    pids = [int(word) for word in ran.stdout.split()[-2:]]
    assert len(pids) == 2
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


@pytest.mark.slow
def test_the_workers_serve_call_after_call():
    X, y = _moons(60)
    grid = {"C": [1.0, 10.0], "gamma": [0.5]}
    first = grid_search(SVC(), X, y, grid, folds=3, seed=0, n_jobs=2)
    pids = local_pool.worker_pids()
    second = cross_validate(SVC(), X, y, folds=3, seed=0, n_jobs=2)
    assert local_pool.worker_pids() == pids
    serial = grid_search(SVC(), X, y, grid, folds=3, seed=0, n_jobs=1)
    np.testing.assert_array_equal([c.scores for c in first.cells],
                                  [c.scores for c in serial.cells])
    np.testing.assert_array_equal(second.scores,
                                  cross_validate(SVC(), X, y, folds=3, seed=0).scores)


@pytest.mark.slow
def test_a_worker_runs_one_blas_thread():
    """A worker is given one core: its BLAS must not take the others (the window's core,
    when the window leaves itself one)."""
    assert local_pool.local_pool(1).submit(blas_threads).result(timeout=30) == 1


@pytest.mark.slow
def test_a_workers_death_is_one_clear_error():
    X, y = _moons(30)
    with pytest.raises(WorkerLost, match="n_jobs=1"):
        cross_validate(SVC(), X, y, folds=3, seed=0, n_jobs=2, score=killed_on_purpose)


@pytest.mark.parametrize(("n_jobs", "workers"), [
    (1, 1), (None, 1), (-1, os.cpu_count()), (2, 2), (-os.cpu_count() - 5, 1)])
def test_n_jobs_counts_as_scikit_learns(n_jobs, workers, monkeypatch):
    monkeypatch.setattr(local_pool, "cpu_count", lambda: os.cpu_count())
    assert local_pool.worker_count(n_jobs) == workers


@pytest.mark.parametrize("n_jobs", [0, 1.5, True, "2"])
def test_a_bad_n_jobs_is_refused_before_any_fit(n_jobs):
    X, y = _moons(30)
    with pytest.raises(ValueError, match="n_jobs"):
        grid_search(SVC(), X, y, {"C": [1.0]}, folds=3, seed=0, n_jobs=n_jobs)
    with pytest.raises(ValueError, match="n_jobs"):
        cross_validate(SVC(), X, y, folds=3, seed=0, n_jobs=n_jobs)


def test_jobs_still_works_and_says_it_is_deprecated():
    X, y = _moons(30)
    with pytest.warns(FutureWarning, match="n_jobs"):
        old = grid_search(SVC(), X, y, {"C": [1.0]}, folds=3, seed=0, jobs=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        new = grid_search(SVC(), X, y, {"C": [1.0]}, folds=3, seed=0, n_jobs=1)
    np.testing.assert_array_equal(old.cells[0].scores, new.cells[0].scores)
    with pytest.raises(TypeError, match="jobs"):
        grid_search(SVC(), X, y, {"C": [1.0]}, folds=3, seed=0, jobs=1, n_jobs=2)


@pytest.mark.slow
def test_scikit_learns_pool_runs_beside_ours():
    from sklearn.model_selection import GridSearchCV
    from sklearn.svm import SVC as LibSVC

    X, y = _moons(60)
    grid_search(SVC(), X, y, {"C": [1.0]}, folds=3, seed=0, n_jobs=2)
    search = GridSearchCV(LibSVC(), {"C": [1.0, 10.0]}, cv=3, n_jobs=2).fit(X, y)
    assert search.best_params_["C"] in (1.0, 10.0)
    grid_search(SVC(), X, y, {"C": [1.0]}, folds=3, seed=0, n_jobs=2)


@pytest.mark.slow
def test_cancel_stops_a_pooled_column_part_way():
    X, y = _moons(60)
    asked = []

    def cancelled():
        asked.append(True)
        return len(asked) > 2                  # after two of the column's five folds went out

    with pytest.raises(Cancelled, match="0 of 1 cells") as stop:
        grid_search(SVC(), X, y, {"C": [1.0]}, folds=5, seed=0, n_jobs=2, cancelled=cancelled)
    assert stop.value.finished == ()
