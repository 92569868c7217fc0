"""Grounded questions: passages above the relevance floor, numbered in rank order, within the
token budget."""

from __future__ import annotations

import json

from app.knowledge.grounding import (
    INSTRUCTIONS,
    PASSAGE_OVERHEAD_TOKENS,
    PASSAGES_PER_ANSWER,
    GroundingRules,
    Source,
    grounded_question,
)
from pipelines.rag.hybrid_search import Hit

EVERY_PASSAGE = GroundingRules(relevance_floor=0.0, chunk_tokens=128)


def _hit(path: str, text: str, page: int | None = None, relevance: float | None = None) -> Hit:
    return Hit(1, path, page, 0.03, text, text[:20], 1, None, relevance, relevance)


def words(text: str) -> int:
    return len(text.split())


def test_passages_are_numbered_and_labelled_after_the_instruction() -> None:
    hits = [_hit("/docs/guide.pdf", "Sourdough needs a starter.", 2), _hit("/docs/a.md", "Trams.")]
    grounding = grounded_question("How is bread made?", hits, words, 1000, EVERY_PASSAGE)
    prompt = grounding.question
    assert prompt.startswith(
        f"{INSTRUCTIONS}\n\nSources:\n[1] guide.pdf, page 2\nSourdough needs a starter."
    )
    assert "[2] a.md\nTrams." in prompt
    assert prompt.endswith("\n\nQuestion: How is bread made?")
    sources = grounding.sources
    assert [(s.number, s.label) for s in sources] == [(1, "guide.pdf, page 2"), (2, "a.md")]
    assert grounding.left_out == 0


def test_the_tokens_added_are_counted() -> None:
    hits = [_hit("/a.md", "one two three")]
    grounding = grounded_question("q", hits, words, 1000, EVERY_PASSAGE)
    frame = words(INSTRUCTIONS) + PASSAGE_OVERHEAD_TOKENS
    passage = words("[1] a.md\none two three") + PASSAGE_OVERHEAD_TOKENS
    assert grounding.tokens == frame + passage


def test_passages_below_the_floor_are_left_out_and_counted() -> None:
    hits = [
        _hit("/good.md", "sourdough rises for twelve hours", relevance=0.62),
        _hit("/weak.md", "opening hours", relevance=0.12),
        _hit("/edge.md", "starter", relevance=0.3),
        _hit("/noise.md", "trams", relevance=0.03),
    ]
    rules = GroundingRules(relevance_floor=0.3, chunk_tokens=128)
    grounding = grounded_question("How long?", hits, words, 1000, rules)
    assert [s.path for s in grounding.sources] == ["/good.md", "/edge.md"]
    assert [s.number for s in grounding.sources] == [1, 2]  # numbered after the floor
    assert grounding.sources[0].relevance == 0.62
    assert grounding.left_out == 2
    assert "weak.md" not in grounding.question and "noise.md" not in grounding.question


def test_with_no_passage_above_the_floor_the_question_goes_alone() -> None:
    hits = [_hit("/a.md", "trams", relevance=0.1), _hit("/b.md", "bridges", relevance=0.05)]
    rules = GroundingRules(relevance_floor=0.3, chunk_tokens=128)
    grounding = grounded_question("Capital of France?", hits, words, 1000, rules)
    assert (grounding.question, grounding.sources) == ("Capital of France?", [])
    assert (grounding.left_out, grounding.tokens) == (2, 0)


def test_a_passage_too_long_is_skipped_and_a_shorter_one_still_fits() -> None:
    hits = [_hit("/long.txt", "word " * 500), _hit("/short.txt", "short passage")]
    budget = words(INSTRUCTIONS) + 12 + words("[1] short.txt short passage") + 12
    grounding = grounded_question("q", hits, words, budget, EVERY_PASSAGE)
    assert [(s.number, s.path) for s in grounding.sources] == [(1, "/short.txt")]
    assert "long.txt" not in grounding.question
    assert grounding.left_out == 0  # too long is not below the floor


def test_no_room_means_the_question_goes_alone() -> None:
    grounding = grounded_question("Just this?", [_hit("/a.txt", "text")], words, 5, EVERY_PASSAGE)
    assert (grounding.question, grounding.sources) == ("Just this?", [])


def test_the_most_tokens_cover_every_passage_of_the_chunk_size() -> None:
    rules = GroundingRules(relevance_floor=0.0, chunk_tokens=100)
    most = rules.most_tokens(words)
    # Five passages of 100 chat tokens each (within the 1.5 allowance) fit what is counted.
    hits = [_hit(f"/{n}.md", " ".join(["w"] * 100)) for n in range(PASSAGES_PER_ANSWER)]
    grounding = grounded_question("q", hits, words, most, rules)
    assert len(grounding.sources) == PASSAGES_PER_ANSWER
    assert grounding.tokens <= most


def test_sources_round_trip_through_storage() -> None:
    source = Source(3, "/x/report.pdf", 7, 0.0312, "the «match»", 0.71)
    assert Source.from_dict(source.to_dict()) == source
    older = Source.from_dict({"number": "1", "path": "/a.md", "page": None})
    assert (older.label, older.relevance) == ("a.md", None)


def test_a_passage_of_code_is_labelled_by_its_lines_and_they_are_stored() -> None:
    hit = Hit(1, "/src/parser.py", None, 0.03, "def parse(): ...", "", 1, None, 0.7, 0.7, (40, 72))
    rules = GroundingRules(relevance_floor=0.0, chunk_tokens=128)
    grounding = grounded_question("How is it parsed?", [hit], words, 1_000, rules)
    [source] = grounding.sources
    assert source.label == "parser.py, lines 40–72"
    assert "[1] parser.py, lines 40–72\ndef parse(): ..." in grounding.question
    stored = json.loads(json.dumps(source.to_dict()))  # as the conversation file holds it
    assert Source.from_dict(stored) == source
    # An answer stored before line ranges existed reads back without them.
    del stored["lines"]
    assert Source.from_dict(stored).lines is None
