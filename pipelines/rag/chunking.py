"""Token-aware chunking with overlap, page by page, so every chunk knows its page.

The splitting itself is the maintained ``semantic-text-splitter`` (Rust): it prefers to break
at paragraph, sentence and word boundaries and counts tokens with the embedding model's own
tokenizer, so a chunk never silently overflows what the embedder reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pipelines.core import InvalidInputError
from pipelines.rag.loaders import Page


@dataclass(frozen=True)
class Chunk:
    """One piece of a document as stored and searched."""

    ord: int
    page: int | None
    text: str


class Chunker:
    """Splits pages into chunks of at most ``max_tokens`` tokens, ``overlap`` shared."""

    def __init__(self, tokenizer_file: Path, max_tokens: int = 256, overlap: int = 32) -> None:
        if not 16 <= max_tokens <= 8192 or not 0 <= overlap < max_tokens // 2:
            raise InvalidInputError(
                "Chunks must be 16–8192 tokens with an overlap under half of that.",
                field="chunking",
            )
        from semantic_text_splitter import TextSplitter
        from tokenizers import Tokenizer

        if not tokenizer_file.is_file():
            raise InvalidInputError(
                f"The embedding model has no {tokenizer_file.name} to count tokens with.",
                field="model",
            )
        tokenizer = Tokenizer.from_file(str(tokenizer_file))
        # Counts must be of the text alone: MiniLM's tokenizer.json pads every input to 128.
        tokenizer.no_truncation()
        tokenizer.no_padding()
        self._splitter = TextSplitter.from_huggingface_tokenizer(
            tokenizer, capacity=(max_tokens // 2, max_tokens), overlap=overlap
        )

    def split(self, pages: Sequence[Page]) -> list[Chunk]:
        """Chunks of the pages' text in order; a chunk never spans two pages, so a citation
        names the page its text is really on."""
        chunks: list[Chunk] = []
        for page in pages:
            for piece in self._splitter.chunks(page.text):
                if piece.strip():
                    chunks.append(Chunk(len(chunks), page.number, piece))
        return chunks
