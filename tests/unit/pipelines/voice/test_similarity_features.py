"""The speaker-similarity front end against resemblyzer's own numbers.

``data/resemblyzer_golden.npz`` was computed by resemblyzer 0.1.4 with librosa 0.11: the mel
frames of a half-second chirp with a quiet gap (``wav_to_mel_spectrogram``), the partial
slices of several lengths (``compute_partial_slices(n, 1.3, 0.75)``) and a quiet clip raised by
``normalize_volume(-30, increase_only=True)``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipelines.voice.similarity_features import (
    MAX_PARTIALS,
    N_MELS,
    PARTIAL_FRAMES,
    SAMPLE_RATE,
    mel_spectrogram,
    normalize_volume,
    partial_mels,
    partial_starts,
    trim_long_silences,
)

GOLDEN = Path(__file__).parent / "data" / "resemblyzer_golden.npz"


@pytest.fixture(scope="module")
def golden() -> dict[str, np.ndarray]:
    with np.load(GOLDEN) as data:
        return {key: data[key] for key in data.files}


def test_mel_frames_match_librosa(golden: dict[str, np.ndarray]) -> None:
    mel = mel_spectrogram(golden["input"])
    expected = golden["mel"]
    assert mel.shape == expected.shape == (1 + golden["input"].size // 160, N_MELS)
    assert mel.dtype == np.float32
    # Both are float32 FFTs of the same frames: they differ in rounding only.
    assert np.abs(mel - expected).max() <= 1e-5 * np.abs(expected).max()


def test_partial_slices_are_resemblyzers(golden: dict[str, np.ndarray]) -> None:
    flat = iter(golden["partial_starts"].tolist())
    for length, count in zip(golden["partial_lengths"], golden["partial_counts"], strict=True):
        expected = [next(flat) for _ in range(int(count))]
        assert partial_starts(int(length)) == expected, length


def test_partials_of_a_long_clip_are_capped_and_spread() -> None:
    ten_minutes = SAMPLE_RATE * 600
    starts = partial_starts(ten_minutes)
    assert len(starts) == MAX_PARTIALS
    assert starts[0] == 0
    assert starts[-1] * 160 > ten_minutes - 3 * SAMPLE_RATE  # the end of the clip is heard


def test_partial_mels_are_the_frames_of_the_whole_clip(golden: dict[str, np.ndarray]) -> None:
    clip = np.tile(golden["input"], 9)  # 4.5 s: several partials, the last padded
    mels = partial_mels(clip)
    starts = partial_starts(clip.size)
    padded = np.pad(clip, (0, (starts[-1] + PARTIAL_FRAMES) * 160 - clip.size))
    whole = mel_spectrogram(padded)
    assert mels.shape == (len(starts), PARTIAL_FRAMES, N_MELS)
    for mel, start in zip(mels, starts, strict=True):
        np.testing.assert_allclose(mel, whole[start : start + PARTIAL_FRAMES], rtol=1e-5)


def test_volume_is_raised_like_resemblyzer(golden: dict[str, np.ndarray]) -> None:
    quiet = (golden["input"] * 0.01).astype(np.float32)
    np.testing.assert_allclose(normalize_volume(quiet), golden["quiet_normalised"], rtol=1e-5)


def test_loud_and_silent_clips_keep_their_level(golden: dict[str, np.ndarray]) -> None:
    loud = golden["input"]
    assert normalize_volume(loud) is loud  # above −30 dBFS: increase only
    silent = np.zeros(1000, np.float32)
    assert not normalize_volume(silent).any()  # no division by a zero level


def test_long_pauses_are_cut_short_ones_kept() -> None:
    rng = np.random.default_rng(0)
    voice = (0.2 * rng.standard_normal(SAMPLE_RATE)).astype(np.float32)
    faint = (1e-4 * rng.standard_normal(2 * SAMPLE_RATE)).astype(np.float32)
    trimmed = trim_long_silences(np.concatenate([voice, faint, voice]))
    # 2 s of pause become the ~0.2 s resemblyzer's smoothing and dilation keep on each side.
    assert 2 * SAMPLE_RATE <= trimmed.size <= 2.5 * SAMPLE_RATE
    short = np.concatenate([voice, faint[: SAMPLE_RATE // 10], voice])
    assert trim_long_silences(short).size >= short.size - 480  # only the 30 ms tail remainder
