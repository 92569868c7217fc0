"""Wav2Lip's mel spectrogram in numpy, and its one window per video frame.

The lip-sync model was trained on exactly these features (Wav2Lip's ``audio.py`` with its
``hparams``): 16 kHz, pre-emphasis 0.97, STFT with n_fft 800 / hop 200 / Hann window 800
(centred, reflect padding, as the librosa 0.7 that Wav2Lip pinned did), magnitude, 80 Slaney
mel bands 55–7600 Hz with Slaney normalisation, 20·log10 with a 1e-5 floor minus 20 dB, scaled
symmetrically to [−4, 4] over a 100 dB range; it matches the librosa version to ~1e-7. A video
frame ``i`` at ``fps`` sees the 16 mel frames from ``int(i * 80 / fps)`` (80 mel frames/s).

The reference loop stops when a window would run past the end, dropping the last frames
(122 of 125 for 5 s at 25 fps); here the frame count is ``ceil(duration × fps)`` and the last
windows are the last 16 mel frames, so the video is exactly as long as the audio.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import numpy.typing as npt

SAMPLE_RATE = 16_000
N_FFT = 800
HOP = 200
N_MELS = 80
FMIN, FMAX = 55.0, 7600.0
PREEMPHASIS = 0.97
MIN_LEVEL_DB = -100.0
REF_LEVEL_DB = 20.0
MAX_ABS = 4.0
WINDOW_FRAMES = 16
MEL_PER_SECOND = SAMPLE_RATE / HOP  # 80

Float32Array = npt.NDArray[np.float32]


def frame_count(samples: int, fps: float) -> int:
    """Video frames for ``samples`` of 16 kHz audio: the video lasts as long as the audio."""
    return max(1, math.ceil(samples / SAMPLE_RATE * fps - 1e-9))


def mel_spectrogram(samples: npt.NDArray[np.floating]) -> Float32Array:
    """``[80, T]`` normalised log-mel spectrogram of 16 kHz mono audio."""
    wave = np.asarray(samples, dtype=np.float64)
    emphasised = np.empty_like(wave)
    emphasised[:1] = wave[:1]
    emphasised[1:] = wave[1:] - PREEMPHASIS * wave[:-1]
    padded = np.pad(
        emphasised, N_FFT // 2, mode="reflect" if wave.size > N_FFT // 2 else "constant"
    )
    frames = np.lib.stride_tricks.sliding_window_view(padded, N_FFT)[::HOP]
    magnitude = np.abs(np.fft.rfft(frames * _hann(), axis=1))  # [T, 401]
    mel = _mel_basis() @ magnitude.T  # [80, T]
    db = 20.0 * np.log10(np.maximum(1e-5, mel)) - REF_LEVEL_DB
    scaled = 2 * MAX_ABS * ((db - MIN_LEVEL_DB) / -MIN_LEVEL_DB) - MAX_ABS
    result: Float32Array = np.clip(scaled, -MAX_ABS, MAX_ABS).astype(np.float32)
    return result


def mel_windows(samples: npt.NDArray[np.floating], fps: float) -> Float32Array:
    """``[frames, 1, 80, 16]``: the model's audio input for every video frame at ``fps``."""
    mel = padded_mel(mel_spectrogram(samples))
    starts = window_starts(frame_count(len(samples), fps), fps, mel.shape[1])
    windows = np.stack([mel[:, start : start + WINDOW_FRAMES] for start in starts])
    result: Float32Array = windows[:, np.newaxis].astype(np.float32)
    return result


def padded_mel(mel: Float32Array) -> Float32Array:
    """``mel`` with at least one window's worth of frames: audio under 0.2 s is padded with
    the level of silence."""
    if mel.shape[1] >= WINDOW_FRAMES:
        return mel
    missing = WINDOW_FRAMES - mel.shape[1]
    result: Float32Array = np.pad(mel, ((0, 0), (0, missing)), constant_values=-MAX_ABS)
    return result


def window_starts(count: int, fps: float, mel_frames: int) -> npt.NDArray[np.int64]:
    """First mel frame of the window of each of ``count`` video frames: ``int(i × 80 / fps)``,
    held at the last full window where that would run past the end (the reference code
    stopped there and dropped the remaining video frames)."""
    starts = (np.arange(count) * (MEL_PER_SECOND / fps)).astype(np.int64)
    result: npt.NDArray[np.int64] = np.minimum(starts, max(0, mel_frames - WINDOW_FRAMES))
    return result


@cache
def _hann() -> npt.NDArray[np.float64]:
    window: npt.NDArray[np.float64] = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(N_FFT) / N_FFT)
    return window


@cache
def _mel_basis() -> npt.NDArray[np.float64]:
    """librosa.filters.mel(sr=16000, n_fft=800, n_mels=80, fmin=55, fmax=7600): Slaney scale
    and Slaney area normalisation."""
    fft_freqs = np.linspace(0.0, SAMPLE_RATE / 2, N_FFT // 2 + 1)
    mel_points = np.linspace(_hz_to_mel(FMIN), _hz_to_mel(FMAX), N_MELS + 2)
    hz_points = _mel_to_hz(mel_points)
    gaps = np.diff(hz_points)
    ramps = hz_points[:, np.newaxis] - fft_freqs[np.newaxis, :]
    lower = -ramps[:-2] / gaps[:-1, np.newaxis]
    upper = ramps[2:] / gaps[1:, np.newaxis]
    weights = np.maximum(0.0, np.minimum(lower, upper))
    weights *= (2.0 / (hz_points[2:] - hz_points[:-2]))[:, np.newaxis]
    return weights


_F_SP = 200.0 / 3  # Slaney: linear below 1 kHz
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
