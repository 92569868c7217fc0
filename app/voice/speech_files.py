"""Speech as files: sentences joined with a reader's pauses, and written whole or not at all."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.core.errors import StorageError
from app.core.texts import tr
from pipelines.files import check_output_file
from pipelines.voice.audio import MODEL_RATE, write_wav_atomic

PAUSE_SECONDS = 0.25


def join_sentences(pieces: Sequence[npt.NDArray[np.float32]]) -> npt.NDArray[np.float32]:
    """Sentences one after another with a short pause between them (as a reader pauses)."""
    if not pieces:
        return np.zeros(0, np.float32)
    pause = np.zeros(int(PAUSE_SECONDS * MODEL_RATE), np.float32)
    joined: list[npt.NDArray[np.float32]] = []
    for index, piece in enumerate(pieces):
        if index:
            joined.append(pause)
        joined.append(piece)
    return np.concatenate(joined)


def check_output_wav(output: Path) -> Path:
    """``output`` if a wav can be written there.

    Raises:
        UserError: not a .wav name, or a folder that does not exist or is not writable
            (``field="output"``).
    """
    return check_output_file(output.expanduser(), ".wav", "Audio files")


def save_speech(samples: npt.NDArray[np.float32], output: Path) -> None:
    """Write synthesised speech to ``output`` atomically.

    Raises:
        StorageError: the disk refused it (nothing half-written remains).
    """
    try:
        write_wav_atomic(output, samples)
    except OSError as error:
        raise StorageError(
            tr("Could not save {name}: {reason}").format(
                name=output.name, reason=error.strerror or error
            )
        ) from error
