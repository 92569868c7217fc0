"""Speech made in the Voice panel, kept as a file so the Avatar panel can lip-sync to it.

The Voice panel holds only its latest synthesis, in memory, and replaces it on the next Speak.
A panel that was handed a speech must keep what it was given, so every hand-off is written to
a wav of its own (temp name, then renamed) in :attr:`app.core.paths.AppPaths.spoken_dir`, private to
the user (0600 in a 0700 folder: it is someone's cloned voice). Only the newest :data:`KEEP`
are kept: the Avatar panel always holds the newest, and one it is lip-syncing right now is
still among them however often the user hands over another.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.core.errors import StorageError
from app.core.storage.atomic import private_folder
from app.core.texts import tr
from pipelines.voice.audio import write_wav_atomic

log = logging.getLogger(__name__)

KEEP = 8
PREFIX = "spoken-"


@dataclass(frozen=True)
class SpokenClip:
    """A finished speech written to ``path``: what it says, in which voice, how long."""

    path: Path
    text: str
    voice: str
    seconds: float


def keep_spoken(
    folder: Path,
    samples: npt.NDArray[np.float32],
    text: str,
    voice: str,
    *,
    rate: int,
) -> SpokenClip:
    """Write ``samples`` to a new wav in ``folder`` and forget all but the newest few.

    Raises:
        StorageError: the folder cannot be written (``field="output"``); nothing is left.
    """
    try:
        private_folder(folder)  # the user's cloned voice: as private as the voices themselves
        path = _new_path(folder)
        write_wav_atomic(path, samples, rate, private=True)
    except OSError as error:
        raise StorageError(
            tr("Could not keep the audio for the Avatar panel in {folder}: {reason}.").format(
                folder=folder, reason=error.strerror or error
            ),
            field="output",
        ) from error
    _prune(folder, keep=path)
    return SpokenClip(path, text, voice, samples.size / rate)


def _new_path(folder: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"{PREFIX}{stamp}.wav"
    counter = 2
    while path.exists():
        path = folder / f"{PREFIX}{stamp}-{counter}.wav"
        counter += 1
    return path


def _prune(folder: Path, keep: Path) -> None:
    """Delete the oldest hand-offs beyond :data:`KEEP` (never ``keep``, the one just made)."""
    clips = [p for p in folder.glob(f"{PREFIX}*.wav") if p != keep]
    clips.sort(key=lambda p: (p.stat().st_mtime, p.name), reverse=True)
    for old in clips[KEEP - 1 :]:
        try:
            old.unlink()
        except OSError as error:  # still open elsewhere (Windows): tried again next time
            log.info("could not remove the old speech %s: %s", old, error)
