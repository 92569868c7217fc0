"""PowerPoint (.pptx) slides as pages: every shape's text in reading order, tables as rows,
grouped shapes included, then the speaker notes; the slide number is the page number."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pipelines.rag.formats import damaged
from pipelines.rag.loaders import Page
from pipelines.rag.packages import DAMAGED_ZIP, open_package

MAX_GROUP_DEPTH = 20
"""Groups nested deeper than this are not read (real decks nest a few levels)."""


def pptx_pages(path: Path, data: bytes) -> list[Page]:
    """One page per slide (numbered from 1), notes after the slide's own text.

    Raises:
        InvalidInputError: a zip bomb, entity declarations, or a damaged presentation.
    """
    from lxml.etree import LxmlError
    from pptx import Presentation
    from pptx.exc import PackageNotFoundError

    open_package(path, data).close()
    try:
        presentation = Presentation(io.BytesIO(data))
        pages = []
        for number, slide in enumerate(presentation.slides, start=1):
            lines = list(_shape_lines(slide.shapes, 0))
            if slide.has_notes_slide:
                notes = slide.notes_slide.notes_text_frame
                if notes is not None and notes.text.strip():
                    lines += ["Notes:", notes.text]
            pages.append(Page(number, "\n".join(line for line in lines if line.strip())))
    except (*DAMAGED_ZIP, KeyError, AttributeError, LxmlError, PackageNotFoundError) as error:
        raise damaged(path) from error
    return pages


def _shape_lines(shapes: Any, depth: int) -> Iterator[str]:
    """Text of ``shapes`` top to bottom, left to right (the order people read a slide in)."""

    from pptx.shapes.group import GroupShape

    def position(shape: Any) -> tuple[int, int]:
        return (shape.top or 0, shape.left or 0)

    for shape in sorted(shapes, key=position):
        if isinstance(shape, GroupShape):
            if depth < MAX_GROUP_DEPTH:
                yield from _shape_lines(shape.shapes, depth + 1)
        elif getattr(shape, "has_table", False) and shape.has_table:
            for row in shape.table.rows:
                yield " | ".join(cell.text.strip() for cell in row.cells)
        elif getattr(shape, "has_text_frame", False) and shape.has_text_frame:
            yield shape.text_frame.text
