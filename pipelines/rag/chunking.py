"""Token-aware chunking with overlap, page by page, so every chunk knows its page.

The splitting itself is the maintained ``semantic-text-splitter`` (Rust): it prefers to break
at paragraph, sentence and word boundaries and counts tokens with the embedding model's own
tokenizer, so a chunk never silently overflows what the embedder reads.

A page with a header (a sheet's name and header row, a chapter's title) gets it at the top of
every chunk, the chunk's budget shrunk to make room. Source code is cut at its declarations
instead (:mod:`pipelines.rag.code_chunks`) and each chunk carries its line range.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipelines.core import InvalidInputError
from pipelines.rag.code_chunks import code_chunks
from pipelines.rag.loaders import Page

SEGMENT_CHARS = 64_000
"""About 100 chunks of 128 tokens: a few seconds of embedding between progress reports."""


@dataclass(frozen=True)
class Chunk:
    """One piece of a document as stored and searched."""

    ord: int
    page: int | None
    text: str
    lines: tuple[int, int] | None = None
    """First and last line (from 1) of source code; None for other documents."""


class Chunker:
    """Splits pages into chunks of at most ``max_tokens`` tokens, ``overlap`` shared."""

    def __init__(self, tokenizer_file: Path, max_tokens: int = 256, overlap: int = 32) -> None:
        if not 16 <= max_tokens <= 8192 or not 0 <= overlap < max_tokens // 2:
            raise InvalidInputError(
                "Chunks must be 16–8192 tokens with an overlap under half of that.",
                field="chunking",
            )
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
        self._tokenizer = tokenizer
        self._max_tokens = max_tokens
        self._overlap = overlap
        self._splitters: dict[int, Any] = {}
        self._splitter = self._splitter_for(max_tokens)

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
            for pieces, covered in self._page_pieces(page, segment_chars):
                chunks = []
                for text, lines in pieces:
                    if text.strip():
                        chunks.append(Chunk(count, page.number, text, lines))
                        count += 1
                yield chunks, covered

    def _page_pieces(
        self, page: Page, segment_chars: int
    ) -> Iterator[tuple[list[tuple[str, tuple[int, int] | None]], int]]:
        """The texts (and line ranges) of a page's chunks, a segment at a time."""
        if page.code_units is not None:
            yield from self._code_pieces(page, segment_chars)
            return
        splitter, header = self._splitter, page.header.strip()
        if header:
            header = self._fitted_header(header)
            splitter = self._splitter_for(self._max_tokens - self._count(header) - 1)
        for segment in _segments(page.text, segment_chars):
            texts = [piece for piece in splitter.chunks(segment) if piece.strip()]
            if header:
                texts = [_headed(header, piece) for piece in texts]
            yield [(text, None) for text in texts], len(segment)

    def _code_pieces(
        self, page: Page, segment_chars: int
    ) -> Iterator[tuple[list[tuple[str, tuple[int, int] | None]], int]]:
        batch: list[tuple[str, tuple[int, int] | None]] = []
        covered = 0
        pieces = code_chunks(
            page.text, page.code_units or (), self._count, self._split, self._max_tokens
        )
        for first, last, text in pieces:
            batch.append((text, (first, last)))
            covered += len(text)
            if covered >= segment_chars:
                yield batch, covered
                batch, covered = [], 0
        yield batch, covered

    def _split(self, text: str) -> list[tuple[int, str]]:
        """(character offset, piece) of ``text`` cut to the budget, a segment at a time."""
        pieces = []
        offset = 0
        for segment in _segments(text, SEGMENT_CHARS):
            pieces += [(offset + at, piece) for at, piece in self._splitter.chunk_indices(segment)]
            offset += len(segment)
        return pieces

    def _count(self, text: str) -> int:
        return len(self._tokenizer.encode(text, add_special_tokens=False).ids)

    def _fitted_header(self, header: str) -> str:
        """``header`` cut to at most a third of the budget (a sheet may have 500 columns)."""
        if self._count(header) <= self._max_tokens // 3:
            return header
        return str(self._splitter_for(self._max_tokens // 3).chunks(header)[0])

    def _splitter_for(self, capacity: int) -> Any:
        """A splitter for chunks of at most ``capacity`` tokens (one per capacity, kept)."""
        from semantic_text_splitter import TextSplitter

        if capacity not in self._splitters:
            overlap = min(self._overlap, max(0, capacity // 2 - 1))
            self._splitters[capacity] = TextSplitter.from_huggingface_tokenizer(
                self._tokenizer, capacity=(capacity // 2, capacity), overlap=overlap
            )
        return self._splitters[capacity]


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


def _headed(header: str, piece: str) -> str:
    """``piece`` under its page's ``header``, unless it already opens with it (a chapter's first
    chunk starts with the heading its title comes from: said once, not twice)."""
    if piece == header or piece.startswith(f"{header}\n"):
        return piece
    return f"{header}\n{piece}"
