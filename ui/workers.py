"""The one thread bridge: long work runs in superqt workers, results come back as signals.

Work functions are plain callables from ``app`` (they know nothing of Qt). A worker's
``returned`` / ``errored`` signals are connected to ``@Slot`` methods of GUI objects, so widgets
are only touched on the GUI thread. Streaming text does not travel as one signal per token: the
worker appends to a :class:`ChunkBuffer` and a GUI timer drains it at most every 50 ms.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QThreadPool, QTimer, Signal, Slot
from superqt.utils import FunctionWorker, create_worker

from pipelines.core import CancelToken

log = logging.getLogger(__name__)

BATCH_INTERVAL_MS = 40
"""How often streamed text reaches the view: under 50 ms, so it still looks live."""


class TextSink:
    """The worker-thread side of streaming: a locked list, deliberately not a QObject.

    Worker threads must hold no reference to a QObject: if theirs were the last one, Python
    would destroy the Qt object on the wrong thread when the job ends.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: list[str] = []

    def append(self, text: str) -> None:
        """Called from the worker thread for each streamed chunk."""
        with self._lock:
            self._pending.append(text)

    def take(self) -> str:
        """Everything appended since the last call."""
        with self._lock:
            text = "".join(self._pending)
            self._pending.clear()
        return text


class ChunkBuffer(QObject):
    """Drains a :class:`TextSink` on the GUI thread, emitting text at most every 40 ms."""

    textReady = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.sink = TextSink()
        self._timer = QTimer(self)
        self._timer.setInterval(BATCH_INTERVAL_MS)
        self._timer.timeout.connect(self.flush)

    def start(self) -> None:
        """Begin periodic flushing (GUI thread)."""
        self._timer.start()

    def stop(self) -> None:
        """Flush what is left and stop the timer (GUI thread)."""
        self._timer.stop()
        self.flush()

    @Slot()
    def flush(self) -> None:
        """Emit everything collected since the last flush as one string."""
        text = self.sink.take()
        if text:
            self.textReady.emit(text)


class _Job(QObject):
    """A running worker's cancel token; lives on the GUI thread so ``finished`` is queued here."""

    def __init__(self, registry: WorkerRegistry, cancel: CancelToken) -> None:
        super().__init__(registry)
        self.registry = registry
        self.cancel = cancel

    @Slot()
    def on_finished(self) -> None:
        self.registry.forget(self)


class WorkerRegistry(QObject):
    """Keeps every running job's cancel token and can cancel them all (e.g. on window close)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._jobs: set[_Job] = set()

    def start(
        self,
        function: Callable[..., Any],
        *args: Any,
        cancel: CancelToken | None = None,
        on_returned: Callable[[Any], None] | None = None,
        on_errored: Callable[[BaseException], None] | None = None,
        on_finished: Callable[[], None] | None = None,
    ) -> FunctionWorker[Any]:
        """Run ``function(*args)`` on the thread pool; callbacks are bound slots of GUI objects.

        Qt delivers the worker's signals to those slots on the GUI thread (queued connections),
        so they may touch widgets.
        """
        # Errors are ours to route (on_errored); superqt would otherwise re-raise them here.
        worker: FunctionWorker[Any] = create_worker(
            function, *args, _start_thread=False, _ignore_errors=True
        )
        job = _Job(self, cancel or CancelToken())
        self._jobs.add(job)
        if on_returned is not None:
            worker.returned.connect(on_returned)
        worker.errored.connect(on_errored if on_errored is not None else self._log_error)
        if on_finished is not None:
            worker.finished.connect(on_finished)  # type: ignore[arg-type]  # superqt stub: Signal()
        worker.finished.connect(job.on_finished)  # type: ignore[arg-type]
        worker.start()
        return worker

    @Slot(object)
    def _log_error(self, error: BaseException) -> None:
        log.error("background job failed", exc_info=error)

    def forget(self, job: _Job) -> None:
        """Drop a finished job."""
        self._jobs.discard(job)
        job.deleteLater()

    @property
    def busy(self) -> bool:
        """Whether any job is still running."""
        return bool(self._jobs)

    def cancel_all_and_wait(self, timeout_ms: int = 10_000) -> bool:
        """Cancel every running job and wait for the pool to drain; True if it did."""
        for job in self._jobs:
            job.cancel.cancel()
        done = QThreadPool.globalInstance().waitForDone(timeout_ms)
        if not done:
            log.warning("workers still running after %d ms", timeout_ms)
        return done
