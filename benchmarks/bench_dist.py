"""Installable product benchmark: writes benchmarks/results/dist.json.

Sizes of the one-folder frozen app (``make dist``) and of the .deb (``make deb``); cold start to
the first painted window for the frozen app and for ``python -m app`` (the ``--smoke-test`` run
without a model: the window is shown and the event loop has turned — painting it — when it
prints its line; the time is taken at that line, not at exit); and launch to a fixture model's
answer on screen (``--smoke-test --model``: load, first token and up to 16 tokens, an upper
bound of the first token). Each start runs once unmeasured (disk cache, a new profile's
settings), then ``RUNS`` times.

Run: ``make deb`` first, then ``.venv/bin/python benchmarks/bench_dist.py``.
"""

from __future__ import annotations

import logging
import os
import statistics
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

RESULTS = ROOT / "benchmarks" / "results" / "dist.json"
DIST = ROOT / "dist" / "ov-studio"
RUNS = 5
log = logging.getLogger("bench_dist")


def folder_bytes(folder: Path) -> int:
    """Bytes of the files under ``folder`` (symlinks not followed)."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def time_to_line(command: list[str], home: Path, expect: str) -> float:
    """Seconds from launching ``command`` to its stdout line starting with ``expect``.

    Raises:
        RuntimeError: the process ended without printing it.
    """
    env = {**os.environ, "OV_STUDIO_HOME": str(home), "QT_QPA_PLATFORM": "offscreen"}
    start = time.perf_counter()
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
    ) as process:
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith(expect):
                elapsed = time.perf_counter() - start
                process.wait(60)
                return elapsed
    raise RuntimeError(f"{command[0]} exited {process.returncode} without {expect!r}")


def summary(command: list[str], expect: str) -> dict[str, Any]:
    """min/median/max seconds over ``RUNS`` launches after one unmeasured launch."""
    with tempfile.TemporaryDirectory() as home:
        time_to_line(command, Path(home), expect)
        runs = [time_to_line(command, Path(home), expect) for _ in range(RUNS)]
    log.info("%s: median %.2f s", " ".join(command[-3:]), statistics.median(runs))
    return {
        "runs": RUNS,
        "min_s": round(min(runs), 3),
        "median_s": round(statistics.median(runs), 3),
        "max_s": round(max(runs), 3),
    }


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    debs = sorted((ROOT / "dist").glob("ov-studio_*_amd64.deb"))
    if not (DIST / "ov-studio").is_file() or not debs:
        sys.stderr.write("error: build the app and the package first: make deb\n")
        return 2
    model = load_builder().ensure_fixtures(["llm-int8"]) / "llm-int8"
    frozen = [str(DIST / "ov-studio"), "--smoke-test"]
    source = [sys.executable, "-m", "app", "--smoke-test"]
    window = "smoke test passed: window opened"
    answer = "smoke test passed: answered"
    results: dict[str, Any] = {
        "machine": {},  # at the end: how quiet it stayed (benchmarks/machine.py)
        "one_folder_bytes": folder_bytes(DIST),
        "deb_bytes": debs[-1].stat().st_size,
        "deb": debs[-1].name,
        "goals": {"deb_bytes_max": 350 * 1024 * 1024, "cold_start_s_max": 2.0},
    }
    contention = wait_until_quiet()
    results["cold_start_to_painted_window"] = {
        "frozen": summary(frozen, window),
        "python -m app": summary(source, window),
    }
    results["launch_to_answer_shown"] = {
        "model": "fixture llm-int8 (tiny random Llama, int8), CPU, up to 16 new tokens",
        "frozen": summary([*frozen, "--model", str(model), "--device", "CPU"], answer),
        "python -m app": summary([*source, "--model", str(model), "--device", "CPU"], answer),
    }
    results["machine"] = contention.record()
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
