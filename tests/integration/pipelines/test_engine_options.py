"""Engine options on the real SmolLM2-135M GGUF: each reaches LLMPipeline and the model answers;
eviction holds a long conversation; a draft model speculates, one of another family is refused.

What GenAI builds is observed at ``pipelines.chat.make_llm_pipeline``, wrapped around the REAL
constructor: the recorded keyword arguments are exactly what ``ov_genai.LLMPipeline`` got."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from pipelines import chat as chat_module
from pipelines.chat import ChatModelConfig, ChatPipeline
from pipelines.core import CancelToken, InvalidInputError, PipelineError
from pipelines.draft_model import draft_folder
from pipelines.engine_options import EngineOptions, cpu_has_amx, load_properties
from pipelines.generation import GenerationSettings, Message

pytestmark = [pytest.mark.integration, pytest.mark.real_model]

GREEDY = GenerationSettings(max_new_tokens=8, temperature=0.0)
LONGER_GREEDY = GenerationSettings(max_new_tokens=32, temperature=0.0)
Built = list[dict[str, Any]]


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> Built:
    """The keyword arguments of every LLMPipeline built (the real one is still built)."""
    calls: Built = []
    real = chat_module.make_llm_pipeline

    def recording(path: Path, device: str, properties: Mapping[str, Any]) -> Any:
        calls.append(dict(properties))
        return real(path, device, properties)

    monkeypatch.setattr(chat_module, "make_llm_pipeline", recording)
    return calls


@pytest.fixture
def open_real(
    real_chat_model: Path, converted_gguf_cache: Path
) -> Iterator[Callable[[EngineOptions], ChatPipeline]]:
    """Load the real GGUF with some engine options (from the session's converted cache)."""
    pipes: list[ChatPipeline] = []

    def load(options: EngineOptions) -> ChatPipeline:
        config = ChatModelConfig(
            real_chat_model, converted_dir=converted_gguf_cache, engine=options
        )
        pipe = ChatPipeline(config)
        pipe.load()
        pipes.append(pipe)
        return pipe

    yield load
    for pipe in pipes:
        pipe.close()


def _answer(pipe: ChatPipeline, messages: list[Message]) -> str:
    result = pipe.generate(messages, GREEDY, CancelToken(), lambda text: None)
    assert result.metrics.values["output_tokens"] >= 1
    return result.text


def _converted_folder(real_chat_model: Path, cache: Path) -> Path:
    return draft_folder(real_chat_model, cache)


CASES: list[tuple[str, EngineOptions, Callable[[dict[str, Any]], bool]]] = [
    ("kv f16", EngineOptions(kv_cache_precision="f16"), lambda p: p["KV_CACHE_PRECISION"] == "f16"),
    ("kv u8", EngineOptions(kv_cache_precision="u8"), lambda p: p["KV_CACHE_PRECISION"] == "u8"),
    ("kv u4", EngineOptions(kv_cache_precision="u4"), lambda p: p["KV_CACHE_PRECISION"] == "u4"),
    (
        "no prefix caching",
        EngineOptions(prefix_caching=False),
        lambda p: p["scheduler_config"].enable_prefix_caching is False,
    ),
    ("prompt lookup", EngineOptions(prompt_lookup=True), lambda p: p["prompt_lookup"] is True),
    (
        # The pipeline does not check the machine (the app does): on one socket the CPU plugin
        # takes the policy and runs the model whole.
        "split across sockets",
        EngineOptions(parallelism="sockets"),
        lambda p: p["MODEL_DISTRIBUTION_POLICY"] == "TENSOR_PARALLEL",
    ),
    (
        "sparse attention",
        EngineOptions(sparse_attention=True),
        lambda p: p["scheduler_config"].use_sparse_attention is True,
    ),
    (
        "cache eviction",
        EngineOptions(prefix_caching=False, cache_eviction=True, eviction_cache_tokens=512),
        lambda p: (
            p["scheduler_config"].use_cache_eviction is True
            and p["scheduler_config"].cache_eviction_config.get_max_cache_size() == 512
        ),
    ),
]


@pytest.mark.parametrize(("name", "options", "reached"), CASES, ids=[c[0] for c in CASES])
def test_each_option_reaches_the_engine_and_the_model_answers(
    name: str,
    options: EngineOptions,
    reached: Callable[[dict[str, Any]], bool],
    built: Built,
    open_real: Callable[[EngineOptions], ChatPipeline],
) -> None:
    pipe = open_real(options)
    assert len(built) == 1 and reached(built[0])
    # "Say hello." is 33 tokens under SmolLM2's template: just past the eviction's start
    # block, where GenAI's default SnapKV window used to fail.
    assert _answer(pipe, [Message("user", "Say hello.")]).strip()


@pytest.mark.skipif(not cpu_has_amx(), reason="weight sparsity is refused without AMX")
def test_weight_sparsity_reaches_the_cpu_plugin(
    built: Built, open_real: Callable[[EngineOptions], ChatPipeline]
) -> None:
    pipe = open_real(EngineOptions(weight_sparsity=True))
    assert built[0]["CPU_SPARSE_WEIGHTS_DECOMPRESSION_RATE"] == 0.5
    assert _answer(pipe, [Message("user", "Say hello.")]).strip()


def test_a_gguf_draft_model_is_converted_and_speculates(
    built: Built,
    open_real: Callable[[EngineOptions], ChatPipeline],
    real_chat_model: Path,
    converted_gguf_cache: Path,
) -> None:
    # SmolLM2 drafting for itself: the one same-family pair available offline.
    pipe = open_real(EngineOptions(draft_model=real_chat_model))
    assert "draft_model" in built[0]
    question = [Message("user", "What is 2 + 2?")]
    result = pipe.generate(question, LONGER_GREEDY, CancelToken(), lambda text: None)
    assert result.text.strip()
    # The main model checks the draft's guesses a few tokens at a time, so its greedy text
    # can part from a plain run's where two tokens score almost alike; a draft of the very
    # same model is what shows that speculation ran: most of its guesses are taken.
    assert result.metrics.values["draft_accepted"] >= 0.5
    plain = open_real(EngineOptions())
    plain_result = plain.generate(question, LONGER_GREEDY, CancelToken(), lambda text: None)
    assert "draft_accepted" not in plain_result.metrics.values
    assert _converted_folder(real_chat_model, converted_gguf_cache).is_dir()


def test_a_draft_of_another_family_is_refused(
    open_real: Callable[[EngineOptions], ChatPipeline], chat_model_dir: Path
) -> None:
    open_real(EngineOptions())  # the main model converted: its tokenizer is compared first
    with pytest.raises(InvalidInputError) as caught:
        open_real(EngineOptions(draft_model=chat_model_dir))
    assert caught.value.field == "draft_model"
    assert str(caught.value) == (
        f"{chat_model_dir.name} uses a different tokenizer from SmolLM2-135M-Instruct.Q4_1.gguf: "
        "a draft model must come from the same family."
    )


def test_eviction_holds_a_long_conversation(
    open_real: Callable[[EngineOptions], ChatPipeline],
) -> None:
    pipe = open_real(
        EngineOptions(prefix_caching=False, cache_eviction=True, eviction_cache_tokens=512)
    )
    words = " ".join(f"item{i}" for i in range(120))
    messages: list[Message] = []
    inputs: list[float] = []
    for turn in range(5):
        messages.append(Message("user", f"Turn {turn}: list the first item of: {words}"))
        result = pipe.generate(messages, GREEDY, CancelToken(), lambda text: None)
        assert result.text.strip()
        inputs.append(result.metrics.values["input_tokens"])
        messages.append(Message("assistant", result.text))
    assert inputs[-1] > 3 * 512  # the cache held far fewer tokens than the conversation


def test_prefix_caching_keeps_greedy_answers_identical(
    open_real: Callable[[EngineOptions], ChatPipeline],
) -> None:
    # GenAI reports no count of prompt tokens it skipped (perf_metrics.raw_metrics and
    # ContinuousBatchingPipeline.get_metrics() have none); the deterministic part is that the
    # reused cache changes nothing in the answers. The TTFT gain is the benchmark's.
    conversations = []
    for caching in (True, False):
        pipe = open_real(EngineOptions(prefix_caching=caching, kv_cache_precision="f16"))
        messages = [Message("system", "Be brief. " * 40), Message("user", "Name a colour.")]
        messages.append(Message("assistant", _answer(pipe, messages)))
        messages.append(Message("user", "Name another one."))
        conversations.append([*messages, Message("assistant", _answer(pipe, messages))])
    assert conversations[0] == conversations[1]


def _tiny_model() -> Any:
    import numpy as np
    import openvino as ov
    from openvino import opset13 as ops

    data = ops.parameter([1, 4], np.float32)
    return ov.Model([ops.relu(data)], [data])


def test_each_split_is_a_policy_its_openvino_device_takes_and_the_other_refuses() -> None:
    """The real plugins: the CPU takes only TENSOR_PARALLEL, HETERO (several GPUs; here over the
    CPU, the one device there is) only PIPELINE_PARALLEL."""
    from pipelines.contract import shared_core

    core = shared_core()
    sockets = load_properties(EngineOptions(parallelism="sockets"))["MODEL_DISTRIBUTION_POLICY"]
    gpus = load_properties(EngineOptions(parallelism="gpus"))["MODEL_DISTRIBUTION_POLICY"]
    for device, policy, other in (("CPU", sockets, gpus), ("HETERO:CPU", gpus, sockets)):
        compiled = core.compile_model(_tiny_model(), device, {"MODEL_DISTRIBUTION_POLICY": policy})
        taken = compiled.get_property("MODEL_DISTRIBUTION_POLICY")
        assert {str(value).rsplit(".", 1)[-1] for value in taken} == {policy}
        with pytest.raises(RuntimeError, match="only support"):
            core.compile_model(_tiny_model(), device, {"MODEL_DISTRIBUTION_POLICY": other})


def test_a_model_split_across_gpus_is_built_on_hetero_with_its_gpu_first(
    monkeypatch: pytest.MonkeyPatch, real_chat_model: Path, converted_gguf_cache: Path
) -> None:
    devices: list[str] = []

    class TwoGpus:
        available_devices = ("CPU", "GPU.0", "GPU.1")

    def recording(path: Path, device: str, properties: Mapping[str, Any]) -> Any:
        devices.append(device)
        raise RuntimeError("no GPU on this machine")  # what compiling there would say

    monkeypatch.setattr(chat_module, "shared_core", TwoGpus)
    monkeypatch.setattr(chat_module, "make_llm_pipeline", recording)
    config = ChatModelConfig(
        real_chat_model,
        device="GPU.1",
        converted_dir=converted_gguf_cache,
        engine=EngineOptions(parallelism="gpus"),
    )
    with pytest.raises(PipelineError):
        ChatPipeline(config).load()
    assert devices == ["HETERO:GPU.1,GPU.0"]
