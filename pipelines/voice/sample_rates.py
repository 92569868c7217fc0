"""Sample rates: which ones a file may declare, and the one resampler every part of the app uses.

Resampling is polyphase with an anti-aliasing filter (``scipy.signal.resample_poly``), never
sample dropping or linear interpolation, which would fold high frequencies into the band the
models listen to. Its filter has about 20 taps per step of the reduced ratio: from 44,100 Hz to
16,000 Hz the ratio is 160/441 (8,821 taps), but from a coprime rate such as 383,999 Hz it is
16,000/383,999 (7.7 million taps, 457 MB and 2 s for one second of sound) and from a header
claiming 16,777,213 Hz it is 335 million taps (15.9 GB). So a file's rate is checked against
:data:`MIN_SAMPLE_RATE`–:data:`MAX_SAMPLE_RATE` before a sample is decoded, and a ratio whose
terms exceed :data:`MAX_RATIO_TERM` is replaced by the nearest one within it: every usual rate
(8, 11.025, 22.05, 32, 44.1, 48, 88.2, 96, 176.4, 192, 352.8, 384 kHz, to or from 16 or 24
kHz) is resampled exactly, and the worst accepted rate is off by 50 parts per million (45 ms
over 15 minutes, a pitch change far below what an ear hears).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from pipelines.core import InvalidInputError

MIN_SAMPLE_RATE = 4_000
"""Below telephone speech (8 kHz): nothing lower holds words."""
MAX_SAMPLE_RATE = 384_000
"""The highest rate studio converters record at."""
MAX_RATIO_TERM = 10_000
"""Largest up or down factor of the polyphase filter: its ~200,000 taps take 1.6 MB."""

Float32Array = npt.NDArray[np.float32]


def rate_refusal(rate: int, name: str) -> str | None:
    """The sentence refusing audio at ``rate`` Hz (``name`` names it), or None if it is fine."""
    if MIN_SAMPLE_RATE <= rate <= MAX_SAMPLE_RATE:
        return None
    return (
        f"{name} has a sample rate of {rate:,} Hz; rates from {MIN_SAMPLE_RATE:,} to "
        f"{MAX_SAMPLE_RATE:,} Hz can be read."
    )


def check_sample_rate(rate: int, name: str, *, field: str) -> None:
    """Refuse a rate outside :data:`MIN_SAMPLE_RATE`–:data:`MAX_SAMPLE_RATE`: call it with the
    rate a header declares, before decoding.

    Raises:
        InvalidInputError: one sentence naming ``name``, the rate and the accepted range
            (``field``).
    """
    refusal = rate_refusal(rate, name)
    if refusal is not None:
        raise InvalidInputError(refusal, field=field)


def polyphase_factors(rate: int, target: int) -> tuple[int, int]:
    """``(up, down)`` taking ``rate`` to ``target``: the exact reduced ratio when both terms are
    at most :data:`MAX_RATIO_TERM`, else the closest ratio whose terms are."""
    divisor = math.gcd(rate, target)
    up, down = target // divisor, rate // divisor
    if max(up, down) <= MAX_RATIO_TERM:
        return up, down
    ratio = Fraction(target, rate)
    if ratio <= 1:
        near = ratio.limit_denominator(MAX_RATIO_TERM)
        return max(1, near.numerator), near.denominator
    near = (1 / ratio).limit_denominator(MAX_RATIO_TERM)
    return near.denominator, max(1, near.numerator)


def resample(
    samples: npt.NDArray[np.floating], rate: int, target: int, *, field: str = "audio"
) -> Float32Array:
    """``samples`` (``[frames]``, or ``[frames, channels]`` along axis 0) taken from ``rate``
    to ``target`` Hz (a rate of ours or a sound device's).

    Raises:
        InvalidInputError: ``rate`` is outside the accepted range (``field``): samples that did
            not come through a checked header (a device, a client's array) are checked here.
    """
    data = np.asarray(samples)
    if rate == target or not data.size:
        return np.asarray(data, dtype=np.float32)
    check_sample_rate(rate, "The audio", field=field)
    from scipy.signal import resample_poly

    up, down = polyphase_factors(rate, target)
    return np.asarray(resample_poly(data, up, down, axis=0), dtype=np.float32)
