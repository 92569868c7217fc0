"""Which model folders are the app's to delete.

The model list is untrusted input: a person, a newer version or a bad sync can edit it, and an
entry marked ``owned`` whose folder is the models folder itself (or ``models/x/..``, or a link
out of it) must never make *Remove* delete more than one model. So the list alone never
decides: the app writes a marker file (:data:`MARKER`, holding the model's id) into every
folder it makes under the models folder — a download, a conversion, a copy — and deletes only a
real folder (not a link) that sits directly in the models folder and holds the marker of the
model being removed. Anything else is forgotten and left on disk.

Folders made before markers existed are marked once, when a list of the older version
(:data:`MARKED_VERSION` - 1) is first read: the layout every version used (a folder directly in
the models folder, named after its owned entry's id) is trusted that one time, then the list
is saved with the newer version and from then on only markers count.
"""

from __future__ import annotations

import json
import logging
import shutil
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.core.errors import StorageError
from app.core.storage.atomic import write_text_atomic
from app.core.texts import Text, tr
from app.models.entries import InstalledModel, parse_entry

log = logging.getLogger(__name__)

MARKER = ".ov-studio-model"
"""The file the app writes into each model folder it makes; it holds ``{"id": …}``."""
MARKED_VERSION = 2
"""The first model-list version whose owned folders all carry :data:`MARKER`."""
DELETING_PREFIX = ".deleting-"
"""A removed model's folder is renamed to this prefix before its files are deleted."""


def app_folder(model: InstalledModel) -> Path:
    """The folder an owned model lives in: its own, or the one holding its GGUF file."""
    return model.folder.parent if model.gguf is not None else model.folder


def mark_owned(folder: Path, model_id: str) -> None:
    """Write ``folder``'s marker: the app made it, for ``model_id``.

    Raises:
        OSError: the marker could not be written.
    """
    write_text_atomic(folder / MARKER, json.dumps({"id": model_id}))


def deletable(model: InstalledModel, models_dir: Path) -> Path | None:
    """The folder to delete with ``model`` (resolved), or None when it is not provably the app's.

    A folder qualifies when its path names no ``..``, it is not a link, it resolves to a real
    folder directly inside ``models_dir`` (never the folder itself nor above it), and it holds
    this model's marker (a plain file, not a link).
    """
    folder = app_folder(model)
    why = _unlike_a_model_folder(folder, models_dir)
    if why:
        log.info("the folder of %s is kept: %s", model.id, why)
        return None
    marker = folder / MARKER
    if marker.is_symlink() or not marker.is_file():
        log.info("the folder of %s is kept: it has no %s", model.id, MARKER)
        return None
    try:
        marked = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        log.info("the folder of %s is kept: its %s is unreadable (%s)", model.id, MARKER, error)
        return None
    if not isinstance(marked, dict) or marked.get("id") != model.id:
        log.info("the folder of %s is kept: its %s names another model", model.id, MARKER)
        return None
    return folder.resolve()


def mark_older_folders(entries: list[Any], models_dir: Path) -> None:
    """Mark the folders an older version made for its owned entries (see the module's notes).

    Only an owned, undamaged entry whose folder is directly in ``models_dir``, named after the
    entry's id, a real folder and not a hidden work folder is marked; a marker that cannot be
    written is logged (that model's files are then only forgotten on removal).
    """
    for index, entry in enumerate(entries):
        model = parse_entry(entry, index)
        if not model.owned or model.entry_damaged:
            continue
        folder = app_folder(model)
        if folder.name != model.id or _unlike_a_model_folder(folder, models_dir):
            continue
        if (folder / MARKER).exists() or (folder / MARKER).is_symlink():
            continue
        try:
            mark_owned(folder, model.id)
        except OSError as error:
            log.warning("could not mark the model folder %s as the app's: %s", folder, error)
        else:
            log.info("marked the model folder %s as the app's (made by an older version)", folder)


@dataclass(frozen=True)
class Removal:
    """What :meth:`ModelRegistry.remove` did: the entry is always gone from the list."""

    model: InstalledModel
    deleted: bool = False
    """The app's copy of the model was deleted from disk."""
    kept: Text | None = None
    """Why the files of a model marked as the app's copy stay on disk (None: nothing to say)."""


def delete_files(model: InstalledModel, models_dir: Path) -> Removal:
    """Delete the files of ``model`` (already taken off the list) when they are the app's."""
    folder = app_folder(model)
    if not model.owned or not (folder.exists() or folder.is_symlink()):
        return Removal(model)
    real = deletable(model, models_dir)
    if real is None:
        kept = tr(
            "{name} was taken off the list, but its folder {folder} was kept: it is not a "
            "folder the app made inside its models folder."
        )
        return Removal(model, kept=kept.format(name=model.id, folder=str(folder)))
    # Renamed away first: a crash midway never leaves half a model under its name.
    doomed = real.with_name(f"{DELETING_PREFIX}{real.name}-{uuid.uuid4().hex[:8]}")
    try:
        real.rename(doomed)
    except OSError as error:
        log.info("could not delete the model folder %s: %s", real, error)
        kept = tr(
            "{name} was taken off the list, but its folder {folder} could not be deleted: {reason}."
        )
        reason = error.strerror or str(error)
        return Removal(model, kept=kept.format(name=model.id, folder=str(folder), reason=reason))
    for leftover in [doomed, *models_dir.glob(f"{DELETING_PREFIX}*")]:
        shutil.rmtree(leftover, ignore_errors=True)  # and what a killed remove left
    return Removal(model, deleted=True)


def mark_new_folder(folder: Path, model_id: str) -> None:
    """Mark a folder the app just made for ``model_id`` as its own.

    Raises:
        StorageError: the marker could not be written (the caller removes the folder).
    """
    try:
        mark_owned(folder, model_id)
    except OSError as error:
        raise StorageError(
            tr("Could not write into the model folder {folder}: {reason}").format(
                folder=folder, reason=error.strerror or error
            )
        ) from error


def _unlike_a_model_folder(folder: Path, models_dir: Path) -> str:
    """Why ``folder`` is not a folder the app could have made for a model ("" = it could be)."""
    if not folder.is_absolute() or ".." in folder.parts or not folder.name:
        return f"{folder} is not a plain absolute path"
    if folder.name.startswith("."):
        return f"{folder} is a hidden folder"
    if folder.is_symlink():
        return f"{folder} is a link"
    try:
        real, models = folder.resolve(strict=True), models_dir.resolve(strict=True)
    except (OSError, RuntimeError):
        return f"{folder} or {models_dir} is not there"
    if real.parent != models or not real.is_dir():
        return f"{folder} is not a folder directly inside {models_dir}"
    return ""
