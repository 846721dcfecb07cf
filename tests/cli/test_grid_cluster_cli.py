"""`svmdesk grid --scheduler ADDRESS`: the grid on a Dask cluster writes the table of a run
on this machine; without the cluster extra, with --jobs too, or with no scheduler at the
address, one line says what to do and nothing is written."""
from __future__ import annotations

import sys

import pytest

from svmdesk.cli import cluster

from .test_cli import assert_one_line_error, run
from .test_grid_cli import grid, moons, read_table  # noqa: F401 - moons: the fixture

distributed = pytest.importorskip("distributed")


@pytest.fixture
def scheduler():
    """A scheduler listening on a free TCP port of this machine, one worker in-process."""
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                                  protocol="tcp://", scheduler_port=0,
                                  dashboard_address=None) as local:
        yield local.scheduler_address


def _without_jobs(cwd, *more):
    return run("grid", "moons.csv", "--C", "0.1:10:3", "--gamma", "0.1:10:3", "--folds", "3",
               "--out", "grid.csv", *more, cwd=cwd)


def _table_but_times(path):
    """The table's rows without the mean_fit_time column (its only column that varies)."""
    header, rows = read_table(path)
    keep = [k for k, name in enumerate(header) if name != "mean_fit_time"]
    return [[row[k] for k in keep] for row in [header, *rows]]


def test_the_clusters_table_is_the_local_one(moons, scheduler):  # noqa: F811
    local = grid(moons)
    assert local.returncode == 0, local.stderr
    expected = _table_but_times(moons / "grid.csv")
    (moons / "grid.csv").unlink()
    remote = _without_jobs(moons, "--scheduler", scheduler)
    assert remote.returncode == 0, remote.stderr
    assert _table_but_times(moons / "grid.csv") == expected
    best = [line for line in remote.stdout.splitlines() if line.startswith("best:")]
    assert best == [line for line in local.stdout.splitlines() if line.startswith("best:")]


def test_without_the_extra_one_line_says_how_to_install_it(moons, monkeypatch):  # noqa: F811
    monkeypatch.setitem(sys.modules, "dask.distributed", None)     # import fails
    line = assert_one_line_error(_without_jobs(moons, "--scheduler", "tcp://10.0.0.5:8786"))
    assert "pip install 'svmdesk[cluster]'" in line
    assert not (moons / "grid.csv").exists()


def test_no_scheduler_at_the_address_is_one_line(moons, monkeypatch):  # noqa: F811
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    line = assert_one_line_error(_without_jobs(moons, "--scheduler", "tcp://127.0.0.1:9"))
    assert "cannot reach a Dask scheduler" in line and "dask scheduler" in line
    assert not (moons / "grid.csv").exists()


def test_jobs_and_a_scheduler_together_are_refused(moons):  # noqa: F811
    line = assert_one_line_error(grid(moons, "--scheduler", "tcp://127.0.0.1:9", jobs="2"))
    assert "--jobs" in line and "--scheduler" in line
