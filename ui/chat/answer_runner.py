"""One answer at a time in a worker, its text streamed to the view in ≤ 40 ms batches.

Tool calls made while it is written travel the same way as its text (the task's partial
results), so a call's block appears before the text that follows it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from app.chat import Answer, GenerationSettings
from app.mcp import ToolCall
from pipelines.core import CancelToken
from ui.task_state import Policy, TaskState
from ui.tasks import TaskRunner

AskConfirmation = Callable[[str, dict[str, Any], CancelToken], bool]
"""Asks the user whether a tool runs: (tool id, arguments, the answer's cancel token)."""

ANSWER_JOB = "chat-answer"


class AnswerRunner(QObject):
    """Runs ``ChatService.ask`` / ``regenerate`` as a task.

    Streamed text arrives through ``textReady`` (the task's partial results, batched); the end
    arrives as ``finished(Answer)`` or ``failed(error)``, after the last text.
    """

    textReady = Signal(str)
    toolCalled = Signal(object)  # ToolCall, as soon as it ended
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
        confirm_tool: AskConfirmation | None = None,
        listener: Callable[[str], None] | None = None,
    ) -> bool:
        """Call ``method(*args, settings, cancel, on_text)`` in a worker.

        Args:
            method: ``ChatService.ask`` or ``ChatService.regenerate``.
            *args: Its leading arguments (conversation id, prompt).
            settings: Generation settings for this answer.
            confirm_tool: Given for ``ask``, ``regenerate`` and ``resend``: the answer may call
                tools; each call that needs it is confirmed through this, and every call
                reaches ``toolCalled``.
        """
        state = TaskState()
        if confirm_tool is not None:
            method = partial(
                method,
                confirm_tool=partial(_confirm, confirm_tool, state.cancel),
                on_tool_call=state.add_partial,
            )
        on_text: Callable[[str], None] = state.add_partial
        if listener is not None:
            on_text = partial(_heard_by_both, state.add_partial, listener)
        started = self._tasks.start(
            method,
            *args,
            settings,
            state.cancel,
            on_text,
            state=state,
            kind=ANSWER_JOB,
            policy=Policy.REFUSE,  # the chat service answers one prompt at a time
            on_partial=self._on_text,
            on_done=self.finished.emit,
            on_error=self.failed.emit,
        )
        return bool(started)

    @Slot()
    def stop(self) -> None:
        """Ask the answer to stop at the next token; the partial answer is kept."""
        self._tasks.cancel(ANSWER_JOB)

    @Slot(list)
    def _on_text(self, chunks: list[str | ToolCall]) -> None:
        text: list[str] = []
        for chunk in chunks:
            if isinstance(chunk, ToolCall):
                if text:  # the text before the call first, in order
                    self.textReady.emit("".join(text))
                    text = []
                self.toolCalled.emit(chunk)
            else:
                text.append(chunk)
        if text:
            self.textReady.emit("".join(text))


def _heard_by_both(
    view: Callable[[str], None], listener: Callable[[str], None], chunk: str
) -> None:
    view(chunk)
    listener(chunk)


def _confirm(
    ask: AskConfirmation, cancel: CancelToken, tool_id: str, arguments: dict[str, Any]
) -> bool:
    """``confirm_tool`` as the chat service calls it, with the answer's cancel token."""
    return ask(tool_id, arguments, cancel)
