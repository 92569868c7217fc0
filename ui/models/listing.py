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

from app.chat import GgufInfo, is_gguf_path
from app.core import AppPaths, Settings
from app.models import (
    DEFAULT_EMBEDDER,
    GgufFacts,
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
        ModelTask.SPEAKER_SIMILARITY,
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
    converted_bytes: int = 0
    """For a GGUF file: what its conversion for OpenVINO keeps in the app's cache (0: none)."""

    @property
    def removable(self) -> bool:
        """Whether Remove applies (the bundled embedder stays)."""
        return self.origin is not Origin.BUNDLED


LISTED_FIELDS = frozenset({*(name.split(".")[0] for name in ROLE_FIELDS), RECENT, "server"})
"""The top-level settings fields whose folders the list shows (a change to one changes the
list): ``server`` for ``server.model``."""


def listed_models(
    registry: ModelRegistry, settings: Settings, paths: AppPaths, facts: GgufFacts
) -> list[ListedModel]:
    """The registry's models, then the bundled embedder, then folders opened from settings
    (a GGUF file among them described by what ``facts`` knows of it already)."""
    rows = [
        ListedModel(model, Origin.REGISTRY, converted_bytes=_converted(model, facts))
        for model in registry.models()
    ]
    bundled = default_embedder_dir(paths)
    rows.append(ListedModel(bundled_model(bundled), Origin.BUNDLED))
    known = {_key(row.model.folder) for row in rows}
    for folder, fields in settings_folders(settings).items():
        if _key(folder) not in known:
            model = folder_model(folder, fields, facts)
            rows.append(ListedModel(model, Origin.FOLDER, fields, _converted(model, facts)))
    return rows


def _converted(model: InstalledModel, facts: GgufFacts) -> int:
    return facts.converted_size(model.folder) if is_gguf_path(model.folder) else 0


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


def folder_model(path: Path, fields: tuple[str, ...], facts: GgufFacts) -> InstalledModel:
    """A model the settings name, checked now (a gone folder is listed so it can be removed).

    A GGUF file is described by what ``facts`` knows without reading it; until it was read
    (:func:`unread_files`) its row says only "GGUF"."""
    task = next((ROLE_FIELDS[f] for f in fields if f in ROLE_FIELDS), ModelTask.CHAT)
    if is_gguf_path(path):
        return _gguf_file(path, facts)
    problems: tuple[str, ...] = ()
    if not path.is_dir():
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


def _gguf_file(path: Path, facts: GgufFacts) -> InstalledModel:
    """A GGUF file the settings name: its metadata, or why it cannot be used."""
    known = facts.known(path) if path.is_file() else None
    info = known if isinstance(known, GgufInfo) else None
    if not path.is_file():
        problems: tuple[str, ...] = (f"The file {path} is gone.",)
    elif isinstance(known, str):
        problems = (known,)
    else:
        problems = ()
    return InstalledModel(
        id=path.stem,
        task=ModelTask.CHAT,
        folder=path,
        source="folder",
        precision=info.quantization if info is not None else "GGUF",
        size_bytes=_file_size(path),
        added=0.0,
        owned=False,
        problems=problems,
        gguf=info,
    )


def unread_files(rows: list[ListedModel]) -> list[Path]:
    """The GGUF files of ``rows`` whose metadata is not known yet (a worker reads them)."""
    return [
        row.model.folder
        for row in rows
        if is_gguf_path(row.model.folder) and row.model.gguf is None and row.model.usable
    ]


def _file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


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
