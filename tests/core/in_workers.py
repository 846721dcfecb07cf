"""What the tests hand a spawned process to run: a module importing nothing but numpy and
svmdesk's core, so that a worker unpickling these loads no test module and its oracles
(scikit-learn takes a second or more to import, in every worker)."""
import sys

import numpy as np

from svmdesk.core import parameter_search


def negative_squared_error(estimator, X, y):
    """A score function: minus the mean squared error of the predictions."""
    return -float(np.mean((estimator.predict(X) - y) ** 2))


def qt_loaded_after(task, *points):
    """The grid's entry point, then which Qt packages the process has loaded."""
    parameter_search.run_task(task, *points)
    return [name for name in ("PySide6", "pyqtgraph", "qasync", "shiboken6")
            if name in sys.modules]


def killed_on_purpose(estimator, X, y):
    """A score function that ends the worker process at once, as the kernel's OOM killer
    would."""
    import os
    os._exit(1)
