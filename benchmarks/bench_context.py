"""Long-chat benchmark: writes benchmarks/results/context.json.

One conversation with the real SmolLM2-135M (GGUF, fixture ``llm-real``, 8,192 tokens of
context) through the app's chat path (``ChatService.ask``: context fitting, streaming, saving
every turn), on CPU, filled quickly — questions of about 540 tokens, answers of 16 (greedy,
``ignore_eos``) — and carried on well past the point where the context is full.

Compared in the same run, each in a fresh process (its own KV and prefix cache, its own
memory), the rules for leaving older turns out (``app/chat/history.py``):

* ``one_by_one``: the rule before — drop the oldest messages until the next turn fits, so
  once full, every prompt begins differently and GenAI reads the whole window again (the
  baseline, run for fewer turns: each costs a full read);
* ``blocks_<share>``: the app's rule — when the next turn does not fit, cut down to ``share``
  of the prompt's room at once; the turns after append to the same beginning (the app ships
  :data:`~app.chat.history.KEEP_SHARE`; the others show the trade-off).

Recorded per turn: GenAI's time to first token, the process's CPU seconds for the turn (less
disturbed than wall time when other jobs share the machine), tokens read, whether the prompt
began as the previous one did, resident memory. Summaries: before the fill (the 3 turns before
it), after it (mean, median, max), their ratios, and each rule against ``one_by_one``.

Run: ``.venv/bin/python benchmarks/bench_context.py [--after-fill 24] [--baseline-after-fill 8]``.
"""

from __future__ import annotations

import argparse
import json
import logging
import platform
import random
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

RESULTS = ROOT / "benchmarks" / "results" / "context.json"
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
SYSTEM_PROMPT = "You are a helpful assistant."
QUESTION_WORDS = 480
"""Words per question: about 540 SmolLM2 tokens, so the 8,192-token window fills in ~15 turns."""
ANSWER_TOKENS = 16
BEFORE_FILL = 3
SHARES = (0.5, 0.6, 0.75)
TOPICS = [
    *("rivers", "mountains", "cities", "history", "science", "music", "cooking", "gardens"),
    *("trains", "weather", "oceans", "languages", "numbers", "stories", "planets", "animals"),
    *("forests", "bridges", "markets", "libraries"),
]
log = logging.getLogger("bench_context")


def question(turn: int, rng: random.Random) -> str:
    """A long question, different every turn (the same sequence in every process)."""
    words = " ".join(rng.choice(TOPICS) for _ in range(QUESTION_WORDS))
    return f"Turn {turn}. {words}. Summarise this in one line."


def one_by_one(
    messages: Any, count: Any, room: int, system_tokens: int, question_tokens: int
) -> Any:
    """The rule before blocks, as ``kept_history`` is called: the newest messages that fit,
    dropping the oldest one at a time."""
    from app.chat.history import KeptHistory, message_tokens

    used, first = 0, len(messages)
    for index in range(len(messages) - 1, -1, -1):
        cost = message_tokens(count, messages[index].content)
        if system_tokens + question_tokens + used + cost > room:
            break
        used += cost
        first = index
    return KeptHistory(first, used)


def run_conversation(
    model: Path, rule: str, after_fill: int, converted: Path
) -> list[dict[str, Any]]:
    """The child process: one conversation until ``after_fill`` turns past the fill
    (``converted``: the GGUF's converted-model cache, shared by the runs)."""
    import psutil

    from app.chat import context_window as chat_context
    from app.chat import history as chat_history
    from app.chat.service import ChatService
    from app.chat.storage import ConversationStore
    from app.core.devices import DeviceInfo
    from app.core.performance.metrics import MetricsBus
    from pipelines.chat import ChatPipeline
    from pipelines.core import CancelToken
    from pipelines.generation import GenerationSettings, Message

    if rule == "one_by_one":
        chat_context.kept_history = one_by_one  # type: ignore[attr-defined]
    else:
        chat_history.KEEP_SHARE = float(rule.removeprefix("blocks_"))
    prompts: list[list[Message]] = []

    class Observed(ChatPipeline):
        def generate(self, messages: Any, *args: Any, **kwargs: Any) -> Any:
            prompts.append(list(messages))
            return super().generate(messages, *args, **kwargs)

    process = psutil.Process()
    rng = random.Random(7)
    series: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as home:
        service = ChatService(
            ConversationStore(Path(home) / "conversations"),
            MetricsBus(),
            [DeviceInfo("CPU", "CPU")],
            pipeline_factory=lambda config: Observed(config),
            converted_cache=converted,
        )
        service.load_model(model, "CPU")
        settings = GenerationSettings(
            max_new_tokens=ANSWER_TOKENS, temperature=0.0, repetition_penalty=1.0, ignore_eos=True
        )
        conversation = service.new_conversation(SYSTEM_PROMPT)
        fill: int | None = None
        turn = 0
        while fill is None or turn < fill + after_fill - 1:
            turn += 1
            cpu = sum(process.cpu_times()[:2])
            answer = service.ask(
                conversation.id, question(turn, rng), settings, CancelToken(), lambda _: None
            )
            cpu = sum(process.cpu_times()[:2]) - cpu
            prompt = prompts[-1]
            previous = prompts[-2] if len(prompts) > 1 else []
            if fill is None and len(prompt) < 2 * turn:  # 1 system + 2 per earlier turn + 1
                fill = turn
            metrics = answer.message.metrics
            series.append(
                {
                    "turn": turn,
                    "after_fill": fill is not None,
                    "input_tokens": metrics["input_tokens"],
                    "ttft_ms": round(metrics["ttft_ms"], 1),
                    "cpu_s": round(cpu, 2),
                    "reused_previous_prompt": prompt[: len(previous)] == previous,
                    "rss_mb": round(process.memory_info().rss / 2**20, 1),
                }
            )
            log.info("  %s %s", rule, json.dumps(series[-1]))
    return series


def summarise(series: list[dict[str, Any]]) -> dict[str, Any]:
    """Before and after the fill, and memory after it."""
    fill = next(i for i, row in enumerate(series) if row["after_fill"])
    before, after = series[max(0, fill - BEFORE_FILL) : fill], series[fill:]

    def spread(rows: list[dict[str, Any]], key: str) -> dict[str, float]:
        values = [row[key] for row in rows]
        return {
            "mean": round(statistics.fmean(values), 2),
            "median": round(statistics.median(values), 2),
            "max": round(max(values), 2),
        }

    ttft_before = statistics.median(row["ttft_ms"] for row in before)
    cpu_before = statistics.median(row["cpu_s"] for row in before)
    ttft_after, cpu_after = spread(after, "ttft_ms"), spread(after, "cpu_s")
    return {
        "context_full_from_turn": series[fill]["turn"],
        "turns_after_fill": len(after),
        "before_fill": {"median_ttft_ms": ttft_before, "median_cpu_s": cpu_before},
        "after_fill": {
            "ttft_ms": ttft_after,
            "cpu_s": cpu_after,
            "turns_reusing_previous_prompt": sum(row["reused_previous_prompt"] for row in after),
            "mean_input_tokens": round(statistics.fmean(row["input_tokens"] for row in after)),
            "min_input_tokens": min(row["input_tokens"] for row in after),
        },
        "after_vs_before": {
            "mean_ttft": round(ttft_after["mean"] / ttft_before, 2),
            "max_ttft": round(ttft_after["max"] / ttft_before, 2),
            "mean_cpu": round(cpu_after["mean"] / cpu_before, 2),
            "max_cpu": round(cpu_after["max"] / cpu_before, 2),
        },
        "rss_mb": {
            "before_fill": series[fill - 1]["rss_mb"],
            "first_after_fill": series[fill]["rss_mb"],
            "max": max(row["rss_mb"] for row in series),
            "last": series[-1]["rss_mb"],
        },
        "series": series,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--after-fill", type=int, default=24, help="turns past the fill")
    parser.add_argument(
        "--baseline-after-fill", type=int, default=8, help="turns past the fill, one_by_one"
    )
    parser.add_argument(
        "--child", nargs=3, metavar=("MODEL", "RULE", "CONVERTED"), help=argparse.SUPPRESS
    )
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")

    if args.child:
        model, rule, converted = args.child
        series = run_conversation(Path(model), rule, args.after_fill, Path(converted))
        Path(args.out).write_text(json.dumps(series), encoding="utf-8")
        return 0

    model = load_builder().ensure_fixtures(["llm-real"]) / "llm-real" / MODEL_FILE
    from app.chat.history import KEEP_SHARE

    # The app's rule and the baseline first: the other shares only show the trade-off.
    rules = {f"blocks_{KEEP_SHARE}": args.after_fill, "one_by_one": args.baseline_after_fill}
    rules.update({f"blocks_{share}": args.after_fill for share in SHARES if share != KEEP_SHARE})
    results: dict[str, Any] = {
        "machine": {},  # at the end: how quiet it stayed (benchmarks/machine.py)
        "settings": {
            "model": MODEL_FILE,
            "question_words": QUESTION_WORDS,
            "answer_tokens": ANSWER_TOKENS,
            "app_keep_share": KEEP_SHARE,
        },
    }
    contention = wait_until_quiet()
    with tempfile.TemporaryDirectory() as converted:
        for rule, after_fill in rules.items():
            log.info("%s: %d turns past the fill", rule, after_fill)
            with tempfile.NamedTemporaryFile(suffix=".json") as out:
                command = [sys.executable, __file__, "--child", str(model), rule, converted]
                command += ["--after-fill", str(after_fill), "--out", out.name]
                subprocess.run(command, check=True)
                series = json.loads(Path(out.name).read_text(encoding="utf-8"))
            results[rule] = summarise(series)
    baseline = results["one_by_one"]["after_fill"]
    for rule in rules:
        after = results[rule]["after_fill"]
        results[rule]["vs_one_by_one"] = {
            "mean_ttft": round(after["ttft_ms"]["mean"] / baseline["ttft_ms"]["mean"], 3),
            "max_ttft": round(after["ttft_ms"]["max"] / baseline["ttft_ms"]["max"], 3),
            "mean_cpu": round(after["cpu_s"]["mean"] / baseline["cpu_s"]["mean"], 3),
        }
    results["machine"] = {**contention.record(), "python": platform.python_version()}
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
