"""Grounded questions: passages numbered in rank order, within the token budget."""

from __future__ import annotations

from app.knowledge.grounding import INSTRUCTIONS, Source, grounded_question
from pipelines.rag.hybrid_search import Hit


def _hit(path: str, text: str, page: int | None = None, score: float = 0.03) -> Hit:
    return Hit(1, path, page, score, text, text[:20], 1, None)


def words(text: str) -> int:
    return len(text.split())


def test_passages_are_numbered_and_labelled() -> None:
    hits = [_hit("/docs/guide.pdf", "Sourdough needs a starter.", 2), _hit("/docs/a.md", "Trams.")]
    prompt, sources = grounded_question("How is bread made?", hits, words, 1000)
    assert prompt.startswith(INSTRUCTIONS)
    assert "[1] guide.pdf, page 2\nSourdough needs a starter." in prompt
    assert "[2] a.md\nTrams." in prompt
    assert prompt.endswith("Question: How is bread made?")
    assert [(s.number, s.label) for s in sources] == [(1, "guide.pdf, page 2"), (2, "a.md")]


def test_a_passage_too_long_is_skipped_and_a_shorter_one_still_fits() -> None:
    hits = [_hit("/long.txt", "word " * 500), _hit("/short.txt", "short passage")]
    budget = words(INSTRUCTIONS) + 12 + words("[1] short.txt short passage") + 12
    prompt, sources = grounded_question("q", hits, words, budget)
    assert [(s.number, s.path) for s in sources] == [(1, "/short.txt")]
    assert "long.txt" not in prompt


def test_no_room_means_the_question_goes_alone() -> None:
    prompt, sources = grounded_question("Just this?", [_hit("/a.txt", "text")], words, 5)
    assert (prompt, sources) == ("Just this?", [])


def test_sources_round_trip_through_storage() -> None:
    source = Source(3, "/x/report.pdf", 7, 0.0312, "the «match»")
    assert Source.from_dict(source.to_dict()) == source
    assert Source.from_dict({"number": "1", "path": "/a.md", "page": None}).label == "a.md"
