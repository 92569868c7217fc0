"""JSON-answer decoding benchmark: writes benchmarks/results/json_decode.json.

What writing a JSON answer's string costs per token under each grammar, against free text in
the same run, on the real SmolLM2-135M (GGUF, fixture ``llm-real``), greedy, repetition penalty
1.0 (the app's default): "Describe a city." under ``{"city": string, "people": integer}``
loops inside the string ("{city} {city} …"), so each of the 40 tokens is matched there.

- ``free text``: no grammar (the baseline);
- ``compact grammar (the app's)``: :func:`pipelines.json_grammar.json_grammar` as answers get it
  (an open string);
- ``string capped at 2,000 (the grammar before)``: the same with ``jchr{0,2000}``, as the
  compact grammar wrote every string without ``maxLength`` until it was found to cost seconds a
  token;
- ``maxLength 128`` and ``maxLength 129``: the longest bound the grammar keeps
  (:data:`pipelines.json_grammar_ebnf.MAX_LENGTH_IN_GRAMMAR`) and one past it (left to the answer's
  check).

CPU seconds of the process per generated token (xgrammar and the CPU plugin use several
threads; CPU time is what a busy machine does not skew), and the ratio to free text.

Run: ``.venv/bin/python benchmarks/bench_json_decode.py``.
"""

from __future__ import annotations

import json
import logging
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_grammar_probe import SMOLLM2_FILE, smollm2_folder  # noqa: E402
from benchmarks.machine import wait_until_quiet, write_results  # noqa: E402
from pipelines.json_grammar import json_grammar  # noqa: E402
from pipelines.json_grammar_ebnf import MAX_LENGTH_IN_GRAMMAR  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "json_decode.json"
TOKENS = 40
QUESTION = "Describe a city."
log = logging.getLogger("bench_json_decode")


def schema(**city: Any) -> str:
    """The benchmark's schema, its string given ``city``'s keywords."""
    return json.dumps(
        {
            "type": "object",
            "properties": {"city": {"type": "string", **city}, "people": {"type": "integer"}},
            "required": ["city", "people"],
        }
    )


def grammars() -> list[tuple[str, str | None]]:
    """``(case, EBNF)`` in the order run; None: free text."""
    compact = json_grammar(schema())
    assert compact is not None and "jchr*" in compact
    capped = compact.replace("jchr*", "jchr{0,2000}")
    kept = json_grammar(schema(maxLength=MAX_LENGTH_IN_GRAMMAR))
    past = json_grammar(schema(maxLength=MAX_LENGTH_IN_GRAMMAR + 1))
    assert kept is not None and past is not None
    return [
        ("free text", None),
        ("compact grammar (the app's)", compact),
        ("string capped at 2,000 (the grammar before)", capped),
        (f"maxLength {MAX_LENGTH_IN_GRAMMAR}", kept),
        (f"maxLength {MAX_LENGTH_IN_GRAMMAR + 1}", past),
    ]


def measure(folder: Path) -> list[dict[str, Any]]:
    """Each grammar's answer: its tokens, CPU and wall time per token, the ratio to free text."""
    import openvino_genai as ov_genai
    import psutil

    pipe = ov_genai.LLMPipeline(str(folder), "CPU")
    me = psutil.Process()
    history = ov_genai.ChatHistory()
    history.append({"role": "user", "content": QUESTION})
    rows: list[dict[str, Any]] = []
    for case, grammar in grammars():
        config = ov_genai.GenerationConfig()
        config.max_new_tokens = TOKENS
        config.do_sample = False
        config.repetition_penalty = 1.0
        if grammar is not None:
            config.structured_output_config = ov_genai.StructuredOutputConfig(grammar=grammar)
            pipe.generate(history, config)  # the grammar's compile is not what is measured
        before, started = me.cpu_times(), time.perf_counter()
        result = pipe.generate(history, config)
        after, wall = me.cpu_times(), time.perf_counter() - started
        tokens = int(result.perf_metrics.get_num_generated_tokens())
        cpu = after.user + after.system - before.user - before.system
        rows.append(
            {
                "case": case,
                "tokens": tokens,
                "cpu_ms_per_token": round(cpu / tokens * 1000, 1),
                "wall_ms_per_token": round(wall / tokens * 1000, 1),
                "answer_start": result.texts[0][:60],
            }
        )
        log.info("%s", rows[-1])
    baseline = rows[0]["cpu_ms_per_token"]
    for row in rows:
        row["cpu_ratio_to_free_text"] = round(row["cpu_ms_per_token"] / baseline, 2)
    return rows


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    with tempfile.TemporaryDirectory() as scratch:
        folder = smollm2_folder(Path(scratch))
        contention = wait_until_quiet()
        results: dict[str, Any] = {
            "model": SMOLLM2_FILE,
            "question": QUESTION,
            "tokens": TOKENS,
            "cases": measure(folder),
            "machine": {**contention.record(), "python": platform.python_version()},
        }
    write_results(RESULTS, results)


if __name__ == "__main__":
    main()
