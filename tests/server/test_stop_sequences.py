"""Which stop sequence ended an answer: the text is cut before the one that completes first,
given whole or in the pieces of a stream, and nothing after it is passed on."""

from __future__ import annotations

import pytest

from app.server.stop_sequences import StopFinder


@pytest.mark.parametrize(
    ("stops", "text", "cut", "matched"),
    [
        (["Paris"], "The capital of France is Paris", "The capital of France is ", "Paris"),
        (["s P"], "The capital of France is Paris", "The capital of France i", "s P"),
        (["zzz"], "The capital.", "The capital.", None),
        ([], "The capital.", "The capital.", None),
        # GenAI stops as soon as one completes: "cd" completes before "abcx" could.
        (["abcx", "cd"], "abcd", "ab", "cd"),
        # Two ending at once: the longer one, which starts earlier.
        (["cd", "bcd"], "abcd", "a", "bcd"),
    ],
)
def test_a_whole_answer_is_cut_before_the_first_stop_sequence(
    stops: list[str], text: str, cut: str, matched: str | None
) -> None:
    finder = StopFinder(stops)
    assert finder.cut(text) == cut
    assert finder.matched == matched


def test_a_stream_passes_everything_before_the_stop_and_nothing_after() -> None:
    finder = StopFinder(["END", "Paris"])
    pieces = ["The", " capital", " is ", "Paris, and", " more"]
    passed = [finder.feed(piece) for piece in pieces]
    assert "".join(passed) == "The capital is "
    assert passed[-1] == ""
    assert finder.matched == "Paris"


def test_a_stream_without_a_stop_sequence_passes_every_piece_as_it_is() -> None:
    finder = StopFinder(["STOP"])
    pieces = ["ST", "OR", "Y: S", "TO", "P"]
    assert [finder.feed(piece) for piece in pieces[:-1]] == pieces[:-1]
    # The last piece completes the stop sequence begun in text already passed on (GenAI
    # holds such text back, so this does not happen): nothing more goes out.
    assert finder.feed(pieces[-1]) == ""
    assert finder.matched == "STOP"
