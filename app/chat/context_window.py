"""What the chat model reads for one answer, within its context window.

:class:`ContextBudget` decides, for one question, how many knowledge passages fit
(:meth:`~ContextBudget.ground`) and how much of the conversation goes along
(:meth:`~ContextBudget.fit`): the model's context length minus the room kept for the answer.
Which older messages stay once the conversation outgrows it is :mod:`app.chat.history`'s
rule (dropped in blocks, so the model's prompt cache stays valid between trims).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from app.chat.history import (
    ChatTemplate,
    KeptHistory,
    TokenCounter,
    frame_tokens,
    kept_history,
)
from app.chat.messages import ChatMessage, Conversation
from app.core.errors import UserError
from app.core.texts import tr
from app.knowledge.grounding import (
    PASSAGES_PER_ANSWER,
    SOURCES_SHARE,
    Grounding,
    GroundingRules,
    grounded_question,
)
from pipelines.generation import GenerationSettings, Message
from pipelines.rag.hybrid_search import Hit
from pipelines.rag.store import Collection

MIN_PROMPT_TOKENS = 256
"""Room always kept for the prompt however long the answer (:func:`max_answer_tokens`)."""
PROMPT_SHARE = 4
"""At least 1/4 of the context stays for the prompt (system prompt, question, some history)."""
NEARLY_FULL = 0.9
"""From this share of the context on, the usage is shown as a warning."""


def max_answer_tokens(context_tokens: int) -> int:
    """The longest answer a model with ``context_tokens`` may be asked for.

    The rest stays for what the model reads: a quarter of the context, and never less than
    :data:`MIN_PROMPT_TOKENS`. A quarter (512 of 2,048) leaves a system prompt, a question and
    a turn or two of history; an answer that takes the whole window would leave the model
    nothing to read, and sending would fail ("this model can read 0 ...").
    """
    keep = max(MIN_PROMPT_TOKENS, context_tokens // PROMPT_SHARE)
    return max(1, context_tokens - keep)


def clamp_answer(settings: GenerationSettings, context_tokens: int) -> GenerationSettings:
    """``settings`` with ``max_new_tokens`` no larger than :func:`max_answer_tokens`."""
    ceiling = max_answer_tokens(context_tokens)
    if settings.max_new_tokens <= ceiling:
        return settings
    return replace(settings, max_new_tokens=ceiling)


@dataclass(frozen=True)
class ContextUsage:
    """How much of the context window the next question's history takes."""

    used: int
    """Tokens of what would be sent: system prompt, the history kept, the draft question."""
    limit: int
    """The model's context window."""
    answer: int
    """Tokens kept for the answer (``max_new_tokens``)."""
    first_sent: int | None
    """Index of the oldest message still sent (None: the conversation has no messages, or
    none of them fits). Messages before it are no longer read by the model."""
    messages: int
    """How many messages the conversation has."""
    sources: int = 0
    """Tokens kept in ``used`` for the knowledge passages of the next question: the most they
    may take (they are chosen when it is sent); 0 when the conversation uses no knowledge."""

    @property
    def dropped(self) -> int:
        """How many older messages are no longer sent."""
        if self.first_sent is None:
            return self.messages
        return self.first_sent

    @property
    def share(self) -> float:
        """``used`` plus the answer's room, as a share of the window (may exceed 1)."""
        return (self.used + self.answer) / self.limit if self.limit > 0 else 1.0

    @property
    def nearly_full(self) -> bool:
        """Whether the prompt and the answer together nearly fill the window, or older turns
        are already left out."""
        return self.share >= NEARLY_FULL or self.dropped > 0


class Retriever(Protocol):
    """Where grounded answers get their passages (the KnowledgeService)."""

    def collection(self, name: str, *, create: bool = False) -> Collection:
        """The named collection; raises UserError when there is none."""
        ...

    def search(self, collection_name: str, query: str, k: int = 5) -> list[Hit]:
        """The best passages for ``query``."""
        ...

    def grounding_rules(self) -> GroundingRules:
        """The relevance floor and passage size grounding keeps to (the settings' now)."""
        ...


@dataclass(frozen=True)
class ContextBudget:
    """The token budget of one answer: the model's context less ``max_new_tokens``."""

    pipeline: TokenCounter
    """Counts tokens with the model's own tokenizer (a remote model's: an estimate)."""
    context_tokens: int
    """The model's context window."""
    settings: GenerationSettings
    template: ChatTemplate | None = None
    """The model's chat template, to count what it adds around the messages (None: a remote
    model's, estimated)."""

    @property
    def tokens(self) -> int:
        """Tokens the prompt may use (negative when the answer alone does not fit)."""
        return self.context_tokens - self.settings.max_new_tokens

    def ground(
        self,
        retriever: Retriever | None,
        conversation: Conversation,
        question: ChatMessage,
    ) -> Grounding:
        """The question as the model reads it: with the knowledge passages that clear the
        relevance floor when the conversation uses a collection, within
        :meth:`sources_room` (what :meth:`usage` counted for them).

        Raises:
            UserError: no knowledge here, an unknown or empty collection (``field="knowledge"``).
        """
        if not conversation.knowledge:
            return Grounding(question.content)
        if retriever is None:
            raise UserError(tr("Knowledge is not available in this app."), field="knowledge")
        try:
            collection = retriever.collection(conversation.knowledge)
            if collection.documents == 0:
                raise UserError(
                    tr(
                        "“{name}” has no documents yet: add some in the Knowledge panel, or turn "
                        "knowledge off for this chat."
                    ).format(name=collection.name),
                    field="knowledge",
                )
            hits = retriever.search(collection.name, question.content, PASSAGES_PER_ANSWER)
        except UserError as error:
            raise UserError(str(error), field="knowledge") from error
        rules = retriever.grounding_rules()
        room = self.sources_room(conversation, question.content, rules)
        return grounded_question(question.content, hits, self.pipeline.count_tokens, room, rules)

    def sources_room(self, conversation: Conversation, question: str, rules: GroundingRules) -> int:
        """The most tokens the passages of ``question`` may add: what the instruction and
        :data:`PASSAGES_PER_ANSWER` passages of the collection's chunk size take, and never
        more than :data:`SOURCES_SHARE` of the context left free."""
        count = self.pipeline.count_tokens
        fixed = self._frame_tokens(conversation) + (count(question) if question else 0)
        room = int(max(self.tokens - fixed, 0) * SOURCES_SHARE)
        return min(room, rules.most_tokens(count))

    def fit(self, conversation: Conversation, question: str) -> list[Message]:
        """Messages to send: system prompt, the recent turns kept, the question.

        Older turns are left out in blocks (:func:`~app.chat.history.kept_history`):
        once the conversation outgrows the context, the next turns send the same beginning.

        Raises:
            UserError: the question and system prompt alone do not fit (``field="prompt"``).
        """
        budget = self.tokens
        system = (
            [Message("system", conversation.system_prompt)] if conversation.system_prompt else []
        )
        fixed = self._frame_tokens(conversation) + self.pipeline.count_tokens(question)
        if fixed > budget:
            raise UserError(
                tr(
                    "The message is about {fixed:,} tokens but this model can read {budget:,} "
                    "while leaving room for a {max_new_tokens}-token answer. Shorten it or lower "
                    "max new tokens."
                ).format(
                    fixed=fixed, budget=max(budget, 0), max_new_tokens=self.settings.max_new_tokens
                ),
                field="prompt",
            )
        kept = self._kept(conversation, question)
        history = [Message(m.role, m.content) for m in conversation.messages[kept.first :]]
        return [*system, *history, Message("user", question)]

    def usage(
        self, conversation: Conversation, draft: str = "", rules: GroundingRules | None = None
    ) -> ContextUsage:
        """What sending ``draft`` next would take of the window, as :meth:`fit` would send it.

        With ``rules`` (the conversation uses knowledge), the passages are counted at the most
        they may take (:meth:`sources_room`): they are chosen when the question is sent, and
        :meth:`ground` never gives more.
        """
        sources = 0
        if rules is not None and conversation.knowledge:
            sources = self.sources_room(conversation, draft, rules)
        fixed = self._frame_tokens(conversation) + sources
        fixed += self.pipeline.count_tokens(draft) if draft else 0
        messages = conversation.messages
        kept = self._kept(conversation, draft, sources)
        first = kept.first
        return ContextUsage(
            used=fixed + kept.tokens,
            limit=self.context_tokens,
            answer=self.settings.max_new_tokens,
            first_sent=first if first < len(messages) else None,
            messages=len(messages),
            sources=sources,
        )

    def _frame_tokens(self, conversation: Conversation) -> int:
        return frame_tokens(self.pipeline, self.template, conversation.system_prompt)

    def _kept(self, conversation: Conversation, question: str, sources: int = 0) -> KeptHistory:
        """The history sent with ``question`` ("": none yet) and ``sources`` tokens of
        passages in this budget."""
        return kept_history(
            conversation.messages,
            self.pipeline,
            max(self.tokens, 0),
            self._frame_tokens(conversation),
            (self.pipeline.count_tokens(question) if question else 0) + sources,
        )
