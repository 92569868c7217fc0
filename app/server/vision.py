"""Images in chat requests (OpenAI's ``image_url`` parts, the Responses API's
``input_image`` parts, Ollama's ``images``), for a served vision model.

Only ``data:`` URLs are read (``data:image/png;base64,…``): the server never fetches an
``http(s)`` URL a request names, since that would let any client make this machine reach
hosts on its network. Each image is decoded and checked as the chat window checks an
attachment (:mod:`app.chat.images`: Pillow, RGB, scaled to 2048 px at most, padded when too
thin, a decompression bomb refused), so the model sees what the app would have sent.

Ollama's ``images`` (plain base64 strings on a message, or on ``/api/generate``) go through
the same checks (:func:`base64_images`).

Only the last user message's images are sent to the model (GenAI attaches a request's images
to its last user message); images of earlier turns are dropped, not decoded, as the chat
window replays earlier turns as text. The batching engine serves a vision-language folder
itself (``ContinuousBatchingPipeline`` takes images per request), so image requests are
batched with text ones.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from app.chat import MAX_IMAGES, decode_rgb, is_vision_folder, prepare_image_bytes
from app.core import UserError
from app.server.errors import ApiError
from app.server.served_models import ServedModel

#: ``data:[<media type>][;base64],<data>`` (RFC 2397); we take base64 images only.
_DATA_URL = re.compile(r"data:(?P<type>[\w.+-]+/[\w.+-]+)?(?P<params>(;[^,;]*)*),", re.ASCII)


def images_of(messages: Sequence[object], field: str = "messages") -> list[NDArray[np.uint8]]:
    """The decoded images of the last user message's image parts (blocking: decoding runs on
    a worker thread); ``field`` is the request's name of the list, for the errors.

    Raises:
        ApiError: 400 naming the part: not a ``data:`` URL, not base64, not an image, too
            many images.
    """
    last = _last_user(messages)
    if last is None:
        return []
    index, parts = last
    param = f"{field}.{index}.content"
    urls = [url for url in map(_image_url, parts) if url is not None]
    check_image_count(len(urls), param)
    return [
        decode_image(_data_url_bytes(url, f"Image {n}", param), f"Image {n}", param)
        for n, url in enumerate(urls, start=1)
    ]


def base64_images(images: Sequence[str], param: str) -> list[NDArray[np.uint8]]:
    """Ollama's ``images``: plain base64 strings, decoded and checked (blocking).

    Raises:
        ApiError: 400 naming the image: not base64, not an image, too many images.
    """
    check_image_count(len(images), param)
    return [
        decode_image(_base64(text, f"Image {n}", param), f"Image {n}", param)
        for n, text in enumerate(images, start=1)
    ]


def decode_image(data: bytes, label: str, param: str) -> NDArray[np.uint8]:
    """An image's encoded bytes as the pixels the model sees, checked as the chat window checks
    an attachment (scaled, padded, a decompression bomb refused).

    Raises:
        ApiError: 400 when ``data`` is not a readable image or has too many pixels.
    """
    try:
        return decode_rgb(prepare_image_bytes(data, label).png)
    except UserError as error:
        raise ApiError(400, str(error), param=param) from error


def check_image_count(count: int, param: str) -> None:
    """Refuse more images than one message may hold (before any is decoded).

    Raises:
        ApiError: 400 when ``count`` is above :data:`app.chat.images.MAX_IMAGES`.
    """
    if count > MAX_IMAGES:
        raise ApiError(
            400,
            f"A message may hold at most {MAX_IMAGES} images; this one has {count}.",
            param=param,
        )


def has_images(messages: Sequence[object]) -> bool:
    """Whether any message holds an image part."""
    return any(
        _image_url(part) is not None
        for message in messages
        if isinstance(getattr(message, "content", None), list)
        for part in getattr(message, "content", [])
    )


def check_takes_images(
    model: ServedModel, messages: Sequence[object], field: str = "messages"
) -> None:
    """Refuse image parts for a text-only model (``field``: the request's name of the list).

    Raises:
        ApiError: 400 when a message holds an image and ``model`` reads text only.
    """
    if has_images(messages):
        check_vision_model(model, field)


def check_vision_model(model: ServedModel, param: str) -> None:
    """Refuse images for a text-only model (before it is loaded: a cheap file check).

    Raises:
        ApiError: 400 when ``model`` reads text only.
    """
    if not is_vision_folder(model.path):
        raise ApiError(
            400,
            f"{model.id} does not take images; serve a vision model to ask about images.",
            param=param,
            code="model_not_vision",
        )


def _image_url(part: object) -> str | None:
    """The URL of an image part in either OpenAI API's shape (None: not an image part).

    Chat's ``{"type": "image_url", "image_url": {"url": …}}``; the Responses API's
    ``{"type": "input_image", "image_url": …}`` (a part naming an uploaded ``file_id`` instead
    has no URL: "" makes it refused as not a ``data:`` URL).
    """
    kind = getattr(part, "type", "")
    if kind == "image_url":
        return str(getattr(getattr(part, "image_url", None), "url", ""))
    if kind == "input_image":
        return str(getattr(part, "image_url", None) or "")
    return None


def _last_user(messages: Sequence[object]) -> tuple[int, list[object]] | None:
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if getattr(message, "role", "") == "user":
            content = getattr(message, "content", None)
            return (index, list(content)) if isinstance(content, list) else None
    return None


def _data_url_bytes(url: str, label: str, param: str) -> bytes:
    head = url[:200].strip()
    if not head.lower().startswith("data:"):
        raise ApiError(
            400,
            f"{label} is not a data: URL; this server reads only data: URLs "
            "(base64 PNG or JPEG), never fetching a URL.",
            param=param,
        )
    match = _DATA_URL.match(url)
    if match is None or ";base64" not in match.group("params").lower():
        raise ApiError(400, f"{label} is not a base64 data: URL.", param=param)
    return _base64(url[match.end() :], label, param)


def _base64(text: str, label: str, param: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ApiError(400, f"{label}'s base64 data is not valid.", param=param) from None
