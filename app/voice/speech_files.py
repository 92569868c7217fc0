"""Speech as files: sentences joined with a reader's pauses, and written whole or not at all."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.core.errors import StorageError
from app.core.texts import tr
from app.voice.figures import Speech, SpeechFigures
from pipelines.core import Cancelled, CancelToken
from pipelines.files import check_output_file
from pipelines.voice.audio import MODEL_RATE, write_wav_atomic
from pipelines.voice.tts import SpeechChunk

PAUSE_SECONDS = 0.25

ChunkCallback = Callable[[SpeechChunk], None]


@dataclass(frozen=True)
class SpeechResult:
    """A finished synthesis written to a file."""

    path: Path
    seconds: float
    """Length of the file (the pauses between sentences included)."""
    figures: SpeechFigures


def join_sentences(pieces: Sequence[npt.NDArray[np.float32]], rate: int) -> npt.NDArray[np.float32]:
    """Sentences (at ``rate`` Hz) one after another with a short pause between them (as a
    reader pauses)."""
    if not pieces:
        return np.zeros(0, np.float32)
    pause = np.zeros(pause_samples(rate), np.float32)
    joined: list[npt.NDArray[np.float32]] = []
    for index, piece in enumerate(pieces):
        if index:
            joined.append(pause)
        joined.append(piece)
    return np.concatenate(joined)


def pause_samples(rate: int) -> int:
    """The pause between two sentences, in samples at ``rate``."""
    return int(PAUSE_SECONDS * rate)


def check_output_wav(output: Path) -> Path:
    """``output`` if a wav can be written there.

    Raises:
        UserError: not a .wav name, or a folder that does not exist or is not writable
            (``field="output"``).
    """
    return check_output_file(output.expanduser(), ".wav", "Audio files")


def save_speech(samples: npt.NDArray[np.float32], output: Path, rate: int) -> None:
    """Write synthesised speech (at ``rate`` Hz: the voice's own) to ``output`` atomically.

    Raises:
        StorageError: the disk refused it (nothing half-written remains).
    """
    try:
        write_wav_atomic(output, samples, rate)
    except OSError as error:
        raise StorageError(
            tr("Could not save {name}: {reason}").format(
                name=output.name, reason=error.strerror or error
            )
        ) from error


def write_speech(
    speech: Speech,
    output: Path,
    cancel: CancelToken | None,
    on_chunk: ChunkCallback | None = None,
) -> SpeechResult:
    """All of ``speech`` written to the wav ``output`` at the engine's own rate, whole or not
    at all (``on_chunk`` sees each sentence as it is made).

    Raises:
        Cancelled: ``cancel`` was set; nothing is written.
        StorageError: the disk refused it.
    """
    pieces: list[npt.NDArray[np.float32]] = []
    rate = MODEL_RATE
    for chunk in speech:
        pieces.append(chunk.samples)
        rate = chunk.rate  # the engine's own: the file keeps all of the voice
        if on_chunk is not None:
            on_chunk(chunk)
    if cancel is not None and cancel.cancelled:
        raise Cancelled()
    audio = join_sentences(pieces, rate)
    save_speech(audio, output, rate)
    return SpeechResult(output, audio.size / rate, speech.figures)
