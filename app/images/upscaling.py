"""Upscaling as the front ends use it: which upscaler, which factor, and what the gallery keeps.

The model is the caller's, else the settings' ``models.upscale`` folder, else an installed
upscaling model — one of the factor asked for when there is one. A ×4 model asked for ×2
upscales ×4 and then scales the result down (what Real-ESRGAN's ``--outscale`` does: sharper
than a ×2 network of the same training); ×4 from a ×2 model is refused.

The gallery keeps an upscaled picture with the settings its source was drawn with, ``mode``
``upscale``: they say how to draw it again (Reuse), and the file's own size says how big it
is now. The gallery's settings cannot hold more cleanly: their width and height are read back
only up to the largest side a model draws (2,048), and a picture without a prompt is not a
gallery picture — so a picture from outside the gallery is upscaled but not kept there, and
the result says so.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from app.core.errors import ModelMissingError, UserError
from app.core.model_tasks import ModelTask
from app.core.texts import tr
from app.images.gallery import GalleryItem
from app.models.registry import ModelRegistry
from pipelines.core import ModelLoadError
from pipelines.images import ImageSettings, Mode, Picture, read_scale
from pipelines.images.pictures import resized

TASK = ModelTask.UPSCALE
FACTORS = (2, 4)


@dataclass(frozen=True)
class Upscaled:
    """A finished upscale: the picture, how it was made, and where the gallery keeps it."""

    picture: Picture
    factor: int
    model: str
    """The upscaler's name (its folder's)."""
    settings: ImageSettings | None = None
    """What the gallery keeps with it (the source's settings, mode ``upscale``); None when
    the source carried none."""
    saved: GalleryItem | None = None
    problem: str = ""
    """Why it was not kept in the gallery ("" when it was, or was not asked to be)."""


def upscaler_folder(
    chosen: Path | None, registry: ModelRegistry, factor: int | None = None
) -> Path:
    """The upscaler to use: ``chosen`` (the caller's or the settings'), else an installed one
    whose factor is ``factor`` (else the first installed).

    Raises:
        UserError: ``chosen`` is gone or a file (``field="model"``).
        ModelMissingError: none chosen and none installed.
    """
    if chosen is not None:
        if not chosen.is_dir():
            raise UserError(
                tr("The upscaling model {folder} is missing. Choose another in Models….").format(
                    folder=str(chosen)
                ),
                field="model",
            )
        return chosen
    installed = [model.folder for model in registry.models(TASK) if model.usable]
    if not installed:
        raise ModelMissingError(
            tr(
                "No upscaling model is installed: convert an ESRGAN or Real-ESRGAN checkpoint "
                "(e.g. RealESRGAN_x4plus.pth) in Models…."
            ),
            TASK.value,
        )
    for folder in installed:
        try:
            if read_scale(folder) == factor:
                return folder
        except ModelLoadError:
            continue  # the registry's file check passed; loading it will say what is wrong
    return installed[0]


def model_scale(folder: Path, factor: int | None) -> tuple[int, int]:
    """``(the model's scale, the factor to deliver)`` for ``factor`` (None: the model's).

    Raises:
        UserError: a factor other than 2 or 4, or above the model's (``field="factor"``).
        ModelLoadError: the folder is not an upscaler.
    """
    if factor is not None and factor not in FACTORS:
        raise UserError(
            tr("Pictures can be upscaled ×2 or ×4, not ×{factor}.").format(factor=factor),
            field="factor",
        )
    scale = read_scale(folder)
    wanted = factor or scale
    if wanted > scale:
        raise UserError(
            tr("{name} upscales ×{scale}: choose a ×{factor} model for ×{factor}.").format(
                name=folder.name, scale=scale, factor=wanted
            ),
            field="factor",
        )
    return scale, wanted


def scaled_to(picture: Picture, source: Picture, factor: int) -> Picture:
    """``picture`` (the model's result for ``source``) at ``factor`` × ``source``'s size."""
    height, width = source.shape[:2]
    return resized(picture, width * factor, height * factor)


def gallery_settings(source: ImageSettings | None) -> ImageSettings | None:
    """The settings the gallery keeps with an upscale of a picture drawn with ``source``."""
    return None if source is None else replace(source, mode=Mode.UPSCALE)
