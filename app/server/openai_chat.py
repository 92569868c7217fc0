"""OpenAI's chat API: ``GET /v1/models`` and ``POST /v1/chat/completions``.

Fields follow https://platform.openai.com/docs/api-reference/chat. Unknown fields are ignored
(clients send newer fields than a server knows), known fields are type-checked, and a value
we cannot honour (``n`` above 4, a tool message) is a 400 naming it rather than a silent
difference. Streaming is Server-Sent Events through ``sse-starlette``: a first chunk with the
role, content deltas, a last chunk with ``finish_reason``, optionally a usage chunk, then
``[DONE]``; with ``n`` choices (:mod:`app.server.choices`) each chunk names its choice's
``index`` and the choices' chunks interleave as they are generated.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from datetime import UTC, datetime
from typing import Any

import anyio
from fastapi import APIRouter, Request
from sse_starlette import EventSourceResponse

from app.chat import BatchingEngine, ChatPrompt, Completion, Message, RequestOptions
from app.server.answer_stream import complete_all, interleaved
from app.server.choices import submit_choices, usage_of
from app.server.errors import ApiError
from app.server.grounding import ground, with_sources
from app.server.log_probs import chat_log_probs, check_asked, tokens_of
from app.server.openai_answers import (
    answer_object,
    completion_id,
    conversation_options,
    finish_reason,
    json_schema,
    stream_error,
)
from app.server.openai_schema import ChatCompletionRequest, ChatMessageIn, TextPart
from app.server.openai_tool_answers import tool_turn_answer
from app.server.openai_tools import request_tools, tool_message
from app.server.schema import TextRoute, check_conversation_size
from app.server.served_models import ServedModel
from app.server.state import ServerState, state_of
from app.server.vision import check_takes_images, has_images, images_of

router = APIRouter(prefix="/v1", route_class=TextRoute)

#: OpenAI's ``object`` of a streamed answer's chunks.
CHUNK = "chat.completion.chunk"

# ----- routes ------------------------------------------------------------------------------


@router.get("/models")
async def list_models(request: Request) -> dict[str, Any]:
    """The installed chat models (what a request's ``model`` may name), in a list both
    OpenAI's and Anthropic's clients read: each model carries both APIs' fields, and the page
    says it is the only one (Anthropic's ``has_more``)."""
    state = state_of(request)
    models = await anyio.to_thread.run_sync(state.served.models)
    data = [
        {
            "id": m.id,
            "object": "model",
            "created": m.created,
            "owned_by": "ov-studio",
            # Anthropic's
            "type": "model",
            "display_name": m.id,
            "created_at": datetime.fromtimestamp(m.created, UTC).isoformat().replace("+00:00", "Z"),
        }
        for m in models
    ]
    first, last = (data[0]["id"], data[-1]["id"]) if data else (None, None)
    return {"object": "list", "data": data, "has_more": False, "first_id": first, "last_id": last}


@router.post("/chat/completions", response_model=None)
async def chat_completions(
    request: Request, body: ChatCompletionRequest
) -> dict[str, Any] | EventSourceResponse:
    """An answer to a conversation, whole or streamed."""
    state = state_of(request)
    refuse_unsupported(body)
    tools, tool_choice = request_tools(body)
    messages = to_messages(body.messages)
    model = state.served.resolve(body.model)
    check_takes_images(model, body.messages)
    images = (
        await anyio.to_thread.run_sync(images_of, body.messages)
        if has_images(body.messages)
        else []
    )
    engine = await state.served.serving(model)
    wanted = body.max_completion_tokens or body.max_tokens
    messages, sources = await ground(state, engine, body.knowledge, messages, wanted)
    if tools or any(m.role == "tool" or m.tool_calls for m in messages):
        if body.n > 1 or body.logprobs:  # a tool turn is one sequence, its steps not tokens
            param = "n" if body.n > 1 else "logprobs"
            refusal = f"{param}: not supported together with tools by this server."
            raise ApiError(400, refusal, param=param)
        return await tool_turn_answer(
            request, state, engine, model, body, messages, tools, tool_choice, images, sources
        )
    # Templating and counting up to 400,000 characters: a worker's job, not the event loop's.
    options = await anyio.to_thread.run_sync(request_options, state, engine, body, messages)
    # Submitted here, not in the stream: a refused prompt is a 400, not a broken stream.
    prompt = ChatPrompt(messages, images)
    answers = submit_choices(engine, prompt, options, body.n, state.ctx.metrics)
    state.requests += 1
    if body.stream:
        include_usage = bool(body.stream_options and body.stream_options.include_usage)
        chunks = with_sources(_stream(answers, model, include_usage), sources)
        return EventSourceResponse(chunks, ping=15, sep="\n")
    completions = await complete_all(answers, request.receive)
    choices = []
    for index, completion in enumerate(completions):
        log_probs = None
        if body.logprobs:
            tokens = await anyio.to_thread.run_sync(tokens_of, engine, completion)
            log_probs = chat_log_probs(tokens)
        message = {"role": "assistant", "content": completion.text}
        finish = finish_reason(completion)
        choices.append(
            {"index": index, "message": message, "finish_reason": finish, "logprobs": log_probs}
        )
    result = answer_object(
        completion_id("chatcmpl"),
        "chat.completion",
        int(time.time()),
        model,
        choices,
        usage_of(completions),
    )
    if sources is not None:
        result["sources"] = sources  # OV Studio's field: the passages given (app.server.grounding)
    return result


# ----- the parts ---------------------------------------------------------------------------


def to_messages(messages: list[ChatMessageIn]) -> list[Message]:
    """The request's messages as the chat template reads them.

    Raises:
        ApiError: a tool call whose arguments are not an object (one sentence naming it).
    """
    converted: list[Message] = []
    for index, message in enumerate(messages):
        if message.role in ("tool", "function") or message.tool_calls or message.function_call:
            converted.append(tool_message(message, index))  # app.server.openai_tools
            continue
        content = message.content
        if isinstance(content, list):  # image parts: app.server.vision
            content = "".join(part.text for part in content if isinstance(part, TextPart))
        text = content or ""
        role = "system" if message.role == "developer" else message.role
        converted.append(Message(role, text))  # type: ignore[arg-type]
    check_conversation_size(converted)
    return converted


def refuse_unsupported(body: ChatCompletionRequest) -> None:
    """Refuse a field that would change what the answer is if it were ignored.

    ``user``, ``metadata``, ``store`` and the like are ignored (they do not change the answer);
    logit bias and audio would, so asking for them is a 400 (log probabilities:
    :mod:`app.server.log_probs`).

    Raises:
        ApiError: naming the first such field.
    """
    refused = [
        ("logit_bias", bool(body.logit_bias), "logit_bias is not supported by this server."),
        ("audio", body.audio is not None, "audio (spoken answers) is not supported here."),
        (
            "modalities",
            any(m != "text" for m in body.modalities or ()),
            "modalities: only text answers are supported by this server.",
        ),
    ]
    for param, asked, message in refused:
        if asked:
            raise ApiError(400, message, param=param)
    check_asked(
        wanted=bool(body.logprobs),
        alternatives=body.top_logprobs,
        stream=body.stream,
        param="top_logprobs",
    )


def request_options(
    state: ServerState,
    engine: BatchingEngine,
    body: ChatCompletionRequest,
    messages: list[Message],
) -> RequestOptions:
    """Sampling, length, stop strings, output format and log probabilities for this request.

    Raises:
        ApiError: the prompt does not fit the model's context, a bad stop or format, or a
            JSON schema whose grammar costs more than the engine may spend on it.
        InvalidInputError: a value the engine refuses (answered as a 400).
    """
    return conversation_options(
        state,
        engine,
        messages,
        body.max_completion_tokens or body.max_tokens,
        body,
        json_schema=json_schema(body.response_format),
        schema_param="response_format.json_schema.schema",
        what="messages",
        log_probs=bool(body.logprobs),
    )


async def _stream(
    answers: list[AsyncGenerator[str | Completion, None]],
    model: ServedModel,
    include_usage: bool,
) -> AsyncIterator[str]:
    chunk_id, created = completion_id("chatcmpl"), int(time.time())

    def chunk(choices: list[dict[str, Any]], counts: dict[str, int] | None = None) -> str:
        return json.dumps(answer_object(chunk_id, CHUNK, created, model, choices, counts))

    def delta(index: int, content: dict[str, Any], finish: str | None = None) -> str:
        return chunk([{"index": index, "delta": content, "finish_reason": finish}])

    ended: list[Completion] = []
    async with aclosing(interleaved(answers)) as pieces:  # a client gone cancels them all
        for index in range(len(answers)):
            yield delta(index, {"role": "assistant", "content": ""})
        async for index, item in pieces:
            if isinstance(item, str):
                yield delta(index, {"content": item})
            elif item.finish_reason == "error":
                yield stream_error(item)
                break  # the other choices are cancelled: the answer as a whole failed
            else:
                ended.append(item)
                yield delta(index, {}, finish_reason(item))
    if include_usage and len(ended) == len(answers):
        yield chunk([], usage_of(ended))
    yield "[DONE]"
