"""The responses this server made, kept in memory for ``previous_response_id`` and
``GET``/``DELETE /v1/responses/{id}``, bounded by count and by size (the oldest dropped).

Each stored response keeps the whole conversation it ended (earlier turns, its input, its
answer; never the instructions, which OpenAI does not carry over), not a link to the one
before it: continuing a response never walks a chain (no loop, no depth to bound), and
dropping an old response never breaks a newer one that continued it. The conversation is
text: images of earlier turns are not kept (the model reads only the last user message's
images, as the chat window replays earlier turns as text). What one conversation may hold is
bounded by :data:`app.server.schema.MAX_CONVERSATION_CHARS`, checked on each request.

Nothing is written to disk: the responses live as long as the server, like the answers of a
chat that was never saved.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.chat import Message
from app.server.errors import ApiError

#: How many responses are kept (the oldest is dropped first).
MAX_STORED_RESPONSES = 256
#: How many characters all kept responses hold together (conversations and response objects).
MAX_STORED_CHARS = 32_000_000
#: An id named in an error is cut to this length (a path may be of any length).
MAX_SHOWN_ID = 100


@dataclass(frozen=True)
class StoredResponse:
    """A response as ``GET`` answers it, and the conversation it ended."""

    response: dict[str, Any]
    history: tuple[Message, ...]
    chars: int


class ResponseStore:
    """Responses by id, the oldest dropped past ``max_count`` or ``max_chars`` (thread-safe:
    routes run on the event loop, but tests and workers may read it too)."""

    def __init__(
        self, max_count: int = MAX_STORED_RESPONSES, max_chars: int = MAX_STORED_CHARS
    ) -> None:
        self._max_count = max_count
        self._max_chars = max_chars
        self._lock = threading.Lock()
        self._responses: OrderedDict[str, StoredResponse] = OrderedDict()
        self._chars = 0

    def __len__(self) -> int:
        return len(self._responses)

    @property
    def chars(self) -> int:
        """The characters held now."""
        return self._chars

    def put(self, response: dict[str, Any], history: Sequence[Message]) -> None:
        """Keep ``response`` (its ``id``) and the conversation it ended, dropping the oldest
        responses until both bounds hold (one larger than the whole budget is not kept)."""
        chars = len(json.dumps(response)) + sum(len(m.content) for m in history)
        if chars > self._max_chars:
            return
        stored = StoredResponse(response, tuple(history), chars)
        with self._lock:
            self._drop(response["id"])
            self._responses[response["id"]] = stored
            self._chars += chars
            while len(self._responses) > self._max_count or self._chars > self._max_chars:
                self._drop(next(iter(self._responses)))

    def get(self, response_id: str) -> StoredResponse | None:
        """The response with this id, if it is kept."""
        with self._lock:
            return self._responses.get(response_id)

    def delete(self, response_id: str) -> bool:
        """Forget a response; whether it was kept."""
        with self._lock:
            return self._drop(response_id)

    def previous(self, response_id: str) -> StoredResponse:
        """The response a request continues (``previous_response_id``).

        Raises:
            ApiError: 400 as OpenAI answers an id it does not hold (never made, not stored,
                deleted or dropped as the oldest).
        """
        stored = self.get(response_id)
        if stored is None:
            raise ApiError(
                400,
                f"Previous response with id '{response_id}' not found.",
                param="previous_response_id",
                code="previous_response_not_found",
            )
        return stored

    def stored(self, response_id: str) -> StoredResponse:
        """The response ``GET``/``DELETE`` name.

        Raises:
            ApiError: 404 as OpenAI answers an id it does not hold.
        """
        stored = self.get(response_id)
        if stored is None:
            shown = response_id[:MAX_SHOWN_ID]
            raise ApiError(404, f"Response with id '{shown}' not found.", param="response_id")
        return stored

    def _drop(self, response_id: str) -> bool:
        dropped = self._responses.pop(response_id, None)
        if dropped is not None:
            self._chars -= dropped.chars
        return dropped is not None
