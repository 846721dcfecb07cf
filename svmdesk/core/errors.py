"""Exceptions and warnings raised by the solver core."""
import warnings
from collections.abc import Callable
from contextlib import AbstractContextManager

from .per_thread import PerThread

_listener = PerThread()           # a training run hears its own warnings, not another thread's


class DataError(ValueError):
    """Training or prediction data that cannot be used, with a message a student can act on."""


class NotFittedError(ValueError, AttributeError):
    """An estimator asked for what only fit gives (as scikit-learn's NotFittedError, both a
    ValueError and an AttributeError, so hasattr() on a fitted attribute says False)."""


class ConvergenceWarning(UserWarning):
    """A solver stopped before reaching its tolerance (budget spent, or no solution exists)."""


class DivergenceError(ArithmeticError):
    """A gradient solver produced NaN or inf; the message names the solver and its step size."""


def warn_convergence(message: str, stacklevel: int = 2) -> None:
    """Raise a ConvergenceWarning, and hand its message to this thread's listener (see
    hearing_warnings) as it is raised."""
    listener = _listener.value
    if listener is not None:
        listener(message)
    warnings.warn(message, ConvergenceWarning, stacklevel=stacklevel + 1)


def hearing_warnings(listener: Callable[[str], None]) -> AbstractContextManager[None]:
    """Within this block, on this thread, listener(message) hears every warning the core
    raises. Unlike warnings.catch_warnings, which swaps process-wide state (and races any
    other thread that uses it, pyqtgraph's drawing code among them), this is per thread."""
    return _listener.set_to(listener)
