"""One answer at a time in a worker, its text streamed to the view in ≤ 40 ms batches."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from app.services.chat_results import Answer
from pipelines.chat import GenerationSettings
from ui.tasks import Policy, TaskRunner, TaskState

ANSWER_JOB = "chat-answer"


class AnswerRunner(QObject):
    """Runs ``ChatService.ask`` / ``regenerate`` as a task.

    Streamed text arrives through ``textReady`` (the task's partial results, batched); the end
    arrives as ``finished(Answer)`` or ``failed(error)``, after the last text.
    """

    textReady = Signal(str)
    finished = Signal(object)  # Answer
    failed = Signal(object)  # BaseException

    def __init__(self, tasks: TaskRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tasks = tasks

    @property
    def running(self) -> bool:
        """Whether an answer is being written."""
        return self._tasks.running(ANSWER_JOB)

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
        state = TaskState()
        self._tasks.start(
            method,
            *args,
            settings,
            state.cancel,
            state.add_partial,
            state=state,
            kind=ANSWER_JOB,
            policy=Policy.REFUSE,  # the chat service answers one prompt at a time
            on_partial=self._on_text,
            on_done=self.finished.emit,
            on_error=self.failed.emit,
        )

    @Slot()
    def stop(self) -> None:
        """Ask the answer to stop at the next token; the partial answer is kept."""
        self._tasks.cancel(ANSWER_JOB)

    @Slot(list)
    def _on_text(self, chunks: list[str]) -> None:
        self.textReady.emit("".join(chunks))
