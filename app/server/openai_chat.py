"""OpenAI's chat API: ``GET /v1/models`` and ``POST /v1/chat/completions``.

Fields follow https://platform.openai.com/docs/api-reference/chat. Unknown fields are ignored
(clients send newer fields than a server knows), known fields are type-checked, and a value
we cannot honour (``n`` above 1, a tool message) is a 400 naming it rather than a silent
difference. Streaming is Server-Sent Events through ``sse-starlette``: a first chunk with the
role, content deltas, a last chunk with ``finish_reason``, optionally a usage chunk, then
``[DONE]``.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any, Literal

import anyio
from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from sse_starlette import EventSourceResponse

from app.server.errors import ApiError
from app.server.grounding import ground, with_sources
from app.server.served_models import ServedModel, stream_completion
from app.server.state import ServerState, state_of
from app.server.vision import check_takes_images, images_of
from pipelines.batching import (
    BatchingEngine,
    ChatPrompt,
    Completion,
    RequestOptions,
)
from pipelines.chat import MAX_PROMPT_CHARS, GenerationSettings, Message

router = APIRouter(prefix="/v1")

#: Characters of all messages together (the last message has chat's own limit).
MAX_CONVERSATION_CHARS = 4 * MAX_PROMPT_CHARS
MAX_MESSAGES = 1000
#: The longest answer a request may ask for (GenerationSettings' own limit).
MAX_ANSWER_TOKENS = 32_768


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="allow")


class TextPart(_Lenient):
    type: Literal["text"]
    text: str = Field(max_length=MAX_PROMPT_CHARS)


class ImageUrl(_Lenient):
    url: str


class ImagePart(_Lenient):
    type: Literal["image_url"]
    image_url: ImageUrl


class ChatMessageIn(_Lenient):
    role: Literal["system", "developer", "user", "assistant", "tool", "function"]
    content: str | list[TextPart | ImagePart] | None = None


class JsonSchemaFormat(_Lenient):
    name: str = Field("answer", max_length=64)
    schema_: dict[str, Any] | None = Field(None, alias="schema")
    strict: bool | None = None


class ResponseFormat(_Lenient):
    type: Literal["text", "json_object", "json_schema"]
    json_schema: JsonSchemaFormat | None = None


class StreamOptions(_Lenient):
    include_usage: bool = False


class ChatCompletionRequest(_Lenient):
    model: str | None = Field(None, max_length=256)
    messages: list[ChatMessageIn] = Field(min_length=1, max_length=MAX_MESSAGES)
    stream: bool = False
    stream_options: StreamOptions | None = None
    max_tokens: int | None = Field(None, ge=1, le=MAX_ANSWER_TOKENS)
    max_completion_tokens: int | None = Field(None, ge=1, le=MAX_ANSWER_TOKENS)
    temperature: float | None = Field(None, ge=0.0, le=2.0)
    top_p: float | None = Field(None, gt=0.0, le=1.0)
    seed: int | None = None
    stop: str | list[str] | None = None
    n: int = Field(1, ge=1, le=1)
    response_format: ResponseFormat | None = None
    knowledge: str | None = Field(None, max_length=200)
    """OV Studio's own field: answer from this knowledge collection (the answer has sources)."""


# ----- routes ------------------------------------------------------------------------------


@router.get("/models")
async def list_models(request: Request) -> dict[str, Any]:
    """The installed chat models (what a request's ``model`` may name)."""
    state = state_of(request)
    models = await anyio.to_thread.run_sync(state.served.models)
    return {
        "object": "list",
        "data": [
            {"id": m.id, "object": "model", "created": m.created, "owned_by": "ov-studio"}
            for m in models
        ],
    }


@router.post("/chat/completions", response_model=None)
async def chat_completions(
    request: Request, body: ChatCompletionRequest
) -> dict[str, Any] | EventSourceResponse:
    """An answer to a conversation, whole or streamed."""
    state = state_of(request)
    messages = to_messages(body.messages)
    model = state.served.resolve(body.model)
    check_takes_images(model, body.messages)
    images = await anyio.to_thread.run_sync(images_of, body.messages)
    engine = await anyio.to_thread.run_sync(state.served.engine_for, model)
    wanted = body.max_completion_tokens or body.max_tokens
    messages, sources = await ground(state, engine, body.knowledge, messages, wanted)
    options = request_options(state, engine, body, messages)
    prompt = ChatPrompt(messages, images)
    state.requests += 1
    if body.stream:
        include_usage = bool(body.stream_options and body.stream_options.include_usage)
        return EventSourceResponse(
            with_sources(_stream(state, engine, model, prompt, options, include_usage), sources),
            ping=15,
            sep="\n",
        )
    completion = await _complete(state, engine, prompt, options)
    answer: dict[str, Any] = {
        "id": _completion_id(),
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model.id,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": completion.text},
                "finish_reason": finish_reason(completion),
                "logprobs": None,
            }
        ],
        "usage": usage(completion),
    }
    if sources is not None:
        answer["sources"] = sources  # OV Studio's field: the passages given (app.server.grounding)
    return answer


# ----- the parts ---------------------------------------------------------------------------


def to_messages(messages: list[ChatMessageIn]) -> list[Message]:
    """The request's messages as the chat template reads them.

    Raises:
        ApiError: a role or part we cannot answer (one sentence naming it).
    """
    converted: list[Message] = []
    total = 0
    for index, message in enumerate(messages):
        if message.role in ("tool", "function"):
            raise ApiError(
                400,
                "Tool calls are not supported by this server: messages with role "
                f"'{message.role}' cannot be answered.",
                param=f"messages.{index}.role",
            )
        content = message.content
        if isinstance(content, list):  # image parts: app.server.vision
            content = "".join(part.text for part in content if isinstance(part, TextPart))
        text = content or ""
        total += len(text)
        role = "system" if message.role == "developer" else message.role
        converted.append(Message(role, text))  # type: ignore[arg-type]
    if total > MAX_CONVERSATION_CHARS:
        raise ApiError(
            400,
            f"The messages hold {total:,} characters; the limit is {MAX_CONVERSATION_CHARS:,}.",
            param="messages",
            code="context_length_exceeded",
        )
    return converted


def request_options(
    state: ServerState,
    engine: BatchingEngine,
    body: ChatCompletionRequest,
    messages: list[Message],
) -> RequestOptions:
    """Sampling, length, stop strings and output format for this request.

    Raises:
        ApiError: the prompt does not fit the model's context, or a bad stop or format.
        InvalidInputError: a value the engine refuses (answered as a 400).
    """
    defaults = state.defaults()
    prompt_tokens = engine.count_tokens(engine.template(messages)) if messages else 0
    context = state.served.context_tokens
    wanted = body.max_completion_tokens or body.max_tokens
    room = context - prompt_tokens if context else MAX_ANSWER_TOKENS
    if room <= 0 or (wanted is not None and context and wanted > room):
        raise ApiError(
            400,
            f"This model's context is {context:,} tokens; the messages take {prompt_tokens:,}"
            + (f" and {wanted:,} were asked for the answer." if wanted else "."),
            param="messages",
            code="context_length_exceeded",
        )
    settings = GenerationSettings(
        max_new_tokens=min(wanted or room, MAX_ANSWER_TOKENS),
        temperature=body.temperature if body.temperature is not None else defaults.temperature,
        top_p=body.top_p if body.top_p is not None else defaults.top_p,
        top_k=defaults.top_k,
        repetition_penalty=defaults.repetition_penalty,
        seed=None if body.seed is None else body.seed % 2**32,
    )
    stop = (body.stop,) if isinstance(body.stop, str) else tuple(body.stop or ())
    return RequestOptions(settings, stop=stop, json_schema=json_schema(body.response_format))


def json_schema(response_format: ResponseFormat | None) -> str | None:
    """The JSON schema structured output must follow (``json_object``: any JSON object)."""
    if response_format is None or response_format.type == "text":
        return None
    if response_format.type == "json_object":
        return json.dumps({"type": "object"})
    schema = response_format.json_schema.schema_ if response_format.json_schema else None
    if not schema:
        raise ApiError(
            400,
            "response_format json_schema needs a 'schema'.",
            param="response_format.json_schema.schema",
        )
    return json.dumps(schema)


def finish_reason(completion: Completion) -> str:
    """OpenAI's name for how the answer ended."""
    return "length" if completion.finish_reason == "length" else "stop"


def usage(completion: Completion) -> dict[str, int]:
    """Token counts of one answer."""
    return {
        "prompt_tokens": completion.prompt_tokens,
        "completion_tokens": completion.completion_tokens,
        "total_tokens": completion.prompt_tokens + completion.completion_tokens,
    }


async def _complete(
    state: ServerState, engine: BatchingEngine, prompt: ChatPrompt, options: RequestOptions
) -> Completion:
    async for item in stream_completion(engine, prompt, options, state.ctx.metrics):
        if isinstance(item, Completion):
            if item.finish_reason == "error":
                raise ApiError(503, item.error or "The model failed on this request.")
            return item
    raise ApiError(503, "The answer ended before it was complete.")  # the engine stopped


async def _stream(
    state: ServerState,
    engine: BatchingEngine,
    model: ServedModel,
    prompt: ChatPrompt,
    options: RequestOptions,
    include_usage: bool,
) -> AsyncIterator[str]:
    chunk_id, created = _completion_id(), int(time.time())

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        return json.dumps(
            {
                "id": chunk_id,
                "object": "chat.completion.chunk",
                "created": created,
                "model": model.id,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }
        )

    yield chunk({"role": "assistant", "content": ""})
    async for item in stream_completion(engine, prompt, options, state.ctx.metrics):
        if isinstance(item, str):
            yield chunk({"content": item})
            continue
        if item.finish_reason == "error":
            message = item.error or "The model failed on this request."
            yield json.dumps({"error": {"message": message, "type": "server_error"}})
        else:
            yield chunk({}, finish_reason(item))
            if include_usage:
                yield json.dumps(
                    {
                        "id": chunk_id,
                        "object": "chat.completion.chunk",
                        "created": created,
                        "model": model.id,
                        "choices": [],
                        "usage": usage(item),
                    }
                )
    yield "[DONE]"


def _completion_id() -> str:
    return f"chatcmpl-{uuid.uuid4().hex[:24]}"
