"""Passwords taken out of text the app keeps or shows: backups of damaged files, messages.

A damaged settings file is kept beside the repaired one so the user can recover their choices;
it may hold a database connection string with its password, and a backup is exactly the kind
of file that gets attached to a bug report. :func:`redacted_copy` keeps everything but secrets.
"""

from __future__ import annotations

import json
import re
from typing import Any

from app.core.database_url import split_password
from app.core.errors import UserError
from app.core.storage.json_files import parse_json_object

MASK = "REDACTED"
_SECRET_WORD = r"(?:password|passwd|pass|pwd|secret|token|api[_-]?key|credentials?)"
# A key that is, or has as one of its _-separated words, a secret word (not "chunk_tokens").
_SECRET_KEY = re.compile(rf"(?:^|[_-]){_SECRET_WORD}(?:$|[_-])", re.IGNORECASE)
# scheme://user:password@host → scheme://user:REDACTED@host (also inside longer text).
_URL_PASSWORD = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://[^\s:/@\"'?#]*):((?:\\.|[^\s@\"'/\\])*)@")
# libpq key/value and query forms: password=… , ?password=…&
_KEY_PASSWORD = re.compile(
    r"(\b(?:password|passwd|pwd)\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s\"'&;]+)", re.IGNORECASE
)
# "password": "…" in JSON-like text that could not be parsed.
_JSON_SECRET = re.compile(
    rf"(\"(?:[^\"\n]*[_-])?{_SECRET_WORD}(?:[_-][^\"\n]*)?\"\s*:\s*)\"(?:[^\"\\\n]|\\.)*\"",
    re.IGNORECASE,
)


def redact_text(text: str) -> str:
    """``text`` with passwords in connection strings and ``"password": "…"`` pairs masked."""
    text = _URL_PASSWORD.sub(rf"\1:{MASK}@", text)
    text = _KEY_PASSWORD.sub(rf"\g<1>{MASK}", text)
    return _JSON_SECRET.sub(rf'\g<1>"{MASK}"', text)


def redacted_copy(raw: bytes) -> str:
    """The content of a (possibly damaged) JSON file as text, with every secret masked.

    Parseable JSON is masked field by field (``database_url`` loses its password, fields
    named like passwords or tokens lose their value); anything else is decoded as well as
    it can be (UTF-8, UTF-16) and masked by pattern. The result is meant for a backup the
    user reads, not for byte-exact restoring.
    """
    data = parse_json_object(raw)
    if isinstance(data, dict):
        return json.dumps(_redact_value(data), indent=2, ensure_ascii=False)
    return redact_text(_decode(raw))


def _redact_value(value: Any, key: str = "") -> Any:
    # Depth is bounded: parse_json_object refuses anything nested deeper than MAX_DEPTH.
    if isinstance(value, dict):
        return {name: _redact_value(item, name) for name, item in value.items()}
    if isinstance(value, list):
        return [_redact_value(item) for item in value]
    if not isinstance(value, str):
        return value
    if key and _SECRET_KEY.search(key) and value:
        return MASK
    if key == "database_url":
        value = _without_password(value)
    return redact_text(value)


def _without_password(url: str) -> str:
    try:
        return split_password(url)[0]
    except UserError:  # not a connection string: the patterns still apply
        return url


def _decode(raw: bytes) -> str:
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):  # saved as UTF-16 with its byte-order mark
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            pass
    # UTF-16 without its mark leaves NULs between ASCII letters: dropped, so the patterns
    # still see "password" and "://user:secret@"; bytes that are not UTF-8 become U+FFFD.
    return raw.decode("utf-8-sig", errors="replace").replace("\x00", "")
