"""The lines under an answer: its counts and rates as the stored metrics give them; its
sources, and what the relevance floor left out."""

from __future__ import annotations

from app.chat.storage import ChatMessage
from app.knowledge.grounding import Source
from ui.chat.message_footer import link_citations, not_grounded_line, sources_line, stats_line


def _answer(**metrics: float) -> ChatMessage:
    return ChatMessage("assistant", "Four.", device="CPU", metrics=dict(metrics))


def test_a_speculative_answer_says_how_many_draft_tokens_were_accepted() -> None:
    line = stats_line(_answer(output_tokens=32, tokens_per_s=41.5, draft_accepted=0.8))
    assert line == "32 tokens · 41.5 tok/s · 80% of draft tokens accepted · CPU"


def test_an_answer_without_a_draft_model_says_nothing_of_drafts() -> None:
    assert (
        stats_line(_answer(output_tokens=32, tokens_per_s=41.5)) == "32 tokens · 41.5 tok/s · CPU"
    )


def test_the_sources_line_says_how_many_passages_the_floor_left_out() -> None:
    sources = [
        Source(1, "/docs/guide.pdf", 2, 0.03, "", 0.71),
        Source(2, "/notes/a.md", None, 0.02, ""),
    ]
    line = sources_line(sources, 4, left_out=2)
    assert line.startswith('Sources: <a href="source:4:1" title="/docs/guide.pdf · 71% match">')
    assert '<a href="source:4:2" title="/notes/a.md">' in line  # stored before: no match known
    assert line.endswith(" · 2 below the relevance floor left out")
    assert "left out" not in sources_line(sources, 4)


def test_an_answer_given_no_passage_says_it_is_not_from_the_documents() -> None:
    assert not_grounded_line(3) == (
        "No passage matched this question well enough (3 below the relevance floor left out): "
        "this answer is not from your documents."
    )


def test_citations_become_links_to_real_sources_only() -> None:
    text = link_citations("Rises [1]. Both [1, 2]; not [7] nor [2, 9].", 3, {1, 2})
    assert text == (
        "Rises [\\[1\\]](source:3:1). Both [\\[1\\]](source:3:1), [\\[2\\]](source:3:2); "
        "not [7] nor [2, 9]."
    )


def test_a_source_is_named_in_the_users_language(german: None, german_numbers: object) -> None:
    sources = [
        Source(1, "/docs/guide.pdf", 1200, 0.03, "", 0.71),
        Source(2, "/a.md", None, 0.0, ""),
    ]
    line = sources_line(sources, 0)
    assert "[1]&nbsp;guide.pdf, Seite 1.200</a>" in line
    assert "[2]&nbsp;a.md</a>" in line


def test_a_source_of_code_is_named_by_its_lines() -> None:
    sources = [
        Source(1, "/src/parser.py", None, 0.03, "", 0.71, lines=(40, 72)),
        Source(2, "/src/util.py", None, 0.02, "", 0.6, lines=(7, 7)),
        Source(3, "/docs/deck.pptx", 3, 0.01, "", 0.5),
    ]
    line = sources_line(sources, 0)
    assert "[1]&nbsp;parser.py, lines 40–72</a>" in line
    assert "[2]&nbsp;util.py, line 7</a>" in line
    assert "[3]&nbsp;deck.pptx, page 3</a>" in line
