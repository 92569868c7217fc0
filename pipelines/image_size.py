"""The one limit on an image's pixels, checked from its header before it is decoded.

A PNG of 20,000 × 20,000 pixels is a few kilobytes of file, but decoding it takes 1.2 GB of
pixels before anything can scale it down (lip-sync used 2.5 GB on one). Every place a
picture enters — chat attachments (the window, the command line, the server's ``image_url``
and Ollama's ``images``), avatar faces (images, and a video's frame size), lip-sync — reads
the size from the header first (Pillow's ``Image.open`` is lazy: it parses the header and
stops) and refuses more than :data:`MAX_IMAGE_PIXELS` in one sentence.

Pillow has its own decompression-bomb limit, which refuses before the size can be read; this
check replaces it (it is switched off when this module first loads Pillow), so the sentence
can say how big the picture is.
"""

from __future__ import annotations

import io
import struct
from pathlib import Path

from pipelines.core import InvalidInputError

MAX_IMAGE_PIXELS = 180_000_000
"""Pixels a picture may have: a 16,000 × 11,000 scan or panorama passes; decoding this many
takes up to ~540 MB as RGB (Pillow's own refusal stood at 179 million)."""

_pillow_limit_off = False


def header_size(source: bytes | Path) -> tuple[int, int] | None:
    """``(width, height)`` from an image's header, without decoding it; None when Pillow does
    not recognise the data as an image."""
    from PIL import Image, UnidentifiedImageError

    _switch_off_pillow_limit(Image)
    opened = io.BytesIO(source) if isinstance(source, bytes) else source
    try:
        with Image.open(opened) as image:
            width, height = image.size
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, struct.error):
        return None
    return int(width), int(height)


def pixels_refusal(width: int, height: int, name: str) -> str | None:
    """The sentence refusing a ``width`` × ``height`` picture named ``name``, or None."""
    pixels = width * height
    if pixels <= MAX_IMAGE_PIXELS:
        return None
    limit = MAX_IMAGE_PIXELS // 1_000_000
    megapixels = pixels / 1_000_000
    # "180 megapixels; at most 180" would read as no reason at all.
    shown = f"{megapixels:,.0f}" if megapixels >= limit + 0.5 else f"{megapixels:,.1f}"
    return (
        f"{name} has too many pixels to open safely ({width:,}×{height:,}, {shown} megapixels; "
        f"at most {limit} can be opened): scale it down first."
    )


def check_pixels(width: int, height: int, name: str, *, field: str) -> None:
    """Refuse a picture (or a video's frames) of more than :data:`MAX_IMAGE_PIXELS`.

    Raises:
        InvalidInputError: one sentence naming ``name`` and its size (``field``).
    """
    refusal = pixels_refusal(width, height, name)
    if refusal is not None:
        raise InvalidInputError(refusal, field=field)


def _switch_off_pillow_limit(image_module: object) -> None:
    """Pillow's bomb limit off, once: :func:`check_pixels` is the limit (see the module doc)."""
    global _pillow_limit_off
    if not _pillow_limit_off:
        image_module.MAX_IMAGE_PIXELS = None  # type: ignore[attr-defined]
        _pillow_limit_off = True
