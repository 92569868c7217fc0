"""Token log probabilities in OpenAI's shapes (``logprobs`` on chat and completions).

OpenVINO GenAI 2026.4's continuous-batching pipeline gives each generated token's log
probability when a request's ``GenerationConfig.logprobs`` is set (``GenerationOutput.
generated_log_probs``, the raw model distribution's, before temperature or penalties), but
only the chosen token's: "Currently only single top logprob can be returned" (its
``GenerationConfig`` documentation). So ``logprobs`` is served, and alternatives
(``top_logprobs`` above 0, a completions ``logprobs`` above 0) are refused with a 400 that
says why. They come with whole answers: a stream's pieces are text paced for the client
(:mod:`app.server.answer_stream`), not tokens, so a streamed request asking for them is
refused too rather than given them misaligned.
"""

from __future__ import annotations

from typing import Any

from app.chat import BatchingEngine, Completion
from app.server.errors import ApiError

ALTERNATIVES_REFUSED = (
    "this server gives each chosen token's log probability only (OpenVINO GenAI returns no "
    "alternatives): send 0 or leave it out."
)
STREAM_REFUSED = (
    "logprobs are given with whole answers only on this server: send stream false to get them."
)


def check_asked(*, wanted: bool, alternatives: int | None, stream: bool, param: str) -> None:
    """Refuse what cannot be served: alternatives, or log probabilities in a stream.

    Args:
        wanted: log probabilities were asked for.
        alternatives: how many likeliest tokens per position were asked for.
        stream: the answer is to be streamed.
        param: the field that asks for alternatives (``top_logprobs``, ``logprobs``).

    Raises:
        ApiError: 400 naming the field.
    """
    if alternatives:
        raise ApiError(400, f"{param}: {ALTERNATIVES_REFUSED}", param=param)
    if wanted and stream:
        raise ApiError(400, STREAM_REFUSED, param="logprobs")


def tokens_of(engine: BatchingEngine, completion: Completion) -> list[tuple[str, float]]:
    """Each generated token's text and log probability, without the end-of-text token the
    model stopped with (it is no part of the text). Blocking: a worker thread's job."""
    ids, log_probs = list(completion.token_ids), list(completion.log_probs)
    if completion.finish_reason == "stop" and ids and ids[-1] == engine.end_token():
        ids, log_probs = ids[:-1], log_probs[:-1]
    return list(zip(engine.token_texts(ids), log_probs, strict=True))


def chat_log_probs(tokens: list[tuple[str, float]]) -> dict[str, Any]:
    """A chat choice's ``logprobs``."""
    return {
        "content": [
            {
                "token": text,
                "logprob": log_prob,
                "bytes": list(text.encode("utf-8")),
                "top_logprobs": [],
            }
            for text, log_prob in tokens
        ],
        "refusal": None,
    }


def text_log_probs(tokens: list[tuple[str, float]]) -> dict[str, Any]:
    """A completion choice's ``logprobs`` (the legacy shape: parallel lists)."""
    offsets, offset = [], 0
    for text, _ in tokens:
        offsets.append(offset)
        offset += len(text)
    return {
        "tokens": [text for text, _ in tokens],
        "token_logprobs": [log_prob for _, log_prob in tokens],
        "top_logprobs": None,
        "text_offset": offsets,
    }
