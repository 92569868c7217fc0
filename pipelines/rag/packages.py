"""Zip-based documents (pptx, xlsx, ods, odt, epub) opened safely, and their XML parsed safely.

:func:`open_package` checks what the archive unpacks to (:func:`~pipelines.rag.zip_limits.
check_zip`) and refuses a markup part that declares XML entities before any parser sees it:
entities are how a few hundred bytes of "billion laughs" expand to gigabytes, and no real
office document or e-book declares them (XHTML's named characters come from its DTD, not from
an internal subset). :func:`parse_xml` is the one XML parser the readers here use: no entity
expansion, no network, no DTD loading, lxml's default depth and size limits.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from pathlib import Path
from typing import Any

from pipelines.rag.formats import damaged, unreadable
from pipelines.rag.zip_limits import MARKUP_SUFFIXES, check_zip

DAMAGED_ZIP = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError, ValueError)
"""What reading a damaged or truncated archive raises (bad directory, bad CRC, cut stream)."""
_ENTITY = b"<!ENTITY"
_BLOCK = 1 << 20


def open_package(path: Path, data: bytes) -> zipfile.ZipFile:
    """The archive ``data`` once its sizes and its markup parts have been checked.

    Raises:
        InvalidInputError: a zip bomb, entity declarations, or not a readable zip archive.
    """
    check_zip(path, data)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        for member in archive.infolist():
            if member.filename.lower().endswith(MARKUP_SUFFIXES) and _declares_entities(
                archive, member
            ):
                archive.close()
                raise unreadable(
                    path,
                    "declares XML entities in "
                    f"{_shown(member.filename)}, which is refused (they can expand to "
                    "gigabytes)",
                )
    except DAMAGED_ZIP as error:
        raise damaged(path) from error
    return archive


def read_part(path: Path, archive: zipfile.ZipFile, name: str) -> bytes:
    """The bytes of the part ``name`` (a damaged part says the document is damaged)."""
    try:
        return archive.read(name)
    except (KeyError, *DAMAGED_ZIP) as error:
        raise damaged(path) from error


def parse_xml(path: Path, data: bytes) -> Any:
    """The root element of ``data``, parsed without entities, DTDs or network access."""
    import lxml.etree

    parser = lxml.etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True
    )
    try:
        return lxml.etree.fromstring(data, parser=parser)
    except (lxml.etree.LxmlError, ValueError) as error:
        raise damaged(path) from error


def _declares_entities(archive: zipfile.ZipFile, member: zipfile.ZipInfo) -> bool:
    """Whether the part holds ``<!ENTITY`` (read in blocks, never whole)."""
    tail = b""
    with archive.open(member) as part:
        while block := part.read(_BLOCK):
            if _ENTITY in tail + block:
                return True
            tail = block[-len(_ENTITY) :]
    return False


def _shown(name: str) -> str:
    return "".join(char if char.isprintable() else "?" for char in name[:80])
