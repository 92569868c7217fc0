"""Super-resolution: a picture ×2 or ×4 through an ESRGAN-family network, tile by tile.

The model is what :mod:`app.models.esrgan_torch` converts (``image`` ``[B, 3, H, W]`` RGB in
0..1 → ``[B, 3, s·H, s·W]``, its scale in ``config.json``). A whole 2,000-pixel picture
through a 64-feature RRDBNet needs gigabytes of activations, so the picture goes through in
tiles: each tile is inferred with :attr:`Upscaler.overlap` pixels of its neighbours around
it, and only its own part of the result is kept. The kept parts meet edge to edge with no
blending; away from the picture's border every kept pixel saw at least ``overlap`` pixels of
real context on each side, which is what hides the seams (Real-ESRGAN's own tiling keeps 10).

Every tile window has the same size (windows at the far edges are shifted inwards rather than
cut short), so the model sees one shape per picture. Memory: the output picture as bytes plus
one window's activations.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pipelines.contract import (
    ModelPipeline,
    raise_if_cancelled,
)
from pipelines.core import (
    CancelToken,
    DeviceError,
    InvalidInputError,
    MetricRecord,
    ModelLoadError,
    Progress,
)
from pipelines.images.picture_network import compile_picture_network
from pipelines.images.pictures import Picture, check_picture
from pipelines.openvino_errors import openvino_reason

MODEL_FILE = "openvino_model.xml"
CONFIG_FILE = "config.json"
SCALES = (2, 4)
UPSCALE_STAGE = "upscale"
TILE = 256
"""Pixels of the source picture per tile side (a 64-feature ×4 RRDBNet's window of 288² is
~1 GB of activations on the CPU)."""
OVERLAP = 16
"""Pixels of context around each tile, on each side."""
MAX_OUTPUT_PIXELS = 8192 * 8192
"""The largest result: 67 megapixels, ~200 MB as RGB bytes (a 4096² picture ×2, 2048² ×4)."""

ProgressCallback = Callable[[Progress], None]


@dataclass(frozen=True)
class Span:
    """One tile along one axis: the part it fills ``[start, stop)`` and the window it is
    inferred from ``[window_start, window_start + window)``."""

    start: int
    stop: int
    window_start: int
    window: int


def tile_spans(length: int, tile: int, overlap: int, multiple: int = 1) -> list[Span]:
    """How an axis of ``length`` pixels is cut into tiles of at most ``tile``, each inferred
    with ``overlap`` pixels of context on both sides where the picture has them.

    Tiles are made equal (a 260-pixel axis in tiles of 256 is two of 130, not 256 and 4), and
    every window has the same size: at the picture's ends a window is shifted inwards. With
    ``length``, ``tile`` and ``overlap`` multiples of ``multiple``, every start and size is one
    (a ×2 model pixel-unshuffles its input: it needs even ones).
    """
    count = math.ceil(length / tile)
    size = min(length, math.ceil(length / count / multiple) * multiple)
    window = min(length, size + 2 * overlap)
    spans = []
    for start in range(0, length, size):
        stop = min(start + size, length)
        window_start = min(max(start - overlap, 0), length - window)
        spans.append(Span(start, stop, window_start, window))
    return spans


def read_scale(folder: Path) -> int:
    """The upscaler's factor, from the ``config.json`` its conversion wrote.

    Raises:
        ModelLoadError: no IR, no readable config, or a scale other than 2 or 4.
    """
    if not (folder / MODEL_FILE).is_file():
        raise ModelLoadError(f"{folder.name} has no upscaler model ({MODEL_FILE} is missing).")
    try:
        config = json.loads((folder / CONFIG_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ModelLoadError(
            f"{folder.name} is not an upscaler: its {CONFIG_FILE} is missing or unreadable."
        ) from error
    scale = config.get("scale") if isinstance(config, dict) else None
    if scale not in SCALES or isinstance(scale, bool):
        raise ModelLoadError(
            f"{folder.name} is not an upscaler: its {CONFIG_FILE} gives no scale of 2 or 4."
        )
    return int(scale)


def check_upscale(
    picture: npt.NDArray[Any],
    scale: int,
    max_output_pixels: int = MAX_OUTPUT_PIXELS,
    *,
    field: str = "image",
) -> None:
    """Refuse ``picture`` before any work: not RGB bytes, or a result ×``scale`` over
    ``max_output_pixels``.

    Raises:
        InvalidInputError: the sentence says why (``field``).
    """
    check_picture(picture, field=field)
    height, width = picture.shape[:2]
    pixels = width * height * scale * scale
    if pixels > max_output_pixels:
        raise InvalidInputError(
            f"The picture is too big to upscale ×{scale}: {width:,}×{height:,} would become "
            f"{width * scale:,}×{height * scale:,} ({pixels / 1e6:,.0f} megapixels; at most "
            f"{max_output_pixels / 1e6:,.0f}). Crop or shrink it first.",
            field=field,
        )


class Upscaler(ModelPipeline):
    """An ESRGAN-family model on a device; one caller at a time.

    Args:
        folder: the model folder (``openvino_model.xml`` + ``config.json``).
        device: an OpenVINO device name.
        cache_dir: compiled-blob cache (``CACHE_DIR``) for this model and device; None: none.
        properties: OpenVINO compile properties.
        tile: source pixels per tile side (even; the picture in one piece when it is smaller).
        overlap: context pixels around each tile (even).
        max_output_pixels: the largest result accepted.
    """

    name = "upscaler"

    def __init__(
        self,
        folder: Path,
        device: str = "CPU",
        *,
        cache_dir: Path | None = None,
        properties: dict[str, Any] | None = None,
        tile: int = TILE,
        overlap: int = OVERLAP,
        max_output_pixels: int = MAX_OUTPUT_PIXELS,
    ) -> None:
        super().__init__(device, cache_dir)
        if tile < 8 or tile % 2 or overlap < 0 or overlap % 2:
            raise ValueError(f"tile must be even and at least 8, overlap even: {tile}, {overlap}")
        self.folder = folder
        self.tile = tile
        self.overlap = overlap
        self.max_output_pixels = max_output_pixels
        self._properties = properties or {}
        self._scale: int | None = None
        self._request: Any = None
        self._last: dict[str, float] = {}

    @property
    def scale(self) -> int:
        """The model's factor (read from its config on first use).

        Raises:
            ModelLoadError: as :func:`read_scale`.
        """
        if self._scale is None:
            self._scale = read_scale(self.folder)
        return self._scale

    def _load(self) -> Any:
        """Read the IR, check it takes and gives RGB pictures, compile it.

        Raises:
            ModelLoadError: no IR or config, a damaged one, or not a picture-to-picture model.
            DeviceError: ``device`` could not compile it.
        """
        _ = self.scale
        compiled = compile_picture_network(
            self.folder / MODEL_FILE,
            what=f"the upscaler {self.folder.name}",
            device=self.device,
            cache_dir=self.cache_dir,
            properties=self._properties,
            check=self._check_kind,
        )
        self._request = compiled.create_infer_request()
        return compiled

    def _check_kind(self, network: Any, taken: Any, given: Any) -> None:
        """Refuse a network that does not take and give one RGB picture.

        Raises:
            ModelLoadError: the sentence names the shapes it has.
        """
        if len(network.inputs) != 1 or any(
            shape.rank.is_dynamic or len(shape) != 4 or shape[1] != 3 for shape in (taken, given)
        ):
            raise ModelLoadError(
                f"{self.folder.name} is not an upscaler: it should take and give one RGB "
                f"picture [batch, 3, height, width], not {taken} → {given}."
            )

    def close(self) -> None:
        """Drop the compiled model and its request."""
        self._request = None
        super().close()

    def check(self, picture: npt.NDArray[Any], *, field: str = "image") -> None:
        """Refuse ``picture`` before any work (see :func:`check_upscale`).

        Raises:
            InvalidInputError: the sentence says why (``field``).
            ModelLoadError: the model's config cannot be read.
        """
        check_upscale(picture, self.scale, self.max_output_pixels, field=field)

    def upscale(
        self,
        picture: Picture,
        *,
        cancel: CancelToken | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> Picture:
        """``picture`` (RGB bytes ``[H, W, 3]``) ×:attr:`scale`: ``[s·H, s·W, 3]`` bytes.

        ``on_progress`` hears ``Progress("upscale", done, total)`` in tiles, from 0.

        Raises:
            InvalidInputError: as :meth:`check` (nothing loaded or run).
            Cancelled: ``cancel`` was set (checked before each tile); nothing is returned.
            ModelLoadError, DeviceError: the model could not be loaded or run.
        """
        self.check(picture)
        raise_if_cancelled(cancel)
        self._loaded_model()
        scale, started = self.scale, time.perf_counter()
        height, width = picture.shape[:2]
        multiple = 2 if scale == 2 else 1
        # A ×2 model pixel-unshuffles: an odd side gets a mirrored row or column, cut off after.
        source = np.pad(
            picture, ((0, height % multiple), (0, width % multiple), (0, 0)), mode="symmetric"
        )
        rows = tile_spans(source.shape[0], self.tile, self.overlap, multiple)
        columns = tile_spans(source.shape[1], self.tile, self.overlap, multiple)
        total = len(rows) * len(columns)
        result = np.empty((source.shape[0] * scale, source.shape[1] * scale, 3), np.uint8)
        if on_progress is not None:
            on_progress(Progress(UPSCALE_STAGE, 0, total))
        done = 0
        for row in rows:
            for column in columns:
                raise_if_cancelled(cancel)
                window = source[
                    row.window_start : row.window_start + row.window,
                    column.window_start : column.window_start + column.window,
                ]
                upscaled = self._infer(window)
                top, left = row.start - row.window_start, column.start - column.window_start
                kept = upscaled[
                    :,
                    top * scale : (top + row.stop - row.start) * scale,
                    left * scale : (left + column.stop - column.start) * scale,
                ]
                result[
                    row.start * scale : row.stop * scale, column.start * scale : column.stop * scale
                ] = _to_bytes(kept)
                done += 1
                if on_progress is not None:
                    on_progress(Progress(UPSCALE_STAGE, done, total))
        seconds = time.perf_counter() - started
        self._last = {
            "tiles": float(total),
            "upscale_ms": seconds * 1000.0,
            "output_megapixels": result.shape[0] * result.shape[1] / 1e6,
        }
        if source.shape[:2] != picture.shape[:2]:
            return result[: height * scale, : width * scale].copy()
        return result

    def _infer(self, window: Picture) -> npt.NDArray[np.float32]:
        """One window through the model: ``[3, s·h, s·w]`` floats."""
        tensor = np.ascontiguousarray(window.transpose(2, 0, 1)[None], dtype=np.float32) / 255.0
        try:
            self._request.infer({0: tensor})
        except RuntimeError as error:
            raise DeviceError(
                f"The upscaler failed on {self.device}: {openvino_reason(error)}",
                device=self.device,
            ) from error
        output: npt.NDArray[np.float32] = self._request.get_output_tensor(0).data[0]
        return output

    def metrics(self) -> MetricRecord:
        """The load time and the last picture's tiles, time and size."""
        return MetricRecord(self.name, self.device, {"load_ms": self.load_ms, **self._last})


def _to_bytes(values: npt.NDArray[np.float32]) -> Picture:
    """``[3, h, w]`` floats in 0..1 as ``[h, w, 3]`` bytes (rounded, clipped)."""
    scaled = np.clip(values.transpose(1, 2, 0) * 255.0 + 0.5, 0.0, 255.0)
    picture: Picture = scaled.astype(np.uint8)
    return picture
