"""OpenAI's Responses API: ``POST /v1/responses``, ``GET`` and ``DELETE /v1/responses/{id}``.

Fields follow the ``openai`` SDK's ``openai.types.responses``. The answer comes from the same
batching engine, defaults, limits and JSON-schema grammar as chat's (:mod:`app.server.openai_chat`):
``max_output_tokens`` is chat's ``max_tokens``, ``text.format`` its ``response_format``,
``instructions`` a system message in front. An answer cut at its length is ``incomplete``
(``incomplete_details.reason = "max_output_tokens"``). Responses are kept in memory, bounded,
for ``previous_response_id`` (:mod:`app.server.responses_store`) unless ``store`` is false.
Unknown fields are ignored; a field whose meaning this server cannot honour is a 400 naming it
(:func:`app.server.responses_input.refuse_unsupported`).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import anyio
from fastapi import APIRouter, Request
from sse_starlette import EventSourceResponse

from app.chat import ChatPrompt, Completion, Message
from app.server.answer_stream import complete, stream_completion
from app.server.openai_answers import conversation_options, output_schema
from app.server.responses_input import conversation, input_messages, refuse_unsupported
from app.server.responses_objects import ResponseDraft
from app.server.responses_schema import ResponsesRequest
from app.server.responses_stream import response_events
from app.server.schema import TextRoute
from app.server.state import ServerState, state_of
from app.server.vision import check_takes_images, has_images, images_of

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
    # Templating and counting up to 400,000 characters: a worker's job, not the event loop's.
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
    draft = ResponseDraft.start(body, model, options)
    # Submitted here, not in the stream: a refused prompt is a 400, not a broken stream.
    answer = stream_completion(engine, ChatPrompt(messages, images), options, state.ctx.metrics)
    state.requests += 1
    keep = partial(_keep, state, body, [*history, *new])
    if body.stream:
        return EventSourceResponse(response_events(answer, draft, keep), ping=15, sep="\n")
    completion = await complete(answer, request.receive)
    response = draft.finished(completion)
    keep(response, completion)
    return response


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
    completion: Completion,
) -> None:
    """Store a response that produced an answer (unless the request said ``store: false``),
    with the conversation it ended: ``asked`` (earlier turns and its input) and its answer."""
    if body.store is False or completion.finish_reason in ("error", "cancelled"):
        return  # a failed response continues nothing
    state.responses.put(response, [*asked, Message("assistant", completion.text)])
