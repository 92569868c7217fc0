"""The document formats read beyond plain text, PDF, Word and HTML, and the one place that
says which reader reads which suffix.

Each reader takes the file's path (for messages) and its bytes, and returns pages of text;
it is imported when a file of its kind is first read, so listing the supported formats costs
nothing. A file whose content is plainly another kind than its extension says (a PDF named
``.xlsx``, an old binary ``.xls`` renamed ``.xlsx``) is refused naming both kinds, before a
parser meets bytes it was never meant to read.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pipelines.core import InvalidInputError
from pipelines.rag.storable import display_name

if TYPE_CHECKING:
    from pipelines.rag.loaders import Page

Reader = Callable[[Path, bytes], "list[Page]"]

ZIP_SUFFIXES = frozenset({".docx", ".pptx", ".xlsx", ".ods", ".odt", ".epub"})
SHEET_SUFFIXES = frozenset({".xlsx", ".ods", ".csv", ".tsv"})
MAIL_SUFFIXES = frozenset({".eml", ".mbox"})
CODE_SUFFIXES = frozenset(
    {
        ".py", ".pyi", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".java", ".c", ".h",
        ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".cs", ".go", ".rs", ".rb", ".php", ".kt",
        ".kts", ".swift", ".scala", ".dart", ".m", ".sh", ".bash", ".zsh", ".ps1", ".lua",
        ".pl", ".r", ".sql",
    }
)  # fmt: skip
FORMAT_SUFFIXES = frozenset({".pptx", ".odt", ".epub"}) | SHEET_SUFFIXES | MAIL_SUFFIXES
"""Suffixes read here (code aside: :data:`CODE_SUFFIXES`)."""

KIND_NAMES = {
    ".docx": "Word document",
    ".pptx": "PowerPoint presentation",
    ".xlsx": "Excel workbook",
    ".ods": "OpenDocument spreadsheet",
    ".odt": "OpenDocument text",
    ".epub": "e-book (EPUB)",
    ".eml": "e-mail message",
    ".mbox": "mailbox",
    ".csv": "CSV table",
    ".tsv": "TSV table",
}

# The first bytes of kinds a document is often mistaken for, or renamed from; none of them
# can begin a text file (a CSV may start "MZ", so Windows programs are not listed).
_SIGNATURES = (
    (b"%PDF-", "a PDF document"),
    (b"PK\x03\x04", "a zip archive"),
    (b"PK\x05\x06", "a zip archive"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old binary Office file (.doc, .xls or .ppt)"),
    (b"\x89PNG\r\n\x1a\n", "a PNG picture"),
    (b"\xff\xd8\xff", "a JPEG picture"),
    (b"GIF8", "a GIF picture"),
    (b"\x7fELF", "a program"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"Rar!", "a RAR archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
)


def unreadable(path: Path, problem: str) -> InvalidInputError:
    """The one sentence a reader raises: the file's name, then what is wrong with it."""
    return InvalidInputError(f"{display_name(path)} {problem}.", field="file")


def damaged(path: Path) -> InvalidInputError:
    """A file of this kind that its parser could not read."""
    kind = KIND_NAMES.get(path.suffix.lower(), "document")
    return unreadable(path, f"is not a valid {kind} (it may be damaged)")


def check_kind(path: Path, data: bytes) -> None:
    """Refuse a file whose first bytes say it is another kind than its extension.

    Raises:
        InvalidInputError: "report.xlsx is a PDF document, not an Excel workbook …".
    """
    suffix = path.suffix.lower()
    found = next((name for magic, name in _SIGNATURES if data.startswith(magic)), None)
    expected_zip = suffix in ZIP_SUFFIXES
    if found is None or (expected_zip and found == "a zip archive"):
        if expected_zip and not data.startswith(b"PK"):
            raise damaged(path)  # not a zip at all: text, or a part of one
        return
    if suffix == ".pdf" and found == "a PDF document":
        return
    if suffix in ZIP_SUFFIXES or suffix in MAIL_SUFFIXES or suffix in SHEET_SUFFIXES:
        kind = KIND_NAMES[suffix]
        raise unreadable(
            path,
            f"is {found}, not {_article(kind)} {kind} (its extension does not match its content)",
        )


def reader_for(suffix: str) -> Reader | None:
    """The reader of ``suffix`` (lower case, with its dot), None for the loaders' own kinds."""
    if suffix == ".pptx":
        from pipelines.rag.slides import pptx_pages

        return pptx_pages
    if suffix in SHEET_SUFFIXES:
        from pipelines.rag.sheets import sheet_pages

        return sheet_pages
    if suffix == ".odt":
        from pipelines.rag.open_document import odt_pages

        return odt_pages
    if suffix == ".epub":
        from pipelines.rag.epub import epub_pages

        return epub_pages
    if suffix in MAIL_SUFFIXES:
        from pipelines.rag.mail import mail_pages

        return mail_pages
    if suffix in CODE_SUFFIXES:
        from pipelines.rag.source_code import code_pages

        return code_pages
    return None


def _article(kind: str) -> str:
    return "an" if kind[0].lower() in "aeiou" else "a"
