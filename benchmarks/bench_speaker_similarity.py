"""Speaker-similarity benchmark: writes benchmarks/results/speaker_similarity.json.

How long measuring a voice takes with the real GE2E encoder (fixture role
``speaker-similarity``: resemblyzer's weights converted by the app, real Piper speech) on CPU:

* seconds to embed a 5 s clip (numpy front end + the 3-layer LSTM IR over its partials), split
  into the front end and the whole call, and a 30 s clip;
* a 10-minute clip, whose partials are capped (:data:`MAX_PARTIALS`): bounded, not 120× a 5 s;
* the baseline in the same run: the x-vector speaker encoder (full-size random, role
  ``speaker-encoder``) on the same 5 s clip, and the ratio of the two.

Run: ``.venv/bin/python benchmarks/bench_speaker_similarity.py``.
"""

from __future__ import annotations

import logging
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fixtures import load_builder  # noqa: E402
from benchmarks.machine import wait_until_quiet, write_results  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "speaker_similarity.json"
RATE = 16_000
REPEATS = 5
log = logging.getLogger("bench_speaker_similarity")


def _median_s(run: Callable[[], object], repeats: int = REPEATS) -> float:
    run()  # warm-up
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def _speech(folder: Path, seconds: float) -> np.ndarray:
    """Real Piper speech from the fixture, repeated to ``seconds``."""
    from pipelines.voice.audio import read_clip

    voice = np.concatenate(
        [read_clip(folder / "clips" / f"piper-joe-{index}.wav").samples for index in range(3)]
    )
    return np.resize(voice, int(seconds * RATE)).astype(np.float32)


def similarity_timings(folder: Path) -> dict[str, Any]:
    from pipelines.voice.similarity_features import partial_mels
    from pipelines.voice.speaker_similarity import SpeakerSimilarity, prepare_clip

    measure = SpeakerSimilarity(folder)
    measure.load()
    five = _speech(folder, 5.0)
    results: dict[str, Any] = {"compile_s": measure.load_ms / 1000.0}
    results["5s_clip_s"] = _median_s(lambda: measure.embed(five))
    results["5s_clip_partials"] = measure.last_partials
    results["5s_front_end_s"] = _median_s(lambda: partial_mels(prepare_clip(five, RATE)))
    thirty = _speech(folder, 30.0)
    results["30s_clip_s"] = _median_s(lambda: measure.embed(thirty))
    results["30s_clip_partials"] = measure.last_partials
    ten_minutes = _speech(folder, 600.0)
    results["10min_clip_s"] = _median_s(lambda: measure.embed(ten_minutes), repeats=2)
    results["10min_clip_partials"] = measure.last_partials
    return results


def xvector_5s(encoder_folder: Path, similarity_folder: Path) -> float:
    from pipelines.voice.speaker import SpeakerEncoder

    encoder = SpeakerEncoder(encoder_folder)
    encoder.load()
    five = _speech(similarity_folder, 5.0)
    return _median_s(lambda: encoder.embed(five))


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    builder = load_builder()
    root = builder.ensure_fixtures(["speaker-similarity", "speaker-encoder"])
    if not (root / "speaker-similarity").is_dir():
        reason = builder.unavailable_reason("speaker-similarity")
        log.error("speaker-similarity is unavailable: %s", reason)
        return 1
    results: dict[str, Any] = {
        "machine": {},  # at the end: how quiet it stayed (benchmarks/machine.py)
        "model": "speaker-similarity: resemblyzer 0.1.4 GE2E (real weights), OpenVINO IR f32",
        "clip": "Piper en_US-joe-medium speech, 16 kHz, repeated to length",
    }
    contention = wait_until_quiet()
    log.info("speaker similarity (GE2E)")
    results["ge2e"] = similarity_timings(root / "speaker-similarity")
    log.info("baseline: x-vector speaker encoder")
    baseline = xvector_5s(root / "speaker-encoder", root / "speaker-similarity")
    results["baseline_xvector_5s_clip_s"] = baseline
    results["ge2e_vs_xvector_5s"] = results["ge2e"]["5s_clip_s"] / baseline
    results["machine"] = contention.record()
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
