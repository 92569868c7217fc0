"""Voice benchmark: writes benchmarks/results/voice.json.

On a full-size random SpeechT5 + HiFiGAN (fixture role ``speecht5-bench``: microsoft/speecht5_tts's
shape, exported fp32 and int8 by optimum-cli, built once and cached) on CPU:

* real-time factor (synthesis seconds per audio second) of fp32 vs int8 weights over the same
  sentences, and the int8/fp32 speed ratio in this run;
* time to first audio for a three-sentence text (the app synthesises sentence by sentence, so
  this is the first sentence's time) against the time for the whole text in one call;
* speaker-encoder latency (numpy filterbank + full-size x-vector IR) for 5 s and 30 s clips.

Random weights never "decide" to stop, so the generation config fixes the length ratio to about
what real speech has (~1,000 samples per character): the numbers are per second of audio as a
real model would produce it. Run: ``.venv/bin/python benchmarks/bench_voice.py``.
"""

from __future__ import annotations

import json
import logging
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fixtures import load_builder  # noqa: E402
from benchmarks.machine import wait_until_quiet, write_results  # noqa: E402
from tests.audio_samples import speech_like  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "voice.json"
log = logging.getLogger("bench_voice")
# samples ≈ characters × minlenratio × 256 (hop) for SpeechT5: 4.0 gives ~1,000 per character,
# about 15 characters per second of speech.
LENGTH = {"minlenratio": 4.0, "maxlenratio": 4.2, "threshold": 0.5}
SENTENCES = [
    "The quick brown fox jumps over the lazy dog.",
    "OpenVINO runs this voice on the processor of a laptop.",
    "Every sentence is played as soon as it is ready!",
]
REPEATS = 3


def tts_run(folder: Path) -> dict[str, Any]:
    import openvino_genai as ov_genai

    from pipelines.voice.tts import SpeechSynthesizer

    synthesizer = SpeechSynthesizer(folder)
    synthesizer.load()
    config = synthesizer._loaded_model().get_generation_config()
    config.minlenratio, config.maxlenratio = LENGTH["minlenratio"], LENGTH["maxlenratio"]
    config.threshold = LENGTH["threshold"]
    synthesizer._loaded_model().set_generation_config(config)
    speaker = np.random.default_rng(0).standard_normal(512).astype(np.float32)
    speaker /= np.linalg.norm(speaker)
    list(synthesizer.speak("Warm up.", speaker))
    rtfs, firsts, totals, audio = [], [], [], []
    text = " ".join(SENTENCES)
    for _ in range(REPEATS):
        started = time.perf_counter()
        first = None
        for _chunk in synthesizer.speak(text, speaker):
            first = first if first is not None else time.perf_counter() - started
        totals.append(time.perf_counter() - started)
        stats = synthesizer.last
        assert stats is not None
        rtfs.append(stats.real_time_factor)
        firsts.append(first or 0.0)
        audio.append(stats.audio_seconds)
    # The same text in one call: what time to first audio would be without sentence streaming.
    import openvino as ov

    tensor = ov.Tensor(speaker.reshape(1, 512))
    started = time.perf_counter()
    synthesizer._loaded_model().generate(text, tensor)
    whole = time.perf_counter() - started
    del ov_genai
    return {
        "load_s": synthesizer.load_ms / 1000.0,
        "rtf": statistics.median(rtfs),
        "rtf_runs": rtfs,
        "first_audio_s": statistics.median(firsts),
        "three_sentences_total_s": statistics.median(totals),
        "audio_s": statistics.median(audio),
        "one_call_for_the_whole_text_s": whole,
    }


def encoder_latency(folder: Path) -> dict[str, Any]:
    from pipelines.voice.speaker import SpeakerEncoder

    encoder = SpeakerEncoder(folder)
    encoder.load()
    results: dict[str, Any] = {"compile_s": encoder.load_ms / 1000.0}
    for seconds in (5, 30):
        clip = speech_like(float(seconds), seed=seconds)
        encoder.embed(clip)  # warm-up
        times = []
        for _ in range(5):
            encoder.embed(clip)
            times.append(encoder.last_ms)
        results[f"{seconds}s_clip_ms"] = statistics.median(times)
    return results


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    builder = load_builder()
    root = builder.ensure_fixtures(["speecht5-bench", "speaker-encoder"])
    results: dict[str, Any] = {
        "machine": {},  # at the end: how quiet it stayed (benchmarks/machine.py)
        "model": "speecht5-bench: random SpeechT5 (microsoft/speecht5_tts shape) + HiFiGAN",
        "length_config": LENGTH,
        "text": SENTENCES,
    }
    contention = wait_until_quiet()
    tts = {}
    for weights in ("fp32", "int8"):
        log.info("text-to-speech, %s weights", weights)
        tts[weights] = tts_run(root / "speecht5-bench" / weights)
    tts["int8_speedup_vs_fp32"] = tts["fp32"]["rtf"] / tts["int8"]["rtf"]
    results["tts"] = tts
    results["goals"] = {
        "rtf_at_most": 0.4,
        "rtf_met": min(tts["fp32"]["rtf"], tts["int8"]["rtf"]) <= 0.4,
        "first_audio_at_most_s": 1.0,
        "first_audio_met": tts["int8"]["first_audio_s"] <= 1.0,
    }
    log.info("speaker encoder")
    results["speaker_encoder"] = encoder_latency(root / "speaker-encoder")
    results["machine"] = contention.record()
    try:  # bench_voice_clone.py's part of the file stays
        kept = json.loads(RESULTS.read_text(encoding="utf-8")).get("kokoro_clone")
    except (OSError, ValueError, AttributeError):
        kept = None
    if kept is not None:
        results["kokoro_clone"] = kept
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
