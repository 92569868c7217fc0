"""What the OpenAI routes share about an answer: its options from a request, how it ended,
its usage counts, and waiting for a whole one."""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator
from contextlib import aclosing

from app.server.errors import ApiError
from app.server.openai_schema import MAX_ANSWER_TOKENS, ResponseFormat
from app.server.state import ServerState
from pipelines.batching import Completion, RequestOptions
from pipelines.chat import GenerationSettings


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
