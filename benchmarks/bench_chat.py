"""Chat benchmark: writes benchmarks/results/chat.json. Every ratio is measured in one run.

1. tokens/s of the app's chat path (ChatService.ask) vs raw ``openvino_genai.LLMPipeline``;
2. OpenVINO int8/int4 vs Hugging Face transformers fp32 ``generate`` on the same weights;
3. decode throughput vs the memory-bandwidth ceiling on a Qwen2.5-1.5B-shaped int4 model;
4. the largest GUI event-loop lag while an answer streams into the real window (offscreen).

Run: ``.venv/bin/python benchmarks/bench_chat.py [--quick] [--skip-large] [--skip-gui]``.
All models are random-weight fixtures (built once and cached by tests/fixtures/build_models.py);
generation uses ``ignore_eos`` so every run decodes exactly ``--tokens`` tokens.
"""

from __future__ import annotations

import argparse
import logging
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fixtures import load_builder  # noqa: E402
from benchmarks.machine import wait_until_quiet, write_results  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "chat.json"
PROMPT = "Explain in detail how a local language model turns a question into an answer."

log = logging.getLogger("bench_chat")


def median_rate(run: Callable[[], float], repeats: int) -> dict[str, float]:
    """Run once to warm up, then ``repeats`` times; summarise tokens/s."""
    run()
    rates = [run() for _ in range(repeats)]
    return {
        "median_tokens_per_s": statistics.median(rates),
        "min_tokens_per_s": min(rates),
        "max_tokens_per_s": max(rates),
        "runs": float(len(rates)),
    }


def raw_pipeline_rate(
    model: Path, tokens: int, properties: dict[str, str] | None = None
) -> Callable[[], float]:
    """Raw GenAI: a ChatHistory, a streamer callback that returns RUNNING, greedy decoding.

    ``properties`` default to the ones the app compiles with, so the comparison with the app
    path measures the app's own overhead only.
    """
    import openvino_genai as ov_genai

    from app.core.devices import tuning_properties

    if properties is None:
        properties = tuning_properties("chat", "CPU")
    pipe = ov_genai.LLMPipeline(str(model), "CPU", **properties)
    config = ov_genai.GenerationConfig()
    config.max_new_tokens = tokens
    config.ignore_eos = True
    config.do_sample = False
    running = ov_genai.StreamingStatus.RUNNING

    def streamer(_: str) -> Any:
        return running

    def run() -> float:
        history = ov_genai.ChatHistory()
        history.append({"role": "user", "content": PROMPT})
        started = time.perf_counter()
        result = pipe.generate(history, config, streamer)
        elapsed = time.perf_counter() - started
        generated = result.perf_metrics.get_num_generated_tokens()
        assert generated == tokens, generated
        return generated / elapsed

    return run


def app_path_rate(model: Path, tokens: int, home: Path) -> Callable[[], float]:
    """The app's path: ChatService.ask with context fitting, live metrics and streaming."""
    from app.context import AppContext
    from app.core.devices import DeviceInfo
    from app.core.paths import AppPaths
    from pipelines.core import CancelToken
    from pipelines.generation import GenerationSettings

    ctx = AppContext.create(
        AppPaths(home / "config", home / "data", home / "cache", home / "logs"),
        [DeviceInfo("CPU", "CPU")],
    )
    ctx.chat.load_model(model, "CPU")
    # The same decoding work as the raw run: greedy, no repetition penalty.
    settings = GenerationSettings(
        max_new_tokens=tokens, temperature=0.0, repetition_penalty=1.0, ignore_eos=True
    )
    received: list[str] = []

    def run() -> float:
        conversation = ctx.chat.new_conversation("", transient=True)
        started = time.perf_counter()
        answer = ctx.chat.ask(conversation.id, PROMPT, settings, CancelToken(), received.append)
        elapsed = time.perf_counter() - started
        generated = answer.message.metrics["output_tokens"]
        assert generated == tokens, generated
        return generated / elapsed

    return run


def hf_rate(checkpoint: Path, tokens: int) -> Callable[[], float]:
    """Hugging Face transformers fp32 greedy generate on the same weights."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    torch.set_num_threads(os.cpu_count() or 1)
    tokenizer = AutoTokenizer.from_pretrained(checkpoint)
    model = AutoModelForCausalLM.from_pretrained(checkpoint, dtype=torch.float32).eval()
    text = tokenizer.apply_chat_template(
        [{"role": "user", "content": PROMPT}], tokenize=False, add_generation_prompt=True
    )
    inputs = tokenizer(text, return_tensors="pt")

    def run() -> float:
        with torch.inference_mode():
            started = time.perf_counter()
            output = model.generate(
                **inputs,
                max_new_tokens=tokens,
                min_new_tokens=tokens,
                do_sample=False,
                pad_token_id=tokenizer.pad_token_id,
            )
            elapsed = time.perf_counter() - started
        generated = int(output.shape[-1] - inputs["input_ids"].shape[-1])
        assert generated == tokens, generated
        return generated / elapsed

    return run


def copy_bandwidth_gb_s(size_mb: int = 1024, repeats: int = 5) -> float:
    """Best-of-N memory copy bandwidth: bytes read + bytes written per second (GB/s)."""
    import numpy as np

    source = np.ones(size_mb * 2**20, dtype=np.uint8)
    target = np.empty_like(source)
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        np.copyto(target, source)
        best = min(best, time.perf_counter() - started)
    return 2 * source.nbytes / best / 1e9


def bandwidth_fraction(model: Path, tokens: int, properties: dict[str, str]) -> dict[str, float]:
    """Measured decode tokens/s against bandwidth ÷ weight bytes read per token.

    Every weight is read once per decoded token (the embedding is tied to the LM head in the
    Qwen2.5 shape, so even that table is read whole), so the bytes of openvino_model.bin are the
    bytes read per token, give or take the KV cache, which is tiny at this context length.
    """
    import openvino_genai as ov_genai

    weight_bytes = (model / "openvino_model.bin").stat().st_size
    bandwidth = copy_bandwidth_gb_s()
    ceiling = bandwidth * 1e9 / weight_bytes
    pipe = ov_genai.LLMPipeline(str(model), "CPU", **properties)
    config = ov_genai.GenerationConfig()
    config.max_new_tokens = tokens
    config.ignore_eos = True
    config.do_sample = False
    pipe.generate([PROMPT], config)  # warm-up; a list gives DecodedResults with metrics
    tpots = []
    for _ in range(3):
        result = pipe.generate([PROMPT], config)
        tpots.append(result.perf_metrics.get_tpot().mean)
    decode_rate = 1000.0 / statistics.median(tpots)
    return {
        "weight_bytes_per_token": float(weight_bytes),
        "copy_bandwidth_gb_s": bandwidth,
        "ceiling_tokens_per_s": ceiling,
        "decode_tokens_per_s": decode_rate,
        "fraction_of_ceiling": decode_rate / ceiling,
    }


def gui_lag(model: Path, tokens: int, home: Path) -> dict[str, float]:
    """Largest event-loop stall while an answer streams into the real window."""
    from benchmarks.gui_lag import measure_streaming_lag

    return measure_streaming_lag(model, tokens, home)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="fewer repeats, for a smoke run")
    parser.add_argument("--skip-large", action="store_true", help="skip the 1.5B-shaped model")
    parser.add_argument("--skip-gui", action="store_true", help="skip the GUI lag measurement")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    repeats = 2 if args.quick else args.repeats

    builder = load_builder()
    roles = ["llm-bench-int8", "llm-bench-int4", "llm-bench-hf"]
    if not args.skip_large:
        roles.append("llm-1.5b-int4")
    root = builder.ensure_fixtures(roles)
    int8, int4, hf = root / "llm-bench-int8", root / "llm-bench-int4", root / "llm-bench-hf"
    results: dict[str, Any] = {
        "machine": {},  # at the end: how quiet it stayed (benchmarks/machine.py)
        "settings": {"new_tokens": args.tokens, "repeats": repeats, "ignore_eos": True},
    }

    contention = wait_until_quiet()
    with tempfile.TemporaryDirectory() as home:
        log.info("1/4 app path vs raw LLMPipeline (int8)")
        raw = median_rate(raw_pipeline_rate(int8, args.tokens), repeats)
        app = median_rate(app_path_rate(int8, args.tokens, Path(home)), repeats)
        results["app_vs_raw"] = {
            "model": "llm-bench-int8",
            "raw": raw,
            "app": app,
            "ratio": app["median_tokens_per_s"] / raw["median_tokens_per_s"],
            "goal": ">= 0.97",
        }

        log.info("2/4 OpenVINO int8/int4 vs transformers fp32")
        hf_result = median_rate(hf_rate(hf, args.tokens), max(2, repeats // 2))
        int4_result = median_rate(raw_pipeline_rate(int4, args.tokens), repeats)
        base = hf_result["median_tokens_per_s"]
        results["openvino_vs_transformers"] = {
            "transformers_fp32": hf_result,
            "openvino_int8": raw,
            "openvino_int4": int4_result,
            "int8_speedup": raw["median_tokens_per_s"] / base,
            "int4_speedup": int4_result["median_tokens_per_s"] / base,
            "goal": ">= 8x",
        }

        log.info("   CPU inference precision: the app's f32 vs OpenVINO's default")
        default_precision = median_rate(raw_pipeline_rate(int8, args.tokens, {}), repeats)
        results["cpu_precision"] = {
            "model": "llm-bench-int8",
            "openvino_default": default_precision,
            "app_f32": raw,
            "speedup": raw["median_tokens_per_s"] / default_precision["median_tokens_per_s"],
        }

        if not args.skip_large:
            log.info("3/4 decode vs memory-bandwidth ceiling (Qwen2.5-1.5B shape, int4)")
            from app.core.devices import tuning_properties

            large = root / "llm-1.5b-int4"
            results["bandwidth_ceiling"] = {
                "model": "llm-1.5b-int4",
                "app_f32": bandwidth_fraction(large, args.tokens, tuning_properties("chat", "CPU")),
                "openvino_default": bandwidth_fraction(large, args.tokens, {}),
            }

        if not args.skip_gui:
            log.info("4/4 GUI event-loop lag while streaming")
            results["gui_lag"] = {**gui_lag(int8, args.tokens, Path(home)), "goal_ms": "<= 50"}

    results["machine"] = {**contention.record(), "python": platform.python_version()}
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
