"""The speaker encoder's filterbank features against speechbrain's own numbers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipelines.voice.fbank import N_MELS, filterbank_features, frame_count

GOLDEN = Path(__file__).parent / "data" / "voice_golden.npz"


@pytest.fixture(scope="module")
def golden() -> dict[str, np.ndarray]:
    with np.load(GOLDEN) as data:
        return {key: data[key] for key in data.files}


@pytest.mark.parametrize("index", [0, 1, 2])
def test_filterbank_matches_speechbrain(golden: dict[str, np.ndarray], index: int) -> None:
    samples = golden[f"fbank_input_{index}"]
    expected = golden[f"fbank_output_{index}"]
    features = filterbank_features(samples)
    assert features.shape == expected.shape == (1, frame_count(samples.size), N_MELS)
    assert features.dtype == np.float32
    # speechbrain computes in float32; this in float64: they agree to a thousandth of a dB.
    assert np.abs(features - expected).max() < 1e-3


def test_features_are_mean_normalised_per_band(golden: dict[str, np.ndarray]) -> None:
    features = filterbank_features(golden["fbank_input_0"])[0]
    assert np.abs(features.mean(axis=0)).max() < 1e-4
    assert features.std() > 1.0  # not flattened: speech has dynamics


def test_quiet_and_loud_copies_give_the_same_features(golden: dict[str, np.ndarray]) -> None:
    # The mean normalisation removes the overall level: the voice, not the gain, matters.
    samples = golden["fbank_input_0"]
    loud, quiet = filterbank_features(samples), filterbank_features(samples * 0.1)
    assert np.abs(loud - quiet).max() < 1e-3


def test_frame_count_follows_the_hop() -> None:
    assert frame_count(16_000) == 101
    assert filterbank_features(np.zeros(16_000, np.float32)).shape == (1, 101, N_MELS)


def test_bad_shapes_are_refused() -> None:
    with pytest.raises(ValueError, match="mono"):
        filterbank_features(np.zeros((100, 2), np.float32))
    with pytest.raises(ValueError, match="non-empty"):
        filterbank_features(np.zeros(0, np.float32))
