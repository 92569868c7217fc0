"""Reading the text in a picture of a page: :class:`OcrReader` (rapidocr on OpenVINO).

Loaded once (:meth:`OcrReader.load`, a second or two on the CPU) and then handed page after
page: an ingest reads a 300-page scan with one reader. A page is turned upright first
(:mod:`pipelines.ocr.orientation`, on the boxes of the read's own detection:
:mod:`pipelines.ocr.page_read`), then read whole; the pieces of text come back as lines in
reading order (:mod:`pipelines.ocr.layout`).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean
from typing import Any

import numpy as np

from pipelines.core import Closing, InvalidInputError
from pipelines.image_size import check_pixels
from pipelines.ocr import page_read
from pipelines.ocr.engine import build_engine
from pipelines.ocr.layout import TextBox, boxes_from_quads, page_text
from pipelines.ocr.orientation import Upright

MAX_PAGE_PIXELS = 40_000_000
"""Pixels a page may have when it reaches the reader (an A4 page at 600 dpi is 35 million);
callers scale larger pictures down first (:func:`fit_pixels`)."""


@dataclass(frozen=True)
class OcrConfig:
    """Where the reader runs: an OpenVINO device name (already resolved: no AUTO), the
    folder compiled models are cached in for accelerators (None: no cache), and the folder of
    the models (None: the ONNX files in rapidocr's wheel; a frozen app's compact ones:
    :func:`pipelines.ocr.engine.save_compact_models`)."""

    device: str = "CPU"
    cache_dir: Path | None = None
    model_folder: Path | None = None


@dataclass(frozen=True)
class OcrPage:
    """What was read on one page: its lines (upright page pixels) and how it was turned."""

    boxes: tuple[TextBox, ...]
    upright: Upright
    seconds: float

    @property
    def text(self) -> str:
        """The page's text in reading order, one printed line per line."""
        return page_text(self.boxes)

    @property
    def confidence(self) -> float:
        """Mean recognition confidence of the lines (0 when nothing was read)."""
        return fmean(box.confidence for box in self.boxes) if self.boxes else 0.0


class OcrReader(Closing):
    """rapidocr's text detector and recogniser on one OpenVINO device.

    One page at a time: a lock serialises :meth:`read` (the models' requests are not shared
    between threads).
    """

    def __init__(self, config: OcrConfig) -> None:
        self.config = config
        self._engine: Any = None
        self._lock = threading.Lock()
        self.load_seconds = 0.0

    @property
    def loaded(self) -> bool:
        """Whether :meth:`load` has run."""
        return self._engine is not None

    def load(self) -> None:
        """Load and compile the models (once; later calls return at once).

        Raises:
            ModelLoadError: the model files are missing or unreadable.
            DeviceError: the models do not compile on the configured device.
        """
        with self._lock:
            if self._engine is None:
                started = time.perf_counter()
                self._engine = build_engine(
                    self.config.device, self.config.cache_dir, self.config.model_folder
                )
                self.load_seconds = time.perf_counter() - started

    def read(self, page: np.ndarray, name: str = "The page") -> OcrPage:
        """Read the text of ``page`` (H × W × 3 RGB, or H × W grey, uint8).

        Raises:
            InvalidInputError: ``page`` is not a picture, or has more than
                :data:`MAX_PAGE_PIXELS` pixels (``name`` says which in the message).
        """
        page = _as_rgb(page, name)
        height, width = page.shape[:2]
        if height * width > MAX_PAGE_PIXELS:
            check_pixels(width, height, name, field="file")  # the product-wide sentence first
            raise InvalidInputError(
                f"{name} is too large to read ({width:,}×{height:,} pixels).", field="file"
            )
        self.load()
        started = time.perf_counter()
        with self._lock:
            read = page_read.read_upright(self._engine, page)
        result = read.result
        boxes: tuple[TextBox, ...] = ()
        if getattr(result, "txts", None):
            boxes = tuple(boxes_from_quads(result.boxes, result.txts, result.scores))
        return OcrPage(boxes, read.upright, time.perf_counter() - started)

    def close(self) -> None:
        """Drop the compiled models."""
        with self._lock:
            self._engine = None


def fit_pixels(width: int, height: int, limit: int = MAX_PAGE_PIXELS) -> float:
    """The scale (≤ 1) that brings ``width`` × ``height`` within ``limit`` pixels."""
    pixels = max(1, width * height)
    return float(min(1.0, (limit / pixels) ** 0.5))


def _as_rgb(page: np.ndarray, name: str) -> np.ndarray:
    if not isinstance(page, np.ndarray) or page.dtype != np.uint8 or page.size == 0:
        raise InvalidInputError(f"{name} is not a picture.", field="file")
    if page.ndim == 2:
        return np.ascontiguousarray(np.repeat(page[:, :, None], 3, axis=2))
    if page.ndim == 3 and page.shape[2] == 4:
        return np.ascontiguousarray(page[:, :, :3])
    if page.ndim == 3 and page.shape[2] == 3:
        return page
    raise InvalidInputError(f"{name} is not a picture.", field="file")
