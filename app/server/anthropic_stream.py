"""An Anthropic message, whole or as the stream of events the ``anthropic`` SDK reads.

A stream is ``message_start`` (the message with no content yet and the input tokens), then
per content block ``content_block_start``, its ``content_block_delta`` events (text as it
comes; a ``tool_use`` block's input as one ``input_json_delta``, once the call is whole) and
``content_block_stop``, then ``message_delta`` (``stop_reason``, ``stop_sequence``, the output
tokens) and ``message_stop``. A ``ping`` follows the text block's start (or the message's, when
the answer may be a tool call), and every 15 s of silence sends another (a long prompt read).
A model failing after the 200 went out ends the stream with an ``error`` event in Anthropic's
error shape, as Anthropic's own API does.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from typing import Any

from sse_starlette import ServerSentEvent

from app.chat import Completion
from app.server.anthropic_tools import answer_content, tool_use_block
from app.server.errors import anthropic_error
from app.server.served_models import ServedModel
from app.server.stop_sequences import StopFinder
from app.server.tool_turns import TurnEnd, TurnEvent
from app.tool_calls import RequestedCall


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
    message: dict[str, Any],
    text: str,
    end: TurnEnd,
    stops: StopFinder,
    *,
    one_call: bool = False,
) -> dict[str, Any]:
    """``message`` (from :func:`new_message`) holding a whole answer: its ``text``, cut at the
    first of the request's ``stops``, and its calls (only the first when ``one_call``)."""
    calls = end.calls[:1] if one_call else end.calls
    return {
        **message,
        "content": answer_content(stops.cut(text), calls),
        "stop_reason": "tool_use" if calls else stop_reason(end.completion, stops),
        "stop_sequence": stops.matched,
        "usage": usage(end.completion),
    }


def usage(completion: Completion) -> dict[str, int]:
    """The token counts of a finished answer."""
    return {"input_tokens": completion.prompt_tokens, "output_tokens": completion.completion_tokens}


def ping() -> ServerSentEvent:
    """The keep-alive event (the SDK skips it; a comment line would do for the SDK too, but
    other clients expect Anthropic's own)."""
    return ServerSentEvent(event="ping", data=json.dumps({"type": "ping"}))


async def message_events(
    events: AsyncGenerator[str | Completion, None] | AsyncGenerator[TurnEvent, None],
    message: dict[str, Any],
    stops: StopFinder,
    *,
    tools: bool = False,
    one_call: bool = False,
) -> AsyncIterator[ServerSentEvent]:
    """The events of a streamed answer (``message`` from :func:`new_message`): a plain
    answer's text and completion, or (``tools``) a tool turn's text, calls and end
    (:mod:`app.server.tool_turns`); ``one_call``: calls after the first are left out
    (``disable_parallel_tool_use``)."""
    blocks = _Blocks()
    yield _event("message_start", message=message)
    if not tools:  # a text answer: its block starts at once, as Anthropic's API starts it
        for event in blocks.text(""):
            yield event
    yield ping()
    async with aclosing(events):  # a client gone mid-stream cancels the request
        async for item in events:
            if isinstance(item, str):
                text = stops.feed(item)
                if text:
                    for event in blocks.text(text):
                        yield event
            elif isinstance(item, RequestedCall):
                if not (one_call and blocks.calls):
                    for event in blocks.call(item):
                        yield event
            else:
                end = item if isinstance(item, TurnEnd) else TurnEnd(item)
                if end.completion.finish_reason == "error":
                    yield _error(end.completion.error or "The model failed on this request.")
                    return
                for event in blocks.close(empty_text=True):
                    yield event
                reason = "tool_use" if end.calls else stop_reason(end.completion, stops)
                yield _event(
                    "message_delta",
                    delta={"stop_reason": reason, "stop_sequence": stops.matched},
                    usage=usage(end.completion),
                )
                yield _event("message_stop")
                return
    yield _error("The answer ended before it was complete.")  # the engine was stopped


class _Blocks:
    """The content blocks of a streamed message: which is open, how many were."""

    def __init__(self) -> None:
        self.opened = 0
        self.calls = 0
        self._open: str | None = None
        """The type of the block open now."""

    def text(self, text: str) -> list[ServerSentEvent]:
        """Events adding ``text`` (none: only open the block): a text block is started
        first when none is open."""
        events = [] if self._open == "text" else self._start({"type": "text", "text": ""})
        if text:
            delta = {"type": "text_delta", "text": text}
            events.append(_event("content_block_delta", index=self.opened - 1, delta=delta))
        return events

    def call(self, call: RequestedCall) -> list[ServerSentEvent]:
        """Events of a whole call: a ``tool_use`` block, its input as one JSON delta."""
        self.calls += 1
        block = {**tool_use_block(call), "input": {}}
        events = self._start(block)
        delta = {"type": "input_json_delta", "partial_json": json.dumps(dict(call.arguments))}
        events.append(_event("content_block_delta", index=self.opened - 1, delta=delta))
        return [*events, *self.close()]

    def close(self, *, empty_text: bool = False) -> list[ServerSentEvent]:
        """Events closing the open block; ``empty_text``: a message that had no block gets
        an empty text block (clients read ``content[0]``)."""
        if self._open is None:
            if not empty_text or self.opened:
                return []
            return [*self._start({"type": "text", "text": ""}), *self.close()]
        self._open = None
        return [_event("content_block_stop", index=self.opened - 1)]

    def _start(self, block: dict[str, Any]) -> list[ServerSentEvent]:
        events = self.close()
        self._open = str(block["type"])
        self.opened += 1
        return [*events, _event("content_block_start", index=self.opened - 1, content_block=block)]


def _event(kind: str, **fields: Any) -> ServerSentEvent:
    return ServerSentEvent(event=kind, data=json.dumps({"type": kind, **fields}))


def _error(message: str) -> ServerSentEvent:
    return ServerSentEvent(event="error", data=json.dumps(anthropic_error(500, message)))
