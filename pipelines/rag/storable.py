"""What PostgreSQL ``text`` can hold: text without NUL or lone surrogates, paths as text.

A document's text may carry characters a UTF-8 database refuses (a NUL deep inside a log file,
a lone surrogate from a PDF's font map): they are dropped or replaced, so the document is
stored instead of refused. A file name that is not valid UTF-8 (bytes from an old archive,
which Python holds as lone surrogates) is stored as text with ``\\xNN`` escapes for the bad
bytes, next to its raw bytes, so it is listed readably and the file can still be found.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

_SURROGATES = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def storable_text(text: str) -> str:
    """``text`` without NUL characters and with lone surrogates replaced by U+FFFD."""
    text = text.replace("\x00", "")
    if not text.isascii():  # ASCII cannot hold a surrogate: skip the scan for most text
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = _SURROGATES.sub(REPLACEMENT, text)
    return text


def stored_path(path: Path) -> tuple[str, bytes | None]:
    """The text a file's path is stored and shown as, and its raw bytes when they differ.

    A path that is valid text is stored as is (raw bytes None). Otherwise the text shows each
    byte that is not UTF-8 as ``\\xNN`` and the raw bytes are what the file is found by.
    """
    text = str(path)
    if is_text(text):
        return text, None
    raw = _fs_bytes(text)
    return raw.decode("utf-8", "backslashreplace"), raw


def file_path(text: str, raw: bytes | None) -> Path:
    """The file a stored path names (the inverse of :func:`stored_path`)."""
    return Path(os.fsdecode(raw)) if raw is not None else Path(text)


def printable(text: str) -> str:
    """``text`` (a file name from the file system) safe to print and show: ``\\xNN`` escapes."""
    if is_text(text):
        return text
    return _fs_bytes(text).decode("utf-8", "backslashreplace")


def display_name(path: Path) -> str:
    """The file's name as a person reads it, whatever bytes it is made of."""
    return printable(path.name)


def is_text(text: str) -> bool:
    """Whether ``text`` encodes to UTF-8 (no lone surrogates from undecodable bytes)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _fs_bytes(text: str) -> bytes:
    """The bytes the file system holds for ``text`` (surrogates it could not have made are
    written out as ``\\udXXX`` rather than refused)."""
    try:
        return os.fsencode(text)
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace")
