"""OpenAI's Responses API: ``POST /v1/responses``, ``GET`` and ``DELETE /v1/responses/{id}``.

Fields follow the ``openai`` SDK's ``openai.types.responses``. The answer comes from the same
batching engine, defaults, limits and JSON-schema grammar as chat's (:mod:`app.server.openai_chat`):
``max_output_tokens`` is chat's ``max_tokens``, ``text.format`` its ``response_format``,
``instructions`` a system message in front. An answer cut at its length is ``incomplete``
(``incomplete_details.reason = "max_output_tokens"``). Responses are kept in memory, bounded,
for ``previous_response_id`` (:mod:`app.server.responses_store`) unless ``store`` is false.
Unknown fields are ignored; a field whose meaning this server cannot honour is a 400 naming it
(:func:`app.server.responses_input.refuse_unsupported`). Function tools, and the calls and
outputs of earlier turns, go through the tool-call layer every API shares
(:mod:`app.server.tool_turns`, :mod:`app.server.responses_tools`).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Sequence
from functools import partial
from typing import Any

import anyio
import numpy as np
from fastapi import APIRouter, Request
from numpy.typing import NDArray
from sse_starlette import EventSourceResponse

from app.chat import BatchingEngine, ChatPrompt, Message, RequestOptions
from app.server.answer_stream import stream_completion
from app.server.openai_answers import answer_options, conversation_options, output_schema
from app.server.responses_input import conversation, input_messages, refuse_unsupported
from app.server.responses_objects import ResponseDraft
from app.server.responses_schema import ResponsesRequest
from app.server.responses_stream import as_turn, response_events
from app.server.responses_tools import choice_echo, offered_tools, request_tools
from app.server.schema import TextRoute
from app.server.state import ServerState, state_of
from app.server.tool_turns import TurnEnd, TurnEvent, prepare_turn, stream_turn, whole_turn
from app.server.vision import check_takes_images, has_images, images_of
from app.tool_calls import ToolChoice, ToolSpec

router = APIRouter(prefix="/v1", route_class=TextRoute)

#: Where ``text.format``'s schema is, for the errors that name it.
SCHEMA_PARAM = "text.format.schema"


@router.post("/responses", response_model=None)
async def create_response(
    request: Request, body: ResponsesRequest
) -> dict[str, Any] | EventSourceResponse:
    """An answer to ``input`` (after the response it continues, if any), whole or streamed."""
    state = state_of(request)
    refuse_unsupported(body)
    tools, choice = request_tools(body)
    new = input_messages(body.input)
    previous = body.previous_response_id
    history = state.responses.previous(previous).history if previous else ()
    messages = conversation(body, history, new)
    model = state.served.resolve(body.model)
    check_takes_images(model, body.input, "input")
    images = (
        await anyio.to_thread.run_sync(images_of, body.input, "input")
        if has_images(body.input)
        else []
    )
    text_format = body.text.format if body.text else None
    schema = (
        output_schema(text_format.type, text_format.schema_, SCHEMA_PARAM) if text_format else None
    )
    engine = await state.served.serving(model)
    options, events = await _answer(state, engine, body, messages, tools, choice, images, schema)
    draft = ResponseDraft.start(body, model, options, offered_tools(tools), choice_echo(choice))
    state.requests += 1
    keep = partial(_keep, state, body, [*history, *new])
    if body.stream:
        return EventSourceResponse(response_events(events, draft, keep), ping=15, sep="\n")
    whole = await whole_turn(events, request.receive)
    response = draft.finished(whole.end.completion, whole.text, whole.calls)
    keep(response, whole.text, whole.end)
    return response


async def _answer(
    state: ServerState,
    engine: BatchingEngine,
    body: ResponsesRequest,
    messages: list[Message],
    tools: list[ToolSpec],
    choice: ToolChoice,
    images: Sequence[NDArray[np.uint8]],
    schema: str | None,
) -> tuple[RequestOptions, AsyncGenerator[TurnEvent, None]]:
    """Submit the answer (a refused prompt is a 400 here, before a stream starts): its
    options (the answer's sampling, which the response echoes) and its events.

    With tools, or calls and outputs in the conversation, the tool-call layer runs the turn;
    else the answer is the plain one chat gives.
    """
    # Templating and counting up to 400,000 characters: a worker's job, not the event loop's.
    if tools or any(m.role == "tool" or m.tool_calls for m in messages):

        def options_for(prompt_tokens: int) -> RequestOptions:
            wanted = body.max_output_tokens
            return answer_options(
                state, prompt_tokens, wanted, body, json_schema=schema, what="input"
            )

        turn = await anyio.to_thread.run_sync(
            prepare_turn, engine, messages, tools, choice, options_for, images
        )
        return turn.declined or turn.first, stream_turn(engine, turn, state.ctx.metrics)
    options = await anyio.to_thread.run_sync(
        partial(
            conversation_options,
            state,
            engine,
            messages,
            body.max_output_tokens,
            body,
            json_schema=schema,
            schema_param=SCHEMA_PARAM,
            what="input",
        )
    )
    answer = stream_completion(engine, ChatPrompt(messages, images), options, state.ctx.metrics)
    return options, as_turn(answer)


@router.get("/responses/{response_id}")
async def get_response(request: Request, response_id: str) -> dict[str, Any]:
    """A response this server made and keeps."""
    return state_of(request).responses.stored(response_id).response


@router.delete("/responses/{response_id}")
async def delete_response(request: Request, response_id: str) -> dict[str, Any]:
    """Forget a response (a later ``previous_response_id`` naming it is refused)."""
    responses = state_of(request).responses
    if not responses.delete(response_id):
        responses.stored(response_id)  # raises the 404 a GET would
    return {"id": response_id, "object": "response", "deleted": True}


def _keep(
    state: ServerState,
    body: ResponsesRequest,
    asked: list[Message],
    response: dict[str, Any],
    text: str,
    end: TurnEnd,
) -> None:
    """Store a response that produced an answer (unless the request said ``store: false``),
    with the conversation it ended: ``asked`` (earlier turns and its input), then its answer's
    ``text`` and calls."""
    if body.store is False or end.completion.finish_reason in ("error", "cancelled"):
        return  # a failed response continues nothing
    state.responses.put(response, [*asked, Message("assistant", text, end.calls)])
