"""Kokoro cloning benchmark: writes the ``kokoro_clone`` part of benchmarks/results/voice.json.

The honest measure of :func:`pipelines.voice.kokoro_clone.derive_style` on the real
Kokoro-82M (fixture ``kokoro-real``, converted by the app) and the real GE2E encoder (fixture
``speaker-similarity``). Each of the five installed packs is held out in turn and stands for a
speaker the model does not have:

* **the clip**: the held-out pack speaking set A (four sentences, ≈ 11–15 s: what a user would
  record);
* **the search** may use only the other four packs and that clip;
* **the score**: GE2E cosine between the clone speaking set B (four *other* sentences) and the
  held-out pack's own speech of set B — and the same for each of the four remaining presets;
  the best of those is the bar the clone has to clear;
* **the ceiling**: the held-out pack's own set-A speech (the clip) scored the same way — the
  same voice saying other words, as alike as a clone could hope to be; ``room_above_best_preset``
  is how far above the best preset that leaves the clone to go;
* **intelligibility**: the real Whisper tiny.en transcribes the clone's speech of eight
  held-out sentences (set B and four more): word error rate, beside the held-out pack's own.

Goal (issue 33): the clone beats the best remaining preset for every held-out speaker, by
≥ 0.05 on average. Search time is wall-clock on this machine (see ``machine``: a busy machine
makes it longer, never changes the scores: the search is deterministic for its seed).

Run: ``.venv/bin/python benchmarks/bench_voice_clone.py [--speakers jf_alpha,...]``.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fixtures import load_builder  # noqa: E402
from benchmarks.machine import wait_until_quiet, write_results  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "voice.json"
RESULT_KEY = "kokoro_clone"
log = logging.getLogger("bench_voice_clone")
# Sentences Whisper tiny.en hears word for word from the presets
# (tests/integration/pipelines/voice/test_kokoro.py).
SET_A = (
    "The library opens early in the morning and closes late in the evening.",
    "Please remember to water the plants while we are away.",
    "The children played in the garden until the sun went down.",
    "We watched the boats sail slowly across the quiet harbor.",
)
SET_B = (
    "The train to the airport leaves every quarter of an hour.",
    "He forgot his umbrella and walked home in the rain.",
    "My brother is learning to play the piano this winter.",
    "Could you close the window before you leave the room?",
)
MORE_FOR_WER = (
    "She bought apples, a loaf of bread and a bottle of milk.",
    "Turn left at the bridge and follow the river to the old mill.",
    "The doctor asked him to rest for a few days.",
    "The bakery on the corner sells fresh bread every morning.",
)
GOALS = {"beats_best_preset_for_every_speaker": True, "mean_margin_at_least": 0.05}


def _speech(synthesizer: Any, text: str | tuple[str, ...], pack: Any) -> np.ndarray:
    joined = " ".join(text) if isinstance(text, tuple) else text
    return np.concatenate([chunk.samples for chunk in synthesizer.speak(joined, pack)])


def _word_error_rate(recognizer: Any, synthesizer: Any, pack: Any) -> float:
    from pipelines.voice.sample_rates import resample
    from tests.speech import word_error_rate

    sentences = SET_B + MORE_FOR_WER
    heard = [
        recognizer.transcribe(resample(_speech(synthesizer, sentence, pack), 24_000, 16_000)).text
        for sentence in sentences
    ]
    return word_error_rate(sentences, heard)


def held_out(
    name: str,
    packs: dict[str, Any],
    set_b: dict[str, Any],
    synthesizer: Any,
    measure: Any,
    recognizer: Any,
) -> dict[str, Any]:
    """Clone ``name`` from its set-A speech with the other packs; score it on set B
    (``set_b``: each pack's embedding of its own set-B speech)."""
    from pipelines.voice.kokoro_clone import derive_style

    others = {other: pack for other, pack in packs.items() if other != name}
    clip = _speech(synthesizer, SET_A, packs[name])
    result = derive_style(clip, 24_000, others, synthesizer, measure)
    truth = set_b[name]
    presets = {other: float(measure.similarity(truth, set_b[other])) for other in others}
    best_preset = max(presets, key=lambda other: presets[other])
    clone_speech = _speech(synthesizer, SET_B, result.pack)
    clone = float(measure.similarity(truth, measure.embed(clone_speech, 24_000)))
    # The speaker's own voice saying the clip's words: as alike as any clone can hope to be.
    ceiling = float(measure.similarity(truth, measure.embed(clip, 24_000)))
    row = {
        "clip_seconds": round(clip.size / 24_000, 2),
        "clone": round(clone, 4),
        "own_voice_ceiling": round(ceiling, 4),
        "room_above_best_preset": round(ceiling - max(presets.values()), 4),
        "best_preset": best_preset,
        "best_preset_score": round(presets[best_preset], 4),
        "margin": round(clone - presets[best_preset], 4),
        "presets": {other: round(score, 4) for other, score in presets.items()},
        "search": {
            "score_on_clip": round(result.score, 4),
            "preset_scores_on_clip": {k: round(v, 4) for k, v in result.preset_scores.items()},
            "timbre_weights": _weights(result.base_names, result.mixture.timbre),
            "prosody_weights": _weights(result.base_names, result.mixture.prosody),
            "history": [round(value, 4) for value in result.history],
            "syntheses": result.syntheses,
            "seconds": round(result.seconds, 1),
        },
        "wer_clone": round(_word_error_rate(recognizer, synthesizer, result.pack), 4),
        "wer_held_out_pack": round(_word_error_rate(recognizer, synthesizer, packs[name]), 4),
    }
    log.info("%s: %s", name, json.dumps(row))
    return row


def _weights(names: tuple[str, ...], weights: np.ndarray) -> dict[str, float]:
    return {name: round(float(weight), 3) for name, weight in zip(names, weights, strict=True)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speakers", default="", help="comma-separated packs to hold out")
    parser.add_argument("--max-wait", type=float, default=120.0, help="seconds to wait for quiet")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    from pipelines.speech_to_text import SpeechRecognizer
    from pipelines.voice.kokoro import KokoroSynthesizer
    from pipelines.voice.kokoro_clone import CloneSettings
    from pipelines.voice.kokoro_convert import KokoroSource, convert_kokoro
    from pipelines.voice.speaker_similarity import SpeakerSimilarity

    root = load_builder().ensure_fixtures(["kokoro-real", "speaker-similarity", "whisper-real"])
    contention = wait_until_quiet(args.max_wait)
    with tempfile.TemporaryDirectory(prefix="bench-clone-") as scratch:
        converted = Path(scratch) / "kokoro"
        for _step in convert_kokoro(KokoroSource.in_folder(root / "kokoro-real"), converted):
            pass
        synthesizer = KokoroSynthesizer(converted)
        measure = SpeakerSimilarity(root / "speaker-similarity")
        recognizer = SpeechRecognizer(root / "whisper-real", "CPU")
        packs = synthesizer.voices()
        names = [n for n in args.speakers.split(",") if n] or sorted(packs)
        set_b = {
            name: measure.embed(_speech(synthesizer, SET_B, pack), 24_000)
            for name, pack in packs.items()
        }
        rows = {
            name: held_out(name, packs, set_b, synthesizer, measure, recognizer) for name in names
        }
    margins = [row["margin"] for row in rows.values()]
    summary = {
        "mean_clone": round(statistics.mean(row["clone"] for row in rows.values()), 4),
        "mean_best_preset": round(
            statistics.mean(row["best_preset_score"] for row in rows.values()), 4
        ),
        "mean_margin": round(statistics.mean(margins), 4),
        "mean_room_above_best_preset": round(
            statistics.mean(row["room_above_best_preset"] for row in rows.values()), 4
        ),
        "min_margin": round(min(margins), 4),
        "mean_wer_clone": round(statistics.mean(row["wer_clone"] for row in rows.values()), 4),
        "mean_search_s": round(statistics.mean(r["search"]["seconds"] for r in rows.values()), 1),
    }
    settings = CloneSettings()
    part = {
        "machine": contention.record(),
        "method": "affine mixtures of the remaining packs (timbre and prosody halves), "
        "cross-entropy search scored by GE2E, finalists re-heard on a second phrase",
        "settings": {k: getattr(settings, k) for k in settings.__dataclass_fields__},
        "sets": {"A_clip": SET_A, "B_score": SET_B, "wer_extra": MORE_FOR_WER},
        "speakers": rows,
        "summary": summary,
        "goals": {
            **GOALS,
            "every_speaker_met": all(margin > 0 for margin in margins),
            "mean_margin_met": summary["mean_margin"] >= GOALS["mean_margin_at_least"],
        },
    }
    results = _existing(RESULTS)
    results[RESULT_KEY] = part
    write_results(RESULTS, results)
    return 0


def _existing(path: Path) -> dict[str, Any]:
    """voice.json as bench_voice.py wrote it (its SpeechT5 figures stay beside this part)."""
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


if __name__ == "__main__":
    sys.exit(main())
