"""Which compiled-model cache a paged-attention chat model is given, per device and backend."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.contract import paged_attention_cache_dir

CACHE = Path("/cache/chat")


@pytest.mark.parametrize(
    ("device", "properties", "expected"),
    [
        ("CPU", {}, None),  # the CPU plugin cannot import a paged-attention blob
        ("cpu", {"ATTENTION_BACKEND": "PA"}, None),
        ("CPU", {"ATTENTION_BACKEND": "SDPA"}, CACHE),  # a stateful model imports fine
        ("GPU.0", {}, CACHE),
        ("NPU", {}, CACHE),
    ],
)
def test_the_cpu_paged_attention_model_gets_no_cache(
    device: str, properties: dict[str, str], expected: Path | None
) -> None:
    assert paged_attention_cache_dir(CACHE, device, properties) == expected


def test_no_cache_stays_none() -> None:
    assert paged_attention_cache_dir(None, "GPU") is None
