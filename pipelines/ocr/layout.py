"""Recognised pieces of text put back into lines, in reading order, with paragraph breaks.

The detector finds boxes, often several on one printed line (a wide gap between words splits
them); rapidocr sorts them top to bottom only roughly. Here boxes whose vertical extents
overlap by more than half the smaller one's height are one line, read left to right; a gap
between lines much taller than a line starts a paragraph (a blank line), so the chunker can
split where the page does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

PARAGRAPH_GAP = 1.0
"""A gap between two lines taller than this many median line heights is a paragraph break."""


@dataclass(frozen=True)
class TextBox:
    """A recognised piece of text and its upright bounding box, in page pixels."""

    text: str
    confidence: float
    left: float
    top: float
    right: float
    bottom: float

    @property
    def height(self) -> float:
        """The box's height (at least one pixel)."""
        return max(1.0, self.bottom - self.top)


def boxes_from_quads(
    quads: Sequence[Sequence[Sequence[float]]], texts: Sequence[str], scores: Sequence[float]
) -> list[TextBox]:
    """rapidocr's four-corner boxes as :class:`TextBox` (their axis-aligned bounds)."""
    boxes = []
    for quad, text, score in zip(quads, texts, scores, strict=True):
        xs = [float(point[0]) for point in quad]
        ys = [float(point[1]) for point in quad]
        boxes.append(TextBox(text.strip(), float(score), min(xs), min(ys), max(xs), max(ys)))
    return [box for box in boxes if box.text]


def group_lines(boxes: Sequence[TextBox]) -> list[list[TextBox]]:
    """Boxes grouped into printed lines, top to bottom, each line left to right."""
    lines: list[list[TextBox]] = []
    for box in sorted(boxes, key=lambda b: (b.top + b.bottom) / 2):
        line = _line_for(lines, box)
        if line is None:
            lines.append([box])
        else:
            line.append(box)
    for line in lines:
        line.sort(key=lambda b: b.left)
    lines.sort(key=lambda line: median((b.top + b.bottom) / 2 for b in line))
    return lines


def page_text(boxes: Sequence[TextBox]) -> str:
    """The page's text: one printed line per line, a blank line between paragraphs."""
    lines = group_lines(boxes)
    if not lines:
        return ""
    line_height = median(box.height for line in lines for box in line)
    parts: list[str] = []
    previous_bottom: float | None = None
    for line in lines:
        top = min(box.top for box in line)
        if previous_bottom is not None and top - previous_bottom > PARAGRAPH_GAP * line_height:
            parts.append("")
        parts.append(" ".join(box.text for box in line))
        previous_bottom = max(box.bottom for box in line)
    return "\n".join(parts)


def _line_for(lines: list[list[TextBox]], box: TextBox) -> list[TextBox] | None:
    """The line (among the last few) ``box`` belongs to, or None for a new one."""
    for line in reversed(lines[-3:]):
        last = line[-1]
        overlap = min(last.bottom, box.bottom) - max(last.top, box.top)
        if overlap > 0.5 * min(last.height, box.height):
            return line
    return None
