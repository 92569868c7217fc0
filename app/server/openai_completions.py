"""OpenAI's legacy text API: ``POST /v1/completions`` (a prompt continued as it is).

Fields follow https://platform.openai.com/docs/api-reference/completions. The prompt is raw
text, not put through the chat template (:class:`~pipelines.serving_requests.TextPrompt`):
editors use this route for code completion. One prompt per request, up to four answers
(``n``, :mod:`app.server.choices`); the chosen tokens' log probabilities with ``logprobs: 0``
(:mod:`app.server.log_probs`). A list of prompts, token ids, ``best_of`` above 1, ``echo``,
``suffix``, ``logprobs`` above 0 (alternatives) and ``logit_bias`` are refused with a 400
naming the field rather than answered differently from what was asked.
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
from app.server.answer_stream import complete_all, interleaved
from app.server.choices import submit_choices, usage_of
from app.server.errors import ApiError
from app.server.log_probs import check_asked, text_log_probs, tokens_of
from app.server.openai_answers import (
    answer_object,
    answer_options,
    completion_id,
    finish_reason,
    stream_error,
)
from app.server.openai_schema import SampledRequest
from app.server.schema import MAX_ANSWER_TOKENS, TextRoute
from app.server.served_models import ServedModel
from app.server.state import state_of

router = APIRouter(prefix="/v1", route_class=TextRoute)

#: OpenAI's ``object`` of a completion and of each streamed chunk.
KIND = "text_completion"

PromptText = str | list[Any]


class CompletionRequest(SampledRequest):
    prompt: PromptText
    # None: the app's default answer length, as on every route (OpenAI's own is 16 tokens
    # here; one rule for all routes is easier to know than OpenAI's two).
    max_tokens: int | None = Field(None, ge=1, le=MAX_ANSWER_TOKENS)
    best_of: int | None = Field(None, ge=1, le=1)
    echo: bool = False
    suffix: str | None = None
    logprobs: int | None = Field(None, ge=0, le=5)
    """The chosen tokens' log probabilities and this many alternatives (only 0 is served)."""
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
    log_probs = body.logprobs is not None
    options = answer_options(state, prompt_tokens, body.max_tokens, body, log_probs=log_probs)
    # Submitted here, not in the stream: a refused prompt is a 400, not a broken stream.
    answers = submit_choices(engine, TextPrompt(text), options, body.n, state.ctx.metrics)
    state.requests += 1
    if body.stream:
        include_usage = bool(body.stream_options and body.stream_options.include_usage)
        return EventSourceResponse(_stream(answers, model, include_usage), ping=15, sep="\n")
    completions = await complete_all(answers, request.receive)
    choices = []
    for index, completion in enumerate(completions):
        choice = _choice(index, completion.text, finish_reason(completion))
        if log_probs:
            tokens = await anyio.to_thread.run_sync(tokens_of, engine, completion)
            choice["logprobs"] = text_log_probs(tokens)
        choices.append(choice)
    return answer_object(
        completion_id("cmpl"), KIND, int(time.time()), model, choices, usage_of(completions)
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
        ("logit_bias", bool(body.logit_bias), "logit_bias is not supported by this server."),
    ]
    for param, asked, message in refused:
        if asked:
            raise ApiError(400, message, param=param)
    check_asked(
        wanted=body.logprobs is not None,
        alternatives=body.logprobs,
        stream=body.stream,
        param="logprobs",
    )
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


def _choice(index: int, text: str, finish: str | None) -> dict[str, Any]:
    return {"index": index, "text": text, "finish_reason": finish, "logprobs": None}


async def _stream(
    answers: list[AsyncGenerator[str | Completion, None]],
    model: ServedModel,
    include_usage: bool,
) -> AsyncIterator[str]:
    answer_id, created = completion_id("cmpl"), int(time.time())

    def chunk(choices: list[dict[str, Any]], counts: dict[str, int] | None = None) -> str:
        return json.dumps(answer_object(answer_id, KIND, created, model, choices, counts))

    ended: list[Completion] = []
    async with aclosing(interleaved(answers)) as pieces:  # a client gone cancels them all
        async for index, item in pieces:
            if isinstance(item, str):
                yield chunk([_choice(index, item, None)])
                continue
            if item.finish_reason == "error":
                yield stream_error(item)
                break
            ended.append(item)
            yield chunk([_choice(index, "", finish_reason(item))])
    if include_usage and len(ended) == len(answers):
        yield chunk([], usage_of(ended))
    yield "[DONE]"
