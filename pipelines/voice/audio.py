"""Reading, resampling and writing audio for the voice pipelines.

Everything the voice models see is 16 kHz mono float32. Files are read with soundfile
(libsndfile: wav, flac, ogg/vorbis/opus, mp3) or PyAV; the rate a header declares is checked
before anything is decoded, and resampling is :mod:`pipelines.voice.sample_rates`' polyphase
filter.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from pipelines.core import InvalidInputError
from pipelines.files import PRIVATE_FILE, check_input_file, replacing
from pipelines.native_output import quiet_native_output
from pipelines.voice.sample_rates import check_sample_rate, resample

MODEL_RATE = 16_000
SUPPORTED_SUFFIXES = (".wav", ".flac", ".ogg", ".oga", ".opus", ".mp3")
# Reading a whole file decides nothing a header cannot: longer files are refused up front.
MAX_FILE_SECONDS = 15 * 60
MAX_DECODED_SAMPLES = MAX_FILE_SECONDS * 48_000 * 2
"""Samples (frames × channels) decoded at once: 15 minutes of 48 kHz stereo, 346 MB as
float32. A compressed file holds far more in a few megabytes: 15 minutes of near-silence at
384 kHz is a 1.3 MB FLAC that decoded to 6.6 GB."""

Float32Array = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Clip:
    """A decoded clip: the original samples (for level checks) and its 16 kHz mono version."""

    original: Float32Array
    """``[frames, channels]`` at :attr:`source_rate`, as decoded."""
    source_rate: int
    samples: Float32Array
    """16 kHz mono, what the models get."""

    @property
    def seconds(self) -> float:
        """Duration of the clip."""
        return self.samples.size / MODEL_RATE

    @property
    def channels(self) -> int:
        """Channels of the original."""
        return int(self.original.shape[1])


def read_clip(path: Path, *, field: str = "file") -> Clip:
    """Decode ``path`` and resample it to 16 kHz mono.

    Raises:
        InvalidInputError: missing, not audio, damaged, empty, far too long, or a sample rate
            outside 4–384 kHz (``field``).
    """
    import soundfile

    check_input_file(path, "an audio file", field=field)
    try:
        with quiet_native_output():  # mpg123 prints its complaints itself
            info = soundfile.info(str(path))
    except (soundfile.LibsndfileError, RuntimeError, OSError) as error:
        raise InvalidInputError(
            f"{path.name} is not an audio file this app can read ({_reason(error, path)}). "
            "Use wav, flac, ogg or mp3.",
            field=field,
        ) from error
    if info.samplerate <= 0 or info.channels <= 0:
        raise InvalidInputError(f"{path.name} has no audio in it.", field=field)
    check_sample_rate(info.samplerate, path.name, field=field)
    if info.frames > 0 and info.frames / info.samplerate > MAX_FILE_SECONDS:
        raise InvalidInputError(
            f"{path.name} is {_minutes(info.frames / info.samplerate)} long; "
            f"clips up to {MAX_FILE_SECONDS // 60} minutes can be opened.",
            field=field,
        )
    if info.frames * info.channels > MAX_DECODED_SAMPLES:
        channels = f"{info.channels} channels" if info.channels > 1 else "1 channel"
        raise InvalidInputError(
            f"{path.name} holds {_minutes(info.frames / info.samplerate)} of "
            f"{info.samplerate:,} Hz sound in {channels}, {_TOO_MUCH}",
            field=field,
        )
    try:
        with quiet_native_output():
            data, rate = soundfile.read(str(path), dtype="float32", always_2d=True)
    except (soundfile.LibsndfileError, RuntimeError, OSError, ValueError) as error:
        raise InvalidInputError(
            f"{path.name} is damaged and cannot be decoded ({_reason(error, path)}).",
            field=field,
        ) from error
    if data.shape[0] == 0:
        raise InvalidInputError(f"{path.name} has no audio in it (0 samples).", field=field)
    if not np.isfinite(data).all():
        raise InvalidInputError(f"{path.name} contains invalid samples.", field=field)
    return Clip(original=data, source_rate=int(rate), samples=to_model_rate(data, int(rate)))


def clip_from_samples(samples: npt.NDArray[np.floating], rate: int) -> Clip:
    """A :class:`Clip` from samples already in memory (e.g. a recording), any channels.

    Raises:
        InvalidInputError: ``rate`` is outside 4–384 kHz (``field="audio"``).
    """
    data = np.asarray(samples, dtype=np.float32)
    if data.ndim == 1:
        data = data[:, np.newaxis]
    return Clip(original=data, source_rate=rate, samples=to_model_rate(data, rate))


def to_model_rate(data: npt.NDArray[np.floating], rate: int) -> Float32Array:
    """Mix ``[frames, channels]`` (or ``[frames]``) down to mono and resample to 16 kHz.

    Raises:
        InvalidInputError: ``rate`` is outside 4–384 kHz (``field="audio"``).
    """
    mono = np.asarray(data, dtype=np.float32)  # float32 throughout: the filter follows it
    if mono.ndim == 2:
        mono = mono[:, 0] if mono.shape[1] == 1 else mono.mean(axis=1, dtype=np.float32)
    return np.ascontiguousarray(resample(mono, rate, MODEL_RATE))


def write_wav_atomic(
    path: Path,
    samples: npt.NDArray[np.floating],
    rate: int = MODEL_RATE,
    *,
    private: bool = False,
) -> None:
    """Write a 16-bit PCM wav: to a temp name in the same folder, renamed when complete.

    A reader never sees a half-written file, and a failure leaves the old file (if any) alone.
    ``private`` keeps the file readable by its owner only (0600, as the temp file is created):
    for someone's voice kept by the app, as opposed to a wav the user saves to share.

    Raises:
        OSError: the folder is not writable or the disk is full (nothing is left behind).
    """
    import soundfile

    path.parent.mkdir(parents=True, exist_ok=True)
    with replacing(path, mode=PRIVATE_FILE if private else None) as temp:
        data = np.asarray(samples, dtype=np.float32)
        soundfile.write(str(temp), data, rate, format="WAV", subtype="PCM_16")


_TOO_MUCH = (
    "more than the app decodes at once (15 minutes of 48 kHz stereo): use a shorter clip or a "
    "copy at a lower sample rate."
)


def _reason(error: BaseException, path: Path) -> str:
    """libsndfile's complaint in words that fit a file that exists (it was checked)."""
    text = str(error).strip().splitlines()[-1] if str(error).strip() else type(error).__name__
    # libsndfile prefixes the path, which the message already names.
    text = text.split(": ", 1)[-1] if "Error opening" in text else text
    # Said of any file it cannot open, a damaged mp3 included: "File does not exist or is not
    # a regular file (possibly a pipe?)".
    if "possibly a pipe" in text or "does not exist" in text:
        kind = path.suffix.lstrip(".").upper() or "audio"
        return f"it is damaged, or not really {_article(kind)} {kind} file"
    return text.rstrip(".")


def _article(word: str) -> str:
    return "an" if word[:1].upper() in "AEFHILMNORSX" else "a"


def _minutes(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


def decode_with_av(
    path: Path, *, label: str | None = None, field: str = "audio"
) -> tuple[Float32Array, int]:
    """Mono float samples of the audio in ``path`` and their rate, through PyAV (FFmpeg):
    the containers soundfile does not read (m4a, mp4, webm, mpeg, a video's sound).

    ``label`` names the file in the sentences (default: its name; a server names the
    client's file, not its scratch copy).

    Raises:
        InvalidInputError: no audio stream, damaged, empty, longer than
            :data:`MAX_FILE_SECONDS`, or a sample rate outside 4–384 kHz (``field``).
    """
    import itertools

    import av

    name = label or path.name
    try:
        with av.open(str(path)) as container:
            if not container.streams.audio:
                raise InvalidInputError(f"{name} has no sound in it.", field=field)
            stream = container.streams.audio[0]
            rate = int(stream.rate or MODEL_RATE)
            check_sample_rate(rate, name, field=field)
            duration = (
                round(float(stream.duration * stream.time_base) * rate)
                if stream.duration and stream.time_base
                else 0
            )
            mono = av.AudioResampler(format="flt", layout="mono", rate=rate)
            pieces: list[Float32Array] = []
            total = 0
            for frame in itertools.chain(container.decode(stream), [None]):  # None: flush
                for converted in mono.resample(frame):
                    piece = np.asarray(converted.to_ndarray(), dtype=np.float32).reshape(-1)
                    pieces.append(piece)
                    total += piece.size
                if total > MAX_FILE_SECONDS * rate:
                    raise InvalidInputError(
                        f"{name} is longer than {MAX_FILE_SECONDS // 60} minutes.", field=field
                    )
                if total > MAX_DECODED_SAMPLES:
                    raise InvalidInputError(f"{name} holds {_TOO_MUCH}", field=field)
    except (av.error.FFmpegError, OSError, ValueError) as error:
        raise InvalidInputError(
            f"{name} is not an audio file this app can read ({_av_reason(error)}).",
            field=field,
        ) from error
    if not total:
        raise InvalidInputError(f"{name} has no audio in it (0 samples).", field=field)
    samples = np.concatenate(pieces)
    if duration:  # AAC decodes to whole 1024-sample frames; the container knows the length
        samples = samples[:duration]
    return samples, rate


def _av_reason(error: BaseException) -> str:
    """FFmpeg's cause without the path (the sentence names the file already)."""
    text = getattr(error, "strerror", None) or str(error).strip()
    return str(text).splitlines()[-1][:160] if text else type(error).__name__
