"""EngineOptions: every refusal with its field, and what reaches LLMPipeline."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.core import InvalidInputError
from pipelines.engine_options import (
    ASSISTANT_TOKENS,
    MAX_NGRAM_SIZE,
    EngineOptions,
    ParallelHardware,
    apply_to_generation,
    describe,
    eviction_cache_size,
    load_properties,
    offered_parallelism,
    parallel_device,
    scheduler_config,
)

NO_PREFIX_EVICTION = EngineOptions(prefix_caching=False, cache_eviction=True)


def _refusal(options: EngineOptions, device: str = "CPU", **kwargs: bool) -> InvalidInputError:
    with pytest.raises(InvalidInputError) as caught:
        options.check(device, **kwargs)
    assert str(caught.value).endswith(".")  # one sentence
    return caught.value


@pytest.mark.parametrize(
    ("options", "device", "kwargs", "field"),
    [
        (EngineOptions(kv_cache_precision="u8"), "NPU", {}, "kv_cache_precision"),
        (EngineOptions(prefix_caching=False), "NPU", {}, "prefix_caching"),
        (EngineOptions(prompt_lookup=True, draft_model=Path("d")), "CPU", {}, "prompt_lookup"),
        (EngineOptions(prompt_lookup=True), "CPU", {"vision": True}, "prompt_lookup"),
        (EngineOptions(draft_model=Path("d")), "GPU", {"vision": True}, "draft_model"),
        (EngineOptions(weight_sparsity=True), "GPU.1", {}, "weight_sparsity"),
        (EngineOptions(weight_sparsity=True), "CPU", {"has_amx": False}, "weight_sparsity"),
        (EngineOptions(cache_eviction=True), "CPU", {}, "cache_eviction"),
        (
            EngineOptions(prefix_caching=False, cache_eviction=True, eviction_cache_tokens=100),
            "CPU",
            {},
            "eviction_cache_tokens",
        ),
        (
            EngineOptions(prefix_caching=False, cache_eviction=True, eviction_cache_tokens=10**6),
            "GPU",
            {},
            "eviction_cache_tokens",
        ),
    ],
)
def test_each_invalid_combination_names_its_option(
    options: EngineOptions, device: str, kwargs: dict[str, bool], field: str
) -> None:
    assert _refusal(options, device, **kwargs).field == field


@pytest.mark.parametrize(
    "options",
    [
        EngineOptions(kv_cache_precision="u4"),  # no source says the GPU refuses it
        EngineOptions(sparse_attention=True),  # XAttention / TRISHAPE run on the GPU
        NO_PREFIX_EVICTION,
        EngineOptions(draft_model=Path("d")),
        EngineOptions(prompt_lookup=True),
    ],
)
def test_the_gpu_takes_what_genai_runs_there(options: EngineOptions) -> None:
    options.check("GPU.0")
    options.check("CPU", has_amx=True)


def test_a_vision_model_takes_the_cache_options() -> None:
    EngineOptions(kv_cache_precision="u4", sparse_attention=True).check("CPU", vision=True)


def test_weight_sparsity_runs_on_a_cpu_with_amx() -> None:
    EngineOptions(weight_sparsity=True).check("CPU", has_amx=True)


def test_the_npu_takes_only_the_defaults() -> None:
    EngineOptions().check("NPU")


def test_defaults_load_exactly_as_genai_does() -> None:
    assert load_properties(EngineOptions()) == {}


def test_every_option_reaches_the_properties_and_scheduler() -> None:
    options = EngineOptions(
        kv_cache_precision="u4",
        prefix_caching=False,
        cache_eviction=True,
        eviction_cache_tokens=1000,
        sparse_attention=True,
        weight_sparsity=True,
        prompt_lookup=True,
    )
    properties = load_properties(options)
    assert properties["KV_CACHE_PRECISION"] == "u4"
    assert properties["prompt_lookup"] is True
    assert properties["CPU_SPARSE_WEIGHTS_DECOMPRESSION_RATE"] == 0.5
    text = properties["scheduler_config"].to_string()
    assert "enable_prefix_caching: false" in text.lower() or "enable_prefix_caching: 0" in text
    assert "use_cache_eviction: 1" in text or "use_cache_eviction: true" in text.lower()
    assert "use_sparse_attention: 1" in text or "use_sparse_attention: true" in text.lower()
    eviction = properties["scheduler_config"].cache_eviction_config
    assert eviction.get_max_cache_size() == 992  # 1000 in whole 32-token blocks
    assert eviction.get_start_size() == 32 and eviction.get_recent_size() == 128
    assert eviction.snapkv_window_size == 0  # short prompts fail with GenAI's window of 8


def test_prefix_caching_on_reaches_the_scheduler() -> None:
    config = scheduler_config(EngineOptions(kv_cache_precision="u8"))
    assert config.enable_prefix_caching is True
    assert config.use_cache_eviction is False


@pytest.mark.parametrize(("tokens", "size"), [(512, 512), (2048, 2048), (2050, 2048), (543, 512)])
def test_eviction_sizes_are_whole_blocks(tokens: int, size: int) -> None:
    assert eviction_cache_size(tokens) == size


def test_assisted_decoding_completes_every_generation_config() -> None:
    import openvino_genai as ov_genai

    lookup = apply_to_generation(EngineOptions(prompt_lookup=True), ov_genai.GenerationConfig())
    assert (lookup.num_assistant_tokens, lookup.max_ngram_size) == (
        ASSISTANT_TOKENS,
        MAX_NGRAM_SIZE,
    )
    draft = apply_to_generation(EngineOptions(draft_model=Path("d")), ov_genai.GenerationConfig())
    assert draft.num_assistant_tokens == ASSISTANT_TOKENS
    plain = apply_to_generation(EngineOptions(), ov_genai.GenerationConfig())
    assert not plain.num_assistant_tokens


ONE_SOCKET = ParallelHardware()  # this machine: one socket, no GPU
TWO_SOCKETS = ParallelHardware(cpu_sockets=2)
TWO_GPUS = ParallelHardware(gpus=("GPU.0", "GPU.1"))


@pytest.mark.parametrize(
    ("hardware", "offered"),
    [
        (ONE_SOCKET, ()),
        (ParallelHardware(gpus=("GPU.0",)), ()),
        (TWO_SOCKETS, ("sockets",)),
        (ParallelHardware(cpu_sockets=4), ("sockets",)),
        (TWO_GPUS, ("gpus",)),
        (ParallelHardware(cpu_sockets=2, gpus=("GPU.0", "GPU.1")), ("sockets", "gpus")),
    ],
)
def test_splitting_is_offered_only_with_two_sockets_or_two_gpus(
    hardware: ParallelHardware, offered: tuple[str, ...]
) -> None:
    assert offered_parallelism(hardware) == offered


@pytest.mark.parametrize(
    ("parallelism", "device", "hardware", "vision", "says"),
    [
        ("sockets", "CPU", ONE_SOCKET, False, "one CPU socket"),
        ("sockets", "CPU", None, False, "one CPU socket"),  # no hardware given: not offered
        ("sockets", "GPU.0", TWO_SOCKETS, False, "needs the CPU"),
        ("gpus", "GPU.0", ParallelHardware(gpus=("GPU.0",)), False, "fewer than two GPUs"),
        ("gpus", "CPU", TWO_GPUS, False, "needs a GPU"),
        ("sockets", "CPU", TWO_SOCKETS, True, "Vision models"),
        ("gpus", "NPU", TWO_GPUS, False, "NPU"),
    ],
)
def test_splitting_the_model_is_refused_where_the_machine_or_model_lacks_it(
    parallelism: str, device: str, hardware: ParallelHardware | None, vision: bool, says: str
) -> None:
    options = EngineOptions(parallelism=parallelism)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError) as caught:
        options.check(device, hardware=hardware, vision=vision)
    message = str(caught.value)
    assert caught.value.field == "parallelism"
    assert says in message and message.endswith(".") and message.count(". ") == 0


def test_splitting_is_accepted_where_the_machine_has_it() -> None:
    EngineOptions(parallelism="sockets").check("CPU", hardware=TWO_SOCKETS)
    EngineOptions(parallelism="gpus").check("GPU.1", hardware=TWO_GPUS)
    EngineOptions(parallelism="off").check("CPU", hardware=ONE_SOCKET)


def test_splitting_reaches_the_pipeline_as_openvinos_distribution_policy() -> None:
    assert load_properties(EngineOptions(parallelism="off")) == {}
    sockets = load_properties(EngineOptions(parallelism="sockets"))
    assert sockets["MODEL_DISTRIBUTION_POLICY"] == "TENSOR_PARALLEL"
    gpus = load_properties(EngineOptions(parallelism="gpus"), device="GPU.0")
    assert gpus["MODEL_DISTRIBUTION_POLICY"] == "PIPELINE_PARALLEL"
    assert describe(EngineOptions(parallelism="sockets")) == {"parallelism": "sockets"}


def test_a_model_split_across_gpus_runs_on_hetero_with_the_chosen_gpu_first() -> None:
    available = ["CPU", "GPU.0", "GPU.1", "NPU"]
    assert parallel_device("GPU.1", available) == "HETERO:GPU.1,GPU.0"
    assert parallel_device("GPU.0", available) == "HETERO:GPU.0,GPU.1"
    assert parallel_device("GPU", available) == "HETERO:GPU.0,GPU.1"  # the kind: first GPU
