"""JSON-schema grammar benchmark: writes benchmarks/results/json_schema.json.

What a schema at each edge of the app's budget (:mod:`app.core.schema_budget`) costs OpenVINO
GenAI to compile into a grammar on the real SmolLM2-135M (GGUF, fixture ``llm-real``, a
49k-token vocabulary: the compile works per token). Each schema passes the app's own check and
reaches GenAI as an answer's does (``pipelines.generation.generation_config``: the compact grammar
when it holds the schema, else GenAI's own JSON-schema converter; the tool choice always the
latter). Per case: the compile in ms (GenAI's perf metrics), the CPU seconds of the one-token
answer (xgrammar compiles on several threads, so this is the figure a busy machine does not
skew), and how far the resident memory grew.

The cases run in one child process, smallest first, under an address-space limit and a time
limit, so a compile that ran away would end that child, not the machine. Schemas the budget
refuses are not run here: before it, arrays nested 8 deep took 40 s and 822 MB, and 30 deep
took the server to 23.4 GB (the numbers in ``app/core/schema_budget.py`` come from this run).

Run: ``.venv/bin/python benchmarks/bench_json_schema.py``.
"""

from __future__ import annotations

import json
import logging
import os
import platform
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.chat.structured import check_schema  # noqa: E402
from app.core.schema_budget import (  # noqa: E402
    COSTLIEST_BOUND,
    MAX_ENUM_VALUES,
    MAX_LEVELS,
    MAX_OPTIONAL_PROPERTIES,
    MAX_PATTERN_REPEATS,
    MAX_SUBSCHEMAS,
)
from app.tool_calls.choice import affordable, choice_schema  # noqa: E402
from benchmarks.fixtures import load_builder  # noqa: E402
from benchmarks.machine import wait_until_quiet, write_results  # noqa: E402
from pipelines.json_grammar import json_grammar  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "json_schema.json"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
CHILD_MEMORY_BYTES = 4 << 30
CHILD_SECONDS = 1800
log = logging.getLogger("bench_json_schema")


def cases() -> list[tuple[str, Any, bool]]:
    """``(name, schema, compact_json)`` at the edges of the budget, cheapest first."""

    def nested_arrays(levels: int) -> Any:
        schema: Any = {"type": "string"}
        for _ in range(levels):
            schema = {"type": "array", "items": schema}
        return schema

    def optional_object(count: int, prefix: str) -> Any:
        return {
            "type": "object",
            "properties": {f"{prefix}{i}": {"type": "integer"} for i in range(count)},
        }

    objects = (MAX_SUBSCHEMAS - 2) // (MAX_OPTIONAL_PROPERTIES + 1)
    search_tool = {
        "type": "object",
        "properties": {
            "query": {"type": "string", "maxLength": 256},
            "kinds": {"type": "array", "items": {"enum": ["pdf", "doc", "html"]}},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100},
        },
        "required": ["query"],
    }
    tools = {f"server/tool_{i}": search_tool for i in range(1000)}
    offered = {identifier: tools[identifier] for identifier in affordable(tools)}
    half = MAX_PATTERN_REPEATS // 2
    return [
        ("levels: arrays nested to the limit", nested_arrays(MAX_LEVELS), True),
        (
            "subschemas: required properties to the limit",
            {
                "type": "object",
                "properties": {f"p{i}": {"type": "integer"} for i in range(MAX_SUBSCHEMAS - 1)},
                "required": [f"p{i}" for i in range(MAX_SUBSCHEMAS - 1)],
            },
            True,
        ),
        (
            "enum values to the limit",
            {"enum": [f"value-{i}" for i in range(MAX_ENUM_VALUES)]},
            True,
        ),
        (
            "optional properties: one object at the limit",
            optional_object(MAX_OPTIONAL_PROPERTIES, "p"),
            True,
        ),
        (
            f"optional properties: {objects} objects at the limit",
            {
                "type": "object",
                "properties": {
                    f"o{n}": optional_object(MAX_OPTIONAL_PROPERTIES, f"o{n}p")
                    for n in range(objects)
                },
                "required": [f"o{n}" for n in range(objects)],
            },
            True,
        ),
        (
            "length bounds to the limit, GenAI's converter (a format beside them)",
            {
                "type": "object",
                "properties": {
                    "a": {"type": "string", "maxLength": COSTLIEST_BOUND},
                    "b": {"type": "string", "maxLength": 10**5},
                    "mail": {"type": "string", "format": "email"},
                },
                "required": ["a", "b", "mail"],
            },
            True,
        ),
        (
            "pattern repeats to the limit, GenAI's converter",
            {
                "type": "object",
                "properties": {
                    "a": {"type": "string", "pattern": f"^[a-z]{{1,{half}}}$"},
                    "b": {"type": "string", "pattern": f"^[0-9]{{1,{half}}}$"},
                },
                "required": ["a", "b"],
            },
            True,
        ),
        (
            f"tool choice: {len(offered)} search tools (as many as fit)",
            choice_schema(offered),
            False,
        ),
    ]


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    root = load_builder().ensure_fixtures(["llm-real"])
    model = root / "llm-real" / SMOLLM2_FILE
    planned = []
    for name, schema, compact_json in cases():
        text = check_schema(json.dumps(schema))  # every case is within the budget
        converter = "compact grammar" if compact_json and json_grammar(text) else "GenAI's"
        planned.append({"case": name, "chars": len(text), "converter": converter})
        planned[-1].update(schema=text, compact_json=compact_json)
    contention = wait_until_quiet()
    with tempfile.TemporaryDirectory() as scratch:
        plan = Path(scratch) / "cases.json"
        plan.write_text(json.dumps(planned), encoding="utf-8")
        measured = run_child(model, plan)
    rows = []
    for case, result in zip(planned, measured + [{}] * (len(planned) - len(measured)), strict=True):
        rows.append({k: v for k, v in case.items() if k not in ("schema", "compact_json")} | result)
    results: dict[str, Any] = {
        "model": SMOLLM2_FILE,
        "cases": rows,
        "machine": {**contention.record(), "python": platform.python_version()},
    }
    write_results(RESULTS, results)


def run_child(model: Path, plan: Path) -> list[dict[str, Any]]:
    """Each case's measurements from a child process with limited memory and time (the rows
    it printed before it ended, if it did not finish)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY_BYTES, CHILD_MEMORY_BYTES))

    command = [sys.executable, __file__, "--child", str(model), str(plan)]
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=CHILD_SECONDS,
            preexec_fn=limit,
            check=False,
        )
        output, code = done.stdout, done.returncode
    except subprocess.TimeoutExpired as expired:
        output = expired.stdout if isinstance(expired.stdout, str) else ""
        code = None
    rows = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    if code != 0:
        log.warning("the child ended with %s after %d cases", code, len(rows))
    return rows


def child(model: Path, plan: Path) -> None:
    """Load the model once; for each case, answer one token under its grammar."""
    import openvino_genai as ov_genai

    from pipelines.generation import GenerationSettings, generation_config

    pipeline = ov_genai.LLMPipeline(str(model), "CPU")
    page = os.sysconf("SC_PAGE_SIZE")

    def resident_mb() -> float:
        return int(Path("/proc/self/statm").read_text("ascii").split()[1]) * page / 2**20

    def answer(schema: str, compact_json: bool) -> dict[str, Any]:
        settings = GenerationSettings(
            max_new_tokens=1, json_schema=schema, compact_json=compact_json
        )
        config = generation_config(settings)
        start = resident_mb()
        peak = [start]
        stop = threading.Event()

        def sample() -> None:
            while not stop.wait(0.02):
                peak[0] = max(peak[0], resident_mb())

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        cpu, wall = time.process_time(), time.perf_counter()
        result = pipeline.generate(["Answer in JSON."], config)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        stop.set()
        sampler.join()
        compile_ms = result.perf_metrics.get_grammar_compile_time().mean
        return {
            "compile_ms": round(compile_ms),
            "cpu_s": round(cpu, 2),
            "wall_s": round(wall, 2),
            "memory_growth_mb": round(peak[0] - start),
        }

    answer('{"type": "string"}', True)  # the compiler's own start is not any case's
    for case in json.loads(plan.read_text(encoding="utf-8")):
        row = answer(case["schema"], case["compact_json"])
        row["again_compile_ms"] = answer(case["schema"], case["compact_json"])["compile_ms"]
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        child(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        main()
