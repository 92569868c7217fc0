"""Images attached to a chat message: read, checked and made ready for a vision model.

Qt-free, so the UI runs :func:`prepare_image` in a task (a big image takes a second to
decode) and the CLI calls it directly. Every refusal is one sentence with ``field="images"``.

What a vision model is given is what the user sees saved: the image is decoded with Pillow,
turned into RGB (an animated GIF gives its first frame, transparency goes on white), scaled so
its longest side is at most :data:`MAX_SIDE` (GenAI does not downscale cheaply: a 12000×12000
image took seconds and gigabytes) and padded when its shape is too thin for some models
(Qwen2-VL refuses an aspect ratio of 200:1). The result is kept as PNG bytes; the
conversation store writes them atomically under a name of ours.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from app.core.errors import StorageError, UserError
from app.core.model_tasks import ModelTask
from app.core.texts import tr
from app.models.catalog import filter_catalog, load_catalog
from pipelines.files import check_input_file
from pipelines.image_size import check_pixels, header_size

if TYPE_CHECKING:
    from PIL.Image import Image as PilImage

FIELD = "images"
"""The control every refusal here is shown next to."""
MAX_IMAGES = 10
"""Images per message: each costs hundreds of context tokens and a vision-encoder run."""
MAX_SIDE = 2048
"""Longest side sent to the model; larger images are scaled down, with a note."""
MIN_SIDE = 28
"""Shortest side: thinner images are padded (vision encoders work on 14–28 px patches)."""
MAX_ASPECT = 20
"""Longest side over shortest side; thinner images are padded to this shape."""
MAX_FILE_BYTES = 200 * 2**20
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".tif", ".tiff")
"""What the file dialog and drag and drop offer (any format Pillow reads is accepted)."""


@dataclass(frozen=True)
class PreparedImage:
    """An attachment ready to send: PNG bytes of the RGB image the model sees."""

    png: bytes
    width: int
    height: int
    label: str
    """The user's file name, shown next to the thumbnail (never used as a path)."""
    note: str = ""
    """What was changed ("Scaled down from 12000×12000.") or ""."""


def check_count(count: int) -> None:
    """Refuse more than :data:`MAX_IMAGES` images for one message.

    Raises:
        UserError: (field ``images``) too many.
    """
    if count > MAX_IMAGES:
        raise UserError(
            tr("At most {limit} images per message.").format(limit=MAX_IMAGES), field="images"
        )


def prepare_image(path: Path) -> PreparedImage:
    """Read ``path`` and return the image a vision model will see, with a note of changes.

    Raises:
        UserError: (field ``images``) missing, empty, unreadable, too large, or not an image
            Pillow can decode (a corrupt file, or another kind of file renamed ``.png``).
    """
    check_input_file(path, "an image", field="images")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise UserError(
            tr("{name} is larger than 200 MB; attach a smaller image.").format(name=path.name),
            field="images",
        )
    try:
        data = path.read_bytes()
    except OSError as error:
        raise UserError(
            tr("Cannot read {name}: {reason}.").format(
                name=path.name, reason=error.strerror or error
            ),
            field="images",
        ) from error
    return prepare_image_bytes(data, path.name)


def prepare_image_bytes(data: bytes, label: str) -> PreparedImage:
    """As :func:`prepare_image`, for an image's encoded bytes (e.g. pasted from the clipboard);
    ``label`` names it in messages.

    Raises:
        UserError: (field ``images``) not a decodable image, or too many pixels.
    """
    from PIL import Image, UnidentifiedImageError

    size = header_size(data)
    if size is not None:  # None: Pillow's open below says what is wrong
        check_pixels(*size, label, field=FIELD)  # before a pixel is decoded
    notes: list[str] = []
    try:
        with Image.open(io.BytesIO(data)) as opened:
            if getattr(opened, "n_frames", 1) > 1:
                notes.append("Animated: only the first frame is sent.")
            original = opened.size
            opened.thumbnail((MAX_SIDE, MAX_SIDE))  # decodes JPEG at a reduced scale
            image = _to_rgb(opened)
    except UnidentifiedImageError:
        raise UserError(
            tr("{label} is not an image this app can read.").format(label=label), field="images"
        ) from None
    except (OSError, ValueError, SyntaxError) as error:  # truncated or damaged data
        raise UserError(
            tr("{label} is damaged and cannot be read as an image.").format(label=label),
            field="images",
        ) from error
    return _finish(image, original, label, notes)


def prepare_pixels(pixels: NDArray[np.uint8], label: str) -> PreparedImage:
    """As :func:`prepare_image`, for uint8 RGB pixels ``[H, W, 3]`` (a pasted screenshot).

    Raises:
        UserError: (field ``images``) not RGB pixels.
    """
    from PIL import Image

    if pixels.dtype != np.uint8 or pixels.ndim != 3 or pixels.shape[2] != 3 or not pixels.size:
        raise UserError(tr("{label} is not an RGB image.").format(label=label), field=FIELD)
    image = Image.fromarray(pixels, "RGB")
    original = image.size
    image.thumbnail((MAX_SIDE, MAX_SIDE))
    return _finish(image, original, label, [])


def _finish(
    image: PilImage, original: tuple[int, int], label: str, notes: list[str]
) -> PreparedImage:
    """Note the scaling, pad a thin image, encode: the attachment as it is kept."""
    if image.size != original:
        notes.append(f"Scaled down from {original[0]}×{original[1]}.")
    image, padded = _pad_thin(image)
    if padded:
        notes.append(f"Padded to {image.width}×{image.height}: too small or thin for the model.")
    return PreparedImage(_png(image), image.width, image.height, label, " ".join(notes))


def _to_rgb(image: PilImage) -> PilImage:
    """RGB with transparency on white (a logo's transparent background is not black)."""
    from PIL import Image

    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        rgba = image.convert("RGBA")
        canvas = Image.new("RGB", rgba.size, (255, 255, 255))
        canvas.paste(rgba, mask=rgba.getchannel("A"))
        return canvas
    return image.convert("RGB")


def _pad_thin(image: PilImage) -> tuple[PilImage, bool]:
    from PIL import Image

    width, height = image.size
    short = max(MIN_SIDE, -(-max(width, height) // MAX_ASPECT))
    target = (max(width, short), max(height, short))
    if target == (width, height):
        return image, False
    canvas = Image.new("RGB", target, (255, 255, 255))
    canvas.paste(image, ((target[0] - width) // 2, (target[1] - height) // 2))
    return canvas, True


def _png(image: PilImage) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)  # speed over size: written once
    return buffer.getvalue()


def decode_rgb(data: bytes) -> NDArray[np.uint8]:
    """The uint8 ``[H, W, 3]`` pixels of a stored attachment (PNG bytes of ours).

    Raises:
        UserError: (field ``images``) the bytes are not an image (a damaged stored copy).
    """
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            return np.asarray(image.convert("RGB"), dtype=np.uint8)
    except (UnidentifiedImageError, OSError, ValueError) as error:
        raise UserError(tr("A saved image of this message is damaged."), field=FIELD) from error


def read_stored_image(path: Path) -> NDArray[np.uint8]:
    """The pixels of an image copy kept with a conversation (to answer its question again).

    Raises:
        UserError: (field ``images``) the copy is missing or damaged.
    """
    try:
        data = path.read_bytes()
    except OSError as error:
        raise UserError(
            tr("An image of this message is missing ({reason}).").format(
                reason=error.strerror or error
            ),
            field=FIELD,
        ) from error
    return decode_rgb(data)


class TextOnlyModelError(UserError):
    """Images were attached but the loaded model reads text only (field ``images``); the UI
    offers the model manager at the vision models."""

    default_field = FIELD


def text_only_refusal(model: str, vision_models: Sequence[str]) -> TextOnlyModelError:
    """The one sentence for images sent to a text-only ``model``, naming ``vision_models``."""
    if vision_models:
        return TextOnlyModelError(
            tr(
                "{model} reads text only: load a vision model such as {models} to ask about images."
            ).format(model=model, models=", ".join(vision_models))
        )
    return TextOnlyModelError(
        tr("{model} reads text only: load a vision model to ask about images.").format(model=model)
    )


def catalog_vision_models(device: str) -> list[str]:
    """Names of the catalog's vision-chat models that suit ``device`` ([] if it is unreadable:
    the refusal then names none rather than failing)."""
    try:
        entries = load_catalog()
    except StorageError:
        return []
    return [entry.name for entry in filter_catalog(entries, ModelTask.VISION_CHAT, device)]
