"""Exceptions and warnings raised by the solver core."""
import sys
import warnings
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from ..i18n import tr
from .per_thread import PerThread

_listener = PerThread()           # a training run hears its own warnings, not another thread's


class _ScikitLearnsTwin:
    """An error that is also scikit-learn's class of its name wherever scikit-learn is
    loaded (see also_sklearns), in this process or in the one that unpickles it: a fit that
    fails in a worker process (a grid search, joblib) raises the same error in the parent."""

    args: tuple[Any, ...]          # always mixed into an exception class: BaseException's

    def __reduce__(self):
        ours = getattr(type(self), "_ours", type(self))
        return _rebuild, (ours, self.args), (self.__dict__ or None)


def _rebuild(ours: type, args: tuple) -> BaseException:
    return also_sklearns(ours)(*args)


class DataError(ValueError):
    """Training or prediction data that cannot be used, with a message a student can act on."""


class NotFittedError(_ScikitLearnsTwin, ValueError, AttributeError):
    """An estimator asked for what only fit gives (as scikit-learn's NotFittedError, both a
    ValueError and an AttributeError, so hasattr() on a fitted attribute says False)."""


class DataTypeError(DataError, TypeError):
    """Data whose cells are not numbers at all (a dict, a list): a TypeError too, as numpy's
    conversion raises one."""


class DataConversionWarning(_ScikitLearnsTwin, UserWarning):
    """Data that was usable after a conversion the user may not have meant (a column of
    labels given as an (n, 1) table)."""


def continuous_labels(example: str) -> str:
    """scikit-learn's sentence for a regression target given to a classifier, then what it
    means: the same words from the estimator and from the file readers."""
    return tr("Unknown label type: continuous. The labels are measurements (such as "
              "{example}), not classes: a classifier needs a label per class, such as 0 and "
              "1").format(example=example)


def not_fitted(message: str) -> NotFittedError:
    """The NotFittedError to raise (see also_sklearns)."""
    return also_sklearns(NotFittedError)(message)


def warn_data_conversion(message: str, stacklevel: int = 2) -> None:
    warnings.warn(message, also_sklearns(DataConversionWarning), stacklevel=stacklevel + 1)


_both: dict[tuple[type, type], type] = {}


def also_sklearns(ours: type) -> type:
    """`ours`, or where scikit-learn is already loaded (its tools are calling us), a subclass
    that is also scikit-learn's class of the same name, which those tools catch or count by
    class. svmdesk never imports scikit-learn itself: a plain svmdesk process pays nothing.
    Such a class has no name of its own to be pickled by: it pickles as `ours`, made again
    by this function where it is unpickled (`_ScikitLearnsTwin`)."""
    theirs_module = sys.modules.get("sklearn.exceptions")
    theirs = getattr(theirs_module, ours.__name__, None)
    if theirs is None:
        return ours
    if (ours, theirs) not in _both:
        _both[ours, theirs] = type(ours.__name__, (ours, theirs), {
            "__module__": __name__, "__doc__": ours.__doc__, "_ours": ours,
            "__reduce__": _ScikitLearnsTwin.__reduce__})
    return _both[ours, theirs]


class ConvergenceWarning(UserWarning):
    """A solver stopped before reaching its tolerance (budget spent, or no solution exists)."""


class DivergenceError(ArithmeticError):
    """A gradient solver produced NaN or inf; the message names the solver and its step size."""


def warn_convergence(message: str, stacklevel: int = 2) -> None:
    """Raise a ConvergenceWarning, or hand its message to this thread's listener instead
    (see hearing_warnings)."""
    listener = _listener.value
    if listener is not None:
        listener(message)
        return
    warnings.warn(message, ConvergenceWarning, stacklevel=stacklevel + 1)


def hearing_warnings(listener: Callable[[str], None]) -> AbstractContextManager[None]:
    """Within this block, on this thread, listener(message) hears every ConvergenceWarning
    the core raises, instead of the warnings module (which would print it on stderr with a
    source line: the window says it in its status bar and log). Unlike
    warnings.catch_warnings, which swaps process-wide state (and races any other thread
    that uses it, pyqtgraph's drawing code among them), this is per thread."""
    return _listener.set_to(listener)


class WorkerLost(RuntimeError):
    """A process of this machine's pool died before its task was done (killed, out of
    memory, a crash in native code): the run is lost, the pool starts afresh next time."""


class Cancelled(Exception):
    """A long run stopped because its caller asked it to (its `cancelled` callable said
    True). `finished` holds the work done before the stop, so a caller can show or keep it:
    for cross_validate, one FoldScore per fold finished, in fold order. Not asyncio's or
    concurrent.futures' CancelledError: those mean a task or future was cancelled, and an
    event loop treats them as such."""

    def __init__(self, message: str, finished: tuple = ()) -> None:
        super().__init__(message)
        self.finished = tuple(finished)
