"""Search across every conversation: titles and message text, case-insensitive, with a snippet.

The GUI takes a :func:`snapshot` on its own thread (references to the strings, no copies) and
runs :func:`search` on a worker, so a search through hundreds of long chats never holds up
the window; the cancel token is checked between conversations, so a newer query wins at once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.chat.messages import Conversation
from pipelines.core import Cancelled, CancelToken

SNIPPET_CHARS = 80
"""About how much text a snippet shows around the match."""
MAX_QUERY_CHARS = 200


@dataclass(frozen=True)
class SearchEntry:
    """What a search looks at in one conversation."""

    conversation_id: str
    title: str
    texts: tuple[str, ...]


@dataclass(frozen=True)
class SearchMatch:
    """One conversation that matched; ``snippet`` is the text around the first match in its
    messages ("" when only the title matched)."""

    conversation_id: str
    snippet: str


def snapshot(conversations: Sequence[Conversation]) -> list[SearchEntry]:
    """The searchable parts of ``conversations``, in their order (cheap: no text is copied)."""
    return [
        SearchEntry(c.id, c.title, tuple(message.content for message in c.messages))
        for c in conversations
    ]


def search(
    entries: Sequence[SearchEntry], query: str, cancel: CancelToken | None = None
) -> list[SearchMatch]:
    """The entries whose title or message text contains ``query`` (ignoring case), in order.

    An empty (or blank) query matches every entry, with no snippet.

    Raises:
        Cancelled: ``cancel`` was set (a newer query replaced this one).
    """
    query = " ".join(query.split())[:MAX_QUERY_CHARS]
    if not query:
        return [SearchMatch(entry.conversation_id, "") for entry in entries]
    # One literal pattern, searched in the original text, so the snippet's position is right
    # even where lower-casing would change a string's length (ß, İ).
    pattern = re.compile(re.escape(query).replace(r"\ ", r"\s+"), re.IGNORECASE)
    matches: list[SearchMatch] = []
    for entry in entries:
        if cancel is not None and cancel.cancelled:
            raise Cancelled("a newer search replaced this one")
        snippet = _first_snippet(entry.texts, pattern)
        if snippet is not None:
            matches.append(SearchMatch(entry.conversation_id, snippet))
        elif pattern.search(entry.title):
            matches.append(SearchMatch(entry.conversation_id, ""))
    return matches


def _first_snippet(texts: Sequence[str], pattern: re.Pattern[str]) -> str | None:
    for text in texts:
        found = pattern.search(text)
        if found is not None:
            return snippet_around(text, found.start(), found.end())
    return None


def snippet_around(text: str, start: int, end: int, width: int = SNIPPET_CHARS) -> str:
    """About ``width`` characters of ``text`` around ``text[start:end]``, on one line, with
    "…" where it was cut."""
    before = max(0, start - (width - (end - start)) // 3)
    after = min(len(text), max(end, before + width))
    piece = " ".join(text[before:after].split())
    return ("…" if before > 0 else "") + piece + ("…" if after < len(text) else "")
