"""The files of one voice folder: read only as the app writes them, written private.

A voice folder holds ``voice.json`` (its name and details), ``embedding.npy`` (512 float32
values, a plain ``.npy`` array) and ``reference.wav`` (the clip it came from). Anything else in
their place — another dtype or shape, a pickle, a zip, text, NaN, a huge file — is damage:
:class:`VoiceDamagedError` says why in a phrase, and the library lists the voice apart. Files are
created 0600 and folders made by older versions are tightened, because a voice is biometric
data.
"""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from app.core.storage.atomic import tighten
from app.core.storage.json_files import Damaged, read_json_object

EMBEDDING_SIZE = 512
META_FILE = "voice.json"
EMBEDDING_FILE = "embedding.npy"
REFERENCE_FILE = "reference.wav"
MAX_META_BYTES = 64 * 1024
MAX_EMBEDDING_BYTES = 64 * 1024  # 512 float32 values are 2 KB plus a 128-byte header


class VoiceDamagedError(Exception):
    """A voice folder's content is damaged; ``name`` is its name when that was readable."""

    def __init__(self, reason: str, name: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.name = name


def read_meta(folder: Path) -> dict[str, Any]:
    """The voice's ``voice.json`` as an object.

    Raises:
        VoiceDamagedError: missing, unreadable, too large or not a JSON object.
    """
    try:
        meta = read_json_object(folder / META_FILE, max_bytes=MAX_META_BYTES)
    except FileNotFoundError:
        raise VoiceDamagedError(f"{META_FILE} is missing") from None
    except OSError as error:
        raise VoiceDamagedError(f"{META_FILE}: {error.strerror or error}") from error
    if isinstance(meta, Damaged):
        raise VoiceDamagedError(f"{META_FILE} is {meta.reason}")
    return meta


def meta_number(value: object) -> float:
    """A finite number from the metadata, else 0 (they are shown, never computed with)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0.0
    number = float(value)
    return number if math.isfinite(number) else 0.0


def load_embedding(folder: Path) -> npt.NDArray[np.float32]:
    """The stored embedding, exactly as the library writes it (512 float32), unit length.

    Raises:
        VoiceDamagedError: missing, unreadable, or anything else (another dtype or shape, not an
            ``.npy`` file, NaN, zeros).
    """
    path = folder / EMBEDDING_FILE
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_EMBEDDING_BYTES + 1)
    except FileNotFoundError:
        raise VoiceDamagedError(f"{EMBEDDING_FILE} is missing") from None
    except OSError as error:
        raise VoiceDamagedError(f"{EMBEDDING_FILE}: {error.strerror or error}") from error
    if len(raw) > MAX_EMBEDDING_BYTES:
        raise VoiceDamagedError(f"{EMBEDDING_FILE} is far too large")
    try:
        # Only a plain .npy array: no pickles, and an .npz archive (a zip) is not accepted.
        array = np.lib.format.read_array(io.BytesIO(raw), allow_pickle=False)
    except (ValueError, EOFError, OSError, TypeError) as error:
        raise VoiceDamagedError(f"{EMBEDDING_FILE} is not a saved array") from error
    if array.dtype != np.float32 or array.shape != (EMBEDDING_SIZE,):
        raise VoiceDamagedError(
            f"{EMBEDDING_FILE} holds {array.dtype} values of shape {array.shape}, not "
            f"{EMBEDDING_SIZE} float32 values"
        )
    if not np.isfinite(array).all():
        raise VoiceDamagedError(f"{EMBEDDING_FILE} holds values that are not numbers")
    norm = float(np.linalg.norm(array))
    if norm == 0.0:
        raise VoiceDamagedError(f"{EMBEDDING_FILE} is all zeros")
    return (array / norm).astype(np.float32)


def embedding_bytes(vector: npt.NDArray[np.float32]) -> bytes:
    """``vector`` as the ``.npy`` file :func:`load_embedding` reads (no pickle)."""
    buffer = io.BytesIO()
    np.save(buffer, vector, allow_pickle=False)
    return buffer.getvalue()


def tighten_voice(folder: Path) -> None:
    """Make a voice folder made by an older version (0755 folder, 0644 files) private."""
    tighten(folder)
    try:
        files = list(folder.iterdir())
    except OSError:
        return
    for path in files:
        tighten(path)
