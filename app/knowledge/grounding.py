"""Grounding a chat question in a knowledge collection: numbered passages and their sources.

The passages that match the question well enough (:class:`GroundingRules`: at or above the
relevance floor) go into the question the model reads (not into the stored conversation), in
rank order, as many as fit the token budget; the answer then cites them as ``[1]``, ``[2]``
and the sources travel with the stored answer so the UI can open them, with the number of
passages left out under the floor.

When no passage clears the floor the question goes to the model alone, never dressed up as
grounded, and the answer is stored with no sources and the number left out, so the window
says under it that it is not from the documents. Refusing to answer instead would also refuse
"thanks" or "say it shorter" in a conversation that uses knowledge; an answer given, but
plainly marked, keeps the conversation going and hides nothing.

The layout is the one a 135M model answers best from; none makes it cite. Measured with the
real SmolLM2-135M (``benchmarks/bench_grounding.py``, ``results/grounding.json``): at the
app's defaults it wrote no ``[n]`` in 10 answers over real documents, with the instruction
before the passages (this layout), between them and the question, or after the question;
with ``[n]`` after every sentence of a passage too. Only the instruction after the question,
asking for one or two sentences, with numbered sentences, drew markers (5 of 10 answers at
128 tokens, most of them "the answer is: [1]"), and it made the model state fewer facts (2 of
5 in ``test_real_model_answers``, where this layout states 3 or more).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pipelines.rag.hybrid_search import Hit

PASSAGES_PER_ANSWER = 5
"""Passages retrieved per question: enough to cover an answer, few enough for small models."""

SOURCES_SHARE = 0.6
"""Share of the free context (after system prompt, question and answer room) for passages;
the rest keeps recent turns of the conversation."""

PASSAGE_OVERHEAD_TOKENS = 12
"""Tokens for a passage's header line (number, file name, page) and the blank line after it."""

PASSAGE_TOKENS_PER_CHUNK_TOKEN = 1.5
"""A chunk of ``chunk_tokens`` embedder tokens in the chat model's tokens, at most: the
chunker counts with the embedder's tokenizer, the chat model reads with its own (SmolLM2's
tokens per MiniLM chunk token: at most 1.09 over 320 real passages, median 0.59; the rest is
a margin for other tokenizers and scripts)."""

INSTRUCTIONS = (
    "Answer the question using the numbered sources below. Cite the sources you use in "
    "square brackets, like [1] or [2]. If the sources do not contain the answer, say so."
)


@dataclass(frozen=True)
class Source:
    """A passage an answer was given, numbered as the answer cites it."""

    number: int
    path: str
    page: int | None
    score: float
    snippet: str
    relevance: float | None = None
    """How well it matched the question, 0…1 (the "% match"; None in answers stored before)."""
    lines: tuple[int, int] | None = None
    """First and last line of a passage of source code (None for other documents)."""

    @property
    def label(self) -> str:
        """``guide.pdf, page 2``, ``parser.py, lines 40–72`` or ``notes.md``."""
        name = Path(self.path).name
        if self.lines is not None:
            return f"{name}, {line_span(self.lines)}"
        return f"{name}, page {self.page}" if self.page else name

    def to_dict(self) -> dict[str, Any]:
        """For storage with the answer."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Source:
        """From storage; raises KeyError/TypeError/ValueError when malformed."""
        page = data.get("page")
        relevance = data.get("relevance")
        lines = data.get("lines")
        return cls(
            number=int(data["number"]),
            path=str(data["path"]),
            page=int(page) if page is not None else None,
            score=float(data.get("score", 0.0)),
            snippet=str(data.get("snippet", "")),
            relevance=float(relevance) if relevance is not None else None,
            lines=(int(lines[0]), int(lines[1])) if lines is not None else None,
        )


@dataclass(frozen=True)
class GroundingRules:
    """What grounding may give the model: passages matching at least ``relevance_floor``
    (0…1, the "% match" people are shown), each at most ``chunk_tokens`` long (the knowledge
    settings of the same names)."""

    relevance_floor: float
    chunk_tokens: int

    def above_floor(self, hits: Sequence[Hit]) -> tuple[list[Hit], int]:
        """The hits matching well enough, in order, and how many were left out."""
        kept = [hit for hit in hits if _relevance(hit) >= self.relevance_floor]
        return kept, len(hits) - len(kept)

    def most_tokens(self, count_tokens: Callable[[str], int]) -> int:
        """The most the instruction and :data:`PASSAGES_PER_ANSWER` passages add to a
        question: what the context meter keeps for them before a question is sent."""
        passage = int(self.chunk_tokens * PASSAGE_TOKENS_PER_CHUNK_TOKEN) + PASSAGE_OVERHEAD_TOKENS
        return _frame_tokens(count_tokens) + PASSAGES_PER_ANSWER * passage


@dataclass(frozen=True)
class Grounding:
    """A question as the model reads it, with what it was given."""

    question: str
    """The question with its passages (the question alone when none was given)."""
    sources: list[Source] = field(default_factory=list)
    left_out: int = 0
    """Passages found but left out under the relevance floor."""
    tokens: int = 0
    """Tokens the passages and the instruction add to the question."""


def grounded_question(
    question: str,
    hits: Sequence[Hit],
    count_tokens: Callable[[str], int],
    budget_tokens: int,
    rules: GroundingRules,
) -> Grounding:
    """The question with the passages that clear ``rules``' relevance floor, as far as they
    fit ``budget_tokens``, and their sources.

    Passages are taken in rank order; one too long for what is left is skipped so a shorter,
    lower-ranked one can still fit. With no passage given, the question goes alone.
    """
    kept, left_out = rules.above_floor(hits)
    blocks: list[str] = []
    sources: list[Source] = []
    used = _frame_tokens(count_tokens)
    for hit in kept:
        number = len(sources) + 1
        source = Source(
            number, hit.path, hit.page, hit.score, hit.snippet, _relevance(hit), hit.lines
        )
        block = f"[{number}] {source.label}\n{hit.text.strip()}"
        cost = count_tokens(block) + PASSAGE_OVERHEAD_TOKENS
        if used + cost > budget_tokens:
            continue
        blocks.append(block)
        sources.append(source)
        used += cost
    if not sources:
        return Grounding(question, left_out=left_out)
    passages = "\n\n".join(blocks)
    text = f"{INSTRUCTIONS}\n\nSources:\n{passages}\n\nQuestion: {question}"
    return Grounding(text, sources, left_out, used)


def line_span(lines: tuple[int, int]) -> str:
    """``lines 40–72`` (``line 7`` for one line): where a passage of code is, in English."""
    first, last = lines
    return f"line {first}" if first == last else f"lines {first}–{last}"


def _frame_tokens(count_tokens: Callable[[str], int]) -> int:
    """Tokens of the instruction and the lines around the passages."""
    return count_tokens(INSTRUCTIONS) + PASSAGE_OVERHEAD_TOKENS


def _relevance(hit: Hit) -> float:
    """The hit's 0…1 match (a hit from before relevance was kept: its similarity, else 1 so
    it is never dropped by a scale it does not have)."""
    if hit.relevance is not None:
        return hit.relevance
    return hit.similarity if hit.similarity is not None else 1.0
