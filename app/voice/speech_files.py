"""Speech as files: sentences joined with a reader's pauses, and written whole or not at all."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.core.errors import StorageError
from app.core.texts import tr
from pipelines.files import check_output_file
from pipelines.voice.audio import write_wav_atomic

PAUSE_SECONDS = 0.25


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
