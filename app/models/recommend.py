"""Which chat models to recommend on this computer: two or three catalog entries, each with
the one-line reason it was picked.

Decisions are a pure function of the catalog, the devices present, the total memory and the
free disk space (:func:`recommend`), so they are tested with made-up machines; only
:func:`machine_facts` asks the system.

The rules: a model must fit in memory with room for the app and the system (its download
size × :data:`RAM_FACTOR`, so an 8 GB machine never gets an 8B model), and its download must
fit on the models folder's disk. An NPU gets the channel-wise INT4 entry made for it first.
Then the largest OpenVINO model that fits comfortably (IR loads at once; a GGUF file is
converted on its first load), then the smallest download, to try the app in a minute.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from app.core.model_tasks import ModelTask
from app.core.texts import tr
from app.models.catalog import CatalogEntry
from app.models.download_checks import FREE_SPACE_MARGIN

RAM_FACTOR = 2.0
"""Memory a model needs beyond its download: weights, KV cache, the app itself and the OS."""
COMFORT_FACTOR = 3.0
"""Memory for the "best for this computer" pick: answers stay quick with other apps open."""
MOST = 3
GB = 10**9


@dataclass(frozen=True)
class Machine:
    """What the recommendations depend on."""

    devices: frozenset[str]
    """Device kinds present (CPU, GPU, NPU)."""
    ram_bytes: int
    free_disk_bytes: int


@dataclass(frozen=True)
class Recommendation:
    """A catalog entry and why it suits this computer (one line)."""

    entry: CatalogEntry
    reason: str


def machine_facts(device_kinds: Iterable[str], models_dir: Path) -> Machine:
    """This computer: ``device_kinds`` (from :mod:`app.core.devices`), total memory, and the free
    space on the disk ``models_dir`` is (or will be) on."""
    import psutil

    existing = models_dir
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent  # the models folder is made by the first download
    free = shutil.disk_usage(existing).free
    kinds = frozenset(kind.split(".", 1)[0].upper() for kind in device_kinds)
    return Machine(kinds | {"CPU"}, int(psutil.virtual_memory().total), free)


def recommend(catalog: Sequence[CatalogEntry], machine: Machine) -> list[Recommendation]:
    """Up to :data:`MOST` downloadable chat models for ``machine``, best first; empty when
    none fits (then the caller says why: :func:`nothing_fits`)."""
    fitting = [entry for entry in catalog if _fits(entry, machine, RAM_FACTOR)]
    picks: list[Recommendation] = []

    def add(entry: CatalogEntry | None, reason: str) -> None:
        if entry is not None and all(p.entry != entry for p in picks) and len(picks) < MOST:
            picks.append(Recommendation(entry, reason))

    if "NPU" in machine.devices:
        npu = [e for e in fitting if "NPU" in e.devices]
        add(_largest(npu), tr("Made for your NPU (channel-wise INT4): fast and frees the CPU."))
    comfortable = [e for e in fitting if _fits(e, machine, COMFORT_FACTOR) and not e.is_gguf]
    best = _largest(comfortable) or _largest([e for e in fitting if not e.is_gguf])
    strongest = (
        tr("The strongest that fits {memory} of memory; runs on your GPU.")
        if _on_gpu(best, machine)
        else tr("The strongest that fits {memory} of memory.")
    )
    add(best, strongest.format(memory=_ram(machine.ram_bytes)))
    smallest = min(fitting, key=lambda e: e.size_bytes, default=None)
    add(smallest, tr("The smallest download: try the app in a minute; short answers."))
    light = [e for e in fitting if e.size_bytes <= GB]
    quick = tr("Under 1 GB: quick on any processor, better answers than the smallest.")
    add(_largest(light), quick)
    return picks


def recommend_picture_model(
    catalog: Sequence[CatalogEntry], machine: Machine
) -> Recommendation | None:
    """The image-generation model to offer beside the chat models (the Create panel's), or
    None when none fits: the catalog's first that a click downloads and this computer holds —
    its first is its fast default, a few steps per picture."""
    for entry in catalog:
        drawer = entry.task is ModelTask.IMAGE_GENERATION
        if drawer and _fits(entry, machine, RAM_FACTOR, entry.task):
            reason = tr("For the Create panel: pictures from a prompt, and edits of them.")
            return Recommendation(entry, reason)
    return None


def nothing_fits(catalog: Sequence[CatalogEntry], machine: Machine, models_dir: Path) -> str:
    """Why :func:`recommend` found nothing, in one sentence."""
    chat = _chat_entries(catalog)
    if not chat:
        return tr("The model catalog lists no chat model.")
    smallest = min(chat, key=lambda e: e.size_bytes)
    if smallest.size_bytes * FREE_SPACE_MARGIN > machine.free_disk_bytes:
        return tr(
            "Not enough free disk space for a chat model: the smallest needs {size} and {folder} "
            "has {free} free."
        ).format(
            size=_gb(smallest.size_bytes),
            folder=str(models_dir),
            free=_gb(machine.free_disk_bytes),
        )
    return tr(
        "This computer's {memory} of memory is too little for the catalog's chat models; a "
        "smaller model file can still be opened."
    ).format(memory=_ram(machine.ram_bytes))


def _chat_entries(catalog: Sequence[CatalogEntry]) -> list[CatalogEntry]:
    """Chat models a click can download (converted ones need the conversion toolchain)."""
    return [e for e in catalog if e.task is ModelTask.CHAT and not e.convert]


def _fits(
    entry: CatalogEntry, machine: Machine, ram_factor: float, task: ModelTask = ModelTask.CHAT
) -> bool:
    return (
        entry.task is task
        and not entry.convert
        and any(device in machine.devices for device in entry.devices)
        and entry.size_bytes * ram_factor <= machine.ram_bytes
        and entry.size_bytes * FREE_SPACE_MARGIN <= machine.free_disk_bytes
    )


def _largest(entries: Sequence[CatalogEntry]) -> CatalogEntry | None:
    """The largest download (catalog order breaks ties: its first entry is its default)."""
    return max(entries, key=lambda e: e.size_bytes, default=None)


def _on_gpu(entry: CatalogEntry | None, machine: Machine) -> bool:
    return entry is not None and "GPU" in machine.devices and "GPU" in entry.devices


def _gb(size: int) -> str:
    """A download or disk size as the catalog gives them (decimal units; the window writes
    the number as the user's language does)."""
    if size >= GB:
        return tr("{size:.1f} GB").format(size=size / GB)
    return tr("{size:.0f} MB").format(size=size / 10**6)


def _ram(size: int) -> str:
    """Memory as systems state it: whole binary gigabytes (8 GB, 16 GB)."""
    return tr("{size} GB").format(size=max(round(size / 2**30), 1))
