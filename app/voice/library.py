"""The voice library: named voices, each a speaker embedding and the clip it came from.

One folder per voice under the data folder (``voice.json``, ``embedding.npy``,
``reference.wav``). A new voice is written into a hidden temp folder and renamed into place
only when complete, so a failed creation never leaves half a voice and never touches another;
the index is the folders themselves, so there is no second file to fall out of step.

A voice is biometric data: the voices folder is 0700 and every file in it is created 0600
(voices made by older versions are tightened when the library is read). A damaged voice (its
metadata or embedding unreadable, or not what this app writes) is listed apart with the
reason, is never fatal, and can still be deleted. What each file may hold is decided in
:mod:`app.voice.files`.
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

from app.core.errors import StorageError, UserError
from app.core.storage.atomic import (
    PRIVATE_FILE,
    copy_atomic,
    private_folder,
    staged_folder,
    tighten,
    write_bytes_atomic,
    write_text_atomic,
)
from app.core.texts import tr
from app.voice.files import (
    EMBEDDING_FILE,
    EMBEDDING_SIZE,
    META_FILE,
    REFERENCE_FILE,
    VoiceDamagedError,
    embedding_bytes,
    load_embedding,
    meta_number,
    read_meta,
    tighten_voice,
)

log = logging.getLogger(__name__)

MAX_NAME_CHARS = 60
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
            StorageError: the file is missing or damaged (``field="voice"``).
        """
        try:
            return load_embedding(self.folder)
        except VoiceDamagedError as damage:
            raise StorageError(
                DamagedVoice(self.id, self.name, self.folder, damage.reason).message,
                field="voice",
            ) from damage


@dataclass(frozen=True)
class DamagedVoice:
    """A voice folder that cannot be used, and why."""

    id: str
    name: str
    """The name from its metadata, or "" when even that is unreadable."""
    folder: Path
    reason: str

    @property
    def label(self) -> str:
        """What to call it: its name, else its folder's name."""
        return self.name or self.id

    @property
    def message(self) -> str:
        """One sentence for the user."""
        return (
            f"The voice “{self.label}” is damaged ({self.reason}). "
            "Delete it and create it again from its clip."
        )


class VoiceLibrary:
    """Create, list, rename and delete voices in one folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.problems: list[str] = []
        """Voices that could not be read at the last listing (shown once, never fatal)."""
        self.damaged: list[DamagedVoice] = []
        """The damaged voices found at the last listing (they can still be removed)."""

    def voices(self) -> list[Voice]:
        """Every readable voice, by name; damaged ones go to :attr:`damaged` and
        :attr:`problems` (not logged here: the caller says them once)."""
        found: list[Voice] = []
        damaged: list[DamagedVoice] = []
        try:
            folders = self._voice_folders()
        except OSError as error:  # e.g. no permission: no voices, said, never fatal
            self.damaged = []
            self.problems = [
                f"Could not read the voices folder {self.folder} ({error.strerror or error})."
            ]
            return found
        for child in folders:
            try:
                found.append(_read_voice(child))
            except VoiceDamagedError as damage:
                damaged.append(DamagedVoice(child.name, damage.name, child, damage.reason))
                log.debug("damaged voice folder %s: %s", child, damage.reason)
        self.damaged = sorted(damaged, key=lambda voice: voice.label.casefold())
        self.problems = [voice.message for voice in self.damaged]
        return sorted(found, key=lambda voice: voice.name.casefold())

    def get(self, name: str) -> Voice:
        """The voice called ``name`` (case-insensitive).

        Raises:
            UserError: no such voice (``field="voice"``).
            StorageError: the voice of that name is damaged (``field="voice"``).
        """
        wanted = _clean(name).casefold()
        voices = self.voices()
        for voice in voices:
            if voice.name.casefold() == wanted:
                return voice
        for damaged in self.damaged:
            if damaged.name.casefold() == wanted:
                raise StorageError(damaged.message, field="voice")
        known = ", ".join(v.name for v in voices) or "none yet"
        raise UserError(
            tr("There is no voice named “{name}” (voices: {known}).").format(
                name=name, known=known
            ),
            field="voice",
        )

    def add(
        self,
        name: str,
        embedding: npt.NDArray[np.float32],
        reference_wav: Path,
        reference_seconds: float,
    ) -> Voice:
        """Store a new voice; the reference wav is copied. Every file is created 0600.

        Raises:
            UserError: a bad or taken name, or an embedding of the wrong shape.
            StorageError: the folder is not writable (nothing is left behind).
        """
        name = self.check_name(name)
        vector = _checked_embedding(np.asarray(embedding), name)
        final = self.folder / uuid.uuid4().hex[:12]
        try:
            private_folder(self.folder)
            with staged_folder(final) as temp:  # 0700, hidden until complete
                self._fill(temp, name, vector, reference_wav, reference_seconds)
        except OSError as error:
            raise StorageError(
                tr("Could not save the voice in {folder}: {reason}").format(
                    folder=self.folder, reason=error.strerror or error
                )
            ) from error
        return _read_voice(final)

    @staticmethod
    def _fill(
        temp: Path,
        name: str,
        vector: npt.NDArray[np.float32],
        reference_wav: Path,
        reference_seconds: float,
    ) -> None:
        """Write a new voice's files (each 0600) into ``temp``."""
        write_bytes_atomic(temp / EMBEDDING_FILE, embedding_bytes(vector))
        copy_atomic(reference_wav, temp / REFERENCE_FILE, mode=PRIVATE_FILE)
        meta = {
            "version": 1,
            "name": name,
            "created": time.time(),
            "reference_seconds": float(reference_seconds),
        }
        write_text_atomic(temp / META_FILE, json.dumps(meta, ensure_ascii=False, indent=1))

    def rename(self, name: str, new_name: str) -> Voice:
        """Give a voice a new, unused name."""
        voice = self.get(name)
        new_name = self.check_name(new_name, allow=voice.id)
        meta = read_meta(voice.folder)
        meta["name"] = new_name
        try:
            write_text_atomic(voice.folder / META_FILE, json.dumps(meta, ensure_ascii=False))
        except OSError as error:
            raise StorageError(
                tr("Could not rename the voice: {reason}").format(reason=error.strerror or error)
            ) from error
        return _read_voice(voice.folder)

    def remove(self, name: str) -> None:
        """Delete a voice and its files; a damaged one too (by its name or its folder's name).

        ``name`` is only compared with what a listing found, never joined into a path: only a
        folder directly inside the voices folder can be deleted.

        Raises:
            UserError: no such voice (``field="voice"``).
            StorageError: the folder could not be deleted.
        """
        wanted = _clean(name).casefold()
        voices = self.voices()
        folder = next((v.folder for v in voices if v.name.casefold() == wanted), None)
        if folder is None:
            folder = next(
                (
                    d.folder
                    for d in self.damaged
                    if wanted and wanted in (d.name.casefold(), d.id.casefold())
                ),
                None,
            )
        if folder is None:
            known = ", ".join([v.name for v in voices] + [d.label for d in self.damaged])
            raise UserError(
                tr("There is no voice named “{name}” (voices: {voices}).").format(
                    name=name, voices=known or "none yet"
                ),
                field="voice",
            )
        _delete_folder(folder)

    def remove_damaged(self, voice_id: str) -> None:
        """Delete a damaged voice, found by its folder's name among the damaged ones only
        (a healthy voice is never deleted through this, whatever its name).

        Raises:
            UserError: no damaged voice has that folder now (``field="voice"``).
            StorageError: the folder could not be deleted.
        """
        self.voices()
        folder = next((d.folder for d in self.damaged if d.id == voice_id), None)
        if folder is None:
            raise UserError(tr("That damaged voice is no longer there."), field="voice")
        _delete_folder(folder)

    def check_name(self, name: str, *, allow: str = "") -> str:
        """The cleaned name, if it can be used for a new voice (or for voice ``allow``).

        Raises:
            UserError: empty, too long, or taken — by a damaged voice too (``field="name"``).
        """
        cleaned = _clean(name)
        if not cleaned:
            raise UserError(tr("Give the voice a name."), field="name")
        if len(cleaned) > MAX_NAME_CHARS:
            raise UserError(
                tr("Voice names are at most {limit} characters.").format(limit=MAX_NAME_CHARS),
                field="name",
            )
        for voice in self.voices():
            if voice.name.casefold() == cleaned.casefold() and voice.id != allow:
                raise UserError(
                    tr("There is already a voice named “{name}”.").format(name=voice.name),
                    field="name",
                )
        for damaged in self.damaged:
            if damaged.name.casefold() == cleaned.casefold():
                raise UserError(
                    tr(
                        "There is already a voice named “{name}”; it is damaged: delete it first."
                    ).format(name=damaged.name),
                    field="name",
                )
        return cleaned

    def _voice_folders(self) -> list[Path]:
        """The voice folders (hidden temp folders and symlinks skipped), modes tightened.

        Raises:
            OSError: the voices folder cannot be read.
        """
        try:
            children = sorted(self.folder.iterdir())
        except FileNotFoundError:
            return []
        tighten(self.folder)
        folders: list[Path] = []
        for child in children:
            if child.name.startswith(".") or child.is_symlink() or not child.is_dir():
                continue
            tighten_voice(child)
            folders.append(child)
        return folders


def _delete_folder(folder: Path) -> None:
    # Renamed away first: a crash midway leaves a hidden folder, never half a voice.
    doomed = folder.with_name(f"{TEMP_PREFIX}deleted-{folder.name}")
    try:
        folder.rename(doomed)
    except OSError as error:
        raise StorageError(
            tr("Could not delete the voice: {reason}").format(reason=error.strerror or error)
        ) from error
    shutil.rmtree(doomed, ignore_errors=True)


def _clean(name: str) -> str:
    return " ".join(name.split())


def _read_voice(folder: Path) -> Voice:
    meta = read_meta(folder)
    raw_name = meta.get("name")
    name = _clean(raw_name) if isinstance(raw_name, str) else ""
    if not name:
        raise VoiceDamagedError(f"{META_FILE} has no name")
    try:
        load_embedding(folder)
    except VoiceDamagedError as damage:
        raise VoiceDamagedError(damage.reason, name) from damage
    return Voice(
        id=folder.name,
        name=name,
        created=meta_number(meta.get("created")),
        reference_seconds=meta_number(meta.get("reference_seconds")),
        folder=folder,
    )


def _checked_embedding(vector: np.ndarray, name: str) -> npt.NDArray[np.float32]:
    flat = np.asarray(vector, dtype=np.float32).reshape(-1)
    if flat.shape != (EMBEDDING_SIZE,) or not np.isfinite(flat).all():
        raise UserError(
            tr(
                "The speaker embedding of “{name}” has shape {shape}; expected "
                "{embedding_size} finite values."
            ).format(name=name, shape=np.shape(vector), embedding_size=EMBEDDING_SIZE),
            field="voice",
        )
    norm = float(np.linalg.norm(flat))
    if norm == 0.0:
        raise UserError(
            tr("The speaker embedding of “{name}” is all zeros.").format(name=name), field="voice"
        )
    return flat / norm
