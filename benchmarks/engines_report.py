"""From the raw runs of benchmarks/bench_engines.py to the figures, ratios and goals it writes.

Every figure is summarised as min/median/max over the rounds; ratios are of medians measured in
the same run. For a missed goal, every OpenVINO variant that was measured (knobs, the cached IR,
the exports) is listed with the same figure against llama.cpp, so the JSON says which knob
closes the gap, or that none does.
"""

from __future__ import annotations

import statistics
from typing import Any

MAIN, LLAMA, CACHED = "openvino", "llama.cpp", "openvino cached"
RELAID = "openvino re-laid"
"""What the app runs from a GGUF's second open on: the goals are measured on it."""
QUALITY_WORD = "Paris"


def stats(values: list[float]) -> dict[str, float]:
    return {
        "min": min(values),
        "median": statistics.median(values),
        "max": max(values),
        "runs": len(values),
    }


def figures(run: dict[str, Any]) -> dict[str, float]:
    """The numbers of one child run, by figure name (``ttft_s@1024``, ``load_s`` …)."""
    found = {
        "load_s": run["load_s"],
        "import_s": run["import_s"],
        "rss_after_load_mb": run["rss_after_load_mb"],
        "peak_rss_after_load_mb": run["peak_rss_after_load_mb"],
        "peak_rss_mb": run["peak_rss_mb"],
        "rss_after_import_mb": run["rss_after_import_mb"],
    }
    for name, value in run.get("decode_split", {}).items():
        found[f"decode_{name}"] = value
    if "decode" in run:
        found["decode_tokens_per_s"] = run["decode"]["tokens_per_s"]
        found["end_to_end_tokens_per_s"] = run["decode"]["end_to_end_tokens_per_s"]
        found["peak_rss_after_decode_mb"] = run["peak_rss_after_decode_mb"]
        found["rss_after_decode_mb"] = run["rss_after_decode_mb"]
        if run.get("file_backed_after_decode_mb") is not None:
            found["file_backed_after_decode_mb"] = run["file_backed_after_decode_mb"]
            found["file_backed_after_load_mb"] = run["file_backed_after_load_mb"]
        found["wall_decode_tokens_per_s"] = run["decode"]["wall_tokens_per_s"]
    for ttft in run["ttft"]:
        found[f"ttft_s@{ttft['label']}"] = ttft["seconds"]
        if ttft.get("engine_seconds") is not None:
            found[f"engine_ttft_s@{ttft['label']}"] = ttft["engine_seconds"]
    return found


def summarize(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One variant's figures over its rounds, its failures and its answers."""
    good = [run for run in runs if "error" not in run]
    names = sorted({name for run in good for name in figures(run)})
    summary: dict[str, Any] = {
        "figures": {
            name: stats([figures(run)[name] for run in good if name in figures(run)])
            for name in names
        },
        "input_tokens": {t["label"]: t["input_tokens"] for run in good[:1] for t in run["ttft"]},
        "answer": good[0].get("answer", "") if good else "",
        "quality_ok": bool(good) and all(QUALITY_WORD in run.get("answer", "") for run in good),
        "failures": [run["error"] for run in runs if "error" in run],
    }
    if good and "decode" in good[0]:
        summary["decode_text"] = good[0]["decode"]["text"]
    return summary


def median(summary: dict[str, Any], variant: str, figure: str) -> float | None:
    entry = summary.get(variant, {}).get("figures", {}).get(figure)
    return None if entry is None else float(entry["median"])


def ratio(summary: dict[str, Any], top: str, bottom: str, figure: str) -> float | None:
    a, b = median(summary, top, figure), median(summary, bottom, figure)
    return None if a is None or not b else a / b


def comparison(summary: dict[str, Any], variant: str) -> dict[str, float | None]:
    """``variant`` over llama.cpp for every figure both have (ratios of medians)."""
    ours = summary.get(variant, {}).get("figures", {})
    theirs = summary.get(LLAMA, {}).get("figures", {})
    return {name: ratio(summary, variant, LLAMA, name) for name in ours if name in theirs}


def goal(
    summary: dict[str, Any],
    name: str,
    figure: str,
    target: float,
    higher_is_better: bool,
    absolute: bool = False,
    subject: str = RELAID,
) -> dict[str, Any]:
    """One goal: ``subject``'s figure against ``target`` (a ratio to llama.cpp, or seconds
    when ``absolute``); when missed, every OpenVINO variant's value for the same figure."""
    if subject not in summary:  # an older run, or the variant failed
        subject = CACHED if absolute else MAIN

    def value(variant: str) -> float | None:
        return (
            median(summary, variant, figure) if absolute else ratio(summary, variant, LLAMA, figure)
        )

    def meets(measured: float) -> bool:
        return measured >= target if higher_is_better else measured <= target

    measured = value(subject)
    entry: dict[str, Any] = {
        "goal": name,
        "figure": figure,
        "measured_on": subject,
        "value": measured,
        "met": measured is not None and meets(measured),
    }
    if entry["met"] or measured is None:
        return entry
    options = {
        variant: found
        for variant in summary
        if variant != LLAMA and (found := value(variant)) is not None
    }
    ranked = sorted(options.items(), key=lambda item: item[1], reverse=higher_is_better)
    entry["all_openvino_variants"] = dict(ranked)
    entry["variants_meeting_it"] = [variant for variant, found in ranked if meets(found)]
    best, best_value = ranked[0]
    entry["best"] = {"variant": best, "value": best_value}
    return entry


def evidence(summary: dict[str, Any]) -> dict[str, dict[str, float | None]]:
    """The figures that explain each goal's gap, beside the variants' list.

    * decode: how much of OpenVINO's time per token is the model's inference (the rest is
      GenAI's scheduler, sampling and detokenization), against llama.cpp's time per token;
    * peak RSS: the engines' resident memory once imported (libraries alone), after the load
      and after the decode run, and how much of it maps files (libraries, memory-mapped
      weights) rather than being the engine's own;
    * cached load: the load from the converted IR against a load with a compiled-model cache.
    """

    def med(variant: str, figure: str) -> float | None:
        return median(summary, variant, figure)

    infer, tpot = med(MAIN, "decode_infer_ms_per_token"), med(MAIN, "decode_tpot_ms")
    llama_rate = med(LLAMA, "decode_tokens_per_s")
    return {
        "decode": {
            "openvino_infer_ms_per_token": infer,
            "openvino_tpot_ms": tpot,
            "openvino_inference_share": infer / tpot if infer and tpot else None,
            "llama_ms_per_token": 1000.0 / llama_rate if llama_rate else None,
        },
        "peak_rss": {
            **{
                f"{engine}_own_after_decode_mb": difference(
                    med(engine, "rss_after_decode_mb"), med(engine, "file_backed_after_decode_mb")
                )
                for engine in (MAIN, CACHED, LLAMA)
            },
            **{
                f"{engine}_{figure}": med(engine, figure)
                for engine in (MAIN, CACHED, LLAMA)
                for figure in (
                    "rss_after_import_mb",
                    "peak_rss_after_load_mb",
                    "file_backed_after_load_mb",
                    "peak_rss_after_decode_mb",
                    "rss_after_decode_mb",
                    "file_backed_after_decode_mb",
                    "peak_rss_mb",
                )
            },
        },
        "cached_load": {
            variant: med(variant, "load_s")
            for variant in (MAIN, CACHED, "openvino cache_dir", "openvino sdpa cache_dir", LLAMA)
        },
    }


def difference(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a - b


def recommendation(summary: dict[str, Any], exports: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Which format to recommend on CPU: the fastest decode among those answering correctly,
    with its time to first token, load, memory and size beside the runners-up."""
    candidates = [MAIN] + [f"ir {name}" for name in exports]
    rows = []
    for variant in candidates:
        if variant not in summary or median(summary, variant, "decode_tokens_per_s") is None:
            continue
        fmt = "gguf (Q4_1, read directly)" if variant == MAIN else variant.removeprefix("ir ")
        size = exports.get(variant.removeprefix("ir "), {}).get("size_bytes")
        rows.append(
            {
                "format": fmt,
                "variant": variant,
                "quality_ok": summary[variant]["quality_ok"],
                "decode_tokens_per_s": median(summary, variant, "decode_tokens_per_s"),
                "ttft_s@1024": median(summary, variant, "ttft_s@1024"),
                "load_s": median(summary, variant, "load_s"),
                "peak_rss_after_decode_mb": median(summary, variant, "peak_rss_after_decode_mb"),
                "size_bytes": size,
            }
        )
    rows.sort(key=lambda row: (not row["quality_ok"], -(row["decode_tokens_per_s"] or 0.0)))
    if not rows or not rows[0]["quality_ok"]:
        return {"format": None, "why": "no measured format answered the quality check"}
    best = rows[0]
    return {
        "format": best["format"],
        "why": (
            f"fastest decode among formats that answer the quality check: "
            f"{best['decode_tokens_per_s']:.1f} tokens/s, TTFT@1024 {best['ttft_s@1024']:.3f} s"
        ),
        "ranking": rows,
    }


def report(
    runs: dict[str, list[dict[str, Any]]],
    groups: dict[str, str],
    exports: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    """Summary, ratios against llama.cpp, knobs, exports, goals and the recommendation."""
    summary = {variant: summarize(variant_runs) for variant, variant_runs in runs.items()}
    vs_llama = {variant: comparison(summary, variant) for variant in runs if variant != LLAMA}
    knobs = {
        variant: {
            "vs_openvino_cached": {
                figure: ratio(summary, variant, CACHED, figure)
                for figure in ("decode_tokens_per_s", "ttft_s@1024", "load_s")
            },
            "vs_llama": vs_llama[variant],
        }
        for variant, group in groups.items()
        if group == "knob"
    }
    from benchmarks.engines_findings import findings

    goals = {
        "decode": goal(summary, ">= 1.3x llama.cpp", "decode_tokens_per_s", 1.3, True),
        "ttft_1024": goal(summary, "<= 0.2x llama.cpp", "ttft_s@1024", 0.2, False),
        "cached_load": goal(summary, "<= 0.35 s", "load_s", 0.35, False, absolute=True),
        "peak_rss": goal(summary, "<= 1.15x llama.cpp", "peak_rss_after_decode_mb", 1.15, False),
    }
    return {
        "summary": summary,
        "vs_llama": vs_llama,
        "knobs": knobs,
        "exports": {
            name: {key: value for key, value in entry.items() if key != "folder"}
            for name, entry in exports.items()
        },
        "goals": goals,
        "findings": findings(summary, goals),
        "evidence": evidence(summary),
        "recommendation": recommendation(summary, exports),
    }
