"""Zip-based documents (.docx; .pptx, .xlsx, .odt, .ods, .epub as they come) checked before
their parts are unpacked.

A document's size on disk says little about what it unpacks to: DEFLATE packs a run of
repeated XML up to a thousand to one, so a 185 KB .docx held 50 MB of paragraphs and ingest
took 1 GB and 160 s to read it (python-docx holds every part and builds a tree about twenty
times the XML's size); a 1 MB one took 2.4 GB. :func:`check_zip` reads the archive's central
directory — the list of parts with their packed and unpacked sizes, a few kilobytes — and
refuses, before one part is unpacked:

- a central directory too big to list (a file of 200 MB can name millions of empty parts, and
  Python's ``zipfile`` keeps an object for each);
- more than :attr:`ZipLimits.members` parts;
- more than :attr:`ZipLimits.unpacked_bytes` in all, or more than
  :attr:`ZipLimits.markup_bytes` of XML and HTML, the parts a loader parses into a tree;
- a part over 1 MiB packed more than :attr:`ZipLimits.ratio` to one (Apache POI's rule for
  the same formats: real documents stay far below; bombs sit near DEFLATE's 1,032).

A part whose header lies — small in the directory, huge in its data — cannot get past these
numbers either: Python's ``zipfile`` (which python-docx, openpyxl, python-pptx, odfpy and
ebooklib read through) stops each part at the size the directory declares and then fails its
checksum, so a loader reads at most what was checked here (a test holds it to that).
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from pathlib import Path

from pipelines.core import InvalidInputError
from pipelines.rag.storable import display_name

MARKUP_SUFFIXES = (".xml", ".rels", ".xhtml", ".html", ".htm", ".opf", ".ncx", ".svg")
"""Parts the loaders parse into a tree: their unpacked size costs memory many times over."""
RATIO_GRACE_BYTES = 1 << 20
"""Parts smaller than this unpacked are not judged by their ratio (a page of blanks packs well)."""
_END_OF_DIRECTORY = b"PK\x05\x06"
_ZIP64_LOCATOR = b"PK\x06\x07"
_ZIP64_END = b"PK\x06\x06"
_LAST_BYTES = 22 + 0xFFFF  # the end record and the longest archive comment


@dataclass(frozen=True)
class ZipLimits:
    """What one zip-based document may unpack to."""

    unpacked_bytes: int = 256 << 20
    """All parts together (pictures included: a loader holds them in memory)."""
    markup_bytes: int = 50 << 20
    """XML and HTML parts together: 50 MB of Word XML is thousands of pages."""
    ratio: int = 100
    """Unpacked over packed size, for parts of more than :data:`RATIO_GRACE_BYTES`."""
    members: int = 10_000
    """Parts in the archive."""

    @property
    def directory_bytes(self) -> int:
        """Central directory size that can list :attr:`members` parts with long names."""
        return self.members * 512


DOCUMENT_LIMITS = ZipLimits()


def check_zip(path: Path, data: bytes, limits: ZipLimits = DOCUMENT_LIMITS) -> None:
    """Refuse the zip-based document ``data`` (read from ``path``) unless what it unpacks to
    is within ``limits``; call it before a loader opens the archive.

    Raises:
        InvalidInputError: one sentence naming the file, what it unpacks to and the limit
            (``field="file"``); "is not a valid … (damaged)" is left to the loader, which
            knows the format's name.
    """
    directory = _directory_bytes(data)
    if directory is not None and directory > limits.directory_bytes:
        raise _refusal(
            path,
            f"lists more parts than a document may hold ({limits.members:,}): its list of "
            f"parts alone is {_size(directory)}",
        )
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, OSError):
        return  # not a zip at all: the loader says so in its own words
    if len(members) > limits.members:
        raise _refusal(path, f"holds {len(members):,} parts; the limit is {limits.members:,}")
    unpacked = sum(member.file_size for member in members)
    if unpacked > limits.unpacked_bytes:
        raise _refusal(
            path, f"unpacks to {_size(unpacked)}; the limit is {_size(limits.unpacked_bytes)}"
        )
    markup = sum(m.file_size for m in members if m.filename.lower().endswith(MARKUP_SUFFIXES))
    if markup > limits.markup_bytes:
        raise _refusal(
            path,
            f"unpacks to {_size(markup)} of XML; the limit is {_size(limits.markup_bytes)}",
        )
    for member in members:
        if member.file_size <= RATIO_GRACE_BYTES:
            continue
        ratio = member.file_size / max(1, member.compress_size)
        if ratio > limits.ratio:
            raise _refusal(
                path,
                f"packs {_shown(member.filename)} {ratio:,.0f} to 1 ({_size(member.file_size)} "
                f"unpacked); more than {limits.ratio} to 1 is refused as a zip bomb",
            )


def _refusal(path: Path, problem: str) -> InvalidInputError:
    return InvalidInputError(f"{display_name(path)} {problem}.", field="file")


def _shown(name: str) -> str:
    """A part's name (the archive's, untrusted) as a short printable word."""
    return "".join(char if char.isprintable() else "?" for char in name[:80])


def _size(size: int) -> str:
    if size >= 1 << 30:
        return f"{size / (1 << 30):.1f} GB"
    if size >= 1 << 20:
        return f"{size / (1 << 20):.0f} MB"
    return f"{max(1, round(size / 1024))} KB"


def _directory_bytes(data: bytes) -> int | None:
    """The central directory's size as the end record declares it (zip64 included), None when
    there is no end record (then ``zipfile`` refuses the file itself)."""
    end = data.rfind(_END_OF_DIRECTORY, max(0, len(data) - _LAST_BYTES))
    if end < 0 or end + 22 > len(data):
        return None
    size = int.from_bytes(data[end + 12 : end + 16], "little")
    locator = end - 20
    if size == 0xFFFFFFFF and locator >= 0 and data[locator : locator + 4] == _ZIP64_LOCATOR:
        offset = int.from_bytes(data[locator + 8 : locator + 16], "little")
        if data[offset : offset + 4] == _ZIP64_END:
            size = int.from_bytes(data[offset + 40 : offset + 48], "little")
    return size
