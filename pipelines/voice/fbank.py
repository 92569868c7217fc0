"""Filterbank features for the x-vector speaker encoder, in numpy (no torch at run time).

The encoder (speechbrain's ``spkrec-xvect-voxceleb`` layout) was trained on speechbrain's
``Fbank(n_mels=24)`` followed by per-utterance mean normalisation; the features have to match
it closely or every embedding drifts. This is that computation step by step:

* centred STFT: zero padding of ``n_fft // 2`` on both sides, periodic Hamming window of 25 ms
  (400 samples), 10 ms hop (160 samples), so ``T = 1 + samples // 160`` frames;
* power spectrum ``re² + im²``;
* speechbrain's triangular mel filters: centres equally spaced on the HTK mel scale between
  0 Hz and 8 kHz, and each triangle as wide on *both* sides as the gap to the previous centre
  (speechbrain's own choice, not the textbook asymmetric triangle);
* ``10·log10(max(x, 1e-10))``, floored at 80 dB below the utterance's maximum;
* mean over time subtracted per band.

Golden values from speechbrain itself are in ``tests/unit/data/fbank_golden.npz``.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import numpy.typing as npt

SAMPLE_RATE = 16_000
N_FFT = 400
WIN_LENGTH = 400  # 25 ms
HOP_LENGTH = 160  # 10 ms
N_MELS = 24
AMIN = 1e-10
TOP_DB = 80.0

Float32Array = npt.NDArray[np.float32]


def frame_count(samples: int) -> int:
    """Frames the encoder sees for a clip of ``samples`` samples."""
    return 1 + samples // HOP_LENGTH


def filterbank_features(samples: npt.NDArray[np.floating]) -> Float32Array:
    """``[1, T, 24]`` mean-normalised log-mel features of a 16 kHz mono clip.

    Raises:
        ValueError: the clip is not one-dimensional or is empty.
    """
    wave = np.asarray(samples, dtype=np.float64)
    if wave.ndim != 1 or wave.size == 0:
        raise ValueError(f"expected a non-empty mono clip, got shape {wave.shape}")
    power = _power_spectrum(wave)  # [T, 201]
    mel = power @ _mel_matrix()  # [T, 24]
    db = 10.0 * np.log10(np.maximum(mel, AMIN))
    db = np.maximum(db, db.max() - TOP_DB)
    db -= db.mean(axis=0, keepdims=True)
    features: Float32Array = db.astype(np.float32)[np.newaxis]
    return features


def _power_spectrum(wave: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    padded = np.pad(wave, N_FFT // 2)
    frames = np.lib.stride_tricks.sliding_window_view(padded, N_FFT)[::HOP_LENGTH]
    spectrum = np.fft.rfft(frames * _window(), n=N_FFT, axis=1)
    power: npt.NDArray[np.float64] = spectrum.real**2 + spectrum.imag**2
    return power


@cache
def _window() -> npt.NDArray[np.float64]:
    # torch.hamming_window's default is the periodic form (denominator N, not N - 1).
    n = np.arange(WIN_LENGTH)
    window: npt.NDArray[np.float64] = 0.54 - 0.46 * np.cos(2.0 * math.pi * n / WIN_LENGTH)
    return window


@cache
def _mel_matrix() -> npt.NDArray[np.float64]:
    """``[201, 24]`` filter weights, speechbrain's triangular filters."""
    mel_max = 2595.0 * math.log10(1.0 + (SAMPLE_RATE / 2) / 700.0)
    mel_points = np.linspace(0.0, mel_max, N_MELS + 2)
    hz = 700.0 * (10.0 ** (mel_points / 2595.0) - 1.0)
    centres = hz[1:-1]
    widths = (hz[1:] - hz[:-1])[:-1]  # the gap to the previous centre, used on both sides
    freqs = np.linspace(0.0, SAMPLE_RATE // 2, N_FFT // 2 + 1)
    slope = (freqs[np.newaxis, :] - centres[:, np.newaxis]) / widths[:, np.newaxis]
    weights = np.maximum(0.0, np.minimum(slope + 1.0, 1.0 - slope))
    matrix: npt.NDArray[np.float64] = weights.T
    return matrix
