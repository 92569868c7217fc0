"""E-books (.epub): the chapters in reading order (the spine), each chapter a page.

An EPUB is a zip of XHTML chapters listed by a package file (OPF) that
``META-INF/container.xml`` points to; the chapters are read from the archive with
:func:`~pipelines.rag.html_text.html_text` (scripts, styles and navigation dropped), so no
e-book library is needed (ebooklib is AGPL). A chapter's title (its first heading, else its
``<title>``) is repeated at the top of each of its chunks.

Names inside the book are untrusted: a package or chapter path that is absolute or climbs out
of the book (``../../etc/passwd``) refuses the whole book. Nothing is ever extracted to disk;
parts are read from the archive by name only.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from pipelines.rag.formats import damaged, unreadable
from pipelines.rag.html_text import html_text
from pipelines.rag.loaders import Page, decode_text
from pipelines.rag.packages import open_package, parse_xml, read_part

_CONTAINER = "urn:oasis:names:tc:opendocument:xmlns:container"
_OPF = "http://www.idpf.org/2007/opf"
_CHAPTER_TYPES = {"application/xhtml+xml", "text/html", "application/x-dtbook+xml"}
_DRIVE = re.compile(r"^[A-Za-z]:")
TITLE_CHARS = 200
"""A chapter title longer than this is cut (it is repeated in every chunk)."""


def epub_pages(path: Path, data: bytes) -> list[Page]:
    """One page per chapter with text, numbered in reading order.

    Raises:
        InvalidInputError: a zip bomb, entity declarations, a path leaving the book, no
            package file, or a damaged book.
    """
    with open_package(path, data) as archive:
        package_name = _package_name(path, archive)
        package = parse_xml(path, read_part(path, archive, package_name))
        pages: list[Page] = []
        for chapter_name in _spine(path, package, posixpath.dirname(package_name)):
            if chapter_name not in archive.NameToInfo:
                continue  # listed but missing: readers skip it too
            chapter = read_part(path, archive, chapter_name)
            if b"<!ENTITY" in chapter:
                raise unreadable(
                    path, "declares XML entities in a chapter, which is refused (they can "
                    "expand to gigabytes)",
                )  # fmt: skip
            markup = _decoded(path, chapter)
            text = html_text(markup)
            if text.strip():
                pages.append(Page(len(pages) + 1, text, header=_title(markup)))
    return pages


def _package_name(path: Path, archive: zipfile.ZipFile) -> str:
    """The OPF's name inside the archive, from ``META-INF/container.xml``."""
    if "META-INF/container.xml" not in archive.NameToInfo:
        raise unreadable(path, "is not a valid e-book (EPUB): it has no META-INF/container.xml")
    container = parse_xml(path, read_part(path, archive, "META-INF/container.xml"))
    rootfile = container.find(f".//{{{_CONTAINER}}}rootfile")
    if rootfile is None or not rootfile.get("full-path"):
        raise damaged(path)
    return _inside(path, "", rootfile.get("full-path"))


def _spine(path: Path, package: Any, base: str) -> list[str]:
    """The archive names of the chapters, in the spine's order."""
    manifest = {
        item.get("id"): item
        for item in package.iter(f"{{{_OPF}}}item")
        if item.get("id") and item.get("href")
    }
    names = []
    for reference in package.iter(f"{{{_OPF}}}itemref"):
        item = manifest.get(reference.get("idref"))
        if item is None or (item.get("media-type") or "") not in _CHAPTER_TYPES:
            continue
        names.append(_inside(path, base, item.get("href")))
    return names


def _inside(path: Path, base: str, href: str) -> str:
    """``href`` (relative to ``base``) as a name inside the book; one that leaves it refuses
    the book."""
    href = unquote(href.split("#", 1)[0])
    if href.startswith(("/", "\\")) or _DRIVE.match(href) or "\\" in href or "\x00" in href:
        raise _escapes(path, href)
    name = posixpath.normpath(posixpath.join(base, href))
    if name == ".." or name.startswith("../") or name.startswith("/"):
        raise _escapes(path, href)
    return name


def _escapes(path: Path, href: str) -> Exception:
    shown = "".join(char if char.isprintable() else "?" for char in href[:80])
    return unreadable(path, f"names a part outside the book ({shown}), which is refused")


def _decoded(path: Path, chapter: bytes) -> str:
    try:
        return chapter.decode("utf-8-sig")
    except UnicodeDecodeError:
        return decode_text(path, chapter)


def _title(markup: str) -> str:
    """The chapter's first heading, else its ``<title>``, else ""."""
    import lxml.etree
    import lxml.html

    markup = re.sub(r"^\s*<\?xml[^>]*\?>", "", markup, count=1)
    try:
        document = lxml.html.document_fromstring(
            markup, parser=lxml.html.HTMLParser(remove_comments=True, no_network=True)
        )
    except (lxml.etree.ParserError, ValueError):
        return ""
    for tags in (("h1", "h2", "h3"), ("title",)):
        for element in document.iter(*tags):
            title = " ".join(element.text_content().split())
            if title:
                return title[:TITLE_CHARS]
    return ""
