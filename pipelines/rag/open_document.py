"""OpenDocument text (.odt): headings, paragraphs, lists and tables in document order.

The ODF XML is read with lxml directly (:func:`~pipelines.rag.packages.parse_xml`: no
entities, no DTD, no network) rather than through odfpy, whose tri-licence and SAX reader add
nothing the few elements below need. Tracked deletions, annotations and notes' citation marks
are left out: they are not the document's text.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pipelines.rag.loaders import Page
from pipelines.rag.packages import open_package, parse_xml, read_part

_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_BLOCKS = {f"{{{_TEXT}}}p", f"{{{_TEXT}}}h"}
_SKIPPED = {
    f"{{{_TEXT}}}tracked-changes",
    f"{{{_OFFICE}}}annotation",
    f"{{{_TEXT}}}note-citation",
    f"{{{_TEXT}}}sequence-decls",
}
MAX_DEPTH = 200
"""Deeper nesting is not walked (lxml's parser stops at 256 levels anyway)."""


def odt_pages(path: Path, data: bytes) -> list[Page]:
    """The document's text as one unnumbered page (ODF keeps no page breaks of its own).

    Raises:
        InvalidInputError: a zip bomb, entity declarations, or a damaged document.
    """
    with open_package(path, data) as archive:
        content = read_part(path, archive, "content.xml")
    root = parse_xml(path, content)
    body = root.find(f"{{{_OFFICE}}}body/{{{_OFFICE}}}text")
    if body is None:
        body = root
    return [Page(None, "\n".join(line for line in _blocks(body, 0) if line.strip()))]


def _blocks(element: Any, depth: int) -> Iterator[str]:
    """The text blocks under ``element`` in order: a paragraph or heading is one line, a
    table row is its cells joined by `` | ``."""
    if depth > MAX_DEPTH:
        return
    for child in element:
        if not isinstance(child.tag, str) or child.tag in _SKIPPED:
            continue
        if child.tag in _BLOCKS:
            yield inline_text(child)
        elif child.tag == f"{{{_TABLE}}}table-row":
            cells = [" ".join(_blocks(cell, depth + 1)) for cell in child]
            yield " | ".join(cell.strip() for cell in cells)
        else:  # lists, sections, tables, frames: their blocks in order
            yield from _blocks(child, depth + 1)


def inline_text(element: Any) -> str:
    """A paragraph's text with ODF's spaces (``text:s``), tabs and line breaks restored."""
    parts: list[str] = [element.text or ""]
    _inline(element, parts, 0)
    return "".join(parts)


def _inline(element: Any, parts: list[str], depth: int) -> None:
    for child in element:
        if depth > MAX_DEPTH:
            return
        if isinstance(child.tag, str) and child.tag not in _SKIPPED:
            if child.tag == f"{{{_TEXT}}}s":
                count = child.get(f"{{{_TEXT}}}c") or "1"
                parts.append(" " * min(int(count) if count.isdigit() else 1, 100))
            elif child.tag == f"{{{_TEXT}}}tab":
                parts.append("\t")
            elif child.tag == f"{{{_TEXT}}}line-break":
                parts.append("\n")
            else:
                parts.append(child.text or "")
                _inline(child, parts, depth + 1)
        parts.append(child.tail or "")
