"""Reference clips: the checks that come before a voice is made (length, silence, clipping, noise,
speech)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipelines.voice.audio import MODEL_RATE, read_clip
from pipelines.voice.reference import check_reference, trim_to
from tests.audio_samples import speech_like, write_clip


def _check(path: Path):  # type: ignore[no-untyped-def]
    return check_reference(read_clip(path))


def test_good_clip_passes(tmp_path: Path) -> None:
    report = _check(write_clip(tmp_path / "good.wav", speech_like(8.0, seed=1)))
    assert report.ok, report.problems
    assert 7.5 < report.seconds <= 8.0
    assert report.snr_db > 20


def test_one_second_clip_is_too_short(tmp_path: Path) -> None:
    report = _check(write_clip(tmp_path / "short.wav", speech_like(1.0)))
    assert [p.kind for p in report.problems] == ["too_short"]
    assert "at least 5 s" in report.problems[0].message


def test_ten_minute_clip_is_too_long_and_can_be_trimmed(tmp_path: Path) -> None:
    report = _check(write_clip(tmp_path / "long.flac", speech_like(600.0, seed=2)))
    assert [p.kind for p in report.problems] == ["too_long"]
    assert "10 min" in report.problems[0].message
    trimmed = trim_to(report.samples)
    assert trimmed.size == 30 * MODEL_RATE


def test_silent_clip(tmp_path: Path) -> None:
    report = _check(write_clip(tmp_path / "silent.wav", np.zeros(8 * MODEL_RATE, np.float32)))
    assert [p.kind for p in report.problems] == ["silent"]
    assert "silent" in report.problems[0].message


def test_clipped_clip(tmp_path: Path) -> None:
    loud = np.clip(speech_like(8.0, seed=3) * 8, -1.0, 1.0)
    report = _check(write_clip(tmp_path / "clipped.wav", loud))
    assert "clipped" in [p.kind for p in report.problems]
    assert "distorted" in report.problems[0].message


def test_noisy_clip(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    noisy = speech_like(8.0, seed=4) + 0.2 * rng.standard_normal(8 * MODEL_RATE)
    report = _check(write_clip(tmp_path / "noisy.wav", noisy.astype(np.float32) * 0.5))
    assert [p.kind for p in report.problems] == ["noisy"]
    assert "too noisy" in report.problems[0].message


def test_8khz_stereo_is_mixed_down_and_resampled(tmp_path: Path) -> None:
    left = speech_like(6.0, pitch=150, seed=5, rate=8000)
    stereo = np.stack([left, left * 0.5], axis=1)
    clip = read_clip(write_clip(tmp_path / "phone.wav", stereo, rate=8000))
    assert clip.source_rate == 8000
    assert clip.channels == 2
    assert clip.samples.ndim == 1
    assert abs(clip.samples.size - 6 * MODEL_RATE) <= 2
    # Mixed to mono (0.75 × left) and resampled without changing the level.
    assert np.abs(clip.samples).max() == pytest.approx(0.75 * np.abs(left).max(), rel=0.1)
    assert check_reference(clip).ok


def test_a_pure_tone_is_not_speech(tmp_path: Path) -> None:
    seconds = np.arange(8 * MODEL_RATE) / MODEL_RATE
    tone = (0.3 * np.sin(2 * np.pi * 440.0 * seconds)).astype(np.float32)
    report = _check(write_clip(tmp_path / "beep.wav", tone))
    assert [p.kind for p in report.problems] == ["no_speech"]
    assert report.problems[0].message.startswith("The clip is a steady tone")
    assert "not someone speaking" in report.problems[0].message
    short = _check(write_clip(tmp_path / "blip.wav", tone[: 2 * MODEL_RATE]))
    assert [p.kind for p in short.problems] == ["no_speech", "too_short"]  # said first


def test_a_hum_with_hiss_is_not_speech_but_steady_hiss_is_noise(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    seconds = np.arange(8 * MODEL_RATE) / MODEL_RATE
    hum = sum(0.1 / k * np.sin(2 * np.pi * 50 * k * seconds) for k in range(1, 8))
    hum = hum + 0.01 * rng.standard_normal(seconds.size)
    report = _check(write_clip(tmp_path / "hum.wav", hum.astype(np.float32)))
    assert [p.kind for p in report.problems] == ["no_speech"]
    # Steady hiss looks like speech drowned in noise: that is said to be too noisy.
    hiss = 0.1 * rng.standard_normal(8 * MODEL_RATE)
    report = _check(write_clip(tmp_path / "hiss.wav", hiss.astype(np.float32)))
    assert [p.kind for p in report.problems] == ["noisy"]
