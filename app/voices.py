"""The voice library: named voices, each a speaker embedding and the clip it came from.

One folder per voice under the data folder (``voice.json``, ``embedding.npy``,
``reference.wav``). A new voice is written into a hidden temp folder and renamed into place
only when complete, so a failed creation never leaves half a voice and never touches another;
the index is the folders themselves, so there is no second file to fall out of step.
"""

from __future__ import annotations

import json
import logging
import shutil
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.atomic import write_text_atomic
from app.errors import StorageError, UserError

log = logging.getLogger(__name__)

EMBEDDING_SIZE = 512
MAX_NAME_CHARS = 60
META_FILE = "voice.json"
EMBEDDING_FILE = "embedding.npy"
REFERENCE_FILE = "reference.wav"
TEMP_PREFIX = ".new-"


@dataclass(frozen=True)
class Voice:
    """A stored voice."""

    id: str
    name: str
    created: float
    reference_seconds: float
    folder: Path

    @property
    def reference(self) -> Path:
        """The clip the voice was made from (16 kHz mono wav)."""
        return self.folder / REFERENCE_FILE

    def embedding(self) -> npt.NDArray[np.float32]:
        """The 512-d unit speaker embedding.

        Raises:
            StorageError: the file is missing or damaged.
        """
        try:
            vector = np.load(self.folder / EMBEDDING_FILE, allow_pickle=False)
        except (OSError, ValueError) as error:
            raise StorageError(
                f"The voice “{self.name}” is damaged ({EMBEDDING_FILE}: {error}). "
                "Delete it and create it again from its clip."
            ) from error
        return _checked_embedding(vector, self.name)


class VoiceLibrary:
    """Create, list, rename and delete voices in one folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.problems: list[str] = []
        """Voices that could not be read at the last listing (shown once, never fatal)."""

    def voices(self) -> list[Voice]:
        """Every readable voice, by name; damaged ones are reported in :attr:`problems`."""
        self.problems = []
        found: list[Voice] = []
        if not self.folder.is_dir():
            return found
        for child in sorted(self.folder.iterdir()):
            if not child.is_dir() or child.name.startswith("."):
                continue
            try:
                found.append(_read_voice(child))
            except (OSError, ValueError, KeyError, TypeError) as error:
                self.problems.append(f"The voice in {child} could not be read ({error}).")
                log.warning("unreadable voice folder %s: %s", child, error)
        return sorted(found, key=lambda voice: voice.name.casefold())

    def get(self, name: str) -> Voice:
        """The voice called ``name`` (case-insensitive).

        Raises:
            UserError: no such voice (``field="voice"``).
        """
        wanted = " ".join(name.split()).casefold()
        for voice in self.voices():
            if voice.name.casefold() == wanted:
                return voice
        known = ", ".join(v.name for v in self.voices()) or "none yet"
        raise UserError(f"There is no voice named “{name}” (voices: {known}).", field="voice")

    def add(
        self,
        name: str,
        embedding: npt.NDArray[np.float32],
        reference_wav: Path,
        reference_seconds: float,
    ) -> Voice:
        """Store a new voice; the reference wav is copied.

        Raises:
            UserError: a bad or taken name, or an embedding of the wrong shape.
            StorageError: the folder is not writable (nothing is left behind).
        """
        name = self.check_name(name)
        vector = _checked_embedding(np.asarray(embedding), name)
        voice_id = uuid.uuid4().hex[:12]
        temp = self.folder / f"{TEMP_PREFIX}{voice_id}"
        try:
            temp.mkdir(parents=True)
            np.save(temp / EMBEDDING_FILE, vector, allow_pickle=False)
            shutil.copyfile(reference_wav, temp / REFERENCE_FILE)
            meta = {
                "version": 1,
                "name": name,
                "created": time.time(),
                "reference_seconds": float(reference_seconds),
            }
            write_text_atomic(temp / META_FILE, json.dumps(meta, ensure_ascii=False, indent=1))
            final = self.folder / voice_id
            temp.rename(final)
        except OSError as error:
            shutil.rmtree(temp, ignore_errors=True)
            raise StorageError(
                f"Could not save the voice in {self.folder}: {error.strerror or error}"
            ) from error
        return _read_voice(final)

    def rename(self, name: str, new_name: str) -> Voice:
        """Give a voice a new, unused name."""
        voice = self.get(name)
        new_name = self.check_name(new_name, allow=voice.id)
        meta = json.loads((voice.folder / META_FILE).read_text(encoding="utf-8"))
        meta["name"] = new_name
        try:
            write_text_atomic(voice.folder / META_FILE, json.dumps(meta, ensure_ascii=False))
        except OSError as error:
            raise StorageError(f"Could not rename the voice: {error.strerror or error}") from error
        return _read_voice(voice.folder)

    def remove(self, name: str) -> None:
        """Delete a voice and its files."""
        voice = self.get(name)
        # Renamed away first: a crash midway leaves a hidden folder, never half a voice.
        doomed = voice.folder.with_name(f"{TEMP_PREFIX}deleted-{voice.id}")
        try:
            voice.folder.rename(doomed)
        except OSError as error:
            raise StorageError(f"Could not delete the voice: {error.strerror or error}") from error
        shutil.rmtree(doomed, ignore_errors=True)

    def check_name(self, name: str, *, allow: str = "") -> str:
        """The cleaned name, if it can be used for a new voice (or for voice ``allow``).

        Raises:
            UserError: empty, too long, or taken (``field="name"``).
        """
        cleaned = " ".join(name.split())
        if not cleaned:
            raise UserError("Give the voice a name.", field="name")
        if len(cleaned) > MAX_NAME_CHARS:
            raise UserError(f"Voice names are at most {MAX_NAME_CHARS} characters.", field="name")
        for voice in self.voices():
            if voice.name.casefold() == cleaned.casefold() and voice.id != allow:
                raise UserError(f"There is already a voice named “{voice.name}”.", field="name")
        return cleaned


def _read_voice(folder: Path) -> Voice:
    meta = json.loads((folder / META_FILE).read_text(encoding="utf-8"))
    if not isinstance(meta, dict) or not str(meta.get("name", "")).strip():
        raise ValueError("voice.json has no name")
    if not (folder / EMBEDDING_FILE).is_file():
        raise ValueError(f"no {EMBEDDING_FILE}")
    return Voice(
        id=folder.name,
        name=str(meta["name"]),
        created=float(meta.get("created", 0.0)),
        reference_seconds=float(meta.get("reference_seconds", 0.0)),
        folder=folder,
    )


def _checked_embedding(vector: np.ndarray, name: str) -> npt.NDArray[np.float32]:
    flat = np.asarray(vector, dtype=np.float32).reshape(-1)
    if flat.shape != (EMBEDDING_SIZE,) or not np.isfinite(flat).all():
        raise UserError(
            f"The speaker embedding of “{name}” has shape {np.shape(vector)}; "
            f"expected {EMBEDDING_SIZE} finite values.",
            field="voice",
        )
    norm = float(np.linalg.norm(flat))
    if norm == 0.0:
        raise UserError(f"The speaker embedding of “{name}” is all zeros.", field="voice")
    return flat / norm
