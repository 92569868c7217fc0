"""An answer cut into prose and fenced code, so each code block can be its own widget (with
its own horizontal scrollbar and Copy button) while the prose is rendered as Markdown.

Pure Python, no Qt: fences follow CommonMark (``` or ~~~, at most three spaces of indent, a
closing fence of the same character at least as long); an unterminated fence runs to the end,
as it does while an answer is still streaming.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})[ \t]*([^\s`]*)[^`]*$")


@dataclass(frozen=True)
class Segment:
    """A run of prose (``language`` None) or one fenced code block."""

    text: str
    language: str | None = None
    closed: bool = True
    """For code: whether its closing fence came (False while streaming or if it never does)."""

    @property
    def is_code(self) -> bool:
        """Whether this is a code block."""
        return self.language is not None


def split_markdown(markdown: str) -> list[Segment]:
    """``markdown`` as prose and code segments, in order (blank prose is left out)."""
    segments: list[Segment] = []
    prose: list[str] = []
    lines = markdown.split("\n")
    i = 0
    while i < len(lines):
        opener = FENCE.match(lines[i])
        if opener is None or (opener.group(2)[0] == "`" and "`" in lines[i][opener.end(2) :]):
            prose.append(lines[i])
            i += 1
            continue
        _flush(prose, segments)
        indent, fence, language = len(opener.group(1)), opener.group(2), opener.group(3)
        code: list[str] = []
        i += 1
        closed = False
        while i < len(lines):
            line = lines[i]
            stripped = line.lstrip(" ")
            if (
                len(line) - len(stripped) <= 3
                and stripped.startswith(fence[0] * len(fence))
                and not stripped.rstrip().strip(fence[0])
            ):
                closed = True
                i += 1
                break
            code.append(_dedent(line, indent))
            i += 1
        segments.append(Segment("\n".join(code), language, closed))
    _flush(prose, segments)
    return segments


def _dedent(line: str, indent: int) -> str:
    """Remove up to ``indent`` leading spaces (the fence's own indent), as CommonMark does."""
    removable = len(line) - len(line.lstrip(" "))
    return line[min(indent, removable) :]


def _flush(prose: list[str], segments: list[Segment]) -> None:
    text = "\n".join(prose)
    prose.clear()
    if text.strip():
        segments.append(Segment(text))
