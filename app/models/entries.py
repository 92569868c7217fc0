"""One entry of the model list: parsed on its own, then checked against its folder.

The model list is a JSON file a person (or a newer version) may have edited, so every entry is
read field by field: a damaged one becomes an :class:`InstalledModel` that says why and can
only be removed, never used, and never takes the other entries down with it.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from app.core.model_tasks import ModelTask
from app.models.contracts import folder_size, missing_files, weight_precision
from pipelines.gguf import GgufInfo, is_gguf_path

GGUF_FORMAT = "gguf"
"""The model list's ``format`` of a GGUF file (absent: an OpenVINO folder)."""


@dataclass(frozen=True)
class InstalledModel:
    """One registered model and the result of checking it."""

    id: str
    task: ModelTask
    folder: Path
    """The model's folder, or its ``.gguf`` file (see :attr:`gguf`)."""
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
    """Why the model cannot be used now ("" = none): a missing folder or files, or an entry
    of the model list that is damaged."""
    entry_damaged: bool = False
    """The entry in the model list itself is damaged (a field of the wrong type, no task):
    shown as broken so it can be removed, never used."""
    gguf: GgufInfo | None = None
    """A GGUF file's metadata (architecture, quantization, context, parameters); None for an
    OpenVINO folder."""

    @property
    def present(self) -> bool:
        """Whether the model's folder (or GGUF file, read or not) is there."""
        is_file = self.gguf is not None or is_gguf_path(self.folder)
        return self.folder.is_file() if is_file else self.folder.is_dir()

    @property
    def usable(self) -> bool:
        """Whether the folder is there and fulfils its task's contract."""
        return not self.problems

    @property
    def status(self) -> str:
        """``ok``, ``missing`` or ``broken`` — what a table shows."""
        if not self.problems:
            return "ok"
        if self.entry_damaged:
            return "broken"
        return "missing" if not self.present else "broken"


def parse_entry(entry: object, index: int) -> InstalledModel:
    """The entry as a model, without looking at its folder; damaged ones say why.

    A damaged entry keeps whatever id it has (else ``entry-N``, its place in the list), so
    the user can find it in a listing and remove it.

    Args:
        entry: One item of the list's ``models`` array, as JSON gave it.
        index: Its place in that array (0-based), for the ``entry-N`` name.
    """
    if not isinstance(entry, dict):
        return _damaged(f"entry-{index + 1}", "it is not a JSON object")
    fields = _Fields(entry)
    # Read in this order, so the problems are listed in it.
    model_id, task, folder = fields.text("id"), fields.task(), fields.folder()
    owned = fields.flag("owned")
    model = InstalledModel(
        id=model_id or f"entry-{index + 1}",
        task=task,
        folder=folder,
        source=fields.text("source", "local"),
        precision=fields.text("precision", "unknown"),
        size_bytes=int(fields.number("size_bytes")),
        added=fields.number("added"),
        owned=owned,
        hub_id=fields.text("hub_id", ""),
        licence=fields.text("licence", ""),
        gguf=fields.gguf(),
    )
    return _marked_damaged(model, "; ".join(fields.problems)) if fields.problems else model


class _Fields:
    """Reads one entry's fields with a fallback each, noting every problem on the way."""

    def __init__(self, entry: dict[Any, Any]) -> None:
        self.entry = entry
        self.problems: list[str] = []

    def text(self, key: str, default: str | None = None) -> str:
        """A text field; one without a default is required and must not be empty."""
        value = self.entry.get(key, default)
        if isinstance(value, str) and (value or default is not None):
            return value
        missing = value in (None, "")
        self.problems.append(f"“{key}” is missing" if missing else f"“{key}” is not text")
        return default or ""

    def number(self, key: str) -> float:
        """A number of 0 or more (0 when absent)."""
        value = self.entry.get(key, 0)
        if _is_number(value) and math.isfinite(value) and value >= 0:
            return float(value)
        self.problems.append(f"“{key}” is not a number of 0 or more")
        return 0.0

    def flag(self, key: str) -> bool:
        """True or false (false when absent)."""
        value = self.entry.get(key, False)
        if not isinstance(value, bool):
            self.problems.append(f"“{key}” is not true or false")
        return value is True

    def task(self) -> ModelTask:
        """The task, UNKNOWN when missing or not one this version knows."""
        name = self.text("task")
        if not name:
            return ModelTask.UNKNOWN
        try:
            return ModelTask(name)
        except ValueError:
            self.problems.append(f"“{name[:40]}” is not a task this version knows")
            return ModelTask.UNKNOWN

    def gguf(self) -> GgufInfo | None:
        """A GGUF entry's metadata (None for an OpenVINO folder)."""
        if self.entry.get("format") != GGUF_FORMAT:
            return None
        data = self.entry.get("gguf")
        try:
            if not isinstance(data, dict):
                raise ValueError("not an object")
            return GgufInfo.from_dict(data)
        except ValueError:
            self.problems.append("“gguf” is not a GGUF description")
            return None

    def folder(self) -> Path:
        """The model's folder, an absolute path."""
        name = self.text("folder")
        folder = Path(name) if name else Path()
        if name and ("\x00" in name or not folder.is_absolute()):
            self.problems.append("“folder” is not an absolute path")
        return folder


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _damaged(model_id: str, reason: str) -> InstalledModel:
    """An entry with nothing usable in it, listed under ``model_id``."""
    blank = InstalledModel(
        id=model_id,
        task=ModelTask.UNKNOWN,
        folder=Path(),
        source="",
        precision="unknown",
        size_bytes=0,
        added=0.0,
        owned=False,
    )
    return _marked_damaged(blank, reason)


def _marked_damaged(model: InstalledModel, reason: str) -> InstalledModel:
    """``model`` shown as broken because its entry is damaged (never used, only removed)."""
    # Not owned: a damaged entry's folder is never deleted, only its line is removed.
    return replace(
        model,
        owned=False,
        problems=(f"Its entry in the model list is damaged: {reason}.",),
        entry_damaged=True,
    )


def checked_entry(entry: object, index: int) -> InstalledModel:
    """The entry as a model, its folder checked against its task's contract now.

    Args:
        entry: One item of the list's ``models`` array, as JSON gave it.
        index: Its place in that array (0-based).
    """
    model = parse_entry(entry, index)
    if model.entry_damaged:
        return model
    folder, task = model.folder, model.task
    if model.gguf is not None:
        if not folder.is_file():
            return replace(model, problems=(f"The file {folder} is gone.",))
        return model
    if not folder.is_dir():
        return replace(model, problems=(f"The folder {folder} is gone.",))
    missing = missing_files(folder, task)
    if missing:
        return replace(model, problems=(f"Files are missing: {', '.join(missing)}.",))
    return model


def new_entry(
    model_id: str,
    task: ModelTask,
    folder: Path,
    source: str,
    hub_id: str,
    licence: str,
    *,
    owned: bool,
) -> dict[str, Any]:
    """The model-list entry for ``folder``, its precision and size measured now."""
    return _entry(
        model_id,
        task,
        folder,
        source,
        hub_id,
        licence,
        owned=owned,
        precision=weight_precision(folder),
        size_bytes=folder_size(folder),
    )


def gguf_entry(
    model_id: str,
    file: Path,
    info: GgufInfo,
    source: str,
    hub_id: str,
    licence: str,
    *,
    owned: bool,
) -> dict[str, Any]:
    """The model-list entry of a GGUF chat model file (what its metadata says)."""
    base = _entry(
        model_id,
        ModelTask.CHAT,
        file,
        source,
        hub_id,
        licence,
        owned=owned,
        precision=info.quantization,
        size_bytes=info.size_bytes,
    )
    return {**base, "format": GGUF_FORMAT, "gguf": info.to_dict()}


def _entry(
    model_id: str,
    task: ModelTask,
    path: Path,
    source: str,
    hub_id: str,
    licence: str,
    *,
    owned: bool,
    precision: str,
    size_bytes: int,
) -> dict[str, Any]:
    return {
        "id": model_id,
        "task": task.value,
        "folder": str(path),
        "source": source,
        "precision": precision,
        "size_bytes": size_bytes,
        "added": time.time(),
        "owned": owned,
        "hub_id": hub_id,
        "licence": licence,
    }
