"""Sample rates: the range a file may declare, refused before decoding, and a resampler whose
cost is bounded for every accepted rate."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipelines.core import InvalidInputError
from pipelines.voice import audio
from pipelines.voice.audio import MODEL_RATE, clip_from_samples, decode_with_av, read_clip
from pipelines.voice.sample_rates import (
    MAX_RATIO_TERM,
    MAX_SAMPLE_RATE,
    MIN_SAMPLE_RATE,
    polyphase_factors,
    resample,
)
from tests.audio_samples import flac_claiming, wav_claiming

USUAL_RATES = [8_000, 11_025, 16_000, 22_050, 32_000, 44_100, 48_000, 88_200, 96_000]
USUAL_RATES += [176_400, 192_000, 352_800, 384_000]
REFUSED_RATES = [3_999, 384_001, 1_000_000, 4_194_301, 16_777_213, 2**31 - 1]


def _refusal(name: str, rate: int) -> str:
    return f"{name} has a sample rate of {rate:,} Hz; rates from 4,000 to 384,000 Hz can be read."


@pytest.fixture
def no_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail at once if a file is decoded or resampled: a refusal must come from the header
    alone (a regression fails here instead of allocating gigabytes)."""
    import scipy.signal
    import soundfile

    def decoded(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the file was decoded before its header was checked")

    monkeypatch.setattr(soundfile, "read", decoded)
    monkeypatch.setattr(scipy.signal, "resample_poly", decoded)


@pytest.mark.parametrize("rate", REFUSED_RATES)
@pytest.mark.usefixtures("no_decoding")
def test_a_header_rate_outside_the_range_is_refused_before_decoding(
    tmp_path: Path, rate: int
) -> None:
    clip = wav_claiming(tmp_path / "claim.wav", rate)
    with pytest.raises(InvalidInputError) as refused:
        read_clip(clip, field="voice")
    assert str(refused.value) == _refusal("claim.wav", rate)
    assert refused.value.field == "voice"


@pytest.mark.parametrize("rate", [1_000_000, 2**31 - 1])
def test_pyav_refuses_the_rate_before_decoding(tmp_path: Path, rate: int) -> None:
    clip = wav_claiming(tmp_path / "claim.wav", rate)
    with pytest.raises(InvalidInputError) as refused:
        decode_with_av(clip, label="upload.wav", field="file")
    assert str(refused.value) == _refusal("upload.wav", rate)


@pytest.mark.parametrize("rate", [MIN_SAMPLE_RATE, 11_025, 44_100, 192_000, 383_999])
def test_odd_rates_inside_the_range_are_read(tmp_path: Path, rate: int) -> None:
    clip = read_clip(wav_claiming(tmp_path / "odd.wav", rate, frames=rate // 4))
    assert clip.source_rate == rate
    assert abs(clip.samples.size - MODEL_RATE // 4) <= 1  # a quarter of a second


def test_samples_in_memory_at_an_absurd_rate_are_refused() -> None:
    with pytest.raises(InvalidInputError) as refused:
        clip_from_samples(np.zeros(1000, np.float32), 16_777_213)
    assert str(refused.value) == _refusal("The audio", 16_777_213)


@pytest.mark.usefixtures("no_decoding")
def test_compressed_sound_too_big_to_decode_is_refused_from_its_header(tmp_path: Path) -> None:
    # 15 minutes at 384 kHz: a 1.3 MB FLAC of near-silence decoded to 6.6 GB.
    flac = flac_claiming(tmp_path / "quiet.flac", 384_000, 1, 15 * 60 * 384_000)
    with pytest.raises(InvalidInputError) as refused:
        read_clip(flac)
    assert str(refused.value) == (
        "quiet.flac holds 15 min 0 s of 384,000 Hz sound in 1 channel, more than the app "
        "decodes at once (15 minutes of 48 kHz stereo): use a shorter clip or a copy at a "
        "lower sample rate."
    )


def test_fifteen_minutes_of_48_khz_stereo_are_within_the_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import soundfile

    flac = flac_claiming(tmp_path / "talk.flac", 48_000, 2, 15 * 60 * 48_000)
    decoded: list[str] = []

    def read(path: str, **kwargs: Any) -> tuple[np.ndarray, int]:
        decoded.append(path)  # the header passed: what it holds would be decoded now
        return np.zeros((48_000, 2), np.float32), 48_000

    monkeypatch.setattr(soundfile, "read", read)
    assert read_clip(flac).seconds == pytest.approx(1.0)
    assert decoded == [str(flac)]


def test_pyav_stops_decoding_past_the_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(audio, "MAX_DECODED_SAMPLES", 8_000)  # half a second at 16 kHz
    clip = wav_claiming(tmp_path / "long.wav", 16_000, frames=16_000)
    with pytest.raises(InvalidInputError, match=r"^long\.wav holds more than the app decodes"):
        decode_with_av(clip)


@pytest.mark.parametrize("rate", USUAL_RATES)
@pytest.mark.parametrize("target", [16_000, 24_000, 44_100, 48_000])
def test_usual_rates_are_resampled_exactly(rate: int, target: int) -> None:
    divisor = math.gcd(rate, target)
    assert polyphase_factors(rate, target) == (target // divisor, rate // divisor)


@settings(max_examples=300, deadline=None)
@given(
    rate=st.integers(MIN_SAMPLE_RATE, MAX_SAMPLE_RATE),
    target=st.sampled_from([16_000, 24_000, 44_100, 48_000]),
)
def test_every_accepted_rate_has_a_small_filter_and_a_near_ratio(rate: int, target: int) -> None:
    up, down = polyphase_factors(rate, target)
    assert 1 <= up <= MAX_RATIO_TERM and 1 <= down <= MAX_RATIO_TERM
    assert abs((up / down) / (target / rate) - 1) <= 5e-5  # 45 ms over 15 minutes


@pytest.mark.parametrize("rate", [383_999, 320_163, 4_001])
def test_a_coprime_rate_keeps_a_tone_in_its_place_with_a_bounded_filter(
    rate: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    import scipy.signal

    factors: list[tuple[int, int]] = []
    real = scipy.signal.resample_poly

    def recorded(x: np.ndarray, up: int, down: int, **kwargs: Any) -> np.ndarray:
        factors.append((up, down))
        return np.asarray(real(x, up, down, **kwargs))

    monkeypatch.setattr(scipy.signal, "resample_poly", recorded)
    tone = 0.5 * np.sin(2 * np.pi * 1000 * np.arange(rate) / rate).astype(np.float32)
    samples = resample(tone, rate, MODEL_RATE)
    [(up, down)] = factors
    assert max(up, down) <= MAX_RATIO_TERM  # 16,000/383,999 exactly is 7.7 million taps
    assert samples.dtype == np.float32 and abs(samples.size - MODEL_RATE) <= 1
    spectrum = np.abs(np.fft.rfft(samples))
    assert np.argmax(spectrum) * MODEL_RATE / samples.size == pytest.approx(1000, abs=2)
