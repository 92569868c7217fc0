"""A streamed response: the Responses API's Server-Sent Events, in the order the ``openai``
SDK's stream accumulator checks (``openai.lib.streaming.responses``).

``response.created`` and ``response.in_progress`` (the response, no output yet); then each
output item: the message — ``response.output_item.added``, ``response.content_part.added``,
one ``response.output_text.delta`` per piece of text, ``response.output_text.done``,
``response.content_part.done``, ``response.output_item.done`` — and each function call —
``response.output_item.added``, ``response.function_call_arguments.delta`` (the arguments in
pieces, as OpenAI sends them), ``response.function_call_arguments.done``,
``response.output_item.done``; last, the response as it ended: ``response.completed``, or
``response.incomplete`` when it was cut at its length (as OpenAI ends such a stream), or
``response.failed`` when the model failed. An answer of calls only has no message; one with
neither has an empty message. Every event carries its ``type`` and a ``sequence_number``
counting from 0, and names itself in the SSE ``event:`` field as OpenAI's do. There is no
``[DONE]``: OpenAI sends none on this API.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterator
from contextlib import aclosing
from typing import Any

from app.chat import Completion
from app.server.openai_tools import ARGUMENT_PIECE_CHARS, arguments_text
from app.server.responses_objects import ResponseDraft, status_of, text_part
from app.server.responses_tools import call_item, call_item_id
from app.server.tool_turns import TurnEnd, TurnEvent
from app.tool_calls import RequestedCall

#: The closing event of each way a response ends.
_LAST_EVENT = {
    "completed": "response.completed",
    "incomplete": "response.incomplete",
    "failed": "response.failed",
}

OnEnd = Callable[[dict[str, Any], str, TurnEnd], None]
"""Given the finished response, the answer's text and its end, before the last event."""


async def as_turn(
    answer: AsyncGenerator[str | Completion, None],
) -> AsyncGenerator[TurnEvent, None]:
    """A plain answer (no tools) as the events of a turn: its text, then its end."""
    async with aclosing(answer):  # closing this closes the answer: the request is cancelled
        async for item in answer:
            yield item if isinstance(item, str) else TurnEnd(item)


class _Events:
    """The numbered events of one response (``sequence_number`` counts from 0)."""

    def __init__(self, draft: ResponseDraft) -> None:
        self.draft = draft
        self.sequence = 0
        self.next_index = 0
        """The output index of the next item."""
        self.message_index: int | None = None
        """The open message's output index (None: no message open)."""
        self.text: list[str] = []

    def event(self, kind: str, **fields: Any) -> dict[str, str]:
        data = {"type": kind, "sequence_number": self.sequence, **fields}
        self.sequence += 1
        return {"event": kind, "data": json.dumps(data)}

    def _part(self) -> dict[str, Any]:
        return {"item_id": self.draft.message_id, "output_index": self.message_index}

    def open_message(self) -> Iterator[dict[str, str]]:
        self.message_index, self.next_index = self.next_index, self.next_index + 1
        item = self.draft.message("", "in_progress")
        yield self.event("response.output_item.added", output_index=self.message_index, item=item)
        yield self.event(
            "response.content_part.added", **self._part(), content_index=0, part=text_part("")
        )

    def delta(self, piece: str) -> Iterator[dict[str, str]]:
        if self.message_index is None:
            yield from self.open_message()
        self.text.append(piece)
        yield self.event(
            "response.output_text.delta", **self._part(), content_index=0, delta=piece, logprobs=[]
        )

    def close_message(self, status: str) -> Iterator[dict[str, str]]:
        text = "".join(self.text)
        part = {**self._part(), "content_index": 0}
        yield self.event("response.output_text.done", **part, text=text, logprobs=[])
        yield self.event("response.content_part.done", **part, part=text_part(text))
        item = self.draft.message(text, "incomplete" if status == "incomplete" else "completed")
        yield self.event("response.output_item.done", output_index=self.message_index, item=item)

    def call(self, call: RequestedCall) -> Iterator[dict[str, str]]:
        index, self.next_index = self.next_index, self.next_index + 1
        where = {"item_id": call_item_id(call), "output_index": index}
        yield self.event("response.output_item.added", output_index=index, item=call_item(call, ""))
        text = arguments_text(call)
        for start in range(0, len(text), ARGUMENT_PIECE_CHARS):
            piece = text[start : start + ARGUMENT_PIECE_CHARS]
            yield self.event("response.function_call_arguments.delta", **where, delta=piece)
        yield self.event("response.function_call_arguments.done", **where, arguments=text)
        yield self.event("response.output_item.done", output_index=index, item=call_item(call))


async def response_events(
    events: AsyncGenerator[TurnEvent, None],
    draft: ResponseDraft,
    on_end: OnEnd,
) -> AsyncIterator[dict[str, str]]:
    """The events of ``draft``'s answer as ``sse-starlette`` sends them.

    Closing the iterator early (the client went away) closes ``events``, which cancels the
    request.
    """
    stream = _Events(draft)
    calls: list[RequestedCall] = []
    async with aclosing(events):
        yield stream.event("response.created", response=draft.response("in_progress"))
        yield stream.event("response.in_progress", response=draft.response("in_progress"))
        async for event in events:
            if isinstance(event, str):
                for sent in stream.delta(event):
                    yield sent
            elif isinstance(event, RequestedCall):
                if stream.message_index is not None and not calls:
                    for sent in stream.close_message("completed"):
                        yield sent
                calls.append(event)
                for sent in stream.call(event):
                    yield sent
            else:
                status = status_of(event.completion)
                if status != "failed" and (stream.message_index is None and not calls):
                    for sent in stream.open_message():  # an empty answer is an empty message
                        yield sent
                if status != "failed" and stream.message_index is not None and not calls:
                    for sent in stream.close_message(status):
                        yield sent
                text = "".join(stream.text)
                finished = draft.finished(event.completion, text, event.calls)
                on_end(finished, text, event)
                yield stream.event(_LAST_EVENT[status], response=finished)
