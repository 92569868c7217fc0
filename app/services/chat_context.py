"""What the chat model reads for one answer, within its context window.

:class:`ContextBudget` decides, for one question, how many knowledge passages fit
(:meth:`~ContextBudget.ground`) and how much of the conversation goes along
(:meth:`~ContextBudget.fit`): the model's context length minus the room kept for the answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from app.errors import UserError
from app.knowledge.grounding import PASSAGES_PER_ANSWER, SOURCES_SHARE, Source, grounded_question
from app.storage.conversations import ChatMessage, Conversation
from pipelines.chat import GenerationSettings, Message
from pipelines.rag.store import Collection, Hit

TEMPLATE_TOKENS_PER_MESSAGE = 8
"""What the chat template adds around each message (role markers, separators)."""


class TokenCounter(Protocol):
    """What the budget needs of a chat pipeline: its token count (the model's own tokenizer,
    or a remote model's estimate)."""

    def count_tokens(self, text: str) -> int:
        """Tokens ``text`` takes."""
        ...


class Retriever(Protocol):
    """Where grounded answers get their passages (the KnowledgeService)."""

    def collection(self, name: str, *, create: bool = False) -> Collection:
        """The named collection; raises UserError when there is none."""
        ...

    def search(self, collection_name: str, query: str, k: int = 5) -> list[Hit]:
        """The best passages for ``query``."""
        ...


@dataclass(frozen=True)
class ContextBudget:
    """The token budget of one answer: the model's context less ``max_new_tokens``."""

    pipeline: TokenCounter
    """Counts tokens with the model's own tokenizer (a remote model's: an estimate)."""
    context_tokens: int
    """The model's context window."""
    settings: GenerationSettings

    @property
    def tokens(self) -> int:
        """Tokens the prompt may use (negative when the answer alone does not fit)."""
        return self.context_tokens - self.settings.max_new_tokens

    def ground(
        self,
        retriever: Retriever | None,
        conversation: Conversation,
        question: ChatMessage,
    ) -> tuple[str, list[Source]]:
        """The question as the model reads it: with knowledge passages when the conversation
        uses a collection, within :data:`SOURCES_SHARE` of the free context.

        Raises:
            UserError: no knowledge here, an unknown or empty collection (``field="knowledge"``).
        """
        if not conversation.knowledge:
            return question.content, []
        if retriever is None:
            raise UserError("Knowledge is not available in this app.", field="knowledge")
        try:
            collection = retriever.collection(conversation.knowledge)
            if collection.documents == 0:
                raise UserError(
                    f"“{collection.name}” has no documents yet: add some in the Knowledge "
                    "panel, or turn knowledge off for this chat.",
                    field="knowledge",
                )
            hits = retriever.search(collection.name, question.content, PASSAGES_PER_ANSWER)
        except UserError as error:
            raise UserError(str(error), field="knowledge") from error
        count = self.pipeline.count_tokens
        fixed = count(question.content) + count(conversation.system_prompt)
        room = int(max(self.tokens - fixed, 0) * SOURCES_SHARE)
        return grounded_question(question.content, hits, count, room)

    def fit(self, conversation: Conversation, question: str) -> list[Message]:
        """Messages to send: system prompt, as many recent turns as fit, the question.

        Raises:
            UserError: the question and system prompt alone do not fit (``field="prompt"``).
        """
        budget = self.tokens
        count = self.pipeline.count_tokens
        system = (
            [Message("system", conversation.system_prompt)] if conversation.system_prompt else []
        )
        fixed = count(question) + sum(count(m.content) for m in system)
        if fixed > budget:
            raise UserError(
                f"The message is about {fixed:,} tokens but this model can read "
                f"{max(budget, 0):,} while leaving room for a {self.settings.max_new_tokens}-token "
                "answer. Shorten it or lower max new tokens.",
                field="prompt",
            )
        kept: list[Message] = []
        used = fixed
        # Oldest turns are dropped first: the newest context matters most for the next answer.
        for message in reversed(conversation.messages):
            cost = count(message.content) + TEMPLATE_TOKENS_PER_MESSAGE
            if used + cost > budget:
                break
            kept.append(Message(message.role, message.content))
            used += cost
        kept.reverse()
        return [*system, *kept, Message("user", question)]
