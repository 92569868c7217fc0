"""Outside text printed by the command line: escapes shown, never acted on by the terminal."""

from __future__ import annotations

import json
import logging

from hypothesis import given
from hypothesis import strategies as st

from app.cli.terminal import json_text, shown
from app.core.logging_setup import OneLineFormatter

HOSTILE = "\x1b]0;pwned\x07Title\x00 \x9b2J\x7f \u202egnp.exe\u2066x\u2069 \u200f\u2028\ud800"
ACTED_ON = {chr(c) for c in [*range(0x20), *range(0x7F, 0xA0)]} | set(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029"
)


ANY_TEXT = st.text(st.characters(exclude_categories=()))  # lone surrogates too


def _acted_on(text: str) -> set[str]:
    return {c for c in text if c in ACTED_ON or 0xD800 <= ord(c) < 0xE000}


def test_every_character_a_terminal_acts_on_is_shown_as_an_escape() -> None:
    assert shown(HOSTILE) == (
        "\\x1b]0;pwned\\x07Title\\x00 \\x9b2J\\x7f \\u202egnp.exe\\u2066x\\u2069 "
        "\\u200f\\u2028\\ud800"
    )
    assert shown("a\tb\nc\rd") == "a\\x09b\\x0ac\\x0dd"  # one value stays on one line
    assert shown("a\tb\nc\rd\x1b[2J", lines=True) == "a\tb\nc\\x0dd\\x1b[2J"


def test_letters_of_every_script_and_emoji_stay_as_they_are() -> None:
    text = "Café naïve 東京 مرحبا שלום 👩‍💻 ½ — “quoted”"
    assert shown(text) == text and shown(text, lines=True) == text


@given(ANY_TEXT)
def test_shown_text_holds_nothing_a_terminal_acts_on(text: str) -> None:
    assert not _acted_on(shown(text))
    assert _acted_on(shown(text, lines=True)) <= {"\n", "\t"}
    shown(text).encode("utf-8")  # printable whatever the text held (lone surrogates too)


@given(st.recursive(ANY_TEXT, lambda inner: st.lists(inner) | st.dictionaries(ANY_TEXT, inner)))
def test_json_text_is_the_same_json_with_nothing_a_terminal_acts_on(value: object) -> None:
    written = json_text(value)
    assert json.loads(written) == value
    assert not _acted_on(written)


def test_the_terminals_log_lines_are_cleaned_by_the_function_given() -> None:
    record = logging.LogRecord("app.x", logging.WARNING, "", 0, "file %s\nis bad", (HOSTILE,), None)
    line = OneLineFormatter(shown).format(record)
    assert line.startswith("WARNING: file \\x1b]0;pwned") and line.endswith(" is bad")
    assert not _acted_on(line)
