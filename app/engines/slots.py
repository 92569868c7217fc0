"""What every service shares: a slot for its loaded model and a lock for its one job at a time.

A service loads a model from a folder onto a device the first time it is needed and keeps it
while the choice stays the same; when the user switches folder or device the old model is
dropped before the new one loads (one model of a kind in memory at a time). A model serves one
job at a time, so a second job is refused with a sentence (:class:`BusyError`) rather than
queued behind a long one the user may not know is running.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

from app.core.errors import BusyError

Model = TypeVar("Model")


class ModelSlot(Generic[Model]):
    """One loaded model and the key it was loaded for (folder, device, …); thread-safe.

    :meth:`get` with the same key reuses the model; with another key it drops the old one and
    loads anew. Two threads asking at once load it once: the second waits and reuses it.
    """

    def __init__(self) -> None:
        # Reentrant: a caller holding :meth:`loading` replaces the model under the same lock.
        self._lock = threading.RLock()
        self._key: Hashable | None = None
        self._model: Model | None = None

    def get(
        self,
        key: Hashable,
        load: Callable[[], Model],
        on_drop: Callable[[Model], None] | None = None,
    ) -> Model:
        """The model loaded for ``key``, calling ``load`` when there is none for it.

        A failed load leaves the slot empty (the old model was already dropped, and given to
        ``on_drop`` first, e.g. to close it) and raises what ``load`` raised; the next call
        tries again.
        """
        with self._lock:
            if self._model is not None and self._key == key:
                return self._model
            # Dropped before loading, not after: two big models never share the memory.
            self.clear(on_drop)
            model = load()
            self._key, self._model = key, model
            return model

    def replace(self, key: Hashable, model: Model) -> None:
        """Keep ``model`` (loaded by the caller) for ``key``, dropping the previous one.

        For a service that keeps the old model until the new one has loaded (chat: a failed
        or cancelled load leaves the previous model answering).
        """
        with self._lock:
            self._key, self._model = key, model

    @property
    def model(self) -> Model | None:
        """The loaded model, or None."""
        return self._model

    @property
    def key(self) -> Hashable | None:
        """The key of the loaded model, or None."""
        return self._key

    def clear(self, on_drop: Callable[[Model], None] | None = None) -> None:
        """Drop the loaded model (the next :meth:`get` loads), handing it to ``on_drop``."""
        with self._lock:
            dropped, self._key, self._model = self._model, None, None
            if dropped is not None and on_drop is not None:
                on_drop(dropped)

    @contextmanager
    def loading(self) -> Iterator[None]:
        """Hold the slot for a load that keeps the old model until :meth:`replace` (another
        thread asking meanwhile waits, then finds the new model)."""
        with self._lock:
            yield


class BusyLock:
    """One job at a time for a service's models: a second one is refused, not queued."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    @property
    def busy(self) -> bool:
        """Whether a job holds the lock."""
        return self._lock.locked()

    @contextmanager
    def hold(self, busy_message: str, *, field: str = "") -> Iterator[None]:
        """Run the ``with`` body as the one job, or refuse at once.

        Raises:
            BusyError: another job holds the lock (``busy_message``, ``field``).
        """
        if not self._lock.acquire(blocking=False):
            raise BusyError(busy_message, field=field)
        try:
            yield
        finally:
            self._lock.release()

    @contextmanager
    def wait(self) -> Iterator[None]:
        """Run the ``with`` body after the running job ends (for a short call that must not
        share the model with a job, but need not be refused for it)."""
        with self._lock:
            yield
