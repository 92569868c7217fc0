"""Read documents into pages of text: .txt/.md (encoding detected), .pdf, .docx, .html, the
formats :mod:`pipelines.rag.formats` reads (slides, sheets, OpenDocument, e-books, mail, code),
and pictures and scanned PDF pages by OCR when an :class:`~pipelines.rag.scanned.OcrPass` is given.

A zip-based format (.docx) is checked by :func:`~pipelines.rag.zip_limits.check_zip` before
its parts are unpacked. Every failure is an :class:`InvalidInputError` whose message names the
file and says what is wrong with it in words a person understands (damaged, encrypted, binary,
empty, a zip bomb …). The text returned is storable as is: characters PostgreSQL refuses (NUL,
lone surrogates) are removed.
"""

from __future__ import annotations

import hashlib
import zipfile
import zlib
from dataclasses import dataclass, replace
from pathlib import Path

from pipelines.core import InvalidInputError
from pipelines.rag.formats import CODE_SUFFIXES, FORMAT_SUFFIXES, check_kind, reader_for
from pipelines.rag.html_text import html_text
from pipelines.rag.scanned import (
    PICTURE_SUFFIXES,
    OcrPass,
    picture_pages,
    read_scanned_pdf_pages,
)
from pipelines.rag.storable import display_name, storable_text

TEXT_SUFFIXES = {".txt", ".md", ".markdown", ".rst", ".log"}
SUPPORTED_SUFFIXES = (
    TEXT_SUFFIXES
    | {".pdf", ".docx", ".html", ".htm"}
    | FORMAT_SUFFIXES
    | CODE_SUFFIXES
    | PICTURE_SUFFIXES
)
CHAOS_TOLERANCE = 0.15
COHERENCE_TOLERANCE = 0.1
_COMMON = {"utf_8": 0, "cp1252": 1, "latin_1": 2, "cp1251": 3, "utf_16": 4, "cp1250": 5}
MAX_FILE_BYTES = 200 * 1024 * 1024
"""Larger files are refused: embedding them would take hours on a laptop CPU."""


@dataclass(frozen=True)
class Page:
    """Text of one page (``number`` from 1) or of a whole unpaged document (None)."""

    number: int | None
    text: str
    header: str = ""
    """Repeated at the top of every chunk of the page, so a chunk alone still says what it
    is: a sheet's name and header row, a chapter's title."""
    code_units: tuple[tuple[int, int], ...] | None = None
    """For source code (None for other text): (first line, nesting level) of each
    declaration; the chunker cuts there and gives each chunk its line range."""


@dataclass(frozen=True)
class LoadedDocument:
    """A document's pages and the hash of its bytes (for incremental re-indexing)."""

    path: Path
    pages: list[Page]
    sha256: str
    notes: tuple[str, ...] = ()
    """What a person should know though the document was read: pages OCR could not read."""

    @property
    def page_count(self) -> int | None:
        """Number of pages for paged formats, None otherwise."""
        numbered = [page.number for page in self.pages if page.number is not None]
        return max(numbered) if numbered else None


def is_supported(path: Path) -> bool:
    """Whether the file's extension is one the loaders read."""
    return path.suffix.lower() in SUPPORTED_SUFFIXES


def file_sha256(path: Path) -> str:
    """Hash of the file's bytes, read in blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def load_document(path: Path, ocr: OcrPass | None = None) -> LoadedDocument:
    """Read ``path`` into pages of text; with ``ocr``, pictures and scanned PDF pages too.

    Raises:
        InvalidInputError: unsupported, unreadable, empty, damaged, encrypted, or no text.
        Cancelled: ``ocr.cancel`` was set between two pages.
    """
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        documents = ", ".join(sorted(SUPPORTED_SUFFIXES - CODE_SUFFIXES))
        supported = f"{documents} and source code such as .py, .js, .java, .c or .go"
        raise _error(
            path,
            f"{suffix or 'files without an extension'} is not supported (supported: {supported})",
        )
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise _error(
                path, f"is {size / 2**20:.0f} MB; the limit is {MAX_FILE_BYTES // 2**20} MB"
            )
        if size == 0:
            raise _error(path, "is empty")
        data = path.read_bytes()
    except FileNotFoundError:
        raise _error(path, "no longer exists") from None
    except PermissionError:
        raise _error(path, "cannot be read (permission denied)") from None
    except IsADirectoryError:
        raise _error(path, "is a folder") from None
    except OSError as error:
        raise _error(path, f"cannot be read ({error.strerror or error})") from error
    notes: list[str] = []
    if suffix in PICTURE_SUFFIXES:
        read, notes = picture_pages(path, data, ocr)
        pages = [Page(number, text) for number, text in read]
    else:
        pages = document_pages(path, data)
        if suffix == ".pdf" and ocr is not None:
            texts, notes = read_scanned_pdf_pages(path, data, [p.text for p in pages], ocr)
            pages = [replace(page, text=text) for page, text in zip(pages, texts, strict=True)]
    # A NUL deep in a text file (the binary check reads the first 8 KiB) or in a PDF's text
    # would make the database refuse the whole document: it is dropped instead.
    pages = [
        replace(page, text=storable_text(page.text), header=storable_text(page.header))
        for page in pages
    ]
    pages = [page for page in pages if page.text.strip()]
    if not pages:
        raise _error(path, "has no text to index" + _no_text_hint(suffix, ocr is not None))
    return LoadedDocument(path, pages, hashlib.sha256(data).hexdigest(), tuple(notes))


def _no_text_hint(suffix: str, read_by_ocr: bool) -> str:
    if suffix in PICTURE_SUFFIXES:
        return " (no text was found in it)"
    if suffix == ".pdf":
        return " (no text was found on its pages)" if read_by_ocr else " (scanned images?)"
    return ""


def document_pages(path: Path, data: bytes) -> list[Page]:
    """The pages of ``data``, read as the kind ``path``'s extension names (an e-mail's
    attachments are read through here too).

    Raises:
        InvalidInputError: damaged, encrypted, binary, or another kind than its extension says.
    """
    suffix = path.suffix.lower()
    check_kind(path, data)
    reader = reader_for(suffix)
    if reader is not None:
        return reader(path, data)
    if suffix == ".pdf":
        return _pdf_pages(path, data)
    if suffix == ".docx":
        return [Page(None, _docx_text(path, data))]
    if suffix in {".html", ".htm"}:
        return [Page(None, html_text(decode_text(path, data)))]  # main content only
    return [Page(None, decode_text(path, data))]


def _error(path: Path, problem: str) -> InvalidInputError:
    return InvalidInputError(f"{display_name(path)} {problem}.", field="file")


def decode_text(path: Path, data: bytes) -> str:
    """Text in whatever encoding it was written in; binary data is refused."""
    if b"\x00" in data[:8192] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise _error(path, "looks like binary data, not text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    import charset_normalizer

    matches = list(charset_normalizer.from_bytes(data))
    if not matches:
        raise _error(path, "is not readable text (its encoding could not be recognised)")
    # charset-normalizer ranks by "chaos" first, which on short Western text favours Baltic or
    # Central European code pages (French read as cp1257 or cp775). Among candidates about as
    # clean and about as coherent as the best, the code page people actually use wins.
    least_chaos = min(match.chaos for match in matches)
    close = [match for match in matches if match.chaos <= least_chaos + CHAOS_TOLERANCE]
    top = max(match.coherence for match in close)
    plausible = [match for match in close if match.coherence >= top - COHERENCE_TOLERANCE]
    best = min(plausible, key=lambda m: (_COMMON.get(m.encoding, 99), -m.coherence))
    return str(best)


def _pdf_pages(path: Path, data: bytes) -> list[Page]:
    import io

    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise _error(path, "is password-protected")
        return [
            Page(number, page.extract_text() or "")
            for number, page in enumerate(reader.pages, start=1)
        ]
    except InvalidInputError:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise _error(path, "is not a valid PDF (it may be damaged)") from error
    except Exception as error:
        if "decrypt" in str(error).lower() or "crypt" in type(error).__name__.lower():
            raise _error(path, "is encrypted in a way that cannot be opened") from error
        raise _error(path, "is not a valid PDF (it may be damaged)") from error


def _docx_text(path: Path, data: bytes) -> str:
    import io

    import docx
    from docx.opc.exceptions import OpcError
    from lxml.etree import LxmlError

    # What python-docx raises for a damaged file: the zip (bad archive, bad CRC, truncated
    # deflate stream), a missing part, or broken XML inside (lxml) — the text is read inside
    # the same guard, since tables and cells are parsed as they are walked.
    damaged = (zipfile.BadZipFile, zlib.error, EOFError, OpcError, LxmlError, KeyError, ValueError)
    from pipelines.rag.packages import open_package

    # What it unpacks to and whether it declares entities, before python-docx reads a part.
    open_package(path, data).close()
    try:
        document = docx.Document(io.BytesIO(data))
        parts = [paragraph.text for paragraph in document.paragraphs]
        for table in document.tables:
            for row in table.rows:
                parts.append(" | ".join(cell.text for cell in row.cells))
    except damaged as error:
        raise _error(path, "is not a valid Word document (it may be damaged)") from error
    return "\n".join(parts)
