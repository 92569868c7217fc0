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
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from typing import Annotated, Any, Literal

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
#: The longest stop string (a longer one is no stop string but a mistake).
MAX_STOP_CHARS = 1000


StopText = Annotated[str, Field(max_length=MAX_STOP_CHARS)]


class Lenient(BaseModel):
    model_config = ConfigDict(extra="allow")


class TextPart(Lenient):
    type: Literal["text"]
    text: str = Field(max_length=MAX_PROMPT_CHARS)


class ImageUrl(Lenient):
    url: str


class ImagePart(Lenient):
    type: Literal["image_url"]
    image_url: ImageUrl


class ChatMessageIn(Lenient):
    role: Literal["system", "developer", "user", "assistant", "tool", "function"]
    content: str | list[TextPart | ImagePart] | None = None


class JsonSchemaFormat(Lenient):
    name: str = Field("answer", max_length=64)
    schema_: dict[str, Any] | None = Field(None, alias="schema")
    strict: bool | None = None


class ResponseFormat(Lenient):
    type: Literal["text", "json_object", "json_schema"]
    json_schema: JsonSchemaFormat | None = None


class StreamOptions(Lenient):
    include_usage: bool = False


class ChatCompletionRequest(Lenient):
    model: str | None = Field(None, max_length=256)
    messages: list[ChatMessageIn] = Field(min_length=1, max_length=MAX_MESSAGES)
    stream: bool = False
    stream_options: StreamOptions | None = None
    max_tokens: int | None = Field(None, ge=1, le=MAX_ANSWER_TOKENS)
    max_completion_tokens: int | None = Field(None, ge=1, le=MAX_ANSWER_TOKENS)
    temperature: float | None = Field(None, ge=0.0, le=2.0)
    top_p: float | None = Field(None, gt=0.0, le=1.0)
    seed: int | None = None
    stop: StopText | list[StopText] | None = None
    n: int = Field(1, ge=1, le=1)
    presence_penalty: float | None = Field(None, ge=-2.0, le=2.0)
    frequency_penalty: float | None = Field(None, ge=-2.0, le=2.0)
    response_format: ResponseFormat | None = None
    # Fields that change what the answer is: refused when asked for (see refuse_unsupported).
    tools: list[Any] | None = None
    functions: list[Any] | None = None
    tool_choice: Any = None
    function_call: Any = None
    logprobs: bool | None = None
    top_logprobs: int | None = None
    logit_bias: dict[str, Any] | None = None
    audio: Any = None
    modalities: list[str] | None = None
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
    refuse_unsupported(body)
    messages = to_messages(body.messages)
    model = state.served.resolve(body.model)
    check_takes_images(model, body.messages)
    images = await anyio.to_thread.run_sync(images_of, body.messages)
    engine = await anyio.to_thread.run_sync(state.served.engine_for, model)
    wanted = body.max_completion_tokens or body.max_tokens
    messages, sources = await ground(state, engine, body.knowledge, messages, wanted)
    options = request_options(state, engine, body, messages)
    # Submitted here, not in the stream: a refused prompt is a 400, not a broken stream.
    answer = stream_completion(engine, ChatPrompt(messages, images), options, state.ctx.metrics)
    state.requests += 1
    if body.stream:
        include_usage = bool(body.stream_options and body.stream_options.include_usage)
        chunks = with_sources(_stream(answer, model, include_usage), sources)
        return EventSourceResponse(chunks, ping=15, sep="\n")
    completion = await complete(answer)
    result: dict[str, Any] = {
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
        result["sources"] = sources  # OV Studio's field: the passages given (app.server.grounding)
    return result


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


def refuse_unsupported(body: ChatCompletionRequest) -> None:
    """Refuse a field that would change what the answer is if it were ignored.

    ``user``, ``metadata``, ``store`` and the like are ignored (they do not change the answer);
    tools, log probabilities, logit bias and audio would, so asking for them is a 400.

    Raises:
        ApiError: naming the first such field.
    """
    refused = [
        ("tools", bool(body.tools), "tools (tool calls) are not supported by this server."),
        ("functions", bool(body.functions), "functions (function calls) are not supported here."),
        (
            "tool_choice",
            body.tool_choice not in (None, "none", "auto"),
            "tool_choice: tool calls are not supported by this server.",
        ),
        (
            "function_call",
            body.function_call not in (None, "none", "auto"),
            "function_call: function calls are not supported by this server.",
        ),
        ("logprobs", bool(body.logprobs), "logprobs (log probabilities) are not supported here."),
        (
            "top_logprobs",
            bool(body.top_logprobs),
            "top_logprobs: log probabilities are not supported by this server.",
        ),
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
    prompt_tokens = engine.count_tokens(engine.template(messages)) if messages else 0
    return answer_options(
        state,
        prompt_tokens,
        body.max_completion_tokens or body.max_tokens,
        temperature=body.temperature,
        top_p=body.top_p,
        seed=body.seed,
        stop=body.stop,
        presence_penalty=body.presence_penalty,
        frequency_penalty=body.frequency_penalty,
        json_schema=json_schema(body.response_format),
        what="messages",
    )


def answer_options(
    state: ServerState,
    prompt_tokens: int,
    wanted: int | None,
    *,
    temperature: float | None,
    top_p: float | None,
    seed: int | None,
    stop: str | list[str] | None,
    presence_penalty: float | None = None,
    frequency_penalty: float | None = None,
    json_schema: str | None = None,
    what: str = "prompt",
) -> RequestOptions:
    """The engine's options for a prompt of ``prompt_tokens`` and an answer of up to
    ``wanted`` tokens (the room left in the context when ``None``); the chat's settings fill
    what the request leaves out.

    Raises:
        ApiError: the prompt and the answer do not fit the model's context.
    """
    defaults = state.defaults()
    context = state.served.context_tokens
    room = context - prompt_tokens if context else MAX_ANSWER_TOKENS
    if room <= 0 or (wanted is not None and context and wanted > room):
        raise ApiError(
            400,
            f"This model's context is {context:,} tokens; the {what} take {prompt_tokens:,}"
            + (f" and {wanted:,} were asked for the answer." if wanted else "."),
            param=what,
            code="context_length_exceeded",
        )
    settings = GenerationSettings(
        max_new_tokens=min(wanted or room, MAX_ANSWER_TOKENS),
        temperature=temperature if temperature is not None else defaults.temperature,
        top_p=top_p if top_p is not None else defaults.top_p,
        top_k=defaults.top_k,
        repetition_penalty=defaults.repetition_penalty,
        seed=None if seed is None else seed % 2**32,
    )
    return RequestOptions(
        settings,
        stop=(stop,) if isinstance(stop, str) else tuple(stop or ()),
        json_schema=json_schema,
        presence_penalty=presence_penalty or 0.0,
        frequency_penalty=frequency_penalty or 0.0,
    )


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


async def complete(answer: AsyncGenerator[str | Completion, None]) -> Completion:
    """The whole answer of a submitted request (see :func:`stream_completion`).

    Raises:
        ApiError: 503 when the model failed on it.
    """
    async with aclosing(answer):  # a client gone mid-answer cancels it
        async for item in answer:
            if isinstance(item, Completion):
                if item.finish_reason == "error":
                    raise ApiError(503, item.error or "The model failed on this request.")
                return item
    raise ApiError(503, "The answer ended before it was complete.")  # the engine stopped


async def _stream(
    answer: AsyncGenerator[str | Completion, None],
    model: ServedModel,
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

    async with aclosing(answer):  # a client gone mid-stream cancels the request
        yield chunk({"role": "assistant", "content": ""})
        async for item in answer:
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
