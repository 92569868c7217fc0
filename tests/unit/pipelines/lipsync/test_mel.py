"""Wav2Lip's audio features: values, one window per video frame, no dropped last frames."""

from __future__ import annotations

import numpy as np
import pytest

from pipelines.lipsync.mel import (
    MAX_ABS,
    N_MELS,
    WINDOW_FRAMES,
    _mel_basis,
    frame_count,
    mel_spectrogram,
    mel_windows,
    window_starts,
)
from tests.audio_samples import speech_like

RATE = 16_000


def test_five_seconds_at_25_fps_gives_125_windows() -> None:
    windows = mel_windows(speech_like(5.0), 25.0)
    assert windows.shape == (125, 1, N_MELS, WINDOW_FRAMES)  # the reference loop gave 122
    assert windows.dtype == np.float32


@pytest.mark.parametrize(
    ("seconds", "fps", "frames"),
    [(2.3, 25.0, 58), (1.0, 30.0, 30), (0.99, 25.0, 25), (1.01, 25.0, 26), (3.0, 29.97, 90)],
)
def test_frame_count_is_the_ceiling_of_duration_times_fps(
    seconds: float, fps: float, frames: int
) -> None:
    samples = round(seconds * RATE)
    assert frame_count(samples, fps) == frames
    assert mel_windows(np.zeros(samples, np.float32) + 0.01, fps).shape[0] == frames


def test_windows_start_at_80_mel_frames_per_second() -> None:
    samples = speech_like(2.0, seed=3)
    mel = mel_spectrogram(samples)
    windows = mel_windows(samples, 25.0)
    for frame in (0, 1, 7, 20):
        start = int(frame * 80 / 25)
        assert np.array_equal(windows[frame, 0], mel[:, start : start + 16])
    # The last windows would run past the end: they are the last 16 mel frames instead.
    assert np.array_equal(windows[-1, 0], mel[:, -16:])


def test_values_are_normalised_to_plus_minus_four() -> None:
    loud = mel_spectrogram(speech_like(1.0, level=0.9))
    assert loud.shape[0] == N_MELS
    assert loud.min() >= -MAX_ABS and loud.max() <= MAX_ABS
    assert loud.max() > 0  # speech reaches the upper half of the range
    silent = mel_spectrogram(np.zeros(RATE, np.float32))
    assert np.all(silent == -MAX_ABS)
    assert silent.shape[1] == RATE // 200 + 1  # centred frames: 1 + samples / hop


def test_slaney_mel_filters() -> None:
    basis = _mel_basis()
    assert basis.shape == (N_MELS, 401)
    freqs = np.linspace(0, 8000, 401)
    # Nothing below 55 Hz or above 7600 Hz; every band covers some bins.
    assert np.all(basis[:, freqs < 55] == 0) and np.all(basis[:, freqs > 7600] == 0)
    assert np.all(basis.max(axis=1) > 0)
    # Slaney area normalisation: wider (higher) bands have lower peaks.
    peaks = basis.max(axis=1)
    assert peaks[-1] < peaks[len(peaks) // 2] < peaks[5]


def test_very_short_audio_still_gives_a_window() -> None:
    windows = mel_windows(np.full(1600, 0.1, np.float32), 25.0)  # 0.1 s
    assert windows.shape == (3, 1, N_MELS, WINDOW_FRAMES)


def test_values_match_wav2lip_audio_py() -> None:
    """Golden values from Wav2Lip's ``audio.melspectrogram`` (librosa 0.10.2 with the
    ``pad_mode="reflect"`` librosa 0.7 used, scipy ``lfilter`` pre-emphasis) on this clip."""
    mel = mel_spectrogram(speech_like(1.0, seed=3))
    assert mel.shape == (80, 81)
    expected = np.array(
        [
            [-4.0, -1.256941, -1.35017, -1.801407],
            [-4.0, 0.171568, 0.474046, -0.540696],
            [-4.0, -1.739287, -1.193016, -2.035455],
            [-3.720958, -0.573605, -0.830693, -1.662399],
        ]
    )
    np.testing.assert_allclose(mel[[0, 10, 40, 79]][:, [0, 7, 30, 80]], expected, atol=2e-5)
    assert float(mel.mean()) == pytest.approx(-1.4707321582868604, abs=1e-6)


def test_window_starts_hold_at_the_last_full_window() -> None:
    starts = window_starts(125, 25.0, 401)  # 5 s: 401 mel frames
    assert list(starts[:4]) == [0, 3, 6, 9]  # int(i * 3.2)
    assert starts[-1] == 401 - 16 and np.all(np.diff(starts) >= 0)
    # The classic loop: stop at the first window that would run past the end.
    classic = next(i for i in range(200) if int(i * 80 / 25) + 16 > 401)
    assert classic == 121 and len(starts) == 125  # it kept 122 windows, 3 frames short


def test_frame_count_never_drops_a_partial_frame() -> None:
    assert frame_count(16_000 * 5, 25.0) == 125
    assert frame_count(1, 25.0) == 1
    assert frame_count(16_000 * 2 + 1, 30.0) == 61
