"""Search across conversations: titles and text, any case, a snippet, cancellable, fast."""

from __future__ import annotations

import pytest

from app.chat.search import SearchMatch, search, snapshot, snippet_around
from app.chat.storage import ChatMessage, Conversation, ConversationStore
from pipelines.core import Cancelled, CancelToken


def chat(title: str, *texts: str) -> Conversation:
    conversation = Conversation(id=ConversationStore.new_id(), title=title, system_prompt="")
    conversation.messages = [
        ChatMessage("user" if i % 2 == 0 else "assistant", text) for i, text in enumerate(texts)
    ]
    return conversation


def test_matches_titles_and_text_ignoring_case_in_list_order() -> None:
    soup = chat("Soup recipes", "How do I make a LEEK soup?")
    trip = chat("Trip ideas", "Lisbon or Porto?", "Leeks grow in Portugal too.")
    other = chat("Taxes", "Nothing here")
    entries = snapshot([soup, trip, other])
    found = search(entries, "leek")
    assert [m.conversation_id for m in found] == [soup.id, trip.id]
    assert "LEEK soup" in found[0].snippet
    assert search(entries, "TRIP") == [SearchMatch(trip.id, "")]  # title only: no snippet
    assert search(entries, "nothing at all") == []


def test_a_blank_query_matches_everything() -> None:
    entries = snapshot([chat("a"), chat("b")])
    assert len(search(entries, "   ")) == 2


def test_special_characters_are_literal_and_spaces_match_any_whitespace() -> None:
    conversation = chat("Regex", "what does a.*b mean?\nline  break here")
    entries = snapshot([conversation])
    assert search(entries, "a.*b") != []
    assert search(entries, "(") == []
    assert search(entries, "line break") != []


def test_the_snippet_is_right_where_lower_casing_changes_lengths() -> None:
    conversation = chat("x", "Straße " * 30 + "İstanbul target word " + "z" * 200)
    [match] = search(snapshot([conversation]), "target")
    assert "target" in match.snippet
    assert match.snippet.startswith("…") and match.snippet.endswith("…")


def test_snippet_is_one_line_and_short() -> None:
    text = "a\n" * 100 + "needle" + "\tb" * 100
    start = text.index("needle")
    piece = snippet_around(text, start, start + 6)
    assert "\n" not in piece and "needle" in piece and len(piece) < 100


def test_a_cancelled_search_stops() -> None:
    cancel = CancelToken()
    cancel.cancel()
    with pytest.raises(Cancelled):
        search(snapshot([chat("a", "b")]), "b", cancel)


def test_a_needle_in_500_long_conversations_is_found() -> None:
    # 20 MB of text (the GUI thread only takes the snapshot; the search runs on a worker). How
    # fast is not asserted here: a busy machine would fail a timed test (speed: benchmarks).
    words = "the quick brown fox jumps over the lazy dog " * 25  # ~1 KB per message
    conversations = [
        chat(f"Chat {n}", *(f"{words} message {m}" for m in range(40))) for n in range(500)
    ]
    conversations[-1].messages[-1].content += " UniqueNeedle"
    found = search(snapshot(conversations), "uniqueneedle")
    assert [m.conversation_id for m in found] == [conversations[-1].id]
