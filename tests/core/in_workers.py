"""What the tests hand a spawned process to run: a module importing nothing but numpy and
svmdesk's core, so that a worker unpickling these loads no test module and its oracles
(scikit-learn takes a second or more to import, in every worker)."""
import sys

import numpy as np

from svmdesk.core.model_selection import grid_search


def negative_squared_error(estimator, X, y):
    """A score function: minus the mean squared error of the predictions."""
    return -float(np.mean((estimator.predict(X) - y) ** 2))


def qt_loaded_after(task, *points):
    """The grid's entry point, then which Qt packages the process has loaded."""
    grid_search.run_task(task, *points)
    return [name for name in ("PySide6", "pyqtgraph", "qasync", "shiboken6")
            if name in sys.modules]


def killed_on_purpose(estimator, X, y):
    """A score function that ends the worker process at once, as the kernel's OOM killer
    would."""
    import os
    os._exit(1)


def large_array_mapped() -> tuple[bool, int]:
    """In a worker: whether its malloc was started with MALLOC_TRIM_THRESHOLD_ (as Dask's
    nanny starts it), and how many blocks glibc maps for a 2 MiB array held (1: mapped for it
    alone; 0: heap memory)."""
    import ctypes
    import os

    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
            "fordblks", "keepcost")]

    libc = ctypes.CDLL("libc.so.6")
    libc.mallinfo2.restype = MallInfo2
    before = libc.mallinfo2().hblks
    block = np.ones(2**18)
    held = libc.mallinfo2().hblks
    del block
    return "MALLOC_TRIM_THRESHOLD_" in os.environ, int(held - before)


def blas_threads() -> int:
    """In a worker: the most threads any of numpy's BLAS libraries will run."""
    from threadpoolctl import threadpool_info
    return max(pool["num_threads"] for pool in threadpool_info()
               if pool["user_api"] == "blas")
