"""Everything the Installed view lists: registered models, the bundled embedder, and models the
user opened by folder (named in the settings, never registered).

The registry only knows what was downloaded, converted or added; a user who opened a folder in
the chat (or chose an embedding model folder in Knowledge) expects to see it as installed too.
Those rows come from the settings and are *forgotten* by removing them from the settings: the
user's folder is never touched.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from app.chat import is_gguf_path
from app.core import AppPaths, Settings
from app.models import (
    DEFAULT_EMBEDDER,
    InstalledModel,
    ModelRegistry,
    ModelTask,
    default_embedder_dir,
    detect_task,
    embedder_installed,
    folder_size,
    missing_files,
    weight_precision,
)

BUNDLED_NAME = "all-MiniLM-L6-v2"

# The model choices that name a folder (as the settings file spells them), and their tasks.
ROLE_FIELDS: dict[str, ModelTask] = {
    f"models.{task.value.replace('-', '_')}": task
    for task in (
        ModelTask.CHAT,
        ModelTask.EMBEDDING,
        ModelTask.RERANK,
        ModelTask.TTS,
        ModelTask.SPEAKER_ENCODER,
        ModelTask.LIPSYNC,
        ModelTask.SPEECH_TO_TEXT,
    )
}
RECENT = "recent_models"


class Origin(StrEnum):
    """Where a listed model comes from (what Remove does differs)."""

    REGISTRY = "registry"  # downloaded, converted or added: the model list's entry
    BUNDLED = "bundled"  # the app's own embedder: never removed
    FOLDER = "folder"  # opened from a folder: only the settings name it


@dataclass(frozen=True)
class ListedModel:
    """One row of the Installed view."""

    model: InstalledModel
    origin: Origin
    fields: tuple[str, ...] = ()
    """For a folder model: the settings naming it (``recent_models`` included)."""

    @property
    def removable(self) -> bool:
        """Whether Remove applies (the bundled embedder stays)."""
        return self.origin is not Origin.BUNDLED


LISTED_FIELDS = frozenset({*(name.split(".")[0] for name in ROLE_FIELDS), RECENT, "server"})
"""The top-level settings fields whose folders the list shows (a change to one changes the
list): ``server`` for ``server.model``."""


def listed_models(
    registry: ModelRegistry, settings: Settings, paths: AppPaths
) -> list[ListedModel]:
    """The registry's models, then the bundled embedder, then folders opened from settings."""
    rows = [ListedModel(model, Origin.REGISTRY) for model in registry.models()]
    bundled = default_embedder_dir(paths)
    rows.append(ListedModel(bundled_model(bundled), Origin.BUNDLED))
    known = {_key(row.model.folder) for row in rows}
    for folder, fields in settings_folders(settings).items():
        if _key(folder) not in known:
            rows.append(ListedModel(folder_model(folder, fields), Origin.FOLDER, fields))
    return rows


def settings_folders(settings: Settings) -> dict[Path, tuple[str, ...]]:
    """Each model folder or file the settings name, with the fields naming it (in order)."""
    named: dict[Path, list[str]] = {}
    for name, task in ROLE_FIELDS.items():
        value = settings.model_choice(task).folder
        if value is not None:
            named.setdefault(value, []).append(name)
    for value in settings.recent_models:
        named.setdefault(value, []).append(RECENT)
    if settings.server.model is not None:
        named.setdefault(settings.server.model, []).append("server.model")
    return {path: tuple(dict.fromkeys(fields)) for path, fields in named.items()}


def bundled_model(folder: Path) -> InstalledModel:
    """The bundled all-MiniLM-L6-v2 as a row ("not set up" until it was converted once)."""
    ready = embedder_installed(folder)
    return InstalledModel(
        id=BUNDLED_NAME,
        task=ModelTask.EMBEDDING,
        folder=folder,
        source="bundled",
        precision=weight_precision(folder) if ready else "int8",
        size_bytes=folder_size(folder) if ready else 0,
        added=0.0,
        owned=False,
        hub_id="sentence-transformers/all-MiniLM-L6-v2",
        problems=() if ready else ("not set up yet",),
    )


def folder_model(path: Path, fields: tuple[str, ...]) -> InstalledModel:
    """A model the settings name, checked now (a gone folder is listed so it can be removed)."""
    task = next((ROLE_FIELDS[f] for f in fields if f in ROLE_FIELDS), ModelTask.CHAT)
    problems: tuple[str, ...] = ()
    if is_gguf_path(path):
        task, precision, size = ModelTask.CHAT, "GGUF", path.stat().st_size if path.is_file() else 0
        if not path.is_file():
            problems = (f"The file {path} is gone.",)
    elif not path.is_dir():
        precision, size = "unknown", 0
        problems = (f"The folder {path} is gone.",)
    else:
        detected = detect_task(path)
        task = detected if detected is not ModelTask.UNKNOWN else task
        precision, size = weight_precision(path), folder_size(path)
        missing = missing_files(path, task)
        if missing:
            problems = (f"Files are missing: {', '.join(missing)}.",)
    return InstalledModel(
        id=path.name,
        task=task,
        folder=path,
        source="folder",
        precision=precision,
        size_bytes=size,
        added=0.0,
        owned=False,
        problems=problems,
    )


def forget_changes(settings: Settings, row: ListedModel) -> dict[str, Any]:
    """The settings changes that take a folder model off the list (nothing on disk changes)."""
    folder = _key(row.model.folder)
    changes: dict[str, Any] = {}
    for name in row.fields:
        if name == RECENT:
            changes[RECENT] = [p for p in settings.recent_models if _key(p) != folder]
        elif name == "server.model":
            changes["server"] = settings.server.model_copy(update={"model": None})
        else:
            models = changes.get("models", settings.models)
            changes["models"] = models.with_folder(ROLE_FIELDS[name], None)
    return changes


def _key(path: Path) -> Path:
    """A path to compare by: resolved when it can be."""
    try:
        return path.expanduser().resolve()
    except OSError:
        return path


__all__ = ["DEFAULT_EMBEDDER", "ListedModel", "Origin", "listed_models"]
