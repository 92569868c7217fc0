"""Model manager benchmark: writes benchmarks/results/models.json.

For the ~40M-parameter benchmark checkpoint (fixture role ``llm-bench-hf``), through the app's
own conversion path (``app.models.convert``: optimum-intel + NNCF in a separate process):
conversion time and size on disk for fp16, int8 and int4; then, for each result, the first
compile on CPU against a compile from the ``CACHE_DIR`` blob the first one left.

Run: ``.venv/bin/python benchmarks/bench_models.py``.
"""

from __future__ import annotations

import logging
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fixtures import load_builder  # noqa: E402
from benchmarks.machine import wait_until_quiet, write_results  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "models.json"
log = logging.getLogger("bench_models")


def convert_all(checkpoint: Path, home: Path) -> dict[str, Any]:
    from app.core.model_tasks import ModelTask
    from app.models.contracts import folder_size
    from app.models.convert import convert_model
    from app.models.convert_plan import ConvertRequest, Weights
    from app.models.registry import ModelRegistry

    registry = ModelRegistry(home / "models.json", home / "models")
    results: dict[str, Any] = {}
    for weights in (Weights.FP16, Weights.INT8, Weights.INT4):
        log.info("converting to %s", weights.value)
        started = time.perf_counter()
        model = convert_model(
            ConvertRequest(str(checkpoint), weights, ModelTask.CHAT, name=f"bench-{weights.value}"),
            registry,
        )
        seconds = time.perf_counter() - started
        results[weights.value] = {
            "seconds": seconds,
            "size_bytes": folder_size(model.folder),
            "precision_detected": model.precision,
            "folder": str(model.folder),
        }
    return results


def compile_times(folder: Path, cache: Path) -> dict[str, float]:
    from pipelines.chat import ChatModelConfig, ChatPipeline

    times = {}
    for label in ("first_compile_ms", "cached_compile_ms"):
        pipeline = ChatPipeline(ChatModelConfig(folder, "CPU", cache_dir=cache))
        times[label] = pipeline.load()
        del pipeline
    times["speedup"] = times["first_compile_ms"] / max(times["cached_compile_ms"], 1e-6)
    return times


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    checkpoint = load_builder().ensure_fixtures(["llm-bench-hf"]) / "llm-bench-hf"
    results: dict[str, Any] = {
        "machine": {},  # at the end: how quiet it stayed (benchmarks/machine.py)
        "checkpoint": "llm-bench-hf: random Qwen2, 40.0M parameters, fp32 safetensors",
        "checkpoint_size_bytes": sum(p.stat().st_size for p in checkpoint.iterdir()),
    }
    contention = wait_until_quiet()
    with tempfile.TemporaryDirectory() as home:
        conversions = convert_all(checkpoint, Path(home))
        for weights, entry in conversions.items():
            log.info("compiling %s (first, then cached)", weights)
            entry.update(compile_times(Path(entry.pop("folder")), Path(home) / f"cache-{weights}"))
        results["conversions"] = conversions
    results["note"] = (
        "On CPU a compile is cheap and the CACHE_DIR blob (written: ~41 MB for int8) saves "
        "little; the cache is for GPU and NPU, whose first compiles take tens of seconds — "
        "neither exists on this machine."
    )
    results["machine"] = contention.record()
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
