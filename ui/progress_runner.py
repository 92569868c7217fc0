"""A long job in a worker whose progress reaches the screen at a steady rate.

The job reports progress through a callback on the worker thread. The callback writes to a
plain :class:`ProgressSink` (a worker must hold no QObject, see ``ui.workers``) and a GUI timer
shows the latest state, so a fast job never floods the GUI thread with signals. Used by ingest
and by model downloads: any ``method(*args, cancel, on_progress)``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from pipelines.core import CancelToken
from ui.workers import WorkerRegistry

POLL_MS = 100
"""How often the latest progress reaches the screen."""


class ProgressSink:
    """The worker-thread side: keeps only the latest progress, under a lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._latest: Any = None

    def put(self, progress: Any) -> None:
        """Called by the service on the worker thread."""
        with self._lock:
            self._latest = progress

    def take(self) -> Any:
        """The progress put since the last call, if any."""
        with self._lock:
            latest, self._latest = self._latest, None
        return latest


class ProgressRunner(QObject):
    """Runs one long job at a time; emits its progress, then finished or failed."""

    progressed = Signal(object)  # the job's progress object
    finished = Signal(object)  # what the job returned
    failed = Signal(object)  # BaseException

    def __init__(self, workers: WorkerRegistry, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._workers = workers
        self._cancel = CancelToken()
        self._running = False
        self._sink = ProgressSink()
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    @property
    def running(self) -> bool:
        """Whether a job is running (a cancelled one included, until it returns)."""
        return self._running

    @property
    def cancelling(self) -> bool:
        """Whether the running job was asked to stop."""
        return self._running and self._cancel.cancelled

    def start(self, method: Callable[..., Any], *args: Any) -> None:
        """Call ``method(*args, cancel, on_progress)`` in a worker.

        Args:
            method: e.g. ``KnowledgeService.ingest`` or ``Downloader.download``.
            *args: Its leading arguments.
        """
        self._cancel = CancelToken()
        self._sink.take()
        self._running = True
        self._timer.start()
        self._workers.start(
            method,
            *args,
            self._cancel,
            self._sink.put,  # a plain object's method: no QObject in the worker
            cancel=self._cancel,  # closing the window cancels it too
            on_returned=self._on_returned,
            on_errored=self._on_errored,
        )

    @Slot()
    def cancel(self) -> None:
        """Ask the job to stop (it decides what is kept)."""
        self._cancel.cancel()

    @Slot()
    def _poll(self) -> None:
        progress = self._sink.take()
        if progress is not None:
            self.progressed.emit(progress)

    def _end(self) -> None:
        self._timer.stop()
        self._poll()  # the last state reaches the screen before the summary
        self._running = False

    @Slot(object)
    def _on_returned(self, result: Any) -> None:
        self._end()
        self.finished.emit(result)

    @Slot(object)
    def _on_errored(self, error: BaseException) -> None:
        self._end()
        self.failed.emit(error)
