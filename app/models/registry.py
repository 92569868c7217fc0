"""The registry of installed models: what is on disk, for which task, and whether it is usable.

One JSON file, written atomically. Each entry is checked against its task's contract every
time the list is read, so a folder deleted or damaged behind the app's back shows as missing
or broken — never as installed, never as a crash. Models copied into the app's models folder
are deleted with their entry; models registered in place are only forgotten.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import shutil
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from app.atomic import write_text_atomic
from app.errors import StorageError, UserError
from app.models.contracts import (
    check_io_contract,
    folder_size,
    missing_files,
    weight_precision,
)
from app.models.inspect import TASK_NAMES, ModelTask, detect_task

log = logging.getLogger(__name__)

VERSION = 1


@dataclass(frozen=True)
class InstalledModel:
    """One registered model and the result of checking it."""

    id: str
    task: ModelTask
    folder: Path
    source: str
    """``local`` (a folder the user added), ``catalog`` (downloaded) or ``converted``."""
    precision: str
    size_bytes: int
    added: float
    owned: bool
    """True when the folder is the app's copy (deleted with the entry)."""
    hub_id: str = ""
    licence: str = ""
    problems: tuple[str, ...] = field(default=())
    """Why the model cannot be used now ("" = none): a missing folder or files."""

    @property
    def usable(self) -> bool:
        """Whether the folder is there and fulfils its task's contract."""
        return not self.problems

    @property
    def status(self) -> str:
        """``ok``, ``missing`` or ``broken`` — what a table shows."""
        if not self.problems:
            return "ok"
        return "missing" if not self.folder.is_dir() else "broken"


class ModelRegistry:
    """Installed models, stored in ``file``; copies live under ``models_dir``."""

    def __init__(self, file: Path, models_dir: Path) -> None:
        self.file = file
        self.models_dir = models_dir

    # ----- reading ---------------------------------------------------------------------

    def models(self, task: ModelTask | None = None) -> list[InstalledModel]:
        """Every registered model (of ``task``), checked now, by task then id."""
        found = [_checked(entry) for entry in self._read()]
        if task is not None:
            found = [model for model in found if model.task == task]
        return sorted(found, key=lambda m: (m.task.value, m.id))

    def get(self, model_id: str) -> InstalledModel:
        """One model by id.

        Raises:
            UserError: no such id (``field="model"``).
        """
        for model in self.models():
            if model.id == model_id:
                return model
        raise UserError(f"No installed model has the id “{model_id}”.", field="model")

    def total_size(self) -> int:
        """Bytes used by the app's own model copies."""
        return sum(m.size_bytes for m in self.models() if m.owned)

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
        """Register an OpenVINO model folder (in place, or copied into the models folder).

        Raises:
            UserError: not a folder, not an OpenVINO model, another task than ``task``, files
                missing for its task, inputs and outputs not of its contract (lip-sync), or
                already registered (``field="model"``).
            StorageError: the copy or the registry could not be written (nothing half-done).
        """
        folder = folder.expanduser().resolve()
        if not folder.is_dir():
            raise UserError(f"There is no folder {folder}.", field="model")
        detected = detect_task(folder)
        if task is None:
            if detected is ModelTask.UNKNOWN:
                raise UserError(
                    f"{folder.name} is not an OpenVINO model this app recognises; "
                    "say which task it is for (--task).",
                    field="model",
                )
            task = detected
        elif detected not in (task, ModelTask.UNKNOWN):
            raise UserError(
                f"{folder.name} holds {TASK_NAMES[detected]}, not {TASK_NAMES[task]}.",
                field="model",
            )
        missing = missing_files(folder, task)
        if missing:
            raise UserError(
                f"{folder.name} is not a complete {task.value} model: it lacks "
                f"{', '.join(missing)}.",
                field="model",
            )
        check_io_contract(folder, task)
        entries = self._read()
        if any(Path(e["folder"]) == folder for e in entries):
            raise UserError(f"{folder} is already installed.", field="model")
        model_id = _unique_id(_slug(hub_id or folder.name), {e["id"] for e in entries})
        target = folder
        if copy:
            target = self.models_dir / model_id
            _copy_whole(folder, target)
        entry = {
            "id": model_id,
            "task": task.value,
            "folder": str(target),
            "source": source,
            "precision": weight_precision(target),
            "size_bytes": folder_size(target),
            "added": time.time(),
            "owned": copy,
            "hub_id": hub_id,
            "licence": licence,
        }
        try:
            self._write([*entries, entry])
        except StorageError:
            if copy:
                shutil.rmtree(target, ignore_errors=True)
            raise
        return _checked(entry)

    def register_owned(self, folder: Path, task: ModelTask, **details: str) -> InstalledModel:
        """Register a folder the app itself put under the models folder (download, convert)."""
        entries = self._read()
        model_id = folder.name
        if any(e["id"] == model_id for e in entries):
            raise UserError(f"A model with the id “{model_id}” is already installed.")
        entry = {
            "id": model_id,
            "task": task.value,
            "folder": str(folder),
            "source": details.get("source", "catalog"),
            "precision": weight_precision(folder),
            "size_bytes": folder_size(folder),
            "added": time.time(),
            "owned": True,
            "hub_id": details.get("hub_id", ""),
            "licence": details.get("licence", ""),
        }
        self._write([*entries, entry])
        return _checked(entry)

    def remove(self, model_id: str) -> InstalledModel:
        """Forget a model; the app's own copy is deleted, a folder registered in place is not.

        Raises:
            UserError: no such id.
        """
        model = self.get(model_id)
        self._write([e for e in self._read() if e["id"] != model_id])
        if model.owned and model.folder.is_dir() and _inside(model.folder, self.models_dir):
            # Renamed away first: a crash midway never leaves half a model under its name.
            doomed = model.folder.with_name(f".deleting-{model.folder.name}")
            model.folder.rename(doomed)
            shutil.rmtree(doomed, ignore_errors=True)
        return model

    # ----- storage ---------------------------------------------------------------------

    def _read(self) -> list[dict[str, Any]]:
        try:
            data = json.loads(self.file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as error:
            backup = self.file.with_suffix(f".broken-{int(time.time())}.json")
            log.warning(
                "model registry %s unreadable (%s); set aside as %s", self.file, error, backup
            )
            with contextlib.suppress(OSError):
                self.file.replace(backup)
            return []
        entries = data.get("models", []) if isinstance(data, dict) else []
        return [e for e in entries if isinstance(e, dict) and _valid_entry(e)]

    def _write(self, entries: list[dict[str, Any]]) -> None:
        text = json.dumps({"version": VERSION, "models": entries}, indent=1, ensure_ascii=False)
        try:
            write_text_atomic(self.file, text)
        except OSError as error:
            raise StorageError(
                f"Could not save the model list {self.file}: {error.strerror or error}"
            ) from error


def _valid_entry(entry: dict[str, Any]) -> bool:
    try:
        ModelTask(entry["task"])
        return bool(entry["id"]) and bool(entry["folder"])
    except (KeyError, ValueError):
        return False


def _checked(entry: dict[str, Any]) -> InstalledModel:
    task = ModelTask(entry["task"])
    folder = Path(entry["folder"])
    model = InstalledModel(
        id=str(entry["id"]),
        task=task,
        folder=folder,
        source=str(entry.get("source", "local")),
        precision=str(entry.get("precision", "unknown")),
        size_bytes=int(entry.get("size_bytes", 0)),
        added=float(entry.get("added", 0.0)),
        owned=bool(entry.get("owned", False)),
        hub_id=str(entry.get("hub_id", "")),
        licence=str(entry.get("licence", "")),
    )
    if not folder.is_dir():
        return replace(model, problems=(f"The folder {folder} is gone.",))
    missing = missing_files(folder, task)
    if missing:
        return replace(model, problems=(f"Files are missing: {', '.join(missing)}.",))
    return model


def _slug(name: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", name.split("/")[-1]).strip("-.")
    return slug[:80] or "model"


def _unique_id(base: str, taken: set[str]) -> str:
    candidate, number = base, 2
    while candidate in taken:
        candidate, number = f"{base}-{number}", number + 1
    return candidate


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def _copy_whole(source: Path, target: Path) -> None:
    """Copy into a hidden temp folder, renamed into place when complete."""
    temp = target.with_name(f".copying-{target.name}")
    shutil.rmtree(temp, ignore_errors=True)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(source, temp)
        temp.rename(target)
    except OSError as error:
        shutil.rmtree(temp, ignore_errors=True)
        raise StorageError(
            f"Could not copy {source.name} into {target.parent}: {error.strerror or error}"
        ) from error
