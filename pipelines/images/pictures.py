"""Pictures in and out of the image pipelines: files read safely, masks checked, canvases grown.

A picture is an RGB ``uint8`` array ``[height, width, 3]`` everywhere in the pipelines. Files
enter through :func:`read_picture`: the header is read first (a 50,000 × 50,000 PNG is a few
kilobytes of file and gigabytes of pixels, :mod:`pipelines.image_size`), then Pillow decodes it
and anything it cannot read — a text file named ``.png``, a truncated download — is refused in
one sentence. A mask is white where the model repaints (any colour is read as its brightness,
over half is "repaint"), the convention of diffusers, OpenVINO GenAI and every painting UI.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pipelines.core import InvalidInputError
from pipelines.files import check_input_file
from pipelines.image_size import check_pixels, header_size

Picture = npt.NDArray[np.uint8]
"""An RGB picture, ``[height, width, 3]``."""
ASPECT_TOLERANCE = 0.02
"""A mask whose width/height ratio is within 2% of the picture's is scaled to it (a mask
painted on a downscaled copy); further off, it was painted on another picture."""


class Side(StrEnum):
    """Where outpainting grows the canvas."""

    LEFT = "left"
    RIGHT = "right"
    TOP = "top"
    BOTTOM = "bottom"


def read_picture(source: Path | bytes, *, name: str = "", field: str = "image") -> Picture:
    """The picture in a file (or its bytes) as RGB; transparency over white.

    Raises:
        InvalidInputError: the file is missing or empty, is not a picture Pillow can read, or
            has more pixels than can be opened safely (``field``).
    """
    return _decoded(source, name or _label(source, "The picture"), field, as_rgb)


def read_mask(source: Path | bytes, *, name: str = "", field: str = "mask") -> Picture:
    """A mask file (or its bytes) as grey levels ``[height, width]``, white where to repaint:
    a mask with transparency repaints its transparent part (OpenAI's images API's rule: the
    picture itself with a hole cut out); an opaque one, its white part.

    Raises:
        InvalidInputError: as :func:`read_picture`.
    """

    def grey(image: Any) -> Picture:
        if _has_alpha(image):
            alpha = np.asarray(image.convert("RGBA"))[..., 3]
            if alpha.min() < 255:
                return np.where(alpha < 128, 255, 0).astype(np.uint8)
        return np.ascontiguousarray(np.asarray(image.convert("L"), dtype=np.uint8))

    return _decoded(source, name or _label(source, "The mask"), field, grey)


def _label(source: Path | bytes, default: str) -> str:
    return source.name if isinstance(source, Path) else default


def _decoded(
    source: Path | bytes, label: str, field: str, convert: Callable[[Any], Picture]
) -> Picture:
    """``convert`` of the image in ``source`` once its file and its header pass the checks."""
    if isinstance(source, Path):
        check_input_file(source, "a picture", field=field)
    elif not source:
        raise InvalidInputError(f"{label} is empty.", field=field)
    size = header_size(source)
    if size is None:
        raise InvalidInputError(
            f"{label} is not a picture that can be read (PNG, JPEG, WebP, BMP, …).", field=field
        )
    check_pixels(*size, label, field=field)
    from PIL import Image

    try:
        with Image.open(io.BytesIO(source) if isinstance(source, bytes) else source) as image:
            image.load()
            return convert(image)
    except (OSError, ValueError, SyntaxError) as error:
        raise InvalidInputError(
            f"{label} is damaged and cannot be read: {error}.", field=field
        ) from error


def _has_alpha(image: Any) -> bool:
    return image.mode in ("RGBA", "LA", "PA") or (
        image.mode == "P" and "transparency" in image.info
    )


def as_rgb(image: Any) -> Picture:
    """A Pillow image as an RGB array; a transparent picture is laid over white (what a viewer
    shows), a grey or palette one expanded."""
    from PIL import Image

    if _has_alpha(image):
        rgba = image.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        image = Image.alpha_composite(white, rgba)
    return np.ascontiguousarray(np.asarray(image.convert("RGB"), dtype=np.uint8))


def check_picture(picture: npt.NDArray[Any], *, field: str = "image") -> Picture:
    """``picture`` if it is an RGB ``uint8`` array of a sensible size.

    Raises:
        InvalidInputError: another shape or type, or too many pixels (``field``).
    """
    if picture.dtype != np.uint8 or picture.ndim != 3 or picture.shape[2] != 3:
        raise InvalidInputError(
            f"A picture must be RGB bytes [height, width, 3]; got {picture.dtype} "
            f"{list(picture.shape)}.",
            field=field,
        )
    height, width = picture.shape[:2]
    if width == 0 or height == 0:
        raise InvalidInputError("The picture has no pixels.", field=field)
    check_pixels(width, height, "The picture", field=field)
    return picture


def resized(picture: Picture, width: int, height: int) -> Picture:
    """``picture`` scaled to ``width`` × ``height`` (Lanczos; itself when already that size)."""
    if picture.shape[1] == width and picture.shape[0] == height:
        return picture
    from PIL import Image

    scaled = Image.fromarray(picture).resize((width, height), Image.Resampling.LANCZOS)
    return np.ascontiguousarray(np.asarray(scaled, dtype=np.uint8))


def mask_for(mask: npt.NDArray[Any], picture: Picture) -> tuple[Picture, str]:
    """``mask`` made a white-on-black RGB mask of ``picture``'s size, and a note when it was
    scaled to it.

    Any channel count is read as brightness; over half is "repaint".

    Raises:
        InvalidInputError: the mask has another shape of array, another aspect ratio than the
            picture, or nothing white (``field="mask"``).
    """
    if mask.ndim == 3 and mask.shape[2] in (1, 3, 4):
        grey = mask[..., :3].astype(np.float32).mean(axis=2) if mask.shape[2] != 1 else mask[..., 0]
    elif mask.ndim == 2:
        grey = mask
    else:
        raise InvalidInputError(
            f"A mask must be a picture; got an array of shape {list(mask.shape)}.", field="mask"
        )
    height, width = picture.shape[:2]
    mask_height, mask_width = grey.shape[:2]
    if mask_width == 0 or mask_height == 0:
        raise InvalidInputError("The mask has no pixels.", field="mask")
    note = ""
    if (mask_width, mask_height) != (width, height):
        ratio, wanted = mask_width / mask_height, width / height
        if abs(ratio - wanted) > ASPECT_TOLERANCE * wanted:
            raise InvalidInputError(
                f"The mask is {mask_width}×{mask_height} but the picture is {width}×{height}: "
                "paint the mask on this picture.",
                field="mask",
            )
        from PIL import Image

        scaled = Image.fromarray(np.asarray(grey, dtype=np.uint8)).resize(
            (width, height), Image.Resampling.BILINEAR
        )
        grey = np.asarray(scaled)
        note = f"The {mask_width}×{mask_height} mask was scaled to the {width}×{height} picture."
    white = np.asarray(grey) > 127
    if not white.any():
        raise InvalidInputError(
            "The mask is empty: paint over the part to repaint (white repaints).", field="mask"
        )
    binary = np.where(white, np.uint8(255), np.uint8(0)).astype(np.uint8)
    return np.ascontiguousarray(np.repeat(binary[..., None], 3, axis=2)), note


def full_mask(width: int, height: int) -> Picture:
    """A mask that repaints everything."""
    return np.full((height, width, 3), 255, dtype=np.uint8)


def blank_canvas(width: int, height: int) -> Picture:
    """Mid grey: what an inpainting model starts a picture from when there is none (the masked
    part's latent is ignored when everything is masked; grey keeps the VAE encode neutral)."""
    return np.full((height, width, 3), 127, dtype=np.uint8)


def extend_canvas(
    picture: Picture, side: Side, pixels: int, *, step: int = 1
) -> tuple[Picture, Picture]:
    """``picture`` grown by ``pixels`` on ``side`` (more, up to ``step - 1``, so the new size is
    a multiple of ``step``), the new part filled with the edge's pixels stretched out, and the
    mask of the new part (white).

    Stretched edges, not grey, give the inpainting model colours and light to continue.

    Raises:
        InvalidInputError: ``pixels`` is not positive (``field="pixels"``).
    """
    if isinstance(pixels, bool) or not isinstance(pixels, int) or pixels < 1:
        raise InvalidInputError("Outpainting adds at least 1 pixel.", field="pixels")
    height, width = picture.shape[:2]
    along = width if side in (Side.LEFT, Side.RIGHT) else height
    grown = -(-(along + pixels) // step) * step
    added = grown - along
    pad = {
        Side.LEFT: ((0, 0), (added, 0)),
        Side.RIGHT: ((0, 0), (0, added)),
        Side.TOP: ((added, 0), (0, 0)),
        Side.BOTTOM: ((0, added), (0, 0)),
    }[side]
    canvas = np.pad(picture, (*pad, (0, 0)), mode="edge")
    mask = np.zeros(canvas.shape, dtype=np.uint8)
    if side is Side.LEFT:
        mask[:, :added] = 255
    elif side is Side.RIGHT:
        mask[:, width:] = 255
    elif side is Side.TOP:
        mask[:added] = 255
    else:
        mask[height:] = 255
    return np.ascontiguousarray(canvas), mask


PASTE_FEATHER_PX = 4
"""The blur of the mask's edge when the original is pasted back: a hard edge shows a seam."""


def paste_outside(original: Picture, painted: Picture, mask: Picture) -> Picture:
    """``painted`` inside the (feathered) white of ``mask``, ``original`` exactly elsewhere.

    The model redraws the whole picture through its VAE, which shifts colours and loses detail
    even where nothing was masked; the user's own pixels are put back there, so repainting a
    part never changes the rest.
    """
    from PIL import Image, ImageFilter

    edge = Image.fromarray(mask[..., 0])
    soft = np.asarray(edge.filter(ImageFilter.GaussianBlur(PASTE_FEATHER_PX / 2)), np.float32)
    # Only a band of PASTE_FEATHER_PX around the mask blends: the blur's tail would otherwise
    # touch pixels far from anything the user painted.
    band = np.asarray(edge.filter(ImageFilter.MaxFilter(2 * PASTE_FEATHER_PX + 1))) > 127
    inside = mask[..., 0] > 127
    weight = np.where(inside, 1.0, np.where(band, soft / 255.0, 0.0))[..., None]
    blended = original.astype(np.float32) * (1.0 - weight) + painted.astype(np.float32) * weight
    return np.ascontiguousarray(np.clip(np.rint(blended), 0, 255).astype(np.uint8))
