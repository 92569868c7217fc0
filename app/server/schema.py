"""What both APIs' request models share: leniency about unknown fields, and the size limits.

Lenient about what a model does not know (``extra="allow"``: clients send fields newer than
this server), strict about what it does: every known field is type- and range-checked, so a
bad value is a 400 naming it (:func:`app.server.errors.describe_validation`).

Strict about text too: JSON may spell half a character (``"\\ud800"``, a lone UTF-16
surrogate), which Python decodes into a string that no UTF-8 consumer takes — the chat
template, the tokenizer, the database, the log. Every route is a :class:`TextRoute`, which
refuses such a body with a 400 naming the field before FastAPI parses it for the route.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict
from starlette.requests import ClientDisconnect

from app.chat import MAX_PROMPT_CHARS, Message
from app.server.errors import ApiError, declares_json

#: Characters of all messages together (the last message has chat's own limit).
MAX_CONVERSATION_CHARS = 4 * MAX_PROMPT_CHARS
MAX_MESSAGES = 1000
#: The longest answer a request may ask for (GenerationSettings' own limit).
MAX_ANSWER_TOKENS = 32_768
#: The most answers one request may ask for (OpenAI's ``n``): each is a sequence in the
#: engine's batch, which every client shares (8 sequences by default).
MAX_CHOICES = 4


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


#: A JSON escape of a UTF-16 surrogate: only a body holding one can decode to a lone half
#: (UTF-8 itself cannot encode a surrogate; Python's decoder refuses one).
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


class TextRoute(APIRoute):
    """A route whose JSON body is refused when a string in it is not whole text."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def checked(request: Request) -> Response:
            if declares_json(request.headers.get("content-type")):
                try:
                    body = await request.body()  # kept: FastAPI's own read gets the same bytes
                except ClientDisconnect:
                    return await handler(request)  # FastAPI's way with a body cut short
                check_whole_text(body)
            return await handler(request)

        return checked


def check_whole_text(body: bytes) -> None:
    """Refuse a JSON body whose strings (or keys) hold a lone UTF-16 surrogate.

    Raises:
        ApiError: 400 naming the first such field.
    """
    if not _SURROGATE_ESCAPE.search(body):
        return  # the usual case: no escape that could decode to half a character
    try:
        document = json.loads(body)
    except (ValueError, RecursionError):
        return  # not JSON: FastAPI's parser says so in its own words
    where = _half_character_at(document)
    if where is None:
        return  # surrogate pairs only (emoji escaped by an ASCII-only encoder)
    field = ".".join(where)
    raise ApiError(
        400,
        f"'{field or 'body'}' holds half a character (a lone UTF-16 surrogate such as "
        "\\ud800); send whole Unicode characters.",
        param=field or None,
    )


def _half_character_at(document: Any) -> list[str] | None:
    """The path of the first string or key in ``document`` that is not whole text."""
    pending: list[tuple[Any, list[str]]] = [(document, [])]
    while pending:  # a stack, not recursion: JSON may nest deeper than Python recurses
        value, path = pending.pop()
        if isinstance(value, str):
            if not _is_whole(value):
                return path
        elif isinstance(value, dict):
            for key, item in value.items():
                if not _is_whole(key):
                    return [*path, key.encode("utf-8", "replace").decode()]
                pending.append((item, [*path, key]))
        elif isinstance(value, list):
            pending.extend((item, [*path, str(index)]) for index, item in enumerate(value))
    return None


def _is_whole(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
