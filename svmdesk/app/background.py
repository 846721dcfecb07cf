"""One way to work off the GUI thread: `in_background(work, done, failed)` calls `work()` in
the executor of the app's qasync event loop and hands its result to `done` back on the GUI
thread (an exception to `failed`). Reading files, autosaving and redrawing the model for a
moved view all go through here; only training has a thread of its own (worker.py).

Without a running loop (a script, a test that starts none) the work runs at once, inline:
the same code path, on the calling thread."""
from __future__ import annotations

import asyncio
import traceback

_TASKS: set[asyncio.Future] = set()   # running tasks: asyncio keeps only weak references to them


def in_background(work, done, failed) -> None:
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        _finish(work, done, failed)
        return
    task = asyncio.ensure_future(_off_gui(loop, work, done, failed))
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)


async def _off_gui(loop, work, done, failed) -> None:
    try:
        result = await loop.run_in_executor(None, work)
    except Exception as e:  # noqa: BLE001 - handed to `failed`, never lost in the task
        _call(failed, e)
        return
    _call(done, result)


def _finish(work, done, failed) -> None:
    try:
        result = work()
    except Exception as e:  # noqa: BLE001 - handed to `failed`
        failed(e)
        return
    done(result)


def _call(handler, value) -> None:
    """A handler's own error, in a task, would vanish: it is printed instead."""
    try:
        handler(value)
    except Exception:  # noqa: BLE001 - printed: a task has nobody to raise to
        traceback.print_exc()
