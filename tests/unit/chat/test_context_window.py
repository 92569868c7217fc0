"""The context budget: the answer's ceiling, the tokens the next turn takes (knowledge passages
counted at the most they may take, never more given), where history stops.

Counted with the real tokenizer of the tiny int8 chat model, as sending counts them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.chat.context_window import (
    MIN_PROMPT_TOKENS,
    ContextBudget,
    clamp_answer,
    max_answer_tokens,
)
from app.chat.history import TEMPLATE_TOKENS_PER_MESSAGE
from app.chat.storage import ChatMessage, Conversation
from app.knowledge.grounding import GroundingRules
from pipelines.chat import ChatModelConfig, ChatPipeline
from pipelines.generation import GenerationSettings, Message
from pipelines.rag.hybrid_search import Hit
from pipelines.rag.store import Collection


@pytest.fixture(scope="module")
def pipeline(chat_model_dir: Path) -> Iterator[ChatPipeline]:
    """The tiny chat model loaded on the CPU (only its tokenizer is used)."""
    pipe = ChatPipeline(ChatModelConfig(chat_model_dir, "CPU"))
    pipe.load()
    yield pipe
    pipe.close()


def conversation(turns: int, system: str = "You are a helpful assistant.") -> Conversation:
    """A conversation of ``turns`` question/answer pairs, each a few dozen tokens."""
    chat = Conversation(id="c", title="t", system_prompt=system)
    for i in range(turns):
        chat.messages.append(ChatMessage("user", f"Question {i}: " + "tell me about rivers " * 5))
        chat.messages.append(ChatMessage("assistant", f"Answer {i}: " + "rivers flow to sea " * 8))
    return chat


def test_the_answer_leaves_a_quarter_or_256_tokens_for_the_prompt() -> None:
    assert max_answer_tokens(2048) == 1536
    assert max_answer_tokens(8192) == 6144
    assert max_answer_tokens(512) == 512 - MIN_PROMPT_TOKENS
    assert max_answer_tokens(100) == 1  # never zero: the spin box needs a range
    settings = GenerationSettings(max_new_tokens=9999)
    assert clamp_answer(settings, 2048).max_new_tokens == 1536
    small = GenerationSettings(max_new_tokens=300)
    assert clamp_answer(small, 2048) is small


def test_usage_counts_what_fit_sends(pipeline: ChatPipeline) -> None:
    chat = conversation(3)
    budget = ContextBudget(pipeline, 2048, GenerationSettings(max_new_tokens=256))
    usage = budget.usage(chat, "And lakes?")
    count = pipeline.count_tokens
    # Every message with the template's share: the system prompt and the draft are messages too.
    expected = count("And lakes?") + count(chat.system_prompt) + 2 * TEMPLATE_TOKENS_PER_MESSAGE
    expected += sum(count(m.content) + TEMPLATE_TOKENS_PER_MESSAGE for m in chat.messages)
    assert usage.used == expected
    assert usage.limit == 2048 and usage.answer == 256
    assert usage.first_sent == 0 and usage.dropped == 0
    assert not usage.nearly_full
    sent = budget.fit(chat, "And lakes?")
    assert len(sent) == 1 + len(chat.messages) + 1  # system, every turn, the question


def test_first_sent_is_where_fit_starts_when_the_window_is_full(pipeline: ChatPipeline) -> None:
    chat = conversation(12)
    budget = ContextBudget(pipeline, 512, GenerationSettings(max_new_tokens=256))
    usage = budget.usage(chat, "And lakes?")
    assert usage.first_sent is not None and usage.first_sent > 0
    assert usage.dropped == usage.first_sent
    assert usage.nearly_full  # older turns are left out: said, never silent
    assert usage.used <= 512 - 256
    sent = budget.fit(chat, "And lakes?")
    kept = sent[1:-1]
    assert [m.content for m in kept] == [m.content for m in chat.messages[usage.first_sent :]]


def test_an_empty_conversation_has_no_first_sent(pipeline: ChatPipeline) -> None:
    empty = Conversation(id="e", title="t", system_prompt="")
    usage = ContextBudget(pipeline, 2048, GenerationSettings()).usage(empty)
    assert usage.first_sent is None and usage.messages == 0
    assert usage.used == TEMPLATE_TOKENS_PER_MESSAGE  # the next question's place, estimated
    # With the model's chat template, what it writes around an empty question is counted.
    templated = ContextBudget(pipeline, 2048, GenerationSettings(), template=pipeline)
    frame = pipeline.template([Message("user", "")])
    assert templated.usage(empty).used == pipeline.count_tokens(frame) > 0


class Shelf:
    """A :class:`Retriever` over passages the test gives, with the rules it sets."""

    def __init__(self, hits: list[Hit], rules: GroundingRules) -> None:
        self.hits = hits
        self.rules = rules

    def collection(self, name: str, *, create: bool = False) -> Collection:
        return Collection(1, name, "minilm", 384, documents=1, chunks=len(self.hits))

    def search(self, collection_name: str, query: str, k: int = 5) -> list[Hit]:
        return self.hits[:k]

    def grounding_rules(self) -> GroundingRules:
        return self.rules


def _passage(number: int, words: int, relevance: float) -> Hit:
    text = " ".join(f"river{number} flows" for _ in range(words // 2))
    return Hit(
        number, f"/docs/{number}.md", None, 0.03, text, "", number, None, relevance, relevance
    )


def test_the_passages_never_take_more_than_the_meter_counted(pipeline: ChatPipeline) -> None:
    chat = conversation(2)
    chat.knowledge = "Docs"
    rules = GroundingRules(relevance_floor=0.3, chunk_tokens=64)
    hits = [_passage(n, 400 if n == 1 else 60, 0.5) for n in range(1, 6)]  # one far too long
    budget = ContextBudget(pipeline, 8192, GenerationSettings(max_new_tokens=256))
    usage = budget.usage(chat, "", rules)
    assert usage.sources == rules.most_tokens(pipeline.count_tokens)
    assert usage.used == budget.usage(chat).used + usage.sources
    grounding = budget.ground(Shelf(hits, rules), chat, ChatMessage("user", "Where?"))
    assert 0 < grounding.tokens <= usage.sources
    assert "/docs/1.md" not in [s.path for s in grounding.sources]  # it did not fit


def test_grounding_counts_what_the_floor_left_out(pipeline: ChatPipeline) -> None:
    chat = conversation(1)
    chat.knowledge = "Docs"
    rules = GroundingRules(relevance_floor=0.3, chunk_tokens=128)
    hits = [_passage(1, 40, 0.55), _passage(2, 40, 0.29), _passage(3, 40, 0.05)]
    budget = ContextBudget(pipeline, 8192, GenerationSettings(max_new_tokens=256))
    grounding = budget.ground(Shelf(hits, rules), chat, ChatMessage("user", "Where?"))
    assert [s.path for s in grounding.sources] == ["/docs/1.md"]
    assert grounding.left_out == 2
    nothing = budget.ground(Shelf(hits[1:], rules), chat, ChatMessage("user", "Where?"))
    assert (nothing.question, nothing.sources, nothing.left_out) == ("Where?", [], 2)
    assert budget.usage(chat).sources == 0  # no rules given: no knowledge counted
