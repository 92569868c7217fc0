"""An Anthropic message, whole or as the stream of events the ``anthropic`` SDK reads.

A stream is ``message_start`` (the message with no content yet and the input tokens), then
per content block ``content_block_start``, its ``content_block_delta`` events and
``content_block_stop``, then ``message_delta`` (``stop_reason``, ``stop_sequence``, the output
tokens) and ``message_stop``; a ``ping`` follows the first block's start, and every 15 s of
silence sends another (a long prompt being read). A model failing after the 200 went out ends
the stream with an ``error`` event in Anthropic's error shape, as Anthropic's own API does.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from typing import Any

from sse_starlette import ServerSentEvent

from app.chat import Completion
from app.server.errors import anthropic_error
from app.server.served_models import ServedModel
from app.server.stop_sequences import StopFinder


def message_id() -> str:
    """A new message's id, as Anthropic's look (``msg_…``)."""
    return f"msg_{uuid.uuid4().hex[:24]}"


def new_message(model: ServedModel, input_tokens: int) -> dict[str, Any]:
    """A message with no content yet (a stream's ``message_start``, and the start of a whole
    answer)."""
    return {
        "id": message_id(),
        "type": "message",
        "role": "assistant",
        "model": model.id,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": input_tokens, "output_tokens": 0},
    }


def stop_reason(completion: Completion, stops: StopFinder) -> str:
    """Anthropic's name for how the answer ended (after ``stops`` has read its text)."""
    if stops.matched is not None:
        return "stop_sequence"
    if completion.finish_reason == "length":
        return "max_tokens"  # the request's max_tokens, or the room left in the context
    return "end_turn"


def whole_message(
    message: dict[str, Any], completion: Completion, stops: StopFinder
) -> dict[str, Any]:
    """``message`` (from :func:`new_message`) holding the whole answer of ``completion``, cut
    at the first of the request's ``stops``."""
    text = stops.cut(completion.text)
    return {
        **message,
        "content": [{"type": "text", "text": text}],
        "stop_reason": stop_reason(completion, stops),
        "stop_sequence": stops.matched,
        "usage": usage(completion),
    }


def usage(completion: Completion) -> dict[str, int]:
    """The token counts of a finished answer."""
    return {"input_tokens": completion.prompt_tokens, "output_tokens": completion.completion_tokens}


def ping() -> ServerSentEvent:
    """The keep-alive event (the SDK skips it; a comment line would do for the SDK too, but
    other clients expect Anthropic's own)."""
    return ServerSentEvent(event="ping", data=json.dumps({"type": "ping"}))


async def message_events(
    answer: AsyncGenerator[str | Completion, None],
    message: dict[str, Any],
    stops: StopFinder,
) -> AsyncIterator[ServerSentEvent]:
    """The events of a streamed answer (``message`` from :func:`new_message`)."""
    yield _event("message_start", message=message)
    yield _event("content_block_start", index=0, content_block={"type": "text", "text": ""})
    yield ping()
    async with aclosing(answer):  # a client gone mid-stream cancels the request
        async for item in answer:
            if isinstance(item, str):
                text = stops.feed(item)
                if text:
                    yield _event(
                        "content_block_delta", index=0, delta={"type": "text_delta", "text": text}
                    )
                continue
            if item.finish_reason == "error":
                yield _error(item.error or "The model failed on this request.")
                return
            yield _event("content_block_stop", index=0)
            yield _event(
                "message_delta",
                delta={"stop_reason": stop_reason(item, stops), "stop_sequence": stops.matched},
                usage=usage(item),
            )
            yield _event("message_stop")
            return
    yield _error("The answer ended before it was complete.")  # the engine was stopped


def _event(kind: str, **fields: Any) -> ServerSentEvent:
    return ServerSentEvent(event=kind, data=json.dumps({"type": kind, **fields}))


def _error(message: str) -> ServerSentEvent:
    return ServerSentEvent(event="error", data=json.dumps(anthropic_error(500, message)))
