"""The real ChatPipeline on tiny random-weight OpenVINO models.

Random weights give near-flat logits, so these tests assert token counts, streaming order and
structure, never the text itself.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.chat import ChatModelConfig, ChatPipeline
from pipelines.core import CancelToken, DeviceError, InvalidInputError
from pipelines.generation import GenerationSettings, Message
from tests.streams import StopAfter

pytestmark = pytest.mark.integration

GREEDY_16 = GenerationSettings(max_new_tokens=16, temperature=0.0, ignore_eos=True)


@pytest.fixture(scope="module")
def pipeline(chat_model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> ChatPipeline:
    cache = tmp_path_factory.mktemp("compiled")
    pipe = ChatPipeline(ChatModelConfig(chat_model_dir, "CPU", cache_dir=cache))
    pipe.load()
    return pipe


def _ask(text: str) -> list[Message]:
    return [Message("system", "You are terse."), Message("user", text)]


def test_streams_chunks_that_add_up_to_the_answer(pipeline: ChatPipeline) -> None:
    chunks: list[str] = []
    result = pipeline.generate(_ask("Hello there"), GREEDY_16, CancelToken(), chunks.append)
    assert len(chunks) >= 2
    assert "".join(chunks) == result.text
    assert not result.stopped
    assert result.metrics.values["output_tokens"] == 16


def test_metrics_are_sane(pipeline: ChatPipeline) -> None:
    result = pipeline.generate(_ask("Count"), GREEDY_16, CancelToken(), lambda _: None)
    values = result.metrics.values
    assert result.metrics.pipeline == "chat"
    assert result.metrics.device == "CPU"
    assert values["input_tokens"] > 3
    assert 0 < values["ttft_ms"] < 10_000
    assert values["tpot_ms"] > 0
    assert values["tokens_per_s"] > 1
    assert values["load_ms"] > 0
    # tokens/s and TPOT describe the same decode speed.
    assert values["tokens_per_s"] == pytest.approx(1000 / values["tpot_ms"], rel=0.5)


def test_cancel_keeps_the_partial_answer(pipeline: ChatPipeline) -> None:
    stop = StopAfter(3)
    settings = GenerationSettings(max_new_tokens=200, temperature=0.0, ignore_eos=True)
    result = pipeline.generate(_ask("Tell a long story"), settings, stop.cancel, stop)
    assert result.stopped
    assert 3 <= result.metrics.values["output_tokens"] < 200
    assert result.text.startswith("".join(stop.chunks[:3]))


def test_multi_turn_history_is_sent(pipeline: ChatPipeline) -> None:
    first = pipeline.generate(_ask("One"), GREEDY_16, CancelToken(), lambda _: None)
    history = [
        *_ask("One"),
        Message("assistant", first.text),
        Message("user", "Two"),
    ]
    second = pipeline.generate(history, GREEDY_16, CancelToken(), lambda _: None)
    assert second.metrics.values["input_tokens"] > first.metrics.values["input_tokens"] + 16


def test_seeded_sampling_is_repeatable(pipeline: ChatPipeline) -> None:
    settings = GenerationSettings(max_new_tokens=12, temperature=1.0, seed=7, ignore_eos=True)
    texts = {
        pipeline.generate(_ask("Hi"), settings, CancelToken(), lambda _: None).text
        for _ in range(2)
    }
    assert len(texts) == 1


def test_streamed_chunks_make_the_answer(pipeline: ChatPipeline) -> None:
    chunks: list[str] = []
    result = pipeline.generate(_ask("Hi"), GREEDY_16, CancelToken(), chunks.append)
    assert chunks and "".join(chunks) == result.text
    assert not result.stopped and pipeline.metrics() == result.metrics


@pytest.mark.parametrize(
    ("messages", "message"),
    [
        ([Message("user", "   ")], "Type a message first"),
        ([Message("user", "x" * 200_000)], "200,000 characters"),
        ([], "must end with a user message"),
    ],
)
def test_bad_prompts_are_refused_before_work(
    pipeline: ChatPipeline, messages: list[Message], message: str
) -> None:
    with pytest.raises(InvalidInputError, match=message) as info:
        pipeline.generate(messages, GREEDY_16, CancelToken(), lambda _: None)
    assert info.value.field == "prompt"


def test_int4_model_answers(int4_model_dir: Path) -> None:
    pipe = ChatPipeline(ChatModelConfig(int4_model_dir, "CPU"))
    pipe.load()
    result = pipe.generate(_ask("Hi"), GREEDY_16, CancelToken(), lambda _: None)
    assert result.metrics.values["output_tokens"] == 16


def test_unknown_device_is_a_device_error(chat_model_dir: Path) -> None:
    with pytest.raises(DeviceError) as info:
        ChatPipeline(ChatModelConfig(chat_model_dir, "NPU")).load()
    assert info.value.device == "NPU"


def test_a_cpu_chat_model_writes_no_blob_it_cannot_read(
    chat_model_dir: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    ChatPipeline(ChatModelConfig(chat_model_dir, "CPU", cache_dir=cache)).load()
    assert not any(cache.glob("*.blob"))


def test_an_sdpa_chat_model_loads_from_its_blob_the_second_time(
    chat_model_dir: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    config = ChatModelConfig(
        chat_model_dir, "CPU", cache_dir=cache, properties={"ATTENTION_BACKEND": "SDPA"}
    )
    ChatPipeline(config).load()
    blobs = {blob: blob.stat().st_mtime_ns for blob in cache.glob("*.blob")}
    assert blobs
    ChatPipeline(config).load()
    # A blob OpenVINO could not import would be compiled and written again.
    assert {blob: blob.stat().st_mtime_ns for blob in cache.glob("*.blob")} == blobs


def test_generating_before_load_is_refused(chat_model_dir: Path) -> None:
    with pytest.raises(InvalidInputError, match="No chat model is loaded"):
        ChatPipeline(ChatModelConfig(chat_model_dir)).generate(
            _ask("Hi"), GREEDY_16, CancelToken(), lambda _: None
        )
