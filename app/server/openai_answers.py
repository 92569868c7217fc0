"""What the OpenAI routes share about an answer: its options from a request, its id and
object, how it ended, its usage counts, and a stream's error event."""

from __future__ import annotations

import json
import uuid
from typing import Any

from app.chat import (
    ANY_JSON_OBJECT,
    BatchingEngine,
    Completion,
    GenerationSettings,
    Message,
    RequestOptions,
    check_schema,
)
from app.server.errors import ApiError
from app.server.openai_schema import ResponseFormat, SampledRequest
from app.server.schema import MAX_ANSWER_TOKENS
from app.server.served_models import ServedModel
from app.server.state import ServerState
from pipelines.core import InvalidInputError


def answer_options(
    state: ServerState,
    prompt_tokens: int,
    wanted: int | None,
    body: SampledRequest,
    *,
    json_schema: str | None = None,
    what: str = "prompt",
    log_probs: bool = False,
) -> RequestOptions:
    """The engine's options for a prompt of ``prompt_tokens`` and an answer of up to
    ``wanted`` tokens, sampled as ``body`` asks; the served model's settings, as the window's
    (:meth:`ServerState.defaults`), fill what the request leaves out — the answer's length
    too (:meth:`ServerState.default_answer_tokens`, cut to the room left in the context).

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
        max_new_tokens=min(wanted or min(state.default_answer_tokens(), room), MAX_ANSWER_TOKENS),
        temperature=body.temperature if body.temperature is not None else defaults.temperature,
        top_p=body.top_p if body.top_p is not None else defaults.top_p,
        top_k=body.top_k if body.top_k is not None else defaults.top_k,
        repetition_penalty=(
            body.repetition_penalty
            if body.repetition_penalty is not None
            else defaults.repetition_penalty
        ),
        seed=None if body.seed is None else body.seed % 2**32,
    )
    stop = body.stop
    return RequestOptions(
        settings,
        stop=(stop,) if isinstance(stop, str) else tuple(stop or ()),
        json_schema=json_schema,
        presence_penalty=body.presence_penalty or 0.0,
        frequency_penalty=body.frequency_penalty or 0.0,
        min_p=body.min_p or 0.0,
        log_probs=log_probs,
    )


def json_schema(response_format: ResponseFormat | None) -> str | None:
    """The JSON schema structured output must follow (``json_object``: any JSON object)."""
    if response_format is None:
        return None
    schema = response_format.json_schema.schema_ if response_format.json_schema else None
    return output_schema(response_format.type, schema, "response_format.json_schema.schema")


def output_schema(kind: str, schema: dict[str, Any] | None, param: str) -> str | None:
    """The JSON schema an answer of format ``kind`` must follow: None for ``text``, any JSON
    object for ``json_object``, ``schema`` checked for ``json_schema`` (each OpenAI API puts it
    at its own ``param``).

    Raises:
        ApiError: 400 naming ``param`` when the schema is missing or unusable.
    """
    if kind == "text":
        return None
    if kind == "json_object":
        return ANY_JSON_OBJECT
    if not schema:
        raise ApiError(400, f"A json_schema format needs a '{param}'.", param=param)
    try:
        return check_schema(json.dumps(schema))
    except InvalidInputError as error:
        raise ApiError(400, str(error), param=param) from error


def conversation_options(
    state: ServerState,
    engine: BatchingEngine,
    messages: list[Message],
    wanted: int | None,
    body: SampledRequest,
    *,
    json_schema: str | None,
    schema_param: str,
    what: str,
    log_probs: bool = False,
) -> RequestOptions:
    """The options of a conversation's answer (see :func:`answer_options`), its prompt counted
    through the model's chat template and its JSON schema tried on the engine (blocking:
    templating and counting up to 400,000 characters is a worker thread's job).

    Raises:
        ApiError: the prompt does not fit the model's context, a bad stop or format, or a
            JSON schema whose grammar costs more than the engine may spend on it (naming
            ``schema_param``).
        InvalidInputError: a value the engine refuses (answered as a 400).
    """
    prompt_tokens = engine.count_tokens(engine.template(messages)) if messages else 0
    options = answer_options(
        state, prompt_tokens, wanted, body, json_schema=json_schema, what=what, log_probs=log_probs
    )
    try:
        engine.check_grammar(options)  # a new schema is tried here, on this worker thread
    except InvalidInputError as error:
        raise ApiError(400, str(error), param=schema_param) from error
    return options


def completion_id(prefix: str) -> str:
    """A new answer's id, as OpenAI's look (``chatcmpl-…``, ``cmpl-…``)."""
    return f"{prefix}-{uuid.uuid4().hex[:24]}"


def answer_object(
    answer_id: str,
    kind: str,
    created: int,
    model: ServedModel,
    choices: list[dict[str, Any]],
    counts: dict[str, int] | None = None,
) -> dict[str, Any]:
    """An answer or one chunk of a streamed one (``kind`` is OpenAI's ``object``); ``counts``
    adds the usage."""
    answer: dict[str, Any] = {
        "id": answer_id,
        "object": kind,
        "created": created,
        "model": model.id,
        "choices": choices,
    }
    if counts is not None:
        answer["usage"] = counts
    return answer


def stream_error(completion: Completion) -> str:
    """The event a stream ends with when the model failed (its 200 went out already)."""
    message = completion.error or "The model failed on this request."
    return json.dumps({"error": {"message": message, "type": "server_error"}})


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
