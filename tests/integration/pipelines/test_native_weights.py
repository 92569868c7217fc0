"""One copy of the weights: after its first answer a chat model on the real SmolLM2-135M (IR)
no longer holds its weight file's pages, and answers the same (the window's pipeline and the
server's batching engine)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from pipelines.batching import BatchingEngine, ServingConfig
from pipelines.chat import ChatModelConfig, ChatPipeline
from pipelines.core import CancelToken
from pipelines.generation import GenerationSettings, Message
from pipelines.native_weights import UNSUPPORTED_REASON, releases_supported
from pipelines.serving_requests import Completion, RequestOptions, TextPrompt
from tests.mapped_memory import resident_bytes

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not releases_supported(), reason=UNSUPPORTED_REASON),
]

GREEDY = GenerationSettings(max_new_tokens=24, temperature=0.0)
QUESTION = [Message("user", "Name three rivers of Europe.")]


def test_the_chat_model_lets_its_file_pages_go_after_the_first_answer(
    real_model_folder: Path,
) -> None:
    weights = real_model_folder / "openvino_model.bin"
    pipe = ChatPipeline(ChatModelConfig(real_model_folder, "CPU"))
    pipe.load()
    try:
        first = pipe.generate(QUESTION, GREEDY, CancelToken(), lambda _text: None)
        # Without the release, the first answer leaves nearly the whole file resident.
        assert resident_bytes(weights) < weights.stat().st_size // 2
        second = pipe.generate(QUESTION, GREEDY, CancelToken(), lambda _text: None)
        assert second.text == first.text
        assert resident_bytes(weights) < weights.stat().st_size // 2
    finally:
        pipe.close()


def test_the_batching_engine_lets_its_file_pages_go_after_the_first_step(
    real_model_folder: Path,
) -> None:
    weights = real_model_folder / "openvino_model.bin"
    engine = BatchingEngine(ServingConfig(real_model_folder, kv_cache_gb=1, max_sequences=2))
    engine.load()
    try:
        answers = [_answer(engine), _answer(engine)]
        assert resident_bytes(weights) < weights.stat().st_size // 2
        assert answers[0] == answers[1]
    finally:
        engine.close()


def _answer(engine: BatchingEngine) -> str:
    done = threading.Event()
    ended: list[Completion] = []

    def finished(completion: Completion) -> None:
        ended.append(completion)
        done.set()

    engine.submit(
        TextPrompt("Name three rivers of Europe."),
        RequestOptions(GREEDY),
        lambda _t: None,
        finished,
    )
    assert done.wait(timeout=600)
    return ended[0].text
