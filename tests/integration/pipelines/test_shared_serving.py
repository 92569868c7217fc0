"""``pipelines.shared_serving.SharedChatEngine`` on the real SmolLM2-135M: the server's requests
answered by the window's loaded chat pipeline, taking turns with it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipelines.chat import ChatModelConfig, ChatPipeline
from pipelines.core import CancelToken
from pipelines.generation import GenerationSettings, Message
from pipelines.repetition import LOOP_CHARACTERS, loop_length
from pipelines.serving_requests import ChatPrompt, RequestOptions, TextPrompt
from pipelines.shared_serving import SharedChatEngine

pytestmark = [pytest.mark.integration]

GREEDY = GenerationSettings(max_new_tokens=16, temperature=0.0)


@pytest.fixture(scope="module")
def chat(real_chat_model: Path, converted_gguf_cache: Path) -> Iterator[ChatPipeline]:
    pipeline = ChatPipeline(ChatModelConfig(real_chat_model, converted_dir=converted_gguf_cache))
    pipeline.load()
    yield pipeline
    pipeline.close()


@pytest.fixture
def turn() -> threading.Lock:
    return threading.Lock()


@pytest.fixture
def engine(chat: ChatPipeline, turn: threading.Lock) -> Iterator[SharedChatEngine]:
    engine = SharedChatEngine(chat, lambda: turn)
    engine.load()
    yield engine
    engine.close()


def test_a_chat_request_gets_the_answer_the_window_would_get(
    engine: SharedChatEngine, chat: ChatPipeline
) -> None:
    messages = [Message("user", "What is the capital of France?")]
    streamed: list[str] = []
    completion = engine.submit(ChatPrompt(messages), RequestOptions(GREEDY), streamed.append).wait(
        120
    )
    window = chat.generate(messages, GREEDY, CancelToken(), lambda _text: None)
    assert completion.finish_reason in ("stop", "length") and completion.text
    assert completion.text == "".join(streamed) == window.text
    assert completion.completion_tokens > 0 and completion.prompt_tokens > 0
    assert engine.active == 0 and engine.finished >= 1


def test_a_request_waits_while_the_window_holds_the_model(
    engine: SharedChatEngine, turn: threading.Lock
) -> None:
    with turn:  # the window is answering
        request = engine.submit(TextPrompt("Once upon a time"), RequestOptions(GREEDY), print)
        assert not request.done
        assert engine.active == 1
    completion = request.wait(120)
    assert completion.text and completion.finish_reason in ("stop", "length")


def test_a_cut_answer_ends_with_length_and_stop_strings_apply(engine: SharedChatEngine) -> None:
    short = GenerationSettings(max_new_tokens=4, temperature=0.0, ignore_eos=True)
    cut = engine.submit(TextPrompt("One, two, three,"), RequestOptions(short), print).wait(120)
    assert cut.finish_reason == "length" and cut.completion_tokens == 4
    options = RequestOptions(GREEDY, stop=(",",))
    stopped = engine.submit(TextPrompt("One, two, three,"), options, print).wait(120)
    assert "," not in stopped.text


def test_closing_the_engine_leaves_the_window_pipeline_loaded(
    chat: ChatPipeline, turn: threading.Lock
) -> None:
    engine = SharedChatEngine(chat, lambda: turn)
    engine.load()
    engine.close()
    assert chat.loaded
    answer = chat.generate([Message("user", "Hi")], GREEDY, CancelToken(), lambda _text: None)
    assert answer.text


def test_a_short_answer_ends_at_the_end_of_its_turn(engine: SharedChatEngine) -> None:
    # The window's pipeline is handed token ids, not a chat history: the end-of-turn token must
    # still end the answer (an answer that never ended glued "AuAuAu…" to 512 tokens). Greedy
    # answers that SmolLM2 ends within a sentence: a sampled answer from a 135M model can ramble
    # on to the token limit on its own, on this path and on the window's alike.
    settings = GenerationSettings(max_new_tokens=256, temperature=0.0)
    questions = {"What is the capital of France?": "Paris", "Say hello.": "Hello"}
    for question, expected in questions.items():
        answer = engine.submit(
            ChatPrompt([Message("user", question)]), RequestOptions(settings), print
        ).wait(300)
        assert answer.finish_reason == "stop", answer.text
        assert expected in answer.text and "<|im_end|>" not in answer.text
        assert answer.completion_tokens < 64


LOOP = "computer" * 40
"""A prompt SmolLM2 goes on with, greedy, to any length limit (300 tokens: 1,000+ characters)."""


def test_a_request_fallen_into_a_loop_ends_there_unless_it_asked_for_its_length(
    engine: SharedChatEngine,
) -> None:
    long = GenerationSettings(max_new_tokens=300, temperature=0.0)
    ended = engine.submit(TextPrompt(LOOP), RequestOptions(long), print).wait(300)
    assert ended.finish_reason == "stop" and ended.completion_tokens < 300
    assert loop_length(ended.text) >= LOOP_CHARACTERS
    whole = GenerationSettings(max_new_tokens=300, temperature=0.0, ignore_eos=True)
    ran = engine.submit(TextPrompt(LOOP), RequestOptions(whole), print).wait(300)
    assert ran.finish_reason == "length" and ran.completion_tokens == 300


def test_the_window_s_answer_fallen_into_a_loop_ends_there(chat: ChatPipeline) -> None:
    # An answer continued from a loop (the window's Continue): ended, neither cut nor stopped.
    messages = [Message("user", "Say computer.")]
    long = GenerationSettings(max_new_tokens=300, temperature=0.0)
    streamed: list[str] = []
    result = chat.generate(messages, long, CancelToken(), streamed.append, answer_start=LOOP)
    assert result.looped and not result.cut and not result.stopped
    assert result.text.startswith("".join(streamed))  # and the last token the streamer held
    assert LOOP_CHARACTERS <= len(result.text) < 2 * LOOP_CHARACTERS
