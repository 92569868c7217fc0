"""Grammar-probe benchmark: writes benchmarks/results/grammar_probe.json.

Two questions about :mod:`pipelines.grammar_probe` on the real SmolLM2-135M (GGUF, fixture
``llm-real``, converted once to OpenVINO IR in a scratch folder):

- **What a new JSON schema costs** before its answer starts: the probe's child (a Python start,
  OpenVINO and the tokenizer loaded, a synthetic model built, the grammar compiled) for a
  small schema, a few times; and what the same schema costs once its verdict is kept (the
  guard's memory, then its file after a restart).
- **Whether the probe's compile tracks the real model's**: the same grammars compiled in the
  probe (synthetic model) and by the real model (``LLMPipeline`` on the IR, one token), each in
  a child process under an address-space limit and a time limit — CPU seconds and how far the
  resident memory grew. One grammar is the budget's costliest schema (string bounds given to
  GenAI's converter); the other is the kind of grammar that once took the server to 23 GB:
  arrays nested 7 deep with their items written out again at each level, as the compact
  grammar did before it named them (a bomb that grows memory; nothing the app makes now).

Run: ``.venv/bin/python benchmarks/bench_grammar_probe.py``.
"""

from __future__ import annotations

import json
import logging
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fixtures import load_builder  # noqa: E402
from benchmarks.machine import wait_until_quiet, write_results  # noqa: E402
from pipelines.grammar_guard import GrammarGuard, probe_target  # noqa: E402
from pipelines.grammar_probe import GrammarSpec, ProbeLimits, run_probe  # noqa: E402
from pipelines.json_grammar import grammar_spec  # noqa: E402
from tests.grammar_schemas import COSTLY  # noqa: E402 - measured there, for the tests

RESULTS = ROOT / "benchmarks" / "results" / "grammar_probe.json"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
NEW_SCHEMA_RUNS = 5
CHILD_MEMORY_BYTES = 6 << 30
CHILD_SECONDS = 1800
SMALL = json.dumps(
    {
        "type": "object",
        "properties": {"name": {"type": "string", "maxLength": 20}, "age": {"type": "integer"}},
        "required": ["name", "age"],
    }
)
log = logging.getLogger("bench_grammar_probe")


def copied_arrays(levels: int) -> str:
    """EBNF of arrays nested ``levels`` deep whose items are written out again at each level
    (the compact grammar before it named items): its compile grows memory with the depth."""
    value = "jstr"
    for _ in range(levels):
        value = f'"[" ({value} ("," {value}){{0,99}})? "]"'
    return (
        f"root ::= {value}\n"
        'jstr ::= "\\"" jchr{0,2000} "\\""\n'
        'jchr ::= [^"\\\\\\x00-\\x1f] | "\\\\" (["\\\\/bfnrt] | "u" [0-9a-fA-F]{4})'
    )


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    with tempfile.TemporaryDirectory() as scratch:
        folder = smollm2_folder(Path(scratch))
        contention = wait_until_quiet()
        results: dict[str, Any] = {
            "model": SMOLLM2_FILE,
            "new_schema": new_schema_costs(folder, Path(scratch)),
            "tracking": tracking(folder),
            "machine": {**contention.record(), "python": platform.python_version()},
        }
    write_results(RESULTS, results)


def smollm2_folder(scratch: Path) -> Path:
    """The real SmolLM2-135M (the ``llm-real`` fixture) as OpenVINO IR under ``scratch``."""
    root = load_builder().ensure_fixtures(["llm-real"])
    return convert(root / "llm-real" / SMOLLM2_FILE, scratch)


def convert(gguf: Path, scratch: Path) -> Path:
    """The GGUF's OpenVINO IR (converted in a child: the parent stays small)."""
    script = (
        "import sys; from pathlib import Path; "
        "from pipelines.chat import make_llm_pipeline; from pipelines.gguf_cache import open_gguf; "
        "o = open_gguf(Path(sys.argv[1]), Path(sys.argv[2]), "
        "lambda p, e: make_llm_pipeline(p, 'CPU', e)); print(o.folder)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(gguf), str(scratch / "converted")],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        preexec_fn=_limited,
    )
    return Path(done.stdout.strip().splitlines()[-1])


def new_schema_costs(folder: Path, scratch: Path) -> dict[str, Any]:
    """Seconds a new small schema waits for its verdict, and a known one."""
    target = probe_target(folder)
    spec = grammar_spec(SMALL)
    walls = []
    for _ in range(NEW_SCHEMA_RUNS):
        started = time.perf_counter()
        verdict = run_probe(spec, target, ProbeLimits())
        walls.append(round(time.perf_counter() - started, 2))
        assert verdict.fits, verdict
    guard = GrammarGuard(scratch / "verdicts")
    guard.check(spec, target)
    started = time.perf_counter()
    guard.check(spec, target)
    remembered_ms = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    GrammarGuard(scratch / "verdicts").check(spec, target)  # the next run of the app
    on_disk_ms = (time.perf_counter() - started) * 1000
    return {
        "schema": "an object of a string (maxLength 20) and an integer, both required",
        "probe_wall_s": walls,
        "probe_median_wall_s": sorted(walls)[len(walls) // 2],
        "known_in_memory_ms": round(remembered_ms, 3),
        "known_on_disk_ms": round(on_disk_ms, 3),
    }


def tracking(folder: Path) -> list[dict[str, Any]]:
    """The same grammars compiled by the probe and by the real model."""
    cases = [
        ("the budget's costliest string bounds (GenAI's converter)", grammar_spec(COSTLY)),
        (
            "arrays 7 deep, items copied (the old compact grammar)",
            GrammarSpec("grammar", copied_arrays(7)),
        ),
    ]
    rows = []
    target = probe_target(folder)
    for name, spec in cases:
        probe = run_probe(spec, target, ProbeLimits(memory_bytes=4 << 30, cpu_seconds=600))
        real = real_compile(folder, spec)
        rows.append(
            {
                "case": name,
                "probe": {
                    "outcome": probe.outcome,
                    "cpu_s": round(probe.cpu_seconds, 2),
                    "memory_growth_mb": round(probe.memory_bytes / 2**20),
                },
                "real_model": real,
            }
        )
        log.info("%s", rows[-1])
    return rows


def real_compile(folder: Path, spec: GrammarSpec) -> dict[str, Any]:
    """The real model's first answer under ``spec`` (one token), in a limited child: CPU
    seconds and memory growth of the answer, less those of an answer with a trivial grammar
    (the model's own first-answer cost)."""
    request = json.dumps({"folder": str(folder), "kind": spec.kind, "text": spec.text})
    done = subprocess.run(
        [sys.executable, __file__, "--real"],
        input=request,
        capture_output=True,
        text=True,
        timeout=CHILD_SECONDS,
        preexec_fn=_limited,
        check=False,
        cwd=ROOT,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        return {"ended_with": done.returncode}
    return dict(json.loads(lines[-1]))


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY_BYTES, CHILD_MEMORY_BYTES))


def real_child() -> None:
    """Load the real model, answer once under a trivial grammar, then under the request's."""
    import openvino_genai as ov_genai
    import psutil

    request = json.loads(sys.stdin.read())
    pipe = ov_genai.LLMPipeline(request["folder"], "CPU")
    me = psutil.Process()

    def answer(spec: GrammarSpec) -> tuple[float, float]:
        config = ov_genai.GenerationConfig()
        config.max_new_tokens = 1
        config.apply_chat_template = False
        config.structured_output_config = spec.genai_config()
        Path("/proc/self/clear_refs").write_text("5", encoding="ascii")
        start_rss = me.memory_info().rss
        before = me.cpu_times()
        pipe.generate("0", config)
        after = me.cpu_times()
        peak = _peak_rss()
        return after.user + after.system - before.user - before.system, peak - start_rss

    own_cpu, own_memory = answer(GrammarSpec("grammar", "root ::= [0-9]"))
    cpu, memory = answer(GrammarSpec(request["kind"], request["text"]))
    print(
        json.dumps(
            {
                "cpu_s": round(cpu, 2),
                "memory_growth_mb": round(memory / 2**20),
                "first_answer_cpu_s": round(own_cpu, 2),
                "first_answer_memory_growth_mb": round(own_memory / 2**20),
            }
        ),
        flush=True,
    )


def _peak_rss() -> int:
    for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--real"]:
        real_child()
    else:
        main()
