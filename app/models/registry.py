"""The registry of installed models: what is on disk, for which task, and whether it is usable.

One JSON file, written atomically. Each entry is checked against its task's contract every
time the list is read, so a folder deleted or damaged behind the app's back shows as missing
or broken — never as installed, never as a crash. Models copied into the app's models folder
are deleted with their entry — only when the folder provably is the app's
(:mod:`app.models.ownership`); models registered in place are only forgotten.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import time
from pathlib import Path
from typing import Any

from app.core.errors import StorageError, UserError
from app.core.model_tasks import TASK_NAMES, ModelTask
from app.core.storage.atomic import write_text_atomic
from app.core.storage.json_files import Damaged, read_json_object
from app.core.texts import tr
from app.models.contracts import (
    check_io_contract,
    missing_files,
)
from app.models.copies import copy_file_alone, copy_folder
from app.models.entries import InstalledModel, checked_entry, gguf_entry, new_entry, parse_entry
from app.models.inspect import detect_task
from app.models.ownership import (
    MARKED_VERSION,
    Removal,
    deletable,
    delete_files,
    mark_new_folder,
    mark_older_folders,
)
from pipelines.gguf import (
    GgufInfo,
    check_tokenizer,
    is_gguf_path,
    read_gguf_info,
    unsupported_reason,
)

__all__ = ["VERSION", "InstalledModel", "ModelRegistry", "Removal", "gguf_model_id"]

log = logging.getLogger(__name__)

VERSION = MARKED_VERSION


class ModelRegistry:
    """Installed models, stored in ``file``; copies live under ``models_dir``.

    Entries are validated one by one: a damaged entry (hand-edited, written by a newer
    version) is listed as broken with the reason, and kept in the file until the user removes
    it; the other models work. A file that is damaged as a whole (not JSON, not UTF-8) is set
    aside and the list starts empty; :attr:`problems` says so once.
    """

    def __init__(self, file: Path, models_dir: Path) -> None:
        self.file = file
        self.models_dir = models_dir
        self.problems: list[str] = []
        """Sentences about a model list that had to be set aside (each said once)."""

    # ----- reading ---------------------------------------------------------------------

    def models(self, task: ModelTask | None = None) -> list[InstalledModel]:
        """Every registered model (of ``task``), checked now, by task then id.

        Never raises: an unreadable list gives no models and a sentence in :attr:`problems`.
        """
        try:
            entries = self._read()
        except StorageError as error:
            log.info("%s", error)  # said to the user through problems
            if str(error) not in self.problems:
                self.problems.append(str(error))
            entries = []
        found = [checked_entry(entry, index) for index, entry in enumerate(entries)]
        if task is not None:
            found = [model for model in found if model.task == task]
        return sorted(found, key=lambda m: (m.task.value, m.id))

    def check_file(self) -> list[str]:
        """Read the list once (setting a damaged file aside); what the user should be told."""
        self.models()
        return list(self.problems)

    def get(self, model_id: str) -> InstalledModel:
        """One model by id.

        Raises:
            UserError: no such id (``field="model"``).
        """
        for model in self.models():
            if model.id == model_id:
                return model
        raise UserError(
            tr("No installed model has the id “{model_id}”.").format(model_id=model_id),
            field="model",
        )

    def deletes_files(self, model: InstalledModel) -> bool:
        """Whether :meth:`remove` would delete ``model``'s files (it is provably the app's copy)."""
        return model.owned and deletable(model, self.models_dir) is not None

    # ----- changing --------------------------------------------------------------------

    def add_folder(
        self,
        folder: Path,
        task: ModelTask | None = None,
        *,
        copy: bool = False,
        source: str = "local",
        hub_id: str = "",
        licence: str = "",
    ) -> InstalledModel:
        """Register an OpenVINO model folder or a GGUF chat model file (in place, or copied
        into the models folder).

        Raises:
            UserError: not a folder, not an OpenVINO model, another task than ``task``, files
                missing for its task, inputs and outputs not of its contract (lip-sync), or
                already registered (``field="model"``).
            StorageError: the copy or the registry could not be written (nothing half-done).
        """
        folder = folder.expanduser().resolve()
        if is_gguf_path(folder):
            return self._add_gguf(folder, task, copy=copy, source=source, hub_id=hub_id)
        task = _checked_task(folder, task)
        entries = self._read()
        known = [parse_entry(entry, index) for index, entry in enumerate(entries)]
        if any(model.folder == folder for model in known):
            raise UserError(
                tr("{folder} is already installed.").format(folder=folder), field="model"
            )
        model_id = _unique_id(_slug(hub_id or folder.name), {model.id for model in known})
        target = self.models_dir / model_id if copy else folder
        if copy:
            copy_folder(folder, target)
        entry = new_entry(model_id, task, target, source, hub_id, licence, owned=copy)
        try:
            if copy:
                mark_new_folder(target, model_id)
            self._write([*entries, entry])
        except StorageError:
            if copy:
                shutil.rmtree(target, ignore_errors=True)
            raise
        return checked_entry(entry, len(entries))

    def _add_gguf(
        self, file: Path, task: ModelTask | None, *, copy: bool, source: str, hub_id: str
    ) -> InstalledModel:
        """Register a GGUF chat model; its metadata is read (and checked) now, once.

        Raises:
            UserError: not a complete GGUF file with a tokenizer, not for chat, or already
                registered.
            StorageError: the copy or the registry could not be written.
        """
        if task not in (None, ModelTask.CHAT):
            raise UserError(
                tr("{name} is a GGUF file, which holds a chat model, not {kind}.").format(
                    name=file.name, kind=TASK_NAMES[task]
                ),
                field="model",
            )
        info = read_gguf_info(file)  # its InvalidInputError is a UserError (field "model")
        check_tokenizer(file, info)
        unsupported = unsupported_reason(file, info)
        if unsupported:
            raise UserError(unsupported, field="model")
        entries = self._read()
        known = [parse_entry(entry, index) for index, entry in enumerate(entries)]
        if any(model.folder == file for model in known):
            raise UserError(tr("{file} is already installed.").format(file=file), field="model")
        model_id = _unique_id(gguf_model_id(file.name), {model.id for model in known})
        target = self.models_dir / model_id / file.name if copy else file
        if copy:
            copy_file_alone(file, target)
        entry = gguf_entry(model_id, target, info, source, hub_id, "", owned=copy)
        try:
            if copy:
                mark_new_folder(target.parent, model_id)
            self._write([*entries, entry])
        except StorageError:
            if copy:
                shutil.rmtree(target.parent, ignore_errors=True)
            raise
        return checked_entry(entry, len(entries))

    def register_owned(self, folder: Path, task: ModelTask, **details: str) -> InstalledModel:
        """Register a folder the app itself put under the models folder (download, convert)."""
        source, hub_id, licence = _owned_details(details)
        entry = new_entry(folder.name, task, folder, source, hub_id, licence, owned=True)
        return self._append_owned(entry, folder)

    def register_owned_gguf(self, file: Path, info: GgufInfo, **details: str) -> InstalledModel:
        """Register a GGUF file the app itself put under the models folder (a download): it
        lives alone in a folder named after its id, its metadata already read and checked.

        Raises:
            UserError: the id is taken.
            StorageError: the model list could not be written.
        """
        source, hub_id, licence = _owned_details(details)
        entry = gguf_entry(file.parent.name, file, info, source, hub_id, licence, owned=True)
        return self._append_owned(entry, file.parent)

    def _append_owned(self, entry: dict[str, Any], folder: Path) -> InstalledModel:
        """Mark ``folder`` as the app's and add its entry.

        Raises:
            UserError: the id is taken.
            StorageError: the marker or the model list could not be written.
        """
        entries = self._read()
        model_id = entry["id"]
        if any(parse_entry(e, index).id == model_id for index, e in enumerate(entries)):
            raise UserError(
                tr("A model with the id “{model_id}” is already installed.").format(
                    model_id=model_id
                )
            )
        mark_new_folder(folder, model_id)
        self._write([*entries, entry])
        return checked_entry(entry, len(entries))

    def remove(self, model_id: str) -> Removal:
        """Forget a model; the app's own copy is deleted, a folder registered in place is not.

        The entry goes in any case. Its files are deleted only when its folder provably is the
        app's (:mod:`app.models.ownership`); otherwise :attr:`Removal.kept` says why they stay.

        Raises:
            UserError: no such id.
            StorageError: the model list could not be saved (nothing was deleted).
        """
        model = self.get(model_id)
        entries = self._read()
        self._write([e for index, e in enumerate(entries) if parse_entry(e, index).id != model_id])
        return delete_files(model, self.models_dir)

    # ----- storage ---------------------------------------------------------------------

    def _read(self) -> list[Any]:
        """The stored entries as they are (damaged ones included, so a write keeps them).

        Raises:
            StorageError: the file exists but cannot be read (a write would lose it).
        """
        try:
            data = read_json_object(self.file)
        except FileNotFoundError:
            return []
        except OSError as error:
            raise StorageError(
                tr("Could not read the model list {file}: {reason}").format(
                    file=self.file, reason=error.strerror or error
                )
            ) from error
        if isinstance(data, Damaged):
            self._set_aside(data.reason)
            return []
        entries = data.get("models", [])
        if not isinstance(entries, list):
            self._set_aside("its “models” is not a list")
            return []
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < MARKED_VERSION:
            self._mark_older_folders(entries)
        return entries

    def _mark_older_folders(self, entries: list[Any]) -> None:
        """Mark the folders an older version made, once: the list is saved as this version."""
        mark_older_folders(entries, self.models_dir)
        try:
            self._write(entries)
        except StorageError as error:
            log.info("the model list stays at its older version for now: %s", error)

    def _set_aside(self, reason: str) -> None:
        backup = self.file.with_name(f"{self.file.stem}.broken-{int(time.time())}.json")
        try:
            self.file.replace(backup)
        except OSError as error:
            log.info("model list %s is damaged and could not be moved: %s", self.file, error)
            self.problems.append(
                f"The model list {self.file} is damaged ({reason}); no model is listed until "
                "it is repaired or deleted."
            )
            return
        log.info("model list %s was %s; set aside as %s", self.file, reason, backup)
        self.problems.append(
            f"The model list was damaged ({reason}) and has been reset; models have to be "
            f"added again. The old list was kept at {backup}."
        )

    def _write(self, entries: list[Any]) -> None:
        # ASCII escapes: a file name that is not UTF-8 (kept by Python as lone surrogates)
        # round-trips through them, where a UTF-8 file could not hold it at all.
        text = json.dumps({"version": VERSION, "models": entries}, indent=1)
        try:
            write_text_atomic(self.file, text)
        except OSError as error:
            raise StorageError(
                tr("Could not save the model list {file}: {reason}").format(
                    file=self.file, reason=error.strerror or error
                )
            ) from error


def _owned_details(details: dict[str, str]) -> tuple[str, str, str]:
    """(source, hub id, licence) of an app-made model; a download's source is ``catalog``."""
    return details.get("source", "catalog"), details.get("hub_id", ""), details.get("licence", "")


def _checked_task(folder: Path, task: ModelTask | None) -> ModelTask:
    """The task of the model in ``folder`` (``task``, or detected), its files and contract checked.

    Raises:
        UserError: not a folder, not a model of a known (or of this) task, files missing, or
            inputs and outputs not of its contract (``field="model"``).
    """
    if not folder.is_dir():
        raise UserError(tr("There is no folder {folder}.").format(folder=folder), field="model")
    detected = detect_task(folder)
    if task is None:
        if detected is ModelTask.UNKNOWN:
            raise UserError(
                tr(
                    "{name} is not an OpenVINO model this app recognises; say which task it is for."
                ).format(name=folder.name),
                field="model",
            )
        task = detected
    elif detected not in (task, ModelTask.UNKNOWN):
        raise UserError(
            tr("{name} holds {kind}, not {wanted}.").format(
                name=folder.name, kind=TASK_NAMES[detected], wanted=TASK_NAMES[task]
            ),
            field="model",
        )
    missing = missing_files(folder, task)
    if missing:
        raise UserError(
            tr("{name} is not a complete {task} model: it lacks {missing}.").format(
                name=folder.name, task=task.value, missing=", ".join(missing)
            ),
            field="model",
        )
    check_io_contract(folder, task)
    return task


def gguf_model_id(file_name: str) -> str:
    """The id (and the folder name of an app copy) of the GGUF file ``file_name``."""
    return _slug(Path(file_name).stem)


def _slug(name: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", name.split("/")[-1]).strip("-.")
    return slug[:80] or "model"


def _unique_id(base: str, taken: set[str]) -> str:
    candidate, number = base, 2
    while candidate in taken:
        candidate, number = f"{base}-{number}", number + 1
    return candidate
