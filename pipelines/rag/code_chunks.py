"""Source code cut into chunks on its declarations, each chunk with its line range.

:func:`code_chunks` takes the units :mod:`pipelines.rag.source_code` found (first line and
level of each function, class, method, block) and gives each level-0 unit a chunk of its own;
neighbours are packed together only while the pack stays within a quarter of the budget
(:data:`PACK_SHARE`): imports and one-line helpers share a chunk, while a function of any
real size is its own, so a citation names its lines and not the whole file's. A unit too
big for one chunk is packed again from its level-1 units (a class by its methods), and
what is still too big is cut by the text splitter, its pieces' lines counted from their
character offsets. Blank lines at a chunk's ends are left out of its text
and of its range, so "lines 40–72" is exactly what the chunk holds.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator

Piece = tuple[int, int, str]
"""(first line, last line, text); lines counted from 1."""

MAX_LEVEL = 1
PACK_SHARE = 4
"""Units are packed together up to ``max_tokens // PACK_SHARE`` tokens."""


def code_chunks(
    text: str,
    units: tuple[tuple[int, int], ...],
    count_tokens: Callable[[str], int],
    split_text: Callable[[str], list[tuple[int, str]]],
    max_tokens: int,
) -> Iterator[Piece]:
    """The chunks of ``text`` in order (see the module doc).

    Args:
        text: the whole file.
        units: (first line, level) of each unit.
        count_tokens: tokens of a text, as the embedder counts them.
        split_text: (character offset, piece) of a text cut to the budget.
        max_tokens: most tokens per chunk.
    """
    lines = text.splitlines(keepends=True)
    packer = _Packer(lines, units, count_tokens, split_text, max_tokens)
    yield from packer.pack(0, len(lines), 0)


class _Packer:
    def __init__(
        self,
        lines: list[str],
        units: tuple[tuple[int, int], ...],
        count_tokens: Callable[[str], int],
        split_text: Callable[[str], list[tuple[int, str]]],
        max_tokens: int,
    ) -> None:
        self.lines = lines
        ordered = sorted(units)
        self.unit_lines = [line for line, _ in ordered]
        self.unit_levels = [level for _, level in ordered]
        self.count_tokens = count_tokens
        self.split_text = split_text
        self.max_tokens = max_tokens
        self.pack_tokens = max_tokens // PACK_SHARE

    def pack(self, first: int, last: int, level: int) -> Iterator[Piece]:
        """Chunks of lines ``first``…``last - 1`` (0-based), cut at units of ``level`` or less."""
        low = bisect.bisect_right(self.unit_lines, first + 1)
        high = bisect.bisect_left(self.unit_lines, last + 1)
        inner = {
            self.unit_lines[index] - 1
            for index in range(low, high)
            if self.unit_levels[index] <= level
        }
        starts = sorted({first} | inner)
        group: tuple[int, int] | None = None
        for start, end in zip(starts, [*starts[1:], last], strict=True):
            if self._tokens(start, end) > self.max_tokens:
                if group is not None:
                    yield from self._piece(*group)
                    group = None
                if level < MAX_LEVEL:
                    yield from self.pack(start, end, level + 1)
                else:
                    yield from self._split(start, end)
            elif group is not None and self._tokens(group[0], end) <= self.pack_tokens:
                group = (group[0], end)
            else:
                if group is not None:
                    yield from self._piece(*group)
                group = (start, end)
        if group is not None:
            yield from self._piece(*group)

    def _tokens(self, start: int, end: int) -> int:
        return self.count_tokens("".join(self.lines[start:end]))

    def _piece(self, start: int, end: int) -> Iterator[Piece]:
        """Lines ``start``…``end - 1`` as one chunk, blank lines at both ends left out."""
        while start < end and not self.lines[start].strip():
            start += 1
        while end > start and not self.lines[end - 1].strip():
            end -= 1
        if start < end:
            yield start + 1, end, "".join(self.lines[start:end]).rstrip()

    def _split(self, start: int, end: int) -> Iterator[Piece]:
        """A unit too big for one chunk, cut by text; each piece's lines from its offset."""
        text = "".join(self.lines[start:end])
        for offset, piece in self.split_text(text):
            if not piece.strip():
                continue
            first = start + 1 + text.count("\n", 0, offset)
            yield first, first + piece.rstrip().count("\n"), piece
