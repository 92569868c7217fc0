"""The gallery's Upscale as a plain job for the task runner (no Qt), and its caption.

The panel runs it as its one picture job (Generate turns into Stop; Cancel stops between
tiles and nothing is kept); the picture is read from its file on the worker.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.images import ImageService, PictureOptions, Upscaled, read_picture, read_settings
from pipelines.core import CancelToken, Progress
from ui.i18n import tr


def upscale_picture(
    service: ImageService,
    path: Path,
    cancel: CancelToken,
    on_progress: Callable[[Progress], None],
    _on_preview: Callable[..., Any] | None = None,
) -> Upscaled:
    """Upscale the gallery picture at ``path`` by the upscaler's own factor and keep it in
    the gallery with the picture's settings. ``_on_preview`` is not called (an upscale has no
    previews): it is there so the panel runs this as it runs :func:`make_pictures`.

    Raises:
        Cancelled: ``cancel`` was set.
        UserError, PipelineError: as the service raises them.
    """
    picture = read_picture(path, field="picture")
    options = PictureOptions(cancel=cancel, on_progress=on_progress)
    return service.upscale(picture, settings=read_settings(path), picture_options=options)


def upscaled_caption(done: Upscaled) -> str:
    """ "Upscaled ×4 with RealESRGAN_x4plus-fp16-ov · 2048×2048"."""
    height, width = done.picture.shape[:2]
    return tr("Upscaled ×{factor} with {model} · {width}×{height}").format(
        factor=done.factor, model=done.model, width=width, height=height
    )
