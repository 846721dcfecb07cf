"""A Dask cluster's executor as the grid search and cross-validation hand it their tasks.

A Dask Client's own concurrent.futures executor (distributed's ClientExecutor) reads a
task's status only after fetching its result: when the worker that held the result dies
in between, the scheduler has marked the task lost, and the executor raises the result
as if it were the task's error ("cannot unpack non-iterable ..."). Here each task's
concurrent future is settled by the Dask future's result alone, which waits for the
scheduler to run a lost task again. The points go to every worker once (scattered) and the
tasks name them by reference, and every worker sets its malloc up as a plain process has it
(cluster_workers.py). dask.distributed is imported only once a ClientExecutor is found, known
by its type's name and reached through its client."""
from __future__ import annotations

import functools
from collections.abc import Callable
from concurrent.futures import Executor, Future, InvalidStateError
from typing import Any


class ClusterExecutor(Executor):
    """Runs tasks on a Dask Client's cluster, as the ClientExecutor it replaces would with
    the same submit options (retries, workers, ...)."""

    def __init__(self, client: Any, options: dict[str, Any]) -> None:
        from .cluster_workers import ArraysOnTheHeap  # distributed is there: a client is

        self.client = client
        self.options = options
        client.register_plugin(ArraysOnTheHeap())

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        task = self.client.submit(fn, *args, **self.options, **kwargs)
        outcome: Future = Future()
        outcome.add_done_callback(functools.partial(_cancel_task_if_cancelled, task))
        task.add_done_callback(functools.partial(_settle, outcome))
        return outcome

    def scattered(self, *arrays: Any) -> tuple:
        """The arrays held once by every worker, as futures a task can be handed."""
        return tuple(self.client.scatter(list(arrays), broadcast=True, hash=False))


def for_tasks(executor: Executor) -> Executor:
    """`executor` itself, or for a Dask Client's executor a ClusterExecutor on its client."""
    client = getattr(executor, "_client", None)
    if type(executor).__name__ != "ClientExecutor" or client is None:
        return executor
    return ClusterExecutor(client, dict(getattr(executor, "_kwargs", {})))


def shared_points(executor: Executor, X: Any, y: Any) -> tuple:
    """X and y as tasks on `executor` are handed them: on a cluster scattered once; any other
    executor is handed the arrays with each task (a process pool pickles them)."""
    return executor.scattered(X, y) if isinstance(executor, ClusterExecutor) else (X, y)


def _cancel_task_if_cancelled(task: Any, outcome: Future) -> None:
    if outcome.cancelled():
        task.cancel()


def _settle(outcome: Future, task: Any) -> None:
    """On Dask's callback thread, once `task` is no longer pending: its result, its error or
    its cancellation becomes `outcome`'s. A task lost since (its worker died) is waited for
    as the scheduler runs it again."""
    if task.cancelled():
        if outcome.cancel():
            outcome.set_running_or_notify_cancel()
        return
    try:
        result = task.result()
    except BaseException as error:      # noqa: BLE001 - the task's own error, handed on
        _hand_on(outcome.set_exception, error)
    else:
        _hand_on(outcome.set_result, result)


def _hand_on(setter: Callable[[Any], None], value: Any) -> None:
    try:
        setter(value)
    except InvalidStateError:           # cancelled here meanwhile: nobody waits for it
        pass
