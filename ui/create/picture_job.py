"""What Generate asks of the image service, as a plain job for the task runner (no Qt).

The panel builds a :class:`PictureJob` from its controls on the GUI thread; the runner calls
:func:`make_pictures` on a worker with the task's cancel token, its ``set_progress`` (only the
latest step is kept) and its ``add_partial`` (the previews, in order).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.images import (
    Created,
    ImageRequest,
    ImageService,
    Mode,
    Picture,
    PictureOptions,
    Preview,
    Side,
)
from pipelines.core import CancelToken, Progress


@dataclass(frozen=True)
class PictureJob:
    """One Generate: what to draw, in which mode, on which picture and device."""

    mode: Mode
    request: ImageRequest
    device: str | None = None
    picture: Picture | None = None
    """The picture to edit (every mode but text to image)."""
    mask: Picture | None = None
    """Inpainting: white where the model repaints (the picture's size)."""
    side: Side = Side.RIGHT
    pixels: int = 0
    """Outpainting: how far the canvas grows on ``side``."""


def make_pictures(
    service: ImageService,
    job: PictureJob,
    cancel: CancelToken,
    on_progress: Callable[[Progress], None],
    on_preview: Callable[[Preview], Any],
) -> Created:
    """Draw ``job`` and keep the pictures in the gallery (nothing kept when cancelled).

    Raises:
        Cancelled: ``cancel`` was set.
        UserError, PipelineError: as the service raises them.
    """
    options = PictureOptions(
        device=job.device, cancel=cancel, on_progress=on_progress, on_preview=on_preview
    )
    if job.mode is Mode.TEXT_TO_IMAGE or job.picture is None:
        return service.text_to_image(job.request, picture_options=options)
    if job.mode is Mode.IMAGE_TO_IMAGE:
        return service.image_to_image(job.request, job.picture, picture_options=options)
    if job.mode is Mode.INPAINTING:
        return service.inpaint(job.request, job.picture, job.mask, picture_options=options)
    return service.outpaint(job.request, job.picture, job.side, job.pixels, picture_options=options)
