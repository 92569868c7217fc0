"""OCR for an ingest: the reader for pictures and scanned pages, loaded once per run.

Whether a collection's pictures are read (*Read text in images*, on unless the collection is
in ``settings.collections_without_ocr``) and on which device (``settings.ocr_device``; AUTO
prefers a GPU) are decided when an ingest starts. The reader itself loads at the first page
that needs it, so an ingest of text files never pays for it, and serves every page of every
file after that.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from app.core.devices import DeviceInfo, compile_cache_dir_name, resolve_device
from app.core.errors import UserError
from app.core.paths import AppPaths
from app.core.runtime import bundle_root
from app.core.settings_store import SettingsStore
from pipelines.core import CancelToken
from pipelines.ocr import OcrConfig, OcrReader
from pipelines.rag.scanned import OcrPass

OCR_MODEL_ID = "rapidocr-3.10-PP-OCRv6-small"
"""Names the compiled-model cache of the OCR models (they come with the rapidocr package)."""
BUNDLE_FOLDER = "ocr"
"""The compact OCR models' folder under a frozen app's ``<bundle>/models``
(``installers/stage_bundle.py`` writes them with the pipelines' own ``save_compact_models``)."""
DEVICE_KEY = "ocr"
"""The OCR models' name for the devices AUTO prefers (their shapes change with every line,
which an NPU's static shapes cannot follow)."""

log = logging.getLogger(__name__)


class PageReading:
    """One OCR reader for an ingest run, loaded at its first page."""

    def __init__(self, config: OcrConfig) -> None:
        self.config = config
        self._reader = OcrReader(config)
        self._lock = threading.Lock()
        self.pages_read = 0

    def for_file(self, cancel: CancelToken, on_page: Callable[[int, int], None]) -> OcrPass:
        """What the loader needs to read one file's pages (Cancel and progress per page)."""
        return OcrPass(self.read_page, cancel, on_page)

    def read_page(self, page: np.ndarray, name: str) -> str:
        """The text on one page (the reader loads on first use)."""
        with self._lock:
            self._reader.load()
            text = self._reader.read(page, name).text
            self.pages_read += 1
        return text

    def close(self) -> None:
        """Release the models."""
        self._reader.close()


class PageReadingChoice:
    """Decides, when an ingest starts, whether and where its pictures are read."""

    def __init__(
        self, paths: AppPaths, settings: SettingsStore, devices: Sequence[DeviceInfo]
    ) -> None:
        self._paths = paths
        self._settings = settings
        self._devices = list(devices)

    def for_collection(self, collection: str) -> PageReading | None:
        """The OCR of an ingest into ``collection``; None when its switch is off."""
        settings = self._settings.settings
        if collection in settings.collections_without_ocr:
            return None
        return PageReading(ocr_config(self._paths, settings.ocr_device, self._devices))


def ocr_config(paths: AppPaths, requested: str, devices: Sequence[DeviceInfo]) -> OcrConfig:
    """The reader's configuration for the ``requested`` device (AUTO resolved; a device that
    is gone falls back to the CPU rather than failing every picture)."""
    try:
        device = resolve_device(requested or "AUTO", devices, DEVICE_KEY)
    except UserError:
        log.warning("OCR device %s is not available here; reading on the CPU", requested)
        device = "CPU"
    models = packaged_ocr_models()
    if device.split(".", 1)[0] == "CPU":
        return OcrConfig(device, model_folder=models)
    cache = paths.compiled_cache / compile_cache_dir_name(OCR_MODEL_ID, device)
    return OcrConfig(device, cache, models)


def packaged_ocr_models() -> Path | None:
    """A frozen app's compact OCR models; None: the ONNX files in the rapidocr package."""
    bundle = bundle_root()
    return None if bundle is None else bundle / "models" / BUNDLE_FOLDER
