"""A streamed response: the Responses API's Server-Sent Events, in the order the ``openai``
SDK's stream accumulator checks (``openai.lib.streaming.responses``).

``response.created`` and ``response.in_progress`` (the response, no output yet), then the
output message: ``response.output_item.added``, ``response.content_part.added``, one
``response.output_text.delta`` per piece of text, ``response.output_text.done``,
``response.content_part.done``, ``response.output_item.done``; then the response as it ended:
``response.completed``, or ``response.incomplete`` when it was cut at its length (as OpenAI
ends such a stream), or ``response.failed`` when the model failed. Every event carries its
``type`` and a ``sequence_number`` counting from 0, and names itself in the SSE ``event:``
field as OpenAI's do. There is no ``[DONE]``: OpenAI sends none on this API.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import aclosing
from typing import Any

from app.chat import Completion
from app.server.responses_objects import ResponseDraft, status_of, text_part

#: The closing event of each way a response ends.
_LAST_EVENT = {
    "completed": "response.completed",
    "incomplete": "response.incomplete",
    "failed": "response.failed",
}


async def response_events(
    answer: AsyncGenerator[str | Completion, None],
    draft: ResponseDraft,
    on_end: Callable[[dict[str, Any], Completion], None],
) -> AsyncIterator[dict[str, str]]:
    """The events of ``draft``'s answer as ``sse-starlette`` sends them; ``on_end`` is given
    the finished response and its completion before the last event goes out (to store it).

    Closing the iterator early (the client went away) closes ``answer``, which cancels the
    request.
    """
    sequence = 0

    def event(kind: str, **fields: Any) -> dict[str, str]:
        nonlocal sequence
        data = {"type": kind, "sequence_number": sequence, **fields}
        sequence += 1
        return {"event": kind, "data": json.dumps(data)}

    item = {"item_id": draft.message_id, "output_index": 0}
    part = {**item, "content_index": 0}
    async with aclosing(answer):  # a client gone mid-stream cancels the request
        yield event("response.created", response=draft.response("in_progress"))
        yield event("response.in_progress", response=draft.response("in_progress"))
        yield event(
            "response.output_item.added",
            output_index=0,
            item=draft.message("", "in_progress"),
        )
        yield event("response.content_part.added", **part, part=text_part(""))
        async for piece in answer:
            if isinstance(piece, str):
                yield event("response.output_text.delta", **part, delta=piece, logprobs=[])
                continue
            text = piece.text  # the pieces sent, joined (the engine's own record of them)
            finished = draft.finished(piece)
            status = status_of(piece)
            if status != "failed":
                yield event("response.output_text.done", **part, text=text, logprobs=[])
                yield event("response.content_part.done", **part, part=text_part(text))
                yield event(
                    "response.output_item.done", output_index=0, item=draft.message(text, status)
                )
            on_end(finished, piece)
            yield event(_LAST_EVENT[status], response=finished)
