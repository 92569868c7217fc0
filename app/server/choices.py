"""Several answers to one prompt (OpenAI's ``n``): one engine request each.

The batching engine already runs many requests at once, and its prefix cache lets them share
the prompt's KV blocks, so ``n`` choices are ``n`` requests of the same prompt, each with its
own seed: the request's ``seed`` plus the choice's index when the client fixed one (so the
same request gives the same choices again), else a fresh random seed each. GenAI's
``num_return_sequences`` would do the same inside one request, but its sequences come back
mixed in one handle, which the engine's one streamer per request cannot tell apart. At
temperature 0 every choice is the same greedy answer, as with OpenAI.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Sequence
from dataclasses import replace

from app.chat import BatchingEngine, Completion, Prompt, RequestOptions
from app.core import MetricsBus
from app.server.answer_stream import stream_completion


def submit_choices(
    engine: BatchingEngine,
    prompt: Prompt,
    options: RequestOptions,
    n: int,
    metrics: MetricsBus | None = None,
) -> list[AsyncGenerator[str | Completion, None]]:
    """Submit ``n`` requests of ``prompt`` now (see :func:`stream_completion`), one a choice.

    Raises:
        InvalidInputError: the prompt or an option was refused (no request is left running:
            those already submitted are cancelled when their answers are dropped).
    """
    return [
        stream_completion(engine, prompt, choice_options(options, index), metrics)
        for index in range(n)
    ]


def choice_options(options: RequestOptions, index: int) -> RequestOptions:
    """``options`` of choice ``index``: a fixed seed moves on by the index (None stays None:
    every request then draws its own)."""
    seed = options.settings.seed
    if index == 0 or seed is None:
        return options
    return replace(options, settings=replace(options.settings, seed=(seed + index) % 2**32))


def usage_of(completions: Sequence[Completion]) -> dict[str, int]:
    """Token counts of the choices together: the prompt once, every choice's answer."""
    prompt = completions[0].prompt_tokens if completions else 0
    answers = sum(completion.completion_tokens for completion in completions)
    return {"prompt_tokens": prompt, "completion_tokens": answers, "total_tokens": prompt + answers}
