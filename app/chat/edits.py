"""Changing a conversation after the fact: edit a question and resend it, delete a message,
choose which version of an answer is shown.

A mixin of :class:`app.chat.service.ChatService` (it needs the service's lock, store and
answer loop); kept apart so the service stays about answering.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from app.chat.message_versions import choose, drop_shown
from app.chat.results import Answer
from app.chat.storage import ChatMessage, Conversation, ConversationStore
from app.chat.tool_loop import ConfirmTool, OnToolCall, ToolLoop
from app.core.errors import UserError
from app.engines.slots import BusyLock
from pipelines.chat import GenerationSettings
from pipelines.core import CancelToken

BUSY = "The model is still answering; stop it or wait."


class ChatEdits:
    """Edit, delete and version switching for :class:`~app.chat.service.ChatService`."""

    if TYPE_CHECKING:  # provided by ChatService
        _busy: BusyLock
        _store: ConversationStore
        _transient: set[str]

        def get(self, conversation_id: str) -> Conversation: ...

        def _answer(
            self,
            conversation: Conversation,
            question: ChatMessage,
            settings: GenerationSettings,
            cancel: CancelToken,
            on_text: Callable[[str], None],
            *,
            loop: ToolLoop | None = None,
        ) -> Answer: ...

        def _tool_loop(
            self,
            conversation: Conversation,
            confirm: ConfirmTool | None,
            on_call: OnToolCall | None,
        ) -> ToolLoop | None: ...

    def resend(
        self,
        conversation_id: str,
        index: int,
        prompt: str,
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
        *,
        confirm_tool: ConfirmTool | None = None,
        on_tool_call: OnToolCall | None = None,
    ) -> Answer:
        """Replace question ``index`` by ``prompt`` (its images stay) and answer it; what
        followed it is replaced by the new answer once that is done. A failed answer leaves
        the conversation as it was. With tools enabled in the conversation the model may call
        them, as in ``ask`` (``confirm_tool``, ``on_tool_call``).

        Raises:
            UserError: an empty prompt, or ``index`` is not a question.
        """
        if not prompt.strip():
            raise UserError("Type a message first.", field="prompt")
        conversation = self.get(conversation_id)
        messages = conversation.messages
        if not 0 <= index < len(messages) or messages[index].role != "user":
            raise UserError("That message is no longer in the conversation.", field="prompt")
        question = ChatMessage(role="user", content=prompt, images=list(messages[index].images))
        previous = messages[index:]
        loop = self._tool_loop(conversation, confirm_tool, on_tool_call)
        del messages[index:]
        try:
            return self._answer(conversation, question, settings, cancel, on_text, loop=loop)
        except BaseException:
            messages.extend(previous)
            raise

    def delete_message(self, conversation_id: str, index: int) -> Conversation:
        """Delete message ``index``: a question goes with its answer; an answer with several
        versions loses only the one shown. Saved at once.

        Raises:
            UserError: no such message. StorageError: not saved (the change stays here).
        """
        with self._busy.hold(BUSY, field="prompt"):
            conversation = self.get(conversation_id)
            messages = conversation.messages
            if not 0 <= index < len(messages):
                raise UserError("That message is no longer in the conversation.")
            message = messages[index]
            if message.role == "assistant":
                remaining = drop_shown(message)
                if remaining is None:
                    del messages[index]
                else:
                    messages[index] = remaining
            else:
                end = index + 1
                while end < len(messages) and messages[end].role == "assistant":
                    end += 1
                del messages[index:end]
            self._save(conversation)
            return conversation

    def choose_version(self, conversation_id: str, index: int, position: int) -> Conversation:
        """Show version ``position`` (0-based) of answer ``index``; the model reads that one
        from now on. Saved at once.

        Raises:
            UserError: no such answer. StorageError: not saved (the change stays here).
        """
        with self._busy.hold(BUSY, field="prompt"):
            conversation = self.get(conversation_id)
            messages = conversation.messages
            if not 0 <= index < len(messages) or messages[index].role != "assistant":
                raise UserError("That answer is no longer in the conversation.")
            messages[index] = choose(messages[index], position)
            self._save(conversation)
            return conversation

    def _save(self, conversation: Conversation) -> None:
        conversation.updated = time.time()
        if conversation.id not in self._transient:
            self._store.save(conversation)
