"""The engine comparison on a second architecture: do SmolLM2's ratios hold on Qwen?

``bench_engines.py --second-architecture`` measures the main pair (OpenVINO reading the GGUF
directly, first open and cached, and llama.cpp) on a Qwen2 (or Qwen3) GGUF built offline by
:mod:`benchmarks.qwen_gguf`, with the same prompts, rounds and method as the main model. Its
weights are random, so its answers are noise: figures of speed, load and memory only, and no
answer check (``quality_check`` says so instead of a false "failed").

This module turns those runs into the ``second_architecture`` entry of ``engines.json``: each
model's summary and ``vs_llama`` ratios as the main report makes them, and the headline ratios
beside the main model's, so a ratio that holds (or not) is read off one table.
"""

from __future__ import annotations

from typing import Any

from benchmarks.engines_report import CACHED, LLAMA, MAIN, comparison, summarize

HEADLINE_RATIOS = {
    "decode_tokens_per_s": MAIN,
    "ttft_s@128": MAIN,
    "ttft_s@1024": MAIN,
    "load_s": CACHED,
    "rss_after_decode_mb": MAIN,
    "peak_rss_after_decode_mb": MAIN,
}
"""Each headline figure and the OpenVINO variant whose ratio to llama.cpp answers it (the
cached load for load time: the first open converts the file, llama.cpp never does)."""

NO_QUALITY_CHECK = "skipped: random weights write noise (figures of speed and memory only)"


def shape_record(shape: Any, size_bytes: int) -> dict[str, Any]:
    """What the second model is, for the results file."""
    from dataclasses import asdict

    return {
        **asdict(shape),
        "file": f"{shape.label}.gguf",
        "size_bytes": size_bytes,
        "weights": "random (seeded normal x 0.02, norms ones); Q4_1 matrices, Q8_0 embedding",
        "tokenizer": "SmolLM2-135M-Instruct's (byte-level BPE, vocabulary 49152, ChatML)",
    }


def second_summary(runs: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Each variant's summary without the answer check, which random weights cannot pass."""
    summary = {variant: summarize(variant_runs) for variant, variant_runs in runs.items()}
    for entry in summary.values():
        entry.pop("answer", None)
        entry["quality_ok"] = None
        entry["quality_check"] = NO_QUALITY_CHECK
    return summary


def headline(vs_llama: dict[str, dict[str, float | None]]) -> dict[str, float | None]:
    """The headline ratios (OpenVINO over llama.cpp, medians) out of a ``vs_llama`` table."""
    return {
        f"{figure} ({variant})": vs_llama.get(variant, {}).get(figure)
        for figure, variant in HEADLINE_RATIOS.items()
    }


def second_report(
    runs: dict[str, list[dict[str, Any]]],
    main_vs_llama: dict[str, dict[str, float | None]],
    model: dict[str, Any],
) -> dict[str, Any]:
    """The ``second_architecture`` entry for one model: its summary, its ``vs_llama`` ratios
    and the headline ratios side by side with the main model's (``second / main``: 1.0 means
    the ratio held exactly)."""
    summary = second_summary(runs)
    vs_llama = {variant: comparison(summary, variant) for variant in runs if variant != LLAMA}
    ours, theirs = headline(vs_llama), headline(main_vs_llama)
    side_by_side = {
        name: {
            "main": theirs[name],
            "second": ours[name],
            "second_over_main": ours[name] / theirs[name]
            if ours[name] is not None and theirs[name]
            else None,
        }
        for name in ours
    }
    return {
        "model": model,
        "quality_check": NO_QUALITY_CHECK,
        "summary": summary,
        "vs_llama": vs_llama,
        "ratios_vs_main_model": side_by_side,
        "runs": runs,
    }
