"""What both APIs' request models share: leniency about unknown fields, and the size limits.

Lenient about what a model does not know (``extra="allow"``: clients send fields newer than
this server), strict about what it does: every known field is type- and range-checked, so a
bad value is a 400 naming it (:func:`app.server.errors.describe_validation`).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from app.server.errors import ApiError
from pipelines.chat import MAX_PROMPT_CHARS, Message

#: Characters of all messages together (the last message has chat's own limit).
MAX_CONVERSATION_CHARS = 4 * MAX_PROMPT_CHARS
MAX_MESSAGES = 1000
#: The longest answer a request may ask for (GenerationSettings' own limit).
MAX_ANSWER_TOKENS = 32_768


class Lenient(BaseModel):
    """A request (or a part of one) that ignores fields it does not know."""

    model_config = ConfigDict(extra="allow")


def check_conversation_size(messages: Sequence[Message]) -> None:
    """Refuse a conversation longer than :data:`MAX_CONVERSATION_CHARS` altogether (each
    message's own limit is the request model's).

    Raises:
        ApiError: 400 with the count and the limit.
    """
    total = sum(len(message.content) for message in messages)
    if total > MAX_CONVERSATION_CHARS:
        raise ApiError(
            400,
            f"The messages hold {total:,} characters; the limit is {MAX_CONVERSATION_CHARS:,}.",
            param="messages",
            code="context_length_exceeded",
        )
