"""Token-aware chunking with overlap, page by page, so every chunk knows its page.

The splitting itself is the maintained ``semantic-text-splitter`` (Rust): it prefers to break
at paragraph, sentence and word boundaries and counts tokens with the embedding model's own
tokenizer, so a chunk never silently overflows what the embedder reads.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from pipelines.core import InvalidInputError
from pipelines.rag.loaders import Page

SEGMENT_CHARS = 64_000
"""About 100 chunks of 128 tokens: a few seconds of embedding between progress reports."""


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
        return [chunk for chunks, _ in self.iter_split(pages) for chunk in chunks]

    def iter_split(
        self, pages: Sequence[Page], segment_chars: int = SEGMENT_CHARS
    ) -> Iterator[tuple[list[Chunk], int]]:
        """Chunks a segment at a time, with the characters each segment covered.

        A huge page (a 50 MB log is one "page") is cut at paragraph or line breaks into
        segments of about ``segment_chars`` first, so a caller can report progress, stop
        between segments and embed while the rest is still being split.
        """
        count = 0
        for page in pages:
            for segment in _segments(page.text, segment_chars):
                chunks = []
                for piece in self._splitter.chunks(segment):
                    if piece.strip():
                        chunks.append(Chunk(count, page.number, piece))
                        count += 1
                yield chunks, len(segment)


def _segments(text: str, size: int) -> Iterator[str]:
    """``text`` in pieces of at most ``size`` characters, cut at a blank line, else a line
    break, else a space, in the second half of each piece (else exactly at ``size``)."""
    start = 0
    while start < len(text):
        end = min(start + size, len(text))
        if end < len(text):
            floor = start + size // 2
            for mark in ("\n\n", "\n", " "):
                cut = text.rfind(mark, floor, end)
                if cut >= 0:
                    end = cut + len(mark)
                    break
        yield text[start:end]
        start = end
