"""resemblyzer's audio front end in numpy: what its GE2E encoder was trained to hear.

The encoder (:mod:`pipelines.voice.speaker_similarity`) only gives resemblyzer's embeddings if
it is fed resemblyzer's features, so each step of resemblyzer 0.1.4 (``audio.py``,
``voice_encoder.py``, ``hparams.py``) is either reproduced exactly or replaced on purpose:

Kept exactly:

* ``normalize_volume(wav, -30, increase_only=True)``: a clip quieter than −30 dBFS RMS is
  raised to it (the mel is linear power, so level matters to the LSTM); louder stays as is.
* ``wav_to_mel_spectrogram``: librosa's ``melspectrogram(sr=16000, n_fft=400, hop=160,
  n_mels=40)`` — centred STFT with *zero* padding (librosa ≥ 0.10's default), periodic Hann
  window of 400, power 2, Slaney mel scale 0–8 kHz with Slaney area normalisation, **no log**.
* ``compute_partial_slices(rate=1.3, min_coverage=0.75)``: windows of 160 frames (1.6 s)
  every ``round(16000 / 1.3 / 160) = 77`` frames; the clip is zero-padded to the last window,
  which is dropped if less than 75 % of it is audio (unless it is the only one).

Replaced:

* ``preprocess_wav`` resamples with ``librosa.resample`` (soxr); the app uses its one
  polyphase resampler (:mod:`pipelines.voice.sample_rates`) before these steps.
* ``trim_long_silences`` asks webrtcvad (a C library) which 30 ms windows hold speech. Here a
  window is voiced when its level is within :data:`VOICED_RANGE_DB` of the clip's loudest
  windows and above :data:`SILENCE_DBFS`; the rest of the step is resemblyzer's — moving
  average over 8 windows, rounded, dilated by 7 windows — so pauses longer than ~0.2 s are cut
  as there. On the fixture's clips the embeddings agree with webrtcvad's to cosine ≥ 0.997
  (the lowest, 0.9976, on the clip with a 1.5 s pause; untrimmed it would be 0.987).

Added (the app's bounds): at most :data:`MAX_PARTIALS` partials, evenly spread over the clip,
so a 10-minute clip costs what ~50 s cost.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import numpy.typing as npt

SAMPLE_RATE = 16_000
N_FFT = 400  # 25 ms
HOP = 160  # 10 ms
N_MELS = 40
PARTIAL_FRAMES = 160  # 1.6 s
PARTIALS_PER_SECOND = 1.3
MIN_COVERAGE = 0.75
MAX_PARTIALS = 64
TARGET_DBFS = -30.0
INT16_MAX = 2**15 - 1
VAD_WINDOW = 480  # 30 ms
VAD_AVERAGE_WIDTH = 8
VAD_MAX_SILENCE = 6
VOICED_RANGE_DB = 40.0
"""A window more than this far below the clip's loud windows (95th percentile) is a pause."""
SILENCE_DBFS = -55.0
"""Absolute floor: a window below this RMS level is never speech."""

Float32Array = npt.NDArray[np.float32]


def normalize_volume(samples: Float32Array) -> Float32Array:
    """resemblyzer's ``normalize_volume(..., -30, increase_only=True)``; silence stays silence."""
    rms = float(np.sqrt(np.mean(np.square(samples.astype(np.float64) * INT16_MAX))))
    if rms == 0.0:
        return samples
    change_db = TARGET_DBFS - 20.0 * math.log10(rms / INT16_MAX)
    if change_db < 0:
        return samples
    return (samples * np.float32(10.0 ** (change_db / 20.0))).astype(np.float32)


def trim_long_silences(samples: Float32Array) -> Float32Array:
    """The clip with pauses longer than ~0.2 s cut out (see the module's note on the VAD)."""
    usable = samples[: samples.size - samples.size % VAD_WINDOW]
    if usable.size == 0:
        return usable
    windows = usable.reshape(-1, VAD_WINDOW).astype(np.float64)
    level = 10.0 * np.log10(np.maximum(np.mean(windows * windows, axis=1), 1e-20))
    loud = float(np.percentile(level, 95))
    voiced = (level > loud - VOICED_RANGE_DB) & (level > SILENCE_DBFS)
    averaged = np.round(_moving_average(voiced.astype(np.float64), VAD_AVERAGE_WIDTH)) > 0
    mask = _dilate(np.asarray(averaged, dtype=bool), VAD_MAX_SILENCE + 1)
    trimmed: Float32Array = usable[np.repeat(mask, VAD_WINDOW)]
    return trimmed


def _moving_average(values: npt.NDArray[np.float64], width: int) -> npt.NDArray[np.float64]:
    """resemblyzer's centred moving average (zero padded, same length as ``values``)."""
    padded = np.concatenate((np.zeros((width - 1) // 2), values, np.zeros(width // 2)))
    summed = np.cumsum(padded, dtype=np.float64)
    summed[width:] = summed[width:] - summed[:-width]
    result: npt.NDArray[np.float64] = summed[width - 1 :] / width
    return result


def _dilate(mask: npt.NDArray[np.bool_], width: int) -> npt.NDArray[np.bool_]:
    """``scipy.ndimage.binary_dilation(mask, np.ones(width))`` (centred structuring element)."""
    before = width // 2
    after = width - 1 - before
    padded = np.concatenate((np.zeros(after, bool), mask, np.zeros(before, bool)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, width)
    result: npt.NDArray[np.bool_] = np.asarray(windows.any(axis=1), dtype=bool)
    return result


def partial_starts(samples: int) -> list[int]:
    """First mel frame of each partial for a clip of ``samples`` samples (resemblyzer's slices,
    thinned evenly to at most :data:`MAX_PARTIALS`)."""
    frames = math.ceil((samples + 1) / HOP)
    step = round(SAMPLE_RATE / PARTIALS_PER_SECOND / HOP)
    starts = list(range(0, max(1, frames - PARTIAL_FRAMES + step + 1), step))
    coverage = (samples - starts[-1] * HOP) / (PARTIAL_FRAMES * HOP)
    if coverage < MIN_COVERAGE and len(starts) > 1:
        starts.pop()
    if len(starts) > MAX_PARTIALS:
        picks = np.linspace(0, len(starts) - 1, MAX_PARTIALS).round().astype(int)
        starts = [starts[index] for index in picks]
    return starts


def partial_mels(samples: Float32Array) -> Float32Array:
    """``[partials, 160, 40]``: the encoder's input for a prepared 16 kHz clip.

    Only the frames of the chosen partials are computed, so a long clip costs its partials.
    """
    starts = np.asarray(partial_starts(samples.size))
    needed = (int(starts[-1]) + PARTIAL_FRAMES) * HOP
    tail = max(0, needed - samples.size)
    padded = np.pad(samples.astype(np.float32), (N_FFT // 2, N_FFT // 2 + tail))
    frames = np.lib.stride_tricks.sliding_window_view(padded, N_FFT)[::HOP]
    wanted = (starts[:, np.newaxis] + np.arange(PARTIAL_FRAMES)).reshape(-1)
    mel = _mel_frames(frames[wanted])
    return mel.reshape(len(starts), PARTIAL_FRAMES, N_MELS)


def mel_spectrogram(samples: Float32Array) -> Float32Array:
    """``[frames, 40]`` linear-power mel frames, as librosa computes them (float32 STFT)."""
    padded = np.pad(samples.astype(np.float32), N_FFT // 2)
    return _mel_frames(np.lib.stride_tricks.sliding_window_view(padded, N_FFT)[::HOP])


def _mel_frames(frames: npt.NDArray[np.float32]) -> Float32Array:
    """Mel power of each ``[400]`` frame: Hann window, power spectrum, Slaney filters."""
    spectrum = np.fft.rfft(frames * _hann(), axis=1)
    power = (spectrum.real**2 + spectrum.imag**2).astype(np.float32)
    mel: Float32Array = (power @ _mel_basis().T).astype(np.float32)
    return mel


@cache
def _hann() -> Float32Array:
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(N_FFT) / N_FFT)
    return window.astype(np.float32)


@cache
def _mel_basis() -> Float32Array:
    """librosa.filters.mel(sr=16000, n_fft=400, n_mels=40): Slaney scale and normalisation."""
    fft_freqs = np.fft.rfftfreq(N_FFT, 1.0 / SAMPLE_RATE)
    mel_points = np.linspace(_hz_to_mel(0.0), _hz_to_mel(SAMPLE_RATE / 2), N_MELS + 2)
    hz_points = _mel_to_hz(mel_points)
    gaps = np.diff(hz_points)
    ramps = hz_points[:, np.newaxis] - fft_freqs[np.newaxis, :]
    lower = -ramps[:-2] / gaps[:-1, np.newaxis]
    upper = ramps[2:] / gaps[1:, np.newaxis]
    weights = np.maximum(0.0, np.minimum(lower, upper))
    weights *= (2.0 / (hz_points[2:] - hz_points[:-2]))[:, np.newaxis]
    return weights.astype(np.float32)


_F_SP = 200.0 / 3  # Slaney: linear below 1 kHz, logarithmic above
_MIN_LOG_HZ = 1000.0
_MIN_LOG_MEL = _MIN_LOG_HZ / _F_SP
_LOGSTEP = math.log(6.4) / 27.0


def _hz_to_mel(hz: float) -> float:
    if hz < _MIN_LOG_HZ:
        return hz / _F_SP
    return _MIN_LOG_MEL + math.log(hz / _MIN_LOG_HZ) / _LOGSTEP


def _mel_to_hz(mel: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    linear = _F_SP * mel
    log = _MIN_LOG_HZ * np.exp(_LOGSTEP * (mel - _MIN_LOG_MEL))
    hz: npt.NDArray[np.float64] = np.where(mel >= _MIN_LOG_MEL, log, linear)
    return hz
