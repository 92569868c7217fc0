"""Memory benchmark: writes benchmarks/results/memory.json.

A long conversation in one process, through the app's chat path (``ChatService.ask``: context
fitting, streaming, saving every turn), on CPU. Once the context is full every turn sends a
prompt of a slightly different length, which is what made the process grow turn after turn
(see ``pipelines/native_memory.py``). For each model the same conversation runs twice, each in
a fresh process (oneDNN's cache size is per process):

* ``openvino_defaults``: OpenVINO's own cache sizes (runtime cache 5000 entries, oneDNN's
  primitive cache 1024) and the C library's adaptive mmap threshold;
* ``app``: the app as it ships (the chat model's runtime cache bounded, oneDNN's off, the
  threshold fixed).

Recorded per run: resident memory after every turn, the growth from turn 20 to the last turn
(goal: under 5 %), the turn at which the context was first full, and the median time to first
token and tokens/s over the turns after 20, so the speed cost of the bound is a ratio measured
in the same run. Answers are greedy with ``ignore_eos``, so every turn decodes ``--tokens``.

Run: ``.venv/bin/python benchmarks/bench_memory.py [--turns 200] [--tokens 64] [--quick]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fixtures import load_builder  # noqa: E402
from benchmarks.machine import wait_until_quiet, write_results  # noqa: E402
from pipelines.native_memory import NATIVE_DEFAULTS_VARIABLE  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "memory.json"
CONFIGS = ("openvino_defaults", "app")
OPENVINO_DEFAULTS = {"runtime_cache": "5000", "onednn_cache": "1024"}
GROWTH_GOAL = 0.05
FROM_TURN = 20
SYSTEM_PROMPT = "You are a helpful assistant."
log = logging.getLogger("bench_memory")


def question(turn: int) -> str:
    """A question of a length that varies from turn to turn, as a person's do."""
    detail = " and how it compares with the previous one" * (turn % 4)
    return f"Question {turn}: what do you know about topic {turn * 7}{detail}?"


def run_conversation(model: Path, config: str, turns: int, tokens: int) -> dict[str, Any]:
    """The child process: one conversation of ``turns`` turns; returns the per-turn series."""
    import psutil

    from app.chat.service import ChatService
    from app.chat.storage import ConversationStore
    from app.core.devices import DeviceInfo
    from app.core.performance.metrics import MetricsBus
    from pipelines.chat import ChatModelConfig, ChatPipeline
    from pipelines.core import CancelToken
    from pipelines.generation import GenerationSettings

    def pipeline(chat_config: ChatModelConfig) -> ChatPipeline:
        if config == "openvino_defaults":  # the app's properties, but OpenVINO's cache size
            properties = {
                **chat_config.properties,
                "CPU_RUNTIME_CACHE_CAPACITY": OPENVINO_DEFAULTS["runtime_cache"],
            }
            chat_config = dataclasses.replace(chat_config, properties=properties)
        return ChatPipeline(chat_config)

    with tempfile.TemporaryDirectory() as home:
        service = ChatService(
            ConversationStore(Path(home) / "conversations"),
            MetricsBus(),
            [DeviceInfo("CPU", "CPU")],
            pipeline_factory=pipeline,
        )
        service.load_model(model, "CPU")
        settings = GenerationSettings(
            max_new_tokens=tokens, temperature=0.0, repetition_penalty=1.0, ignore_eos=True
        )
        conversation = service.new_conversation(SYSTEM_PROMPT)
        process = psutil.Process()
        series: list[dict[str, float]] = []
        for turn in range(1, turns + 1):
            answer = service.ask(
                conversation.id, question(turn), settings, CancelToken(), lambda _text: None
            )
            metrics = answer.message.metrics
            series.append(
                {
                    "turn": turn,
                    "rss_mb": process.memory_info().rss / 2**20,
                    "input_tokens": metrics["input_tokens"],
                    "ttft_ms": metrics["ttft_ms"],
                    "tokens_per_s": metrics["tokens_per_s"],
                }
            )
            if turn % 20 == 0:
                log.info(
                    "  %s turn %d: %.1f MB, %d input tokens",
                    config,
                    turn,
                    series[-1]["rss_mb"],
                    metrics["input_tokens"],
                )
    return {"onednn_cache": os.environ.get("ONEDNN_PRIMITIVE_CACHE_CAPACITY"), "series": series}


def summarise(series: list[dict[str, float]]) -> dict[str, Any]:
    """Growth from turn 20, when the context filled, and the speed after turn 20."""
    rss = [row["rss_mb"] for row in series]
    inputs = [row["input_tokens"] for row in series]
    later = series[FROM_TURN:]
    full_turn = next(
        (row["turn"] for row in series if row["input_tokens"] >= 0.9 * max(inputs)), None
    )
    growth = rss[-1] / rss[FROM_TURN - 1] - 1.0
    return {
        "rss_mb_at": {
            str(row["turn"]): round(row["rss_mb"], 1)
            for row in series
            if row["turn"] in (1, 10) or row["turn"] % 20 == 0
        },
        "growth_from_turn_20": round(growth, 4),
        "goal_met": growth < GROWTH_GOAL,
        "context_full_from_turn": full_turn,
        "input_tokens_after_turn_20": [min(inputs[FROM_TURN:]), max(inputs[FROM_TURN:])],
        "median_ttft_ms": round(statistics.median(row["ttft_ms"] for row in later), 2),
        "median_tokens_per_s": round(statistics.median(row["tokens_per_s"] for row in later), 1),
    }


def measure(model: Path, turns: int, tokens: int) -> dict[str, Any]:
    """Both configurations on ``model``, each in its own process, and their ratios."""
    result: dict[str, Any] = {}
    for config in CONFIGS:
        env = dict(os.environ)
        env.pop("ONEDNN_PRIMITIVE_CACHE_CAPACITY", None)  # the app's own choice ...
        if config == "openvino_defaults":  # ... or oneDNN's default, set explicitly
            env["ONEDNN_PRIMITIVE_CACHE_CAPACITY"] = OPENVINO_DEFAULTS["onednn_cache"]
            env[NATIVE_DEFAULTS_VARIABLE] = "1"  # and glibc's threshold left adaptive
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            command = [sys.executable, __file__, "--child", str(model), config]
            command += ["--turns", str(turns), "--tokens", str(tokens), "--out", out.name]
            subprocess.run(command, check=True, env=env)
            child = json.loads(Path(out.name).read_text(encoding="utf-8"))
        result[config] = {"onednn_cache": child["onednn_cache"], **summarise(child["series"])}
    app, defaults = result["app"], result["openvino_defaults"]
    rate = app["median_tokens_per_s"] / defaults["median_tokens_per_s"]
    result["app_vs_defaults"] = {
        "tokens_per_s_ratio": round(rate, 3),
        "ttft_ratio": round(app["median_ttft_ms"] / defaults["median_ttft_ms"], 3),
        "rss_at_last_turn_mb": [
            defaults["rss_mb_at"][str(turns)],
            app["rss_mb_at"][str(turns)],
        ],
    }
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--tokens", type=int, default=64, help="tokens in every answer")
    parser.add_argument("--quick", action="store_true", help="the tiny model only")
    parser.add_argument("--child", nargs=2, metavar=("MODEL", "CONFIG"), help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    if args.turns <= FROM_TURN:
        parser.error(f"--turns must be above {FROM_TURN}")

    if args.child:
        model, config = args.child
        child = run_conversation(Path(model), config, args.turns, args.tokens)
        Path(args.out).write_text(json.dumps(child), encoding="utf-8")
        return 0

    roles = ["llm-int8"] if args.quick else ["llm-int8", "llm-bench-int8"]
    root = load_builder().ensure_fixtures(roles)
    results: dict[str, Any] = {
        "machine": {},  # at the end: how quiet it stayed (benchmarks/machine.py)
        "settings": {
            "turns": args.turns,
            "answer_tokens": args.tokens,
            "goal": f"growth from turn {FROM_TURN} to {args.turns} < {GROWTH_GOAL:.0%}",
            "openvino_defaults": OPENVINO_DEFAULTS,
        },
    }
    contention = wait_until_quiet()
    for role in roles:
        log.info("%s: %d turns in one conversation", role, args.turns)
        results[role] = measure(root / role, args.turns, args.tokens)
    results["machine"] = {**contention.record(), "python": platform.python_version()}
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
