"""Text for speech: sentence splitting, cleaning and limits."""

from __future__ import annotations

import pytest

from pipelines.core import InvalidInputError
from pipelines.voice.sentences import (
    MAX_SENTENCE_CHARS,
    MAX_TEXT_CHARS,
    clean_text,
    split_sentences,
    with_short_lead,
)


def test_sentences_in_order() -> None:
    text = 'Hello there. How are you? I am fine! "Quoted." And (bracketed.) Last one'
    assert split_sentences(text) == [
        "Hello there.",
        "How are you?",
        "I am fine!",
        '"Quoted."',
        "And (bracketed.)",
        "Last one",
    ]


def test_abbreviation_like_numbers_stay_in_one_sentence() -> None:
    assert split_sentences("Pi is 3.14 roughly. Yes.") == ["Pi is 3.14 roughly.", "Yes."]


def test_line_breaks_end_sentences() -> None:
    assert split_sentences("A title\nThe body text.\n\nNext paragraph") == [
        "A title",
        "The body text.",
        "Next paragraph",
    ]


def test_long_sentence_is_cut_at_clause_breaks_then_words() -> None:
    clause = "this clause has several words in it"
    long = ", ".join([clause] * 40) + "."
    pieces = split_sentences(long)
    assert len(pieces) > 1
    assert all(len(piece) <= MAX_SENTENCE_CHARS for piece in pieces)
    assert " ".join(pieces).replace(" ", "") == long.replace(" ", "")


def test_unbroken_run_is_cut_anyway() -> None:
    pieces = split_sentences("a" * 1000)
    assert [len(p) for p in pieces] == [300, 300, 300, 100]


def test_emoji_and_symbols_are_dropped_accents_reduced() -> None:
    assert clean_text("Café ☕ déjà vu 😀 — ok©") == "Cafe deja vu — ok"
    assert split_sentences("😀 Hi! 🎉") == ["Hi!"]


def test_only_unsayable_characters_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="nothing in this text") as caught:
        split_sentences("😀 🎉 ☃ ✨")
    assert caught.value.field == "text"
    with pytest.raises(InvalidInputError, match="nothing in this text"):
        split_sentences("中文字符")


def test_empty_text_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="Type something") as caught:
        split_sentences("  \n\t ")
    assert caught.value.field == "text"


def test_too_long_text_is_refused_with_the_numbers() -> None:
    with pytest.raises(InvalidInputError, match="20,000 characters") as caught:
        split_sentences("Word " * 4000)
    assert "10,000" in str(caught.value)
    assert caught.value.field == "text"
    assert split_sentences("Word. " * (MAX_TEXT_CHARS // 6))  # at the limit: fine


def test_a_long_first_sentence_is_said_in_two_parts() -> None:
    sentences = split_sentences("The quick brown fox jumps over the lazy dog. It runs.")
    lead = with_short_lead(sentences)
    assert lead == ["The quick brown fox jumps over", "the lazy dog.", "It runs."]
    assert with_short_lead(["Hello, my friend, I am speaking to you today.", "B."])[0] == (
        "Hello, my friend,"
    )
    assert with_short_lead(["Short enough.", "Second."]) == ["Short enough.", "Second."]
    assert with_short_lead(["x" * 100]) == ["x" * 100]  # nowhere to cut: left whole


def test_the_lead_does_not_end_on_a_word_that_cannot_end_a_phrase() -> None:
    text = ["The train to the airport leaves every quarter of an hour from the second platform."]
    assert with_short_lead(text, target=16)[0] == "The train to the airport"  # not "to the"
    assert with_short_lead(["Hello there, how are you today?"], target=16) == [
        "Hello there,",
        "how are you today?",
    ]
    # Only such words to cut after: cut anyway (a late first audio is worse).
    lead = with_short_lead(["of the and the of the and the of the and."], target=16)
    assert len(lead) == 2 and 12 <= len(lead[0]) <= 20
