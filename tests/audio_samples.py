"""Deterministic speech-like test audio: voiced syllables with pauses, as speech has.

A pure tone would be judged "too noisy" by the reference checks (no pauses, so no contrast
between speech and background) and is nothing like what a microphone hears; these clips have a
pitch with harmonics, a formant-ish spectral tilt, syllable envelopes and gaps between words.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt

RATE = 16_000


def speech_like(
    seconds: float, *, pitch: float = 140.0, seed: int = 0, rate: int = RATE, level: float = 0.3
) -> npt.NDArray[np.float32]:
    """``seconds`` of mono speech-like audio at ``rate``; ``pitch`` sets the voice."""
    rng = np.random.default_rng(seed)
    total = int(seconds * rate)
    out = np.zeros(total, np.float64)
    position = int(0.05 * rate)
    while position < total:
        length = int(rng.uniform(0.12, 0.3) * rate)
        stop = min(total, position + length)
        t = np.arange(stop - position) / rate
        glide = pitch * (1.0 + 0.08 * np.sin(2 * np.pi * rng.uniform(1, 3) * t))
        phase = 2 * np.pi * np.cumsum(glide) / rate
        syllable = sum(np.sin(k * phase) / k**1.2 for k in range(1, 12))
        syllable = syllable + 0.05 * rng.standard_normal(t.size)
        envelope = np.sin(np.pi * np.linspace(0, 1, t.size)) ** 0.6
        out[position:stop] += syllable * envelope
        gap = rng.uniform(0.03, 0.08) if rng.random() < 0.7 else rng.uniform(0.15, 0.35)
        position = stop + int(gap * rate)
    out += 0.0005 * rng.standard_normal(total)  # a quiet room, not digital silence
    peak = np.abs(out).max() or 1.0
    return (level * out / peak).astype(np.float32)


def write_clip(path: Path, samples: npt.NDArray[np.floating], rate: int = RATE) -> Path:
    """Write ``samples`` (``[n]`` or ``[n, channels]``) with soundfile; the format from the
    suffix."""
    import soundfile

    soundfile.write(str(path), np.asarray(samples), rate)
    return path


def wav_claiming(path: Path, rate: int, frames: int = RATE) -> Path:
    """A real 16-bit mono wav of ``frames`` samples whose header says ``rate`` (any 32-bit
    value, which soundfile would not write): a small file claiming an absurd rate."""
    import struct

    data = (np.sin(np.arange(frames) * 0.05) * 8000).astype("<i2").tobytes()
    fmt = struct.pack("<HHIIHH", 1, 1, rate, (rate * 2) & 0xFFFFFFFF, 2, 16)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"data" + struct.pack("<I", len(data)) + data
    path.write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)
    return path


def flac_claiming(path: Path, rate: int, channels: int, frames: int) -> Path:
    """A FLAC file that is only its STREAMINFO header, claiming ``frames`` 16-bit samples of
    ``channels`` at ``rate``: what a few megabytes of compressed near-silence declare."""
    packed = (rate << 44) | ((channels - 1) << 41) | (15 << 36) | frames
    # Block sizes 4096, frame sizes unknown (0), the packed fields, an MD5 of zeros.
    info = (4096).to_bytes(2, "big") * 2 + bytes(6) + packed.to_bytes(8, "big") + bytes(16)
    path.write_bytes(b"fLaC" + bytes([0x80, 0, 0, len(info)]) + info)
    return path
