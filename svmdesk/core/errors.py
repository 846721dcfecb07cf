"""Exceptions and warnings raised by the solver core."""
import contextlib
import threading
import warnings

_listeners = threading.local()    # per thread: a training run in the GUI's worker thread
                                  # hears its own warnings, never another thread's


class DataError(ValueError):
    """Training or prediction data that cannot be used, with a message a student can act on."""


class ConvergenceWarning(UserWarning):
    """A solver stopped before reaching its tolerance (budget spent, or no solution exists)."""


class DivergenceError(ArithmeticError):
    """A gradient solver produced NaN or inf; the message names the solver and its step size."""


def warn_convergence(message: str, stacklevel: int = 2) -> None:
    """Raise a ConvergenceWarning, and hand its message to this thread's listener (see
    hearing_warnings) as it is raised."""
    listener = getattr(_listeners, "listener", None)
    if listener is not None:
        listener(message)
    warnings.warn(message, ConvergenceWarning, stacklevel=stacklevel + 1)


@contextlib.contextmanager
def hearing_warnings(listener):
    """Within this block, on this thread, listener(message) hears every warning the core
    raises. Unlike warnings.catch_warnings, which swaps process-wide state (and races any
    other thread that uses it, pyqtgraph's drawing code among them), this is per thread."""
    previous = getattr(_listeners, "listener", None)
    _listeners.listener = listener
    try:
        yield
    finally:
        _listeners.listener = previous
