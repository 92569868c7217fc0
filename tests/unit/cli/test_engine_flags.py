"""The engine flags of ``chat``: unset flags take the stored preset, set ones override it, bad
values are usage errors, and the engine line names what differs."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from app.cli.engine_flags import add_engine_options, engine_from, engine_line
from app.cli.exits import CliError
from app.core.settings import PerformanceSettings
from pipelines.engine_options import EngineOptions


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


def test_split_model_overrides_the_preset() -> None:
    stored = PerformanceSettings(parallelism="gpus")
    assert engine_from(_parse(), stored).parallelism == "gpus"
    assert engine_from(_parse("--split-model", "sockets"), stored).parallelism == "sockets"
    assert engine_from(_parse("--split-model", "off"), stored).parallelism == "off"


@pytest.mark.parametrize("value", ["all", "SOCKETS", "2", ""])
def test_an_unknown_split_is_a_usage_error(value: str) -> None:
    with pytest.raises(argparse.ArgumentError):
        _parse("--split-model", value)


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
