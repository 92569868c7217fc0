"""Recognised boxes into lines in reading order, with paragraph breaks."""

from __future__ import annotations

from pipelines.ocr.layout import TextBox, boxes_from_quads, page_text


def box(text: str, left: float, top: float, width: float = 100, height: float = 20) -> TextBox:
    return TextBox(text, 0.9, left, top, left + width, top + height)


def test_boxes_on_one_line_are_read_left_to_right() -> None:
    boxes = [box("world", 300, 52), box("Hello", 100, 50), box("Next line", 100, 80)]
    assert page_text(boxes) == "Hello world\nNext line"


def test_a_tall_gap_is_a_paragraph_break() -> None:
    boxes = [box("First", 100, 50), box("Second", 100, 78), box("Far below", 100, 160)]
    assert page_text(boxes) == "First\nSecond\n\nFar below"


def test_quads_become_upright_bounds_and_empty_texts_are_dropped() -> None:
    quads = [[[10, 12], [110, 10], [111, 30], [11, 32]], [[0, 0], [5, 0], [5, 5], [0, 5]]]
    boxes = boxes_from_quads(quads, [" Text ", "  "], [0.9, 0.8])
    assert boxes == [TextBox("Text", 0.9, 10, 10, 111, 32)]


def test_nothing_read_is_no_text() -> None:
    assert page_text([]) == ""
