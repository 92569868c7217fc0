"""OpenAI's legacy text API: ``POST /v1/completions`` (a prompt continued as it is).

Fields follow https://platform.openai.com/docs/api-reference/completions. The prompt is raw
text, not put through the chat template (:class:`~pipelines.serving_requests.TextPrompt`):
editors use this route for code completion. One prompt and one answer per request: a list of
prompts, token ids, ``n`` or ``best_of`` above 1, ``echo``, ``suffix``, ``logprobs`` and
``logit_bias`` are refused with a 400 naming the field rather than answered differently from
what was asked.
Streaming is Server-Sent Events of ``text_completion`` objects, then ``[DONE]``.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from typing import Any

import anyio
from fastapi import APIRouter, Request
from pydantic import Field
from sse_starlette import EventSourceResponse

from app.chat import MAX_PROMPT_CHARS, Completion, TextPrompt
from app.server.answer_stream import complete, stream_completion
from app.server.errors import ApiError
from app.server.openai_answers import (
    answer_object,
    answer_options,
    completion_id,
    finish_reason,
    stream_error,
    usage,
)
from app.server.openai_schema import SampledRequest
from app.server.schema import MAX_ANSWER_TOKENS, TextRoute
from app.server.served_models import ServedModel
from app.server.state import state_of

router = APIRouter(prefix="/v1", route_class=TextRoute)

#: OpenAI's ``object`` of a completion and of each streamed chunk.
KIND = "text_completion"

#: OpenAI's own default answer length for this route.
DEFAULT_MAX_TOKENS = 16

PromptText = str | list[Any]


class CompletionRequest(SampledRequest):
    prompt: PromptText
    max_tokens: int | None = Field(DEFAULT_MAX_TOKENS, ge=1, le=MAX_ANSWER_TOKENS)
    best_of: int | None = Field(None, ge=1, le=1)
    echo: bool = False
    suffix: str | None = None
    logprobs: int | None = None
    logit_bias: dict[str, Any] | None = None


@router.post("/completions", response_model=None)
async def completions(
    request: Request, body: CompletionRequest
) -> dict[str, Any] | EventSourceResponse:
    """``prompt`` continued, whole or streamed."""
    state = state_of(request)
    text = prompt_text(body)
    model = state.served.resolve(body.model)
    engine = await state.served.serving(model)
    prompt_tokens = await anyio.to_thread.run_sync(engine.count_tokens, text)
    options = answer_options(state, prompt_tokens, body.max_tokens, body)
    # Submitted here, not in the stream: a refused prompt is a 400, not a broken stream.
    answer = stream_completion(engine, TextPrompt(text), options, state.ctx.metrics)
    state.requests += 1
    if body.stream:
        include_usage = bool(body.stream_options and body.stream_options.include_usage)
        return EventSourceResponse(_stream(answer, model, include_usage), ping=15, sep="\n")
    completion = await complete(answer, request.receive)
    choices = [_choice(completion.text, finish_reason(completion))]
    return answer_object(
        completion_id("cmpl"), KIND, int(time.time()), model, choices, usage(completion)
    )


def prompt_text(body: CompletionRequest) -> str:
    """The one text prompt of ``body``.

    Raises:
        ApiError: a field asking for something this server does not do, or a prompt that is
            not one piece of text (a list of prompts, token ids) or is too long.
    """
    refused = [
        ("echo", body.echo, "echo is not supported by this server."),
        ("suffix", bool(body.suffix), "suffix (insertion) is not supported by this server."),
        (
            "logprobs",
            bool(body.logprobs),
            "logprobs (log probabilities) are not supported by this server.",
        ),
        ("logit_bias", bool(body.logit_bias), "logit_bias is not supported by this server."),
    ]
    for param, asked, message in refused:
        if asked:
            raise ApiError(400, message, param=param)
    prompt = body.prompt
    if isinstance(prompt, list):
        if len(prompt) != 1 or not isinstance(prompt[0], str):
            raise ApiError(
                400,
                "'prompt' must be one text (a list of prompts or of token ids is not supported).",
                param="prompt",
            )
        prompt = prompt[0]
    if len(prompt) > MAX_PROMPT_CHARS:
        raise ApiError(
            400,
            f"The prompt is {len(prompt):,} characters; the limit is {MAX_PROMPT_CHARS:,}.",
            param="prompt",
            code="context_length_exceeded",
        )
    if not prompt.strip():
        raise ApiError(400, "The prompt is empty.", param="prompt")
    return prompt


def _choice(text: str, finish: str | None) -> dict[str, Any]:
    return {"index": 0, "text": text, "finish_reason": finish, "logprobs": None}


async def _stream(
    answer: AsyncGenerator[str | Completion, None],
    model: ServedModel,
    include_usage: bool,
) -> AsyncIterator[str]:
    answer_id, created = completion_id("cmpl"), int(time.time())

    def chunk(choices: list[dict[str, Any]], counts: dict[str, int] | None = None) -> str:
        return json.dumps(answer_object(answer_id, KIND, created, model, choices, counts))

    async with aclosing(answer):  # a client gone mid-stream cancels the request
        async for item in answer:
            if isinstance(item, str):
                yield chunk([_choice(item, None)])
                continue
            if item.finish_reason == "error":
                yield stream_error(item)
                break
            yield chunk([_choice("", finish_reason(item))])
            if include_usage:
                yield chunk([], usage(item))
    yield "[DONE]"
