"""EngineOptions: every refusal with its field, what reaches LLMPipeline, and the CLI flags."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from app.chat.service import refuse_remote_engine
from app.cli.engine_flags import add_engine_options, engine_from, engine_line
from app.cli.exits import CliError
from app.core.errors import UserError
from app.core.settings import PerformanceSettings
from pipelines.core import InvalidInputError
from pipelines.engine_options import (
    ASSISTANT_TOKENS,
    MAX_NGRAM_SIZE,
    EngineOptions,
    apply_to_generation,
    eviction_cache_size,
    load_properties,
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


def test_remote_models_take_no_engine_options() -> None:
    refuse_remote_engine(EngineOptions())
    with pytest.raises(UserError, match="models that run on this computer") as caught:
        refuse_remote_engine(EngineOptions(kv_cache_precision="u8"))
    assert caught.value.field == "kv_cache_precision"


# ----- the CLI flags ---------------------------------------------------------------------


def _parse(*flags: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(exit_on_error=False)
    add_engine_options(parser)
    return parser.parse_args(list(flags))


def test_unset_flags_take_the_stored_preset() -> None:
    stored = PerformanceSettings(kv_cache_precision="u8", prompt_lookup=True)
    assert engine_from(_parse(), stored) == EngineOptions(
        kv_cache_precision="u8", prompt_lookup=True
    )


def test_flags_override_the_preset(tmp_path: Path) -> None:
    stored = PerformanceSettings(prompt_lookup=True, sparse_attention=True)
    args = _parse(
        "--kv-cache",
        "u4",
        "--no-prefix-caching",
        "--cache-eviction",
        "1024",
        "--no-prompt-lookup",
        "--draft-model",
        str(tmp_path),
        "--no-sparse-attention",
        "--weight-sparsity",
    )
    assert engine_from(args, stored) == EngineOptions(
        kv_cache_precision="u4",
        prefix_caching=False,
        cache_eviction=True,
        eviction_cache_tokens=1024,
        prompt_lookup=False,
        draft_model=tmp_path.resolve(),
        sparse_attention=False,
        weight_sparsity=True,
    )


def test_cache_eviction_zero_turns_it_off() -> None:
    stored = PerformanceSettings(prefix_caching=False, cache_eviction=True)
    options = engine_from(_parse("--cache-eviction", "0"), stored)
    assert not options.cache_eviction


@pytest.mark.parametrize("value", ["100", "70000", "lots", "-1"])
def test_cache_eviction_out_of_range_is_a_usage_error(value: str) -> None:
    with pytest.raises(argparse.ArgumentError):
        _parse("--cache-eviction", value)


def test_an_unknown_kv_precision_is_a_usage_error() -> None:
    with pytest.raises(argparse.ArgumentError):
        _parse("--kv-cache", "u2")


def test_a_missing_draft_model_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(CliError, match="--draft-model"):
        engine_from(_parse("--draft-model", str(tmp_path / "none")), PerformanceSettings())


def test_the_engine_line_names_what_differs() -> None:
    assert engine_line(EngineOptions()) == "engine: defaults"
    line = engine_line(EngineOptions(kv_cache_precision="u4", prompt_lookup=True))
    assert line == "engine: kv_cache_precision=u4, prompt_lookup=True"
