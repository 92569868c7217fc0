"""The conversations the chat holds: the list, titles, pins, the trash, what each one answers
with (system prompt, knowledge, tools), changes after the fact (delete a message, choose an
answer's version) and writing them to the :class:`ConversationStore`.

An object of its own, usable without a model (the CLI's ``chats`` commands, tests over a temp
folder): :class:`~app.chat.service.ChatService` owns one and answers into its conversations.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from app.chat.message_versions import choose, drop_shown
from app.chat.messages import MAX_TITLE_CHARS, ChatMessage, Conversation
from app.chat.storage import ConversationStore
from app.core.errors import StorageError, UserError
from app.core.texts import tr

if TYPE_CHECKING:
    from app.chat.context_window import Retriever
    from app.mcp.service import ToolService

NEW_TITLE = "New chat"
"""The title of a conversation not yet named (its first question names it)."""


class ChatConversations:
    """Every conversation, in memory and in its file; a transient one is never written."""

    def __init__(
        self,
        store: ConversationStore,
        retriever: Retriever | None = None,
        tools: ToolService | None = None,
    ) -> None:
        """Read every stored conversation (files that cannot be read: :attr:`storage_problems`).

        Args:
            store: where conversations are kept.
            retriever: the knowledge a conversation may be grounded in (None: not offered).
            tools: the MCP tools a conversation may enable (None: not offered).
        """
        self._store = store
        self._retriever = retriever
        self._tools = tools
        self._transient: set[str] = set()
        self._by_id: dict[str, Conversation] = {
            conversation.id: conversation for conversation in store.load_all()
        }

    @property
    def storage_problems(self) -> list[str]:
        """Messages about conversation files that could not be read at start."""
        return list(self._store.problems)

    def conversations(self) -> list[Conversation]:
        """All conversations, pinned ones first, then most recently updated first."""
        return sorted(self._by_id.values(), key=lambda c: (c.pinned, c.updated), reverse=True)

    def get(self, conversation_id: str) -> Conversation:
        """One conversation by id.

        Raises:
            UserError: there is no such conversation (any more).
        """
        try:
            return self._by_id[conversation_id]
        except KeyError:
            raise UserError(tr("That conversation no longer exists.")) from None

    def find(self, conversation_id: str) -> Conversation | None:
        """One conversation by id, or None."""
        return self._by_id.get(conversation_id)

    def new_conversation(
        self, system_prompt: str, title: str = NEW_TITLE, *, transient: bool = False
    ) -> Conversation:
        """Create an empty conversation, stored once it has its first turn.

        A ``transient`` conversation (a one-shot CLI question) is never written to disk.
        """
        conversation = Conversation(
            id=ConversationStore.new_id(), title=title, system_prompt=system_prompt
        )
        self._by_id[conversation.id] = conversation
        if transient:
            self._transient.add(conversation.id)
        return conversation

    def rename(self, conversation_id: str, title: str) -> Conversation:
        """Give a conversation a new, non-empty title."""
        title = " ".join(title.split())
        if not title:
            raise UserError(tr("A conversation needs a name."), field="title")
        if len(title) > MAX_TITLE_CHARS:
            raise UserError(
                tr("A conversation name can have at most {limit} characters.").format(
                    limit=MAX_TITLE_CHARS
                ),
                field="title",
            )
        conversation = self.get(conversation_id)
        conversation.title = title
        self._save_if_started(conversation)
        return conversation

    def set_pinned(self, conversation_id: str, pinned: bool) -> Conversation:
        """Pin a conversation to the top of the list (or unpin it); kept in its file."""
        conversation = self.get(conversation_id)
        conversation.pinned = pinned
        self._save_if_started(conversation)
        return conversation

    def empty_conversation(self) -> Conversation | None:
        """A conversation without messages, if there is one (there is at most one)."""
        return next((c for c in self.conversations() if not c.messages), None)

    def trash(self, conversation_id: str) -> Conversation:
        """Remove a conversation from the list, its file moved to the trash (see
        :meth:`restore` and :meth:`purge`); returns it, for an undo."""
        conversation = self.get(conversation_id)
        self._store.trash(conversation_id)
        del self._by_id[conversation_id]
        return conversation

    def restore(self, conversation: Conversation) -> None:
        """Undo :meth:`trash`."""
        self._store.restore(conversation.id)
        self._by_id[conversation.id] = conversation

    def purge(self, conversation_id: str) -> None:
        """Delete a trashed conversation for good (its undo window has passed)."""
        self._store.purge(conversation_id)

    def add_imported(self, conversation: Conversation) -> Conversation:
        """Store an imported conversation under a new id, so it never replaces one."""
        conversation.id = ConversationStore.new_id()
        self._store.save(conversation)
        self._by_id[conversation.id] = conversation
        return conversation

    def set_system_prompt(self, conversation_id: str, system_prompt: str) -> Conversation:
        """Change the system prompt used for the next answers of a conversation."""
        if len(system_prompt) > 20_000:
            raise UserError(
                tr("The system prompt is limited to 20,000 characters."), field="system"
            )
        conversation = self.get(conversation_id)
        conversation.system_prompt = system_prompt
        self._save_if_started(conversation)
        return conversation

    def set_knowledge(self, conversation_id: str, collection: str) -> Conversation:
        """Ground the next answers of a conversation in ``collection`` ("" turns it off).

        Raises:
            UserError: there is no such collection, or knowledge is not available.
        """
        conversation = self.get(conversation_id)
        if collection:
            if self._retriever is None:
                raise UserError(tr("Knowledge is not available in this app."), field="knowledge")
            try:
                collection = self._retriever.collection(collection).name
            except UserError as error:
                raise UserError(str(error), field="knowledge") from error
        previous = conversation.knowledge
        conversation.knowledge = collection
        try:
            self._save_if_started(conversation)
        except StorageError:
            conversation.knowledge = previous
            raise
        return conversation

    def set_tools(self, conversation_id: str, tool_ids: list[str]) -> Conversation:
        """Let the model call ``tool_ids`` (``<server>/<tool>``) in the conversation's next
        answers (an empty list: no tools); kept with the conversation.

        Raises:
            UserError: (field ``tools``) tools are not available here, or an id is not
                ``<server>/<tool>``.
        """
        if tool_ids and self._tools is None:
            raise UserError(tr("Tools are not available in this app."), field="tools")
        for identifier in tool_ids:
            server, _, tool = identifier.partition("/")
            if not server or not tool or len(identifier) > 200 or not identifier.isprintable():
                raise UserError(
                    tr("“{identifier}” is not a tool.").format(identifier=identifier[:80]),
                    field="tools",
                )
        conversation = self.get(conversation_id)
        previous = conversation.tools
        conversation.tools = list(dict.fromkeys(tool_ids))
        try:
            self._save_if_started(conversation)
        except StorageError:
            conversation.tools = previous
            raise
        return conversation

    def delete(self, conversation_id: str) -> None:
        """Delete a conversation and its file."""
        self._store.delete(conversation_id)
        self._by_id.pop(conversation_id, None)

    def image_path(self, conversation_id: str, name: str) -> Path:
        """Where a stored image of a conversation is (for thumbnails)."""
        return self._store.image_path(conversation_id, name)

    def delete_message(self, conversation_id: str, index: int) -> Conversation:
        """Delete message ``index``: a question goes with its answer; an answer with several
        versions loses only the one shown. Saved at once.

        Raises:
            UserError: no such message. StorageError: not saved (the change stays here).
        """
        conversation = self.get(conversation_id)
        messages = conversation.messages
        if not 0 <= index < len(messages):
            raise UserError(tr("That message is no longer in the conversation."))
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
        self._touch_and_save(conversation)
        return conversation

    def choose_version(self, conversation_id: str, index: int, position: int) -> Conversation:
        """Show version ``position`` (0-based) of answer ``index``; the model reads that one
        from now on. Saved at once.

        Raises:
            UserError: no such answer. StorageError: not saved (the change stays here).
        """
        conversation = self.get(conversation_id)
        messages = conversation.messages
        if not 0 <= index < len(messages) or messages[index].role != "assistant":
            raise UserError(tr("That answer is no longer in the conversation."))
        messages[index] = choose(messages[index], position)
        self._touch_and_save(conversation)
        return conversation

    def save_turn(
        self,
        conversation: Conversation,
        question: ChatMessage | None = None,
        new_images: Sequence[bytes] = (),
        *,
        answer: ChatMessage | None = None,
        answer_images: Sequence[bytes] = (),
    ) -> bool:
        """Write ``conversation`` after a turn; False for a transient one (never written).

        ``new_images`` (PNG bytes) are copied first and named in ``question.images``, and
        ``answer_images`` (pictures the answer's tools drew) in ``answer.images``, so the saved
        file only ever names whole image files.

        Raises:
            StorageError: not written (the turn stays in memory).
        """
        if conversation.id in self._transient:
            return False
        for message, pngs in ((question, new_images), (answer, answer_images)):
            if message is not None:
                for png in pngs:
                    message.images.append(self._store.add_image(conversation.id, png))
        self._store.save(conversation)
        return True

    def _touch_and_save(self, conversation: Conversation) -> None:
        conversation.updated = time.time()
        if conversation.id not in self._transient:
            self._store.save(conversation)

    def _save_if_started(self, conversation: Conversation) -> None:
        if conversation.messages and conversation.id not in self._transient:
            self._store.save(conversation)
