"""The second architecture's entry in engines.json: its ratios to llama.cpp, beside the main
model's, and no answer check for random weights."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.engines_report import CACHED, LLAMA, MAIN, comparison, summarize
from benchmarks.engines_second import NO_QUALITY_CHECK, second_report


def _run(load_s: float, tokens_per_s: float, ttft_1024: float, rss_mb: float) -> dict[str, Any]:
    """One child's result with the fields the report reads (as engines_child.py writes them)."""
    return {
        "load_s": load_s,
        "import_s": 0.5,
        "rss_after_import_mb": 60.0,
        "rss_after_load_mb": rss_mb - 50.0,
        "peak_rss_after_load_mb": rss_mb - 40.0,
        "peak_rss_mb": rss_mb + 10.0,
        "decode": {
            "tokens_per_s": tokens_per_s,
            "end_to_end_tokens_per_s": 1.0,
            "wall_tokens_per_s": tokens_per_s,
            "text": "noise",
        },
        "peak_rss_after_decode_mb": rss_mb,
        "rss_after_decode_mb": rss_mb,
        "ttft": [{"label": "1024", "seconds": ttft_1024, "input_tokens": 1020}],
        "answer": "Kuwait Kuwait",
    }


def _runs(scale: float) -> dict[str, list[dict[str, Any]]]:
    return {
        MAIN: [_run(4.0, 20.0 * scale, 0.5, 400.0)],
        LLAMA: [_run(0.1, 20.0, 3.0, 250.0)],
        CACHED: [_run(1.0, 20.0 * scale, 0.5, 400.0)],
    }


def _main_vs_llama() -> dict[str, dict[str, float | None]]:
    summary = {name: summarize(runs) for name, runs in _runs(1.0).items()}
    return {name: comparison(summary, name) for name in summary if name != LLAMA}


def test_the_ratios_are_set_beside_the_main_models() -> None:
    entry = second_report(_runs(1.5), _main_vs_llama(), {"architecture": "qwen2"})
    decode = entry["ratios_vs_main_model"][f"decode_tokens_per_s ({MAIN})"]
    assert decode == {"main": 1.0, "second": 1.5, "second_over_main": 1.5}
    load = entry["ratios_vs_main_model"][f"load_s ({CACHED})"]
    assert load["second"] == pytest.approx(10.0) and load["second_over_main"] == pytest.approx(1.0)
    assert entry["vs_llama"][MAIN]["ttft_s@1024"] == pytest.approx(0.5 / 3.0)
    assert f"ttft_s@128 ({MAIN})" in entry["ratios_vs_main_model"]  # absent: None, not an error
    assert entry["ratios_vs_main_model"][f"ttft_s@128 ({MAIN})"]["second"] is None


def test_random_weights_are_not_failed_on_the_answer_check() -> None:
    entry = second_report(_runs(1.0), _main_vs_llama(), {"architecture": "qwen2"})
    for variant in (MAIN, LLAMA, CACHED):
        summary = entry["summary"][variant]
        assert summary["quality_ok"] is None and summary["quality_check"] == NO_QUALITY_CHECK
        assert "answer" not in summary
