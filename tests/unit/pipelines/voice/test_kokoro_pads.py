"""The silence Kokoro pads each piece with is cut to a few hundredths of a second."""

from __future__ import annotations

import numpy as np

from pipelines.voice.kokoro import KEEP_AFTER_SECONDS, KEEP_BEFORE_SECONDS, KOKORO_RATE, trim_pads


def _piece(before: float, sound: float, after: float, *, floor: float = 1e-6) -> np.ndarray:
    """Near-silence, a tone, near-silence (Kokoro's pads are −85 to −110 dB, not zeros)."""
    rng = np.random.default_rng(0)
    quiet = [rng.normal(0, floor, int(seconds * KOKORO_RATE)) for seconds in (before, after)]
    time = np.arange(int(sound * KOKORO_RATE)) / KOKORO_RATE
    return np.concatenate([quiet[0], 0.3 * np.sin(2 * np.pi * 220 * time), quiet[1]]).astype(
        np.float32
    )


def test_the_pads_go_and_the_sound_stays_whole() -> None:
    piece = _piece(0.32, 1.0, 0.45)
    trimmed = trim_pads(piece)
    expected = 1.0 + KEEP_BEFORE_SECONDS + KEEP_AFTER_SECONDS
    assert abs(trimmed.size / KOKORO_RATE - expected) <= 0.011
    assert np.abs(trimmed).max() == np.abs(piece).max()
    sound = np.flatnonzero(np.abs(piece) > 0.01)
    kept = np.flatnonzero(np.abs(trimmed) > 0.01)
    assert kept.size == sound.size  # not one sample of the tone lost


def test_a_soft_sound_is_not_a_pad() -> None:
    soft_onset = np.concatenate([_piece(0.3, 0.2, 0.0) * 0.01, _piece(0.0, 0.8, 0.4)])
    trimmed = trim_pads(soft_onset)
    # The soft start (−40 dB) stays: only what is under −50 dB of the loudest is a pad.
    assert trimmed.size / KOKORO_RATE > 1.0 + KEEP_BEFORE_SECONDS


def test_silence_and_tiny_pieces_are_left_as_they_are() -> None:
    silence = np.zeros(KOKORO_RATE // 2, np.float32)
    assert trim_pads(silence) is silence
    tiny = np.ones(10, np.float32)
    assert trim_pads(tiny) is tiny
