"""``ask``'s lines after the answer: what the relevance floor left out of its sources."""

from __future__ import annotations

from app.cli.chat import left_out_line


def test_passages_left_out_beside_sources_are_counted() -> None:
    assert left_out_line(3, 2) == "(2 passages below the relevance floor left out)"
    assert left_out_line(1, 1) == "(1 passage below the relevance floor left out)"


def test_an_answer_given_no_passage_says_it_is_not_from_the_collection() -> None:
    assert left_out_line(0, 5) == (
        "No passage matched well enough (5 passages below the relevance floor left out): "
        "this answer is not from the collection."
    )
