"""Text from outside the app, made safe to print on a terminal.

Chat titles of an imported file, a model's answer, an MCP server's tool descriptions, file and
folder names, hub listings: any of them can hold bytes a terminal acts on rather than shows —
ESC sequences that set the window title, move the cursor or redefine keys, a carriage return
that writes over the line, C1 controls, NUL, and bidirectional overrides that reorder what a
line appears to say. Every command prints such text through :func:`shown`, which turns each of
those characters into a visible escape (``\\x1b``, ``\\u202e``) and leaves everything else —
accents, CJK, emoji — as it is. Lone surrogates (a file name that is not UTF-8) become their
escape too, so printing never fails on them.

JSON output stays exact JSON: :func:`json_text` writes C1 controls, DEL, bidirectional
controls, line separators and lone surrogates as ``\\uXXXX`` escapes (the same string values;
``json.dumps`` already escapes C0 controls).
"""

from __future__ import annotations

import json

_C0 = range(0x00, 0x20)
_C1_AND_DEL = range(0x7F, 0xA0)
_BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
"""Arabic letter mark, left-to-right and right-to-left marks, embeddings and overrides
(U+202A–202E), isolates (U+2066–2069)."""
_SEPARATORS = (0x2028, 0x2029)
"""Line and paragraph separators: some terminals and editors start a new line at them."""
_SURROGATES = range(0xD800, 0xE000)


def _escape(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _table(codes: list[int]) -> dict[int, str]:
    return {code: _escape(code) for code in codes}


_SPECIAL = [*_C1_AND_DEL, *_BIDI, *_SEPARATORS, *_SURROGATES]
_ONE_LINE = _table([*_C0, *_SPECIAL])
_LINES = _table([code for code in _C0 if chr(code) not in "\n\t"] + _SPECIAL)
_JSON = {code: f"\\u{code:04x}" for code in _SPECIAL}


def shown(text: object, *, lines: bool = False) -> str:
    """``text`` with every character a terminal would act on written as a visible escape.

    Args:
        text: What to print (anything: it is made a ``str`` first).
        lines: Keep newlines and tabs (an answer, a transcript); otherwise they are escaped
            too, so one value stays on one line (collapse white space first with
            :func:`app.cli.exits.one_line` where spaces read better).
    """
    return str(text).translate(_LINES if lines else _ONE_LINE)


def json_text(value: object) -> str:
    """``value`` as one line of JSON that is safe on a terminal and parses to the same value."""
    return json_escaped(json.dumps(value, ensure_ascii=False))


def json_escaped(document: str) -> str:
    """A JSON document with the characters :func:`shown` escapes written as ``\\uXXXX``.

    Valid for any JSON text: outside strings JSON holds only ASCII punctuation, digits,
    letters and white space, so every character changed here is inside a string.
    """
    return document.translate(_JSON)
