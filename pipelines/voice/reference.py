"""Checks a reference clip before a voice is made from it.

A speaker embedding from a bad clip is silently bad: the voice just sounds like someone else.
So the clip is judged first, on measurable things, and every problem is said in words:

* length: 5–30 s of audio after trimming silence at both ends (an x-vector needs a few seconds
  of speech; beyond 30 s nothing improves and the encoder only takes longer);
* silence: the loudest 50 ms must reach −45 dBFS;
* clipping: more than 0.1 % of the *original* samples at full scale (resampling would smooth
  the flat tops away, so this is checked before it);
* no speech: a steady tone — loud and quiet moments within 3 dB, where speech has syllables
  and pauses, and a spectrum of a few sharp peaks (a beep, a hum, a held note) — is not
  someone speaking (a steady *noise* is said to be too noisy: speech drowned in noise looks
  the same);
* noise: the estimated signal-to-noise ratio (loud frames vs quiet frames) under 12 dB.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from pipelines.voice.audio import MODEL_RATE, Clip

MIN_SECONDS = 5.0
MAX_SECONDS = 30.0
SILENT_DBFS = -45.0
CLIPPED_SHARE = 0.001
CLIP_LEVEL = 0.999
MIN_SNR_DB = 12.0
STEADY_DB = 3.0  # loud and quiet moments closer than this: no syllables, no pauses
TONAL_FLATNESS = 0.1  # spectral flatness below this: a few sharp peaks (white noise: ~1)
FRAME = MODEL_RATE // 20  # 50 ms
TRIM_DBFS = -50.0  # quieter than this at the ends counts as silence


@dataclass(frozen=True)
class Problem:
    """One reason a clip cannot (or should not) be used; ``kind`` is a stable key."""

    kind: str  # too_short | too_long | silent | no_speech | clipped | noisy
    message: str


@dataclass(frozen=True)
class ReferenceCheck:
    """The verdict on a clip: the trimmed samples and what is wrong with them."""

    samples: npt.NDArray[np.float32]
    """The clip at 16 kHz with silence trimmed from both ends."""
    problems: list[Problem] = field(default_factory=list)
    peak_dbfs: float = -120.0
    snr_db: float = 0.0
    clipped_share: float = 0.0

    @property
    def seconds(self) -> float:
        """Length after trimming."""
        return self.samples.size / MODEL_RATE

    @property
    def ok(self) -> bool:
        """No problem found."""
        return not self.problems

    def has(self, kind: str) -> bool:
        """Whether a problem of ``kind`` was found."""
        return any(problem.kind == kind for problem in self.problems)


def check_reference(clip: Clip) -> ReferenceCheck:
    """Judge ``clip`` as a voice reference (never raises for a bad clip: it reports)."""
    levels = _frame_dbfs(clip.samples)
    peak = float(levels.max()) if levels.size else -120.0
    clipped = float(np.mean(np.abs(clip.original) >= CLIP_LEVEL)) if clip.original.size else 0.0
    if peak < SILENT_DBFS:
        message = (
            f"The clip is silent (loudest moment {peak:.0f} dBFS). "
            "Check the microphone or pick another file."
        )
        return ReferenceCheck(clip.samples, [Problem("silent", message)], peak, 0.0, clipped)

    trimmed = _trim_silence(clip.samples, levels)
    problems: list[Problem] = []
    seconds = trimmed.size / MODEL_RATE
    if seconds < MIN_SECONDS:
        problems.append(
            Problem(
                "too_short",
                f"The clip has {seconds:.1f} s of sound; a voice needs at least "
                f"{MIN_SECONDS:.0f} s of someone speaking.",
            )
        )
    elif seconds > MAX_SECONDS:
        problems.append(
            Problem(
                "too_long",
                f"The clip is {_duration(seconds)} long; a voice uses at most "
                f"{MAX_SECONDS:.0f} s. Trim it to the first {MAX_SECONDS:.0f} s?",
            )
        )
    if clipped > CLIPPED_SHARE:
        problems.append(
            Problem(
                "clipped",
                f"The clip is distorted: {clipped:.1%} of it is clipped at full volume. "
                "Record again a little further from the microphone or with less gain.",
            )
        )
    snr = _snr_db(_frame_dbfs(trimmed))
    if snr < STEADY_DB and trimmed.size >= FRAME * 4 and _is_tonal(trimmed):
        # The first problem is the one said: no speech at all matters before its length.
        message = (
            "The clip is a steady tone (a beep, a hum or a held note), not someone speaking. "
            "Pick a recording of a voice."
        )
        problems.insert(0, Problem("no_speech", message))
    elif snr < MIN_SNR_DB:
        problems.append(
            Problem(
                "noisy",
                f"The clip is too noisy (speech only {snr:.0f} dB above the background; "
                f"{MIN_SNR_DB:.0f} dB needed). Record somewhere quieter.",
            )
        )
    return ReferenceCheck(trimmed, problems, peak, snr, clipped)


def _is_tonal(samples: npt.NDArray[np.float32]) -> bool:
    """Whether the sound is a few sharp spectral peaks (a tone and its harmonics)."""
    return _spectral_flatness(samples) < TONAL_FLATNESS


def _spectral_flatness(samples: npt.NDArray[np.float32]) -> float:
    """Geometric over arithmetic mean of the power spectrum, 80 Hz–7.6 kHz: near 0 for a few
    sharp peaks (a tone and its harmonics), near 1 for white noise."""
    from scipy.signal import welch

    frequencies, power = welch(samples.astype(np.float64), MODEL_RATE, nperseg=1024)
    band = power[(frequencies >= 80.0) & (frequencies <= 7600.0)] + 1e-20
    return float(np.exp(np.mean(np.log(band))) / np.mean(band))


def trim_to(
    samples: npt.NDArray[np.float32], seconds: float = MAX_SECONDS
) -> npt.NDArray[np.float32]:
    """The first ``seconds`` of a clip (what "trim" offers for a long clip)."""
    return samples[: int(seconds * MODEL_RATE)]


def _frame_dbfs(samples: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """RMS level of each 50 ms frame in dB relative to full scale."""
    usable = samples.size - samples.size % FRAME
    if usable == 0:
        usable_samples = np.pad(samples, (0, FRAME - samples.size)) if samples.size else samples
        frames = usable_samples.reshape(-1, FRAME) if usable_samples.size else np.zeros((0, FRAME))
    else:
        frames = samples[:usable].reshape(-1, FRAME)
    rms = np.sqrt(np.mean(np.square(frames, dtype=np.float64), axis=1))
    levels: npt.NDArray[np.float64] = 20.0 * np.log10(np.maximum(rms, 1e-6))
    return levels


def _trim_silence(
    samples: npt.NDArray[np.float32], levels: npt.NDArray[np.float64]
) -> npt.NDArray[np.float32]:
    loud = np.flatnonzero(levels > max(TRIM_DBFS, float(levels.max()) - 40.0))
    if loud.size == 0:
        return samples
    start = max(0, (int(loud[0]) - 2) * FRAME)  # keep 100 ms of lead-in and tail
    stop = min(samples.size, (int(loud[-1]) + 3) * FRAME)
    return samples[start:stop]


def _snr_db(levels: npt.NDArray[np.float64]) -> float:
    """Loud frames (speech) against quiet frames (the pauses: background noise)."""
    if levels.size < 4:
        return 0.0
    speech = float(np.percentile(levels, 90))
    floor = float(np.percentile(levels, 10))
    return speech - floor


def _duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"
