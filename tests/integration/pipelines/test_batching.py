"""``pipelines.batching.BatchingEngine`` on the real SmolLM2-135M: cancelling frees the slot,
stop strings, structured output, refused prompts and options, and ``close()`` with requests
running."""

from __future__ import annotations

import asyncio
import gc
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.server.answer_stream import stream_completion
from pipelines.batching import BatchingEngine, ServingConfig
from pipelines.core import InvalidInputError, ModelLoadError
from pipelines.generation import MAX_PROMPT_CHARS, GenerationSettings, Message
from pipelines.serving_requests import (
    MAX_STOP_STRINGS,
    BatchRequest,
    ChatPrompt,
    Completion,
    RequestOptions,
    TextPrompt,
)

pytestmark = [pytest.mark.integration]

GREEDY = GenerationSettings(max_new_tokens=24, temperature=0.0)
LONG = GenerationSettings(max_new_tokens=4000, temperature=0.0, ignore_eos=True)


def make_engine(model: Path, converted: Path) -> BatchingEngine:
    engine = BatchingEngine(
        ServingConfig(model, converted_dir=converted, kv_cache_gb=1, max_sequences=4)
    )
    engine.load()
    return engine


@pytest.fixture(scope="module")
def engine(real_chat_model: Path, converted_gguf_cache: Path) -> Iterator[BatchingEngine]:
    engine = make_engine(real_chat_model, converted_gguf_cache)
    yield engine
    engine.close()


def started(engine: BatchingEngine, prompt: str) -> tuple[BatchRequest, threading.Event]:
    """A long request, and an event set once its first text has arrived."""
    first_text = threading.Event()
    request = engine.submit(
        TextPrompt(prompt), RequestOptions(LONG), lambda _text: first_text.set()
    )
    return request, first_text


def wait_idle(engine: BatchingEngine, deadline_s: float = 60.0) -> None:
    deadline = time.monotonic() + deadline_s
    while engine.active and time.monotonic() < deadline:
        time.sleep(0.05)
    assert engine.active == 0


def answer(engine: BatchingEngine, prompt: str, **options: object) -> Completion:
    request = engine.submit(
        TextPrompt(prompt),
        RequestOptions(GREEDY, **options),  # type: ignore[arg-type]
        lambda _text: None,
    )
    return request.wait(timeout=120)


def test_cancelling_a_running_request_frees_its_slot(engine: BatchingEngine) -> None:
    request, first_text = started(engine, "Once upon a time")
    assert first_text.wait(timeout=60)
    assert engine.active == 1
    request.cancel()
    completion = request.wait(timeout=60)
    assert completion.finish_reason == "cancelled"
    assert 0 < completion.completion_tokens < LONG.max_new_tokens
    wait_idle(engine)
    assert answer(engine, "The capital of France is").text  # the engine still answers


def test_a_stop_string_ends_the_answer_and_is_left_out(engine: BatchingEngine) -> None:
    prompt = "1, 2, 3, 4, 5, 6, 7,"
    free = answer(engine, prompt).text
    assert " 9" in free
    stopped = answer(engine, prompt, stop=(" 9",))
    assert stopped.finish_reason == "stop"
    assert " 9" not in stopped.text
    assert free.startswith(stopped.text) and len(stopped.text) < len(free)


def test_a_json_schema_is_followed(engine: BatchingEngine) -> None:
    schema = {
        "type": "object",
        "properties": {"city": {"type": "string"}, "people": {"type": "integer"}},
        "required": ["city", "people"],
    }
    # A question with an answer: greedy, "Describe a city." loops inside the string
    # ("{city} {city} …") until the token limit cuts the JSON.
    question = "Which city is the capital of France, and how many people live there?"
    request = engine.submit(
        ChatPrompt([Message("user", question)]),
        RequestOptions(
            GenerationSettings(max_new_tokens=80, temperature=0.0), json_schema=json.dumps(schema)
        ),
        lambda _text: None,
    )
    value = json.loads(request.wait(timeout=120).text)
    assert "Paris" in value["city"] and isinstance(value["people"], int)


@pytest.mark.parametrize(
    ("prompt", "options", "field"),
    [
        (TextPrompt("a" * (MAX_PROMPT_CHARS + 1)), RequestOptions(GREEDY), "prompt"),
        (TextPrompt("   "), RequestOptions(GREEDY), "prompt"),
        (ChatPrompt([Message("assistant", "Hi")]), RequestOptions(GREEDY), "prompt"),
        (TextPrompt("Hi"), RequestOptions(GREEDY, stop=("",)), "stop"),
        (TextPrompt("Hi"), RequestOptions(GREEDY, stop=("x",) * (MAX_STOP_STRINGS + 1)), "stop"),
        (TextPrompt("Hi"), RequestOptions(GREEDY, presence_penalty=float("nan")), "presence"),
        (
            TextPrompt("Hi"),
            RequestOptions(GenerationSettings(max_new_tokens=0)),
            "max_new_tokens",
        ),
    ],
)
def test_a_refused_prompt_or_option_is_never_queued(
    engine: BatchingEngine, prompt: TextPrompt | ChatPrompt, options: RequestOptions, field: str
) -> None:
    wait_idle(engine)
    with pytest.raises(InvalidInputError) as refused:
        engine.submit(prompt, options, lambda _text: None)
    assert field in refused.value.field
    assert engine.active == 0


def test_close_ends_running_requests_as_cancelled(
    real_chat_model: Path, converted_gguf_cache: Path
) -> None:
    engine = make_engine(real_chat_model, converted_gguf_cache)
    try:
        running = [started(engine, prompt) for prompt in ("Once upon a time", "In a land far")]
        for _request, first_text in running:
            assert first_text.wait(timeout=60)
        queued = engine.submit(TextPrompt("Hello"), RequestOptions(LONG), lambda _text: None)
    finally:
        engine.close()
    for request in [r for r, _ in running] + [queued]:
        assert request.wait(timeout=60).finish_reason == "cancelled"
    assert engine.active == 0
    with pytest.raises(ModelLoadError):  # a closed engine takes no more requests
        engine.submit(TextPrompt("Hi"), RequestOptions(GREEDY), lambda _text: None)


def test_an_answer_never_streamed_is_cancelled_when_dropped(engine: BatchingEngine) -> None:
    # The server submits before its response starts; a client gone before the first chunk
    # leaves a generator that never ran, which must not keep its slot for 4000 tokens.
    async def submit_and_drop() -> None:
        stream_completion(engine, TextPrompt("Once upon a time"), RequestOptions(LONG))

    asyncio.run(submit_and_drop())
    gc.collect()
    wait_idle(engine)
