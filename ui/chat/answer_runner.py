"""One answer at a time in a worker, its text streamed to the view in ≤ 40 ms batches."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from app.services.chat import Answer
from pipelines.chat import GenerationSettings
from pipelines.core import CancelToken
from ui.workers import ChunkBuffer, WorkerRegistry


class AnswerRunner(QObject):
    """Runs ``ChatService.ask`` / ``regenerate`` in a worker.

    Streamed text arrives through ``textReady`` (batched by a GUI timer); the end arrives as
    ``finished(Answer)`` or ``failed(error)``, after the last text.
    """

    textReady = Signal(str)
    finished = Signal(object)  # Answer
    failed = Signal(object)  # BaseException

    def __init__(self, workers: WorkerRegistry, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._workers = workers
        self._cancel = CancelToken()
        self._running = False
        self.buffer = ChunkBuffer(self)
        self.buffer.textReady.connect(self.textReady)

    @property
    def running(self) -> bool:
        """Whether an answer is being written."""
        return self._running

    def start(
        self,
        method: Callable[..., Answer],
        *args: Any,
        settings: GenerationSettings,
    ) -> None:
        """Call ``method(*args, settings, cancel, on_text)`` in a worker.

        Args:
            method: ``ChatService.ask`` or ``ChatService.regenerate``.
            *args: Its leading arguments (conversation id, prompt).
            settings: Generation settings for this answer.
        """
        self._cancel = CancelToken()
        self._running = True
        self.buffer.start()
        self._workers.start(
            method,
            *args,
            settings,
            self._cancel,
            self.buffer.sink.append,  # a plain object: the worker must hold no QObject
            cancel=self._cancel,
            on_returned=self._on_returned,
            on_errored=self._on_errored,
        )

    @Slot()
    def stop(self) -> None:
        """Ask the answer to stop at the next token; the partial answer is kept."""
        self._cancel.cancel()

    @Slot(object)
    def _on_returned(self, answer: Answer) -> None:
        self.buffer.stop()  # the last batch reaches the view before the answer is redrawn
        self._running = False
        self.finished.emit(answer)

    @Slot(object)
    def _on_errored(self, error: BaseException) -> None:
        self.buffer.stop()
        self._running = False
        self.failed.emit(error)
