"""A picture's settings carried inside its PNG, written by the app and read back from any file.

Each saved picture holds what it was drawn with in PNG text chunks: ``ov-studio`` (JSON: the
prompt, negative prompt, size, steps, guidance, seed, strength, model and mode) and
``parameters`` (the same in the plain-text form AUTOMATIC1111, ComfyUI and InvokeAI show), so
a picture dragged back into the Create panel — or into another tool — restores its settings.

Reading is for any file a person drops in, so the chunks are hostile: megabytes of text, JSON
nested a thousand deep, a seed that is a string, a width of -5, keys missing. Each value is
taken only when it has the right type and range; anything else falls back to the default
(:class:`Recalled` with nothing set), and nothing here raises for a picture's content.
"""

from __future__ import annotations

import io
import logging
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from app.core.storage.json_files import Damaged, parse_json_object
from pipelines.images import ImageRequest, ImageSettings, Mode, Picture
from pipelines.images.request import (
    MAX_COUNT,
    MAX_GUIDANCE,
    MAX_PROMPT_CHARS,
    MAX_SEED,
    MAX_SIDE,
    MAX_STEPS,
)

log = logging.getLogger(__name__)

SETTINGS_KEY = "ov-studio"
PARAMETERS_KEY = "parameters"
MAX_SETTINGS_BYTES = 64 * 1024
"""Our own chunk is a few hundred bytes (two prompts of at most 2,000 characters)."""
MAX_ENDPOINT_CHARS = 60
"""An endpoint's name is at most this long (:class:`app.core.remote_endpoints.RemoteEndpoint`)."""
MAX_FILE_BYTES = 256 * 1024 * 1024
"""A dropped file larger than this is not read for settings (its pixels may still be used)."""


@dataclass(frozen=True)
class Recalled:
    """The settings found in a picture (None / "": not found or not usable)."""

    request: ImageRequest
    """The prompt and values to draw it again with (the request's own defaults where absent)."""
    mode: Mode | None = None
    model: str = ""

    @property
    def found(self) -> bool:
        """Whether the picture carried a prompt."""
        return bool(self.request.prompt)


NOTHING = Recalled(ImageRequest(""))


def png_bytes(picture: Picture, settings: ImageSettings | None) -> bytes:
    """``picture`` as PNG bytes carrying ``settings`` in its text chunks (None: no chunks)."""
    import json

    from PIL import Image, PngImagePlugin

    info = PngImagePlugin.PngInfo()
    if settings is not None:
        info.add_itxt(SETTINGS_KEY, json.dumps(settings.as_dict(), ensure_ascii=False))
        info.add_itxt(PARAMETERS_KEY, parameters_text(settings))
    buffer = io.BytesIO()
    Image.fromarray(picture).save(buffer, format="PNG", pnginfo=info, compress_level=6)
    return buffer.getvalue()


def parameters_text(settings: ImageSettings) -> str:
    """The settings in the text form other Stable Diffusion tools read and show."""
    lines = [settings.prompt]
    if settings.negative_prompt:
        lines.append(f"Negative prompt: {settings.negative_prompt}")
    lines.append(
        f"Steps: {settings.steps}, CFG scale: {settings.guidance:g}, Seed: {settings.seed}, "
        f"Size: {settings.width}x{settings.height}, Model: {settings.model}, "
        f"Denoising strength: {settings.strength:g}, Mode: {settings.mode.value}"
        + (f", Endpoint: {settings.endpoint}" if settings.endpoint else "")
    )
    return "\n".join(lines)


def recall(source: Path | bytes) -> Recalled:
    """The settings a picture file (or its bytes) carries; :data:`NOTHING` when it carries
    none, is not a PNG, cannot be read, or holds nothing usable."""
    data = _settings_chunk(source)
    return NOTHING if data is None else settings_from(data)


def read_settings(path: Path) -> ImageSettings | None:
    """The complete settings of a picture the gallery saved, or None (see
    :func:`stored_settings`)."""
    data = _settings_chunk(path)
    return None if data is None else stored_settings(data)


def _settings_chunk(source: Path | bytes) -> dict[str, Any] | None:
    """The JSON object in a picture's ``ov-studio`` chunk, or None."""
    from PIL import Image, UnidentifiedImageError

    try:
        if isinstance(source, Path):
            if source.stat().st_size > MAX_FILE_BYTES:
                return None
            opened: Any = source
        else:
            opened = io.BytesIO(source)
        # Only the chunks before the pixels are parsed: Image.open reads the header and stops.
        with Image.open(opened) as image:
            text = dict(getattr(image, "text", {}) or {})
    except (OSError, ValueError, SyntaxError, UnidentifiedImageError, MemoryError) as error:
        # Pillow refuses a text chunk over its limit ("Decompressed Data Too Large") here.
        log.info("no settings read from a picture: %s", error)
        return None
    raw = text.get(SETTINGS_KEY)
    if not isinstance(raw, str) or len(raw) > MAX_SETTINGS_BYTES:
        return None
    data = parse_json_object(raw.encode("utf-8", "replace"))
    if isinstance(data, Damaged):
        log.info("a picture's settings are %s", data.reason)
        return None
    return data


def settings_from(data: dict[str, Any]) -> Recalled:
    """What a stored settings object says, each value checked (see the module docstring)."""
    request = ImageRequest(
        prompt=_text(data.get("prompt")),
        negative_prompt=_text(data.get("negative_prompt")),
        width=_whole(data.get("width"), 1, MAX_SIDE),
        height=_whole(data.get("height"), 1, MAX_SIDE),
        steps=_whole(data.get("steps"), 1, MAX_STEPS),
        guidance=_number(data.get("guidance"), 0.0, MAX_GUIDANCE),
        count=_whole(data.get("count"), 1, MAX_COUNT) or 1,
        seed=_whole(data.get("seed"), 0, MAX_SEED),
        strength=_strength(data.get("strength")),
    )
    mode_value = data.get("mode")
    mode = Mode(mode_value) if mode_value in {m.value for m in Mode} else None
    model = data.get("model")
    return Recalled(request, mode, model[:200] if isinstance(model, str) else "")


def stored_settings(data: object, model: str = "") -> ImageSettings | None:
    """A gallery index entry's settings as complete :class:`ImageSettings`, or None when an
    essential value (prompt, size, seed) is missing or unusable."""
    if not isinstance(data, dict):
        return None
    recalled = settings_from(data)
    request = recalled.request
    endpoint = _text(data.get("endpoint"))[:MAX_ENDPOINT_CHARS]
    if endpoint:  # 0: the endpoint's own steps or guidance, which it did not say
        request = replace(request, steps=request.steps or 0, guidance=request.guidance or 0.0)
    essentials = (request.width, request.height, request.seed, request.steps, request.guidance)
    if not request.prompt or any(value is None for value in essentials):
        return None
    assert request.width and request.height and request.steps is not None  # checked above
    return ImageSettings(
        mode=recalled.mode or Mode.TEXT_TO_IMAGE,
        prompt=request.prompt,
        negative_prompt=request.negative_prompt,
        width=request.width,
        height=request.height,
        steps=request.steps,
        guidance=float(request.guidance or 0.0),
        count=request.count,
        seed=int(request.seed or 0),
        strength=request.strength if request.strength is not None else 1.0,
        model=recalled.model or model,
        endpoint=endpoint,
    )


def _text(value: object) -> str:
    return value[:MAX_PROMPT_CHARS] if isinstance(value, str) else ""


def _whole(value: object, low: int, high: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if low <= value <= high else None


def _number(value: object, low: float, high: float) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) and low <= number <= high else None


def _strength(value: object) -> float | None:
    number = _number(value, 0.0, 1.0)
    return number if number is not None and number > 0.0 else None
