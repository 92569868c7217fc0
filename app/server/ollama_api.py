"""Ollama's generation API: ``POST /api/chat``, ``/api/generate``, ``/api/embed`` and the
legacy ``/api/embeddings``.

Fields follow https://github.com/ollama/ollama/blob/main/docs/api.md. Streaming is Ollama's
default: NDJSON, one object per line, the last with ``done: true``, the reason and the
timings in nanoseconds. Unknown fields are ignored (clients send newer ones); a known field we
cannot honour (thinking, a raw ``context``, images for a text-only model) is a 400 naming it
rather than a silent difference. ``tools`` and the history's calls and results are answered
by :mod:`app.server.ollama_tools`. A vision model is given the base64 ``images`` of
the last user message (:mod:`app.server.vision`). A client that goes away cancels its
request (the stream's generator is closed, which cancels it in the engine).
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from app.chat import (
    ANY_JSON_OBJECT,
    MAX_PROMPT_CHARS,
    BatchingEngine,
    ChatPrompt,
    GenerationSettings,
    Message,
    Prompt,
    RequestOptions,
    TextPrompt,
    check_schema,
    validate_messages,
)
from app.knowledge import model_id
from app.server.answer_stream import complete, stream_completion
from app.server.errors import ApiError
from app.server.ollama_models import now_iso, ns, ollama_name, timings
from app.server.ollama_schema import (
    ChatMessage,
    ChatRequest,
    EmbeddingsRequest,
    EmbedRequest,
    GenerateRequest,
    Generation,
    Options,
)
from app.server.ollama_tools import tool_chat, with_tool_turns
from app.server.schema import MAX_ANSWER_TOKENS, TextRoute, check_conversation_size
from app.server.served_models import ServedModel, model_key
from app.server.state import ServerState, state_of
from app.server.vision import base64_images, check_vision_model
from pipelines.core import InvalidInputError

router = APIRouter(prefix="/api", route_class=TextRoute)

T = TypeVar("T")


# ----- routes ------------------------------------------------------------------------------


@router.post("/chat", response_model=None)
async def chat(request: Request, body: ChatRequest) -> dict[str, Any] | StreamingResponse:
    """The next assistant message of a conversation; no messages: load the model only."""
    _refuse_unsupported(body.think, None)
    messages = to_messages(body.messages)
    if body.tools or any(m.role == "tool" or m.tool_calls for m in messages):
        return await tool_chat(request, body, messages, generation_options)
    prompt = ChatPrompt(messages) if messages else None
    return await _answer(request, body, prompt, "message", _chat_images(body.messages))


@router.post("/generate", response_model=None)
async def generate(request: Request, body: GenerateRequest) -> dict[str, Any] | StreamingResponse:
    """A completion of ``prompt`` (through the chat template unless ``raw``); an empty prompt
    loads the model only."""
    _refuse_unsupported(body.think, body)
    prompt: Prompt | None = None
    if body.prompt:
        if body.raw:
            prompt = TextPrompt(body.prompt)
        else:
            system = [Message("system", body.system)] if body.system else []
            prompt = ChatPrompt([*system, Message("user", body.prompt)])
    images = _Images(body.images, "images") if body.images else None
    return await _answer(request, body, prompt, "response", images)


@router.post("/embed")
async def embed(request: Request, body: EmbedRequest) -> dict[str, Any]:
    """Unit vectors for ``input`` from the knowledge embedder."""
    state = state_of(request)
    texts = [body.input] if isinstance(body.input, str) else body.input
    if any(len(text) > MAX_PROMPT_CHARS for text in texts):
        raise ApiError(400, f"Each input may hold at most {MAX_PROMPT_CHARS:,} characters.")
    if not body.truncate:
        raise ApiError(
            400, "Inputs are always cut to the embedding model's length; 'truncate' must be true."
        )
    started = time.perf_counter()
    await state.embedder_setup.ready()  # a fresh profile: the bundled embedder, set up once
    name = await anyio.to_thread.run_sync(_embedder_name, state, body.model)
    loaded = time.perf_counter()
    embeddings: list[list[float]] = []
    if texts:
        vectors = await anyio.to_thread.run_sync(state.ctx.knowledge.embed_texts, texts)
        embeddings = vectors.tolist()
    if body.dimensions is not None and embeddings and body.dimensions != len(embeddings[0]):
        raise ApiError(
            400,
            f"The embedding model gives {len(embeddings[0])} dimensions, not {body.dimensions}.",
        )
    return {
        "model": name,
        "embeddings": embeddings,
        "total_duration": ns(time.perf_counter() - started),
        "load_duration": ns(loaded - started),
    }


@router.post("/embeddings")
async def embeddings(request: Request, body: EmbeddingsRequest) -> dict[str, Any]:
    """Ollama's older embedding route: one ``prompt``, one ``embedding``."""
    state = state_of(request)
    await state.embedder_setup.ready()
    await anyio.to_thread.run_sync(_embedder_name, state, body.model)
    if not body.prompt:
        return {"embedding": []}  # as Ollama answers an empty prompt
    vectors = await anyio.to_thread.run_sync(state.ctx.knowledge.embed_texts, [body.prompt])
    return {"embedding": vectors[0].tolist()}


# ----- the parts ---------------------------------------------------------------------------


def to_messages(messages: list[ChatMessage]) -> list[Message]:
    """The request's messages as the chat template reads them.

    Raises:
        ApiError: a call whose arguments are not an object, or more text than the server takes.
    """
    converted = with_tool_turns(messages)  # app.server.ollama_tools: calls and results
    check_conversation_size(converted)
    return converted


def _refuse_unsupported(think: bool | str | None, generate: GenerateRequest | None) -> None:
    if think:
        raise ApiError(400, "The served model does not support thinking.")
    if generate is not None and generate.suffix:
        raise ApiError(400, "The served model does not support insert ('suffix').")
    if generate is not None and generate.context:
        raise ApiError(400, "'context' is not supported; send the conversation to /api/chat.")
    if generate is not None and generate.template:
        raise ApiError(400, "'template' is not supported: the model's own chat template is used.")


@dataclass(frozen=True)
class _Images:
    """A request's images: any at all need a vision model; the model is given ``last``, the
    last user message's (GenAI attaches a request's images to its last user message)."""

    last: Sequence[str]
    param: str


def _chat_images(messages: list[ChatMessage]) -> _Images | None:
    """The images of ``/api/chat`` messages (None: no message holds one)."""
    if not any(message.images for message in messages):
        return None
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].role == "user":
            return _Images(messages[index].images or [], f"messages.{index}.images")
    return _Images([], "messages")


def _with_images(prompt: Prompt, images: _Images) -> ChatPrompt:
    """``prompt`` with its images decoded and checked (blocking: a worker thread's job).

    Raises:
        ApiError: 400 for a raw prompt (no chat template to place images in) or a bad image.
    """
    if isinstance(prompt, TextPrompt):
        raise ApiError(400, "A raw prompt cannot take images; send it without 'raw'.")
    return ChatPrompt(prompt.messages, base64_images(images.last, images.param))


def request_options(
    state: ServerState, engine: BatchingEngine, body: Generation, prompt: Prompt
) -> RequestOptions:
    """Sampling, length, stop strings and output format for this request.

    Raises:
        ApiError: the prompt fills the model's context, a bad option, or a JSON schema whose
            grammar costs more than the engine may spend on it.
        InvalidInputError: an empty prompt or a value the engine refuses (a 400).
    """
    # Checked here, as the engine would at submit: a stream's 200 is sent before submit.
    if isinstance(prompt, ChatPrompt):
        validate_messages(prompt.messages)
        text = engine.template(prompt.messages)
    else:
        if not prompt.text.strip():
            raise ApiError(400, "The prompt is empty.")
        text = prompt.text
    request = generation_options(state, body, engine.count_tokens(text))
    try:
        engine.check_grammar(request)  # a new schema is tried here, on this worker thread
    except InvalidInputError as error:
        raise ApiError(400, str(error)) from error
    return request


def generation_options(state: ServerState, body: Generation, prompt_tokens: int) -> RequestOptions:
    """The options of an answer to a prompt of ``prompt_tokens`` (see :func:`request_options`).

    Raises:
        ApiError: the prompt fills the model's context, or a bad option.
        InvalidInputError: a value the engine refuses (a 400).
    """
    defaults = state.defaults()
    options = body.options or Options()
    context = state.served.context_tokens
    room = context - prompt_tokens if context else MAX_ANSWER_TOKENS
    if room <= 0:
        raise ApiError(
            400, f"This model's context is {context:,} tokens; the prompt takes {prompt_tokens:,}."
        )
    wanted = options.num_predict
    if wanted == 0:
        raise ApiError(400, "'options.num_predict' must be -1, -2 or 1 to 32768.")
    # Ollama cuts an answer at the context's end rather than refusing it. Unset: the app's
    # default answer length (Ollama's own default, -1, runs on to the context's end).
    if wanted is None:
        wanted = state.default_answer_tokens()
    length = min(room, MAX_ANSWER_TOKENS) if wanted < 0 else min(wanted, room)
    settings = GenerationSettings(
        max_new_tokens=length,
        temperature=_or(options.temperature, defaults.temperature),
        top_p=_or(options.top_p, defaults.top_p),
        top_k=_or(options.top_k, defaults.top_k),
        repetition_penalty=_or(options.repeat_penalty, defaults.repetition_penalty),
        seed=None if options.seed is None or options.seed < 0 else options.seed % 2**32,
    )
    stop = (options.stop,) if isinstance(options.stop, str) else tuple(options.stop or ())
    request = RequestOptions(
        settings, stop=stop, json_schema=json_schema(body.format), min_p=options.min_p or 0.0
    )
    request.validate()
    return request


def json_schema(format_: Literal["", "json"] | dict[str, Any] | None) -> str | None:
    """The JSON schema structured output must follow (``"json"``: any JSON object)."""
    if not format_:
        return None
    if format_ == "json":
        return ANY_JSON_OBJECT
    try:
        return check_schema(json.dumps(format_))
    except InvalidInputError as error:
        raise ApiError(400, str(error)) from error


def _or(value: T | None, default: T) -> T:
    return default if value is None else value


def _embedder_name(state: ServerState, requested: str) -> str:
    """The embedding model's name, loading it; ``requested`` must name it (or be empty).

    Raises:
        ApiError: 404 when ``requested`` names another model (there is one embedding model).
    """
    embedder = state.ctx.knowledge.embedder()
    folder = embedder.config.model_dir
    name = model_id(folder)
    short = name.rsplit("/", 1)[-1]  # an id may name its publisher: "sentence-transformers/…"
    names = {name.lower(), short.lower(), folder.name.lower()}
    if requested.strip() and model_key(requested) not in names:
        raise ApiError(
            404,
            f"There is no embedding model '{requested.strip()[:100]}' here; "
            f"the embedding model is {short}.",
        )
    return short


async def _answer(
    request: Request,
    body: Generation,
    prompt: Prompt | None,
    field: Literal["message", "response"],
    images: _Images | None,
) -> dict[str, Any] | StreamingResponse:
    """Load the model, then answer ``prompt`` whole or as NDJSON (no prompt: loaded, done)."""
    state = state_of(request)
    started = time.perf_counter()
    model = state.served.resolve(body.model)
    if images is not None:
        check_vision_model(model, images.param)  # before loading: a cheap file check
        if prompt is not None:
            prompt = await anyio.to_thread.run_sync(_with_images, prompt, images)
    engine = await state.served.serving(model)
    load_s = time.perf_counter() - started
    head = {"model": ollama_name(model), "created_at": now_iso()}
    if prompt is None:  # Ollama's way to load a model ahead of use
        return {**head, field: _piece(field, ""), "done": True, "done_reason": "load"}
    options = await anyio.to_thread.run_sync(request_options, state, engine, body, prompt)
    state.requests += 1
    if body.stream:
        lines = _lines(state, engine, model, prompt, options, field, started, load_s)
        return StreamingResponse(lines, media_type="application/x-ndjson")
    answer = stream_completion(engine, prompt, options, state.ctx.metrics)
    completion = await complete(answer, request.receive)
    ended = timings(completion, started, load_s)
    return {**head, field: _piece(field, completion.text), "done": True, **ended}


def _piece(field: str, text: str) -> Any:
    return {"role": "assistant", "content": text} if field == "message" else text


async def _lines(
    state: ServerState,
    engine: BatchingEngine,
    model: ServedModel,
    prompt: Prompt,
    options: RequestOptions,
    field: str,
    started: float,
    load_s: float,
) -> AsyncIterator[str]:
    name = ollama_name(model)

    def line(payload: dict[str, Any]) -> str:
        return json.dumps({"model": name, "created_at": now_iso(), **payload}) + "\n"

    pieces = stream_completion(engine, prompt, options, state.ctx.metrics)
    try:
        async for item in pieces:
            if isinstance(item, str):
                yield line({field: _piece(field, item), "done": False})
            elif item.finish_reason == "error":
                # Mid-stream, as Ollama does: its clients raise this as a ResponseError.
                yield _error_line(item.error or "The model failed on this request.")
            else:
                done = {field: _piece(field, ""), "done": True}
                yield line({**done, **timings(item, started, load_s)})
    except InvalidInputError as error:  # refused at submit, after the 200 went out
        yield _error_line(str(error))


def _error_line(message: str) -> str:
    return json.dumps({"error": message}) + "\n"
