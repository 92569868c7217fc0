"""Grounding a chat question in a knowledge collection: numbered passages and their sources.

The passages go into the question the model reads (not into the stored conversation), in rank
order, as many as fit the token budget the chat service gives; the answer then cites them as
``[1]``, ``[2]`` and the sources travel with the stored answer so the UI can open them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
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

    @property
    def label(self) -> str:
        """``guide.pdf, page 2`` or ``notes.md``."""
        name = Path(self.path).name
        return f"{name}, page {self.page}" if self.page else name

    def to_dict(self) -> dict[str, Any]:
        """For storage with the answer."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Source:
        """From storage; raises KeyError/TypeError/ValueError when malformed."""
        page = data.get("page")
        return cls(
            number=int(data["number"]),
            path=str(data["path"]),
            page=int(page) if page is not None else None,
            score=float(data.get("score", 0.0)),
            snippet=str(data.get("snippet", "")),
        )


def grounded_question(
    question: str,
    hits: Sequence[Hit],
    count_tokens: Callable[[str], int],
    budget_tokens: int,
) -> tuple[str, list[Source]]:
    """The question with as many passages as fit ``budget_tokens``, and their sources.

    Passages are taken in rank order; one too long for what is left is skipped so a shorter,
    lower-ranked one can still fit. With no passage fitting, the question goes alone.
    """
    blocks: list[str] = []
    sources: list[Source] = []
    used = count_tokens(INSTRUCTIONS) + PASSAGE_OVERHEAD_TOKENS
    for hit in hits:
        number = len(sources) + 1
        source = Source(number, hit.path, hit.page, hit.score, hit.snippet)
        block = f"[{number}] {source.label}\n{hit.text.strip()}"
        cost = count_tokens(block) + PASSAGE_OVERHEAD_TOKENS
        if used + cost > budget_tokens:
            continue
        blocks.append(block)
        sources.append(source)
        used += cost
    if not sources:
        return question, []
    passages = "\n\n".join(blocks)
    return f"{INSTRUCTIONS}\n\nSources:\n{passages}\n\nQuestion: {question}", sources
