"""What ``bench_images.py`` writes: each engine's medians and its ratio to PyTorch's best.

Pure functions over the children's JSON (``benchmarks/images_child.py``), so the arithmetic
is tested without drawing a picture (tests/unit/benchmarks/test_images_report.py).
"""

from __future__ import annotations

import statistics
from typing import Any

OPENVINO = "openvino_int8"
TORCH_ENGINES = ("pytorch_fp32", "pytorch_bf16")
STAGES = ("text_encoder_s", "denoise_first_s", "denoise_step_s", "vae_decode_s")
KEPT = (
    "engine",
    "load_s",
    "warmup_s",
    "rss_after_load_mb",
    "peak_rss_after_load_mb",
    "peak_rss_mb",
    "picture",
    "properties",
    "cpu_inference_precision_default",
)
"""What a summary copies from the child's result as it is."""
GOAL_SPEEDUP = 2.5
"""Issue 34: OpenVINO at least 2.5× faster per picture than PyTorch's best on the same CPU."""


def summarize(run: dict[str, Any]) -> dict[str, Any]:
    """One engine: the median picture's seconds and stages over its rounds, and its memory."""
    rounds = run["rounds"]
    if not rounds:
        raise ValueError("an engine run with no timed rounds")
    summary: dict[str, Any] = {"seconds": round(_median(rounds, "seconds"), 3)}
    summary["stages"] = {stage: round(_median(rounds, stage), 4) for stage in STAGES}
    summary["steps"] = int(rounds[-1]["steps"])
    summary["rounds_s"] = [round(one["seconds"], 3) for one in rounds]
    for key in KEPT:
        if key in run:
            summary[key] = run[key]
    return summary


def compare(summaries: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """OpenVINO against each PyTorch run and against the faster of them (its best).

    Speed-ups are PyTorch's seconds over OpenVINO's (above 1: OpenVINO is faster); memory is
    OpenVINO's peak over PyTorch's (below 1: OpenVINO needs less).
    """
    if OPENVINO not in summaries:
        return {}
    ours = summaries[OPENVINO]
    torch_runs = {name: summaries[name] for name in TORCH_ENGINES if name in summaries}
    if not torch_runs:
        return {}
    best = min(torch_runs, key=lambda name: torch_runs[name]["seconds"])
    report: dict[str, Any] = {"pytorch_best": best}
    for name, run in torch_runs.items():
        report[f"speedup_vs_{name}"] = _ratio(run["seconds"], ours["seconds"])
        report[f"stage_speedup_vs_{name}"] = {
            stage: _ratio(run["stages"][stage], ours["stages"][stage]) for stage in STAGES
        }
        if "peak_rss_mb" in run and "peak_rss_mb" in ours:
            report[f"peak_rss_ratio_vs_{name}"] = _ratio(ours["peak_rss_mb"], run["peak_rss_mb"])
    speedup = report[f"speedup_vs_{best}"]
    report["speedup_vs_pytorch_best"] = speedup
    report["goal_speedup_at_least"] = GOAL_SPEEDUP
    report["goal_met"] = speedup is not None and speedup >= GOAL_SPEEDUP
    return report


def mode_switch_report(run: dict[str, Any]) -> dict[str, Any]:
    """Each mode's first call on one generator, and whether any of them compiled again."""
    calls = run["calls"]
    compiles = [call["compiles"] for call in calls]
    return {
        "calls": calls,
        "compiles": run["compiles"],
        "loads_nothing_again": bool(compiles) and all(count == 1 for count in compiles),
    }


def _median(rounds: list[dict[str, float]], key: str) -> float:
    return float(statistics.median(one[key] for one in rounds))


def _ratio(numerator: float, denominator: float) -> float | None:
    return round(numerator / denominator, 3) if denominator > 0 else None
