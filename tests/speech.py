"""Real speech for tests: espeak-ng sentences at 16 kHz, and the word error rate.

espeak-ng (an apt package, ``scripts/setup.sh --dev``) writes 22050 Hz; the clip is resampled
with ``resample_poly(320, 441)`` — the exact ratio: Whisper tiny.en is brittle, a 0.2 % wrong
rate turned "brown fox" into "roundfire". Clips are cached per test session.
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

RATE = 16_000
ESPEAK_RATE = 22_050
# Sentences Whisper tiny.en transcribed with no error from espeak-ng 1.51 in five voices and
# speeds (prep16-whisper.md); numbers and "the quick brown fox" are deliberately absent.
SENTENCES = (
    "Please open the settings and turn on the microphone before the meeting starts.",
    "What is the weather like in Paris today?",
    "Can you tell me a short story about a dragon?",
    "Open the file and read the first paragraph out loud.",
)


def have_espeak() -> bool:
    """Whether espeak-ng is installed (tests that speak skip without it)."""
    return shutil.which("espeak-ng") is not None


@functools.cache
def _spoken(text: str, voice: str, words_per_minute: int) -> bytes:
    import soundfile
    from scipy.signal import resample_poly

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "speech.wav"
        command = ["espeak-ng", "-v", voice, "-s", str(words_per_minute), "-w", str(path), text]
        subprocess.run(command, check=True, capture_output=True)
        samples, rate = soundfile.read(str(path), dtype="float32", always_2d=True)
    if rate != ESPEAK_RATE:
        raise RuntimeError(f"espeak-ng wrote {rate} Hz, expected {ESPEAK_RATE}")
    mono = resample_poly(samples.mean(axis=1), 320, 441).astype(np.float32)
    return mono.tobytes()


def spoken(
    text: str, *, voice: str = "en-us", words_per_minute: int = 150
) -> npt.NDArray[np.float32]:
    """``text`` spoken by espeak-ng as float32 mono at 16 kHz (a fresh, writable copy)."""
    return np.frombuffer(_spoken(text, voice, words_per_minute), np.float32).copy()


def with_silence(
    *parts: float | npt.NDArray[np.float32], noise: float = 1e-3
) -> npt.NDArray[np.float32]:
    """Clips and silences (a float is seconds of silence) in order, over a quiet noise floor."""
    pieces = [
        np.zeros(int(part * RATE), np.float32) if isinstance(part, float) else part
        for part in parts
    ]
    audio = np.concatenate(pieces)
    rng = np.random.default_rng(0)
    return (audio + noise * rng.standard_normal(audio.size)).astype(np.float32)


def words(text: str) -> list[str]:
    """Lower-case words without punctuation (how WER compares them)."""
    return re.sub(r"[^a-z0-9' ]+", " ", text.lower()).split()


def word_error_rate(references: Sequence[str], hypotheses: Sequence[str]) -> float:
    """Corpus WER: word edits over all references divided by their total word count."""
    edits = total = 0
    for reference, hypothesis in zip(references, hypotheses, strict=True):
        ref, hyp = words(reference), words(hypothesis)
        row = list(range(len(hyp) + 1))
        for i in range(1, len(ref) + 1):
            previous, row[0] = row[0], i
            for j in range(1, len(hyp) + 1):
                current = min(row[j] + 1, row[j - 1] + 1, previous + (ref[i - 1] != hyp[j - 1]))
                previous, row[j] = row[j], current
        edits += row[len(hyp)]
        total += len(ref)
    return edits / max(1, total)


def with_pause(first: str, pause: float, second: str) -> npt.NDArray[np.float32]:
    """``first`` and ``second`` spoken with ``pause`` seconds of silence between the sound of
    one and the other (espeak-ng ends every clip with ~0.39 s of silence: cut here)."""
    head = spoken(first)
    last = int(np.flatnonzero(np.abs(head) > 0.01)[-1]) + 1
    return np.concatenate([head[:last], np.zeros(int(pause * RATE), np.float32), spoken(second)])
