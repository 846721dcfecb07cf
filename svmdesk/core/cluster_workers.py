"""What svmdesk sets up in each Dask worker that runs its tasks: glibc's malloc as a plain
process has it. Imported only when a Dask client's executor is at hand
(cluster_executor.for_tasks), so dask.distributed is there.

Dask's nanny starts its workers with MALLOC_TRIM_THRESHOLD_=65536, which also pins glibc's
mmap threshold at 128 KiB, so every larger array (a kernel block, a Newton step's matrices,
the reordered kernel of each shrink) is mapped and zero-filled afresh: a grid scored 1.5-1.8
times slower than in a plain process. A worker plugin undoes that in every worker, those
that join later too (a nanny's replacement for one that died)."""
from __future__ import annotations

import ctypes
import os
import sys

from distributed import Worker, WorkerPlugin

M_MMAP_THRESHOLD = -3            # glibc's mallopt parameter
HEAP_ARRAYS_UP_TO = 32 * 2**20   # bytes: see arrays_on_the_heap


class ArraysOnTheHeap(WorkerPlugin):
    """Runs `arrays_on_the_heap` in each worker as it joins (and at once in those there)."""

    idempotent = True           # registered again by every grid: once per worker suffices
    name = "svmdesk-arrays-on-the-heap"

    def setup(self, worker: Worker) -> None:
        arrays_on_the_heap()


def arrays_on_the_heap() -> None:
    """Arrays up to 32 MiB from the heap again (glibc's own ceiling when it adjusts the
    threshold itself); the trim threshold stays, so freed memory still returns to the system.
    Only where MALLOC_TRIM_THRESHOLD_ is set, on glibc."""
    if "MALLOC_TRIM_THRESHOLD_" not in os.environ or not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(M_MMAP_THRESHOLD, HEAP_ARRAYS_UP_TO)
    except (OSError, AttributeError):          # not glibc: nothing to undo
        pass
