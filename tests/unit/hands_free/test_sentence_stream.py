"""The incremental sentence splitter: sentences as soon as they are complete, the rules of
split_sentences, and hostile streams."""

from __future__ import annotations

import pytest

from app.hands_free.sentence_stream import SentenceStream
from pipelines.voice.sentences import MAX_SENTENCE_CHARS, split_sentences


def streamed(text: str, step: int = 1) -> list[str]:
    """The sentences of ``text`` fed ``step`` characters at a time, then finished."""
    stream = SentenceStream()
    sentences: list[str] = []
    for at in range(0, len(text), step):
        sentences += stream.feed(text[at : at + step])
    return sentences + stream.finish()


ANSWER = (
    "Hello there! OpenVINO runs models on CPU, GPU and NPU. It is fast?\n\nYes… quite fast. The end"
)


@pytest.mark.parametrize("step", [1, 3, 7, 1000])
def test_the_same_sentences_as_split_sentences_however_it_is_chunked(step: int) -> None:
    assert streamed(ANSWER, step) == split_sentences(ANSWER)


def test_a_sentence_comes_out_as_soon_as_the_space_after_it_arrives() -> None:
    stream = SentenceStream()
    assert stream.feed("Hello there") == []
    assert stream.feed("!") == []  # "!" then "?" or a digit could still follow
    assert stream.feed(" Ho") == ["Hello there!"]
    assert stream.feed("w are you?\n") == ["How are you?"]  # a line break ends one too
    assert stream.finish() == []
    assert stream.count == 2


def test_numbers_abbreviations_and_initials_do_not_end_a_sentence() -> None:
    text = "Note. Pi is 3.14 today, e.g. for Dr. Smith and J. Doe. Next one."
    assert streamed(text) == [
        "Note.",
        "Pi is 3.14 today, e.g. for Dr. Smith and J. Doe.",
        "Next one.",
    ]


def test_markdown_marks_are_not_read() -> None:
    text = (
        "## Steps\n\n- **Install** it with `pip`.\n1. Read [the docs](https://docs.x/a_b).\n"
        "```python\nprint(1)\n```\n> Quoted *text*. Done"
    )
    assert streamed(text, 2) == [
        "Steps",
        "Install it with pip.",
        "Read the docs.",
        "print(1)",
        "Quoted text.",
        "Done",
    ]


def test_a_long_first_sentence_is_started_early_at_a_clause_break() -> None:
    text = "Sure, here it is: the answer to your question, which is long, comes now. Ok."
    stream = SentenceStream()
    handed: list[tuple[int, str]] = []
    for at, char in enumerate(text):
        handed += [(at, sentence) for sentence in stream.feed(char)]
    assert handed[0] == (46, "Sure, here it is:")  # long before the sentence ends (at 72)
    assert [s for _, s in handed] + stream.finish() == [
        "Sure, here it is:",
        "the answer to your question, which is long, comes now.",
        "Ok.",
    ]


def test_later_long_sentences_are_not_cut_early() -> None:
    second = "This one is long too, with a comma early on, but it is not the first one."
    assert streamed(f"Hi. {second}") == ["Hi.", second]


def test_empty_chunks_and_only_markdown_give_nothing() -> None:
    stream = SentenceStream()
    assert [stream.feed(chunk) for chunk in ["", "", "**", "", "\n---\n", "| |", ""]] == [[]] * 7
    assert stream.finish() == []
    assert streamed("") == [] and streamed("***\n\n```\n```") == []


def test_a_5000_character_sentence_is_handed_over_in_pieces_while_it_streams() -> None:
    words = " ".join(f"word{index}" for index in range(900))  # no end mark at all
    stream = SentenceStream()
    early: list[str] = []
    for at in range(0, len(words), 5):
        early += stream.feed(words[at : at + 5])
    rest = stream.finish()
    assert len(early) >= 10  # spoken long before the end
    pieces = early + rest
    assert all(len(piece) <= MAX_SENTENCE_CHARS for piece in pieces)
    assert " ".join(pieces) == words  # nothing lost, nothing repeated


def test_an_unbroken_run_of_letters_is_cut_anywhere() -> None:
    pieces = streamed("x" * 5000 + ". Then.", 64)
    assert "".join(pieces[:-1]) == "x" * 5000 + "."
    assert pieces[-1] == "Then."
    assert all(len(piece) <= MAX_SENTENCE_CHARS for piece in pieces)


def test_unicode_is_reduced_as_split_sentences_does() -> None:
    text = "Ça va? Très bien 😀 merci. «Quoted» — “smart” ‘quotes’. 日本語. Fin."
    assert streamed(text) == split_sentences(text)
    assert streamed(text)[:2] == ["Ca va?", "Tres bien merci."]
