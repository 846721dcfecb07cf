"""`--scheduler`: the grid's cells on a Dask cluster (the optional extra svmdesk[cluster]).
dask.distributed is imported only when a scheduler is named, and every way of failing to
reach one is a one-line error."""
from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager

from ..i18n import tr

CONNECT_SECONDS = 10          # how long to look for the scheduler before saying so
INSTALL = "pip install 'svmdesk[cluster]'"


@contextmanager
def executor_at(address: str | None) -> Iterator[Executor | None]:
    """The executor of a Client connected to the Dask scheduler at `address`, closed on
    leaving; None without an address (the grid runs on this machine)."""
    if address is None:
        yield None
        return
    try:
        from dask.distributed import Client
    except ImportError:
        raise ValueError(tr("--scheduler needs Dask's distributed scheduler, which is not "
                            "installed: {install}").format(install=INSTALL)) from None
    try:
        client = Client(address, timeout=CONNECT_SECONDS)
    except Exception as e:       # noqa: BLE001 - OSError, TimeoutError, ValueError, ...
        said = " ".join(str(e).split()) or type(e).__name__
        raise ValueError(tr("--scheduler {address}: cannot reach a Dask scheduler there "
                            "({said}); start one with 'dask scheduler' and give the address "
                            "it prints, such as tcp://10.0.0.5:8786").format(
                                address=address, said=said)) from None
    try:
        yield client.get_executor()
    finally:
        client.close()
