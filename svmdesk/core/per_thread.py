"""A value each thread sets for itself, for the length of a block."""
import contextlib
import threading
from collections.abc import Iterator
from typing import Any


class PerThread:
    """What this thread set with `set_to` (None outside such a block): a training run on the
    GUI's worker thread sees its own value, never another thread's."""

    def __init__(self) -> None:
        self._local = threading.local()

    @property
    def value(self) -> Any:
        return getattr(self._local, "value", None)

    @contextlib.contextmanager
    def set_to(self, value: Any) -> Iterator[None]:
        previous = self.value
        self._local.value = value
        try:
            yield
        finally:
            self._local.value = previous
