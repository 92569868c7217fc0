"""What a picture is asked with, checked before any work, and the settings it is drawn with.

:class:`ImageRequest` is what a caller asks (anything left None takes the model's own value);
:func:`resolve_settings` turns it into :class:`ImageSettings`, the complete, concrete values a
picture was drawn with — what a gallery stores and a "reuse" restores — plus notes for what
was changed on the way (a size rounded to what the model draws, a negative prompt the model
does not read). Every refusal is one sentence with the field it concerns, raised before
OpenVINO is asked anything: a 0×0 or 50,000×50,000 size, a 100,000-character prompt, a seed
OpenVINO cannot hold.
"""

from __future__ import annotations

import secrets
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from pipelines.core import InvalidInputError
from pipelines.images.model_folder import DiffusionFolder

MAX_PROMPT_CHARS = 2000
"""CLIP reads 77 tokens and T5 (SD3, FLUX) 512: a longer prompt is not read, only tokenised."""
MAX_SIDE = 2048
"""The largest width or height drawn: 4 megapixels at 2048² already take minutes on a laptop
CPU, and a VAE decode of more runs out of memory on an 8 GB machine."""
MAX_COUNT = 8
MAX_STEPS = 150
MAX_GUIDANCE = 30.0
MAX_SEED = 2**63 - 1
"""OpenVINO GenAI takes the seed as a signed 64-bit integer."""
RANDOM_SEEDS = 2**32
"""Seeds drawn at random are below this: short enough to read out and type back."""
EDIT_SIDE_FACTOR = 2
"""An edited picture larger than twice the model's own size is drawn scaled down to that."""


class Mode(StrEnum):
    """What a picture was made by (stored with it)."""

    TEXT_TO_IMAGE = "text-to-image"
    IMAGE_TO_IMAGE = "image-to-image"
    INPAINTING = "inpainting"
    OUTPAINTING = "outpainting"
    UPSCALE = "upscale"
    """Made bigger by an upscaler; the other settings are the source picture's."""


@dataclass(frozen=True)
class ImageRequest:
    """What the caller asks for; None means the model's own value (seed: a random one)."""

    prompt: str
    negative_prompt: str = ""
    width: int | None = None
    height: int | None = None
    steps: int | None = None
    guidance: float | None = None
    count: int = 1
    seed: int | None = None
    strength: float | None = None
    """How much an edit changes the picture, (0, 1]: image to image and inpainting only."""


@dataclass(frozen=True)
class ImageSettings:
    """The values a picture was drawn with, all concrete (what the gallery keeps)."""

    mode: Mode
    prompt: str
    negative_prompt: str
    width: int
    height: int
    steps: int
    guidance: float
    count: int
    seed: int
    strength: float
    model: str
    """The model's name (its folder's name; a remote endpoint's model id)."""
    endpoint: str = ""
    """The remote endpoint that drew it ("" in this process). Its steps and guidance are 0
    where the endpoint used its model's own and did not say which."""

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values (``mode`` as its string)."""
        values = asdict(self)
        values["mode"] = self.mode.value
        return values


@dataclass(frozen=True)
class ModelDefaults:
    """What the loaded model says when asked nothing (OpenVINO GenAI's generation config)."""

    steps: int
    guidance: float
    strength: float


def check_request(request: ImageRequest) -> None:
    """Refuse what no model could draw, in one sentence naming the field.

    Raises:
        InvalidInputError: an empty or too long prompt (``prompt``), a too long negative prompt
            (``negative_prompt``), a size out of range (``size``), steps, guidance, count,
            seed or strength out of range (their own fields).
    """
    if not request.prompt.strip():
        raise InvalidInputError("Write a prompt: what the picture should show.", field="prompt")
    for text, field in ((request.prompt, "prompt"), (request.negative_prompt, "negative_prompt")):
        if len(text) > MAX_PROMPT_CHARS:
            raise InvalidInputError(
                f"The {field.replace('_', ' ')} is {len(text):,} characters long; at most "
                f"{MAX_PROMPT_CHARS:,} are read.",
                field=field,
            )
    for side in (request.width, request.height):
        if side is not None and not 0 < side <= MAX_SIDE:
            raise InvalidInputError(
                f"A picture can be 1 to {MAX_SIDE:,} pixels wide and high; "
                f"{request.width or 0:,}×{request.height or 0:,} is not.",
                field="size",
            )
    _check_range(request.count, 1, MAX_COUNT, "count", "The number of pictures")
    if request.steps is not None:
        _check_range(request.steps, 1, MAX_STEPS, "steps", "The number of steps")
    if request.guidance is not None and not 0.0 <= request.guidance <= MAX_GUIDANCE:
        raise InvalidInputError(
            f"The guidance scale must be between 0 and {MAX_GUIDANCE:g}.", field="guidance"
        )
    if request.seed is not None:
        _check_range(request.seed, 0, MAX_SEED, "seed", "The seed")
    if request.strength is not None and not 0.0 < request.strength <= 1.0:
        raise InvalidInputError(
            "The strength must be above 0 and at most 1 (1 repaints completely).",
            field="strength",
        )


def _check_range(value: int, low: int, high: int, field: str, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInputError(
            f"{what} must be a whole number from {low} to {high:,}.", field=field
        )


def round_size(width: int, height: int, model: DiffusionFolder) -> tuple[int, int, str]:
    """``width`` × ``height`` rounded to the nearest size ``model`` draws, and a note saying
    so ("" when nothing changed).

    Raises:
        InvalidInputError: a side out of 1…:data:`MAX_SIDE` (``field="size"``).
    """
    if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
        raise InvalidInputError(
            f"A picture can be 1 to {MAX_SIDE:,} pixels wide and high; "
            f"{width:,}×{height:,} is not.",
            field="size",
        )
    step = model.size_step
    rounded = [
        min(MAX_SIDE // step * step, max(step, round(side / step) * step))
        for side in (width, height)
    ]
    new_width, new_height = rounded
    if (new_width, new_height) == (width, height):
        return width, height, ""
    note = (
        f"Drawn at {new_width}×{new_height}: {model.name} draws sizes in steps of {step} pixels "
        f"({width}×{height} was asked)."
    )
    return new_width, new_height, note


def edit_size(width: int, height: int, model: DiffusionFolder) -> tuple[int, int, str]:
    """The size an edit of a ``width`` × ``height`` picture is drawn at: the picture's own,
    scaled down to at most twice the model's size on its long side, rounded as
    :func:`round_size` rounds; and a note when it differs."""
    longest = max(width, height)
    limit = min(MAX_SIDE, model.default_side * EDIT_SIDE_FACTOR)
    scale = min(1.0, limit / longest)
    scaled_width = max(1, round(width * scale))
    scaled_height = max(1, round(height * scale))
    new_width, new_height, _ = round_size(scaled_width, scaled_height, model)
    if (new_width, new_height) == (width, height):
        return width, height, ""
    why = "scaled down and rounded" if scale < 1.0 else "rounded"
    note = (
        f"The {width}×{height} picture is drawn at {new_width}×{new_height} ({why} to what "
        f"{model.name} draws)."
    )
    return new_width, new_height, note


def uses_negative_prompt(model: DiffusionFolder, guidance: float) -> bool:
    """Whether ``model`` reads a negative prompt at ``guidance``: only classifier-free guidance
    (scale above 1, not an LCM's embedded guidance) compares the prompt with it."""
    return not model.guidance_embedded and guidance > 1.0


def resolve_settings(
    request: ImageRequest,
    model: DiffusionFolder,
    defaults: ModelDefaults,
    mode: Mode,
    size: tuple[int, int],
) -> tuple[ImageSettings, list[str]]:
    """The concrete settings of ``request`` at ``size`` (already rounded) and notes on what
    was left out.

    Raises:
        InvalidInputError: as :func:`check_request`; an edit whose strength and steps leave
            no step to run (``field="strength"``).
    """
    check_request(request)
    notes: list[str] = []
    steps = request.steps if request.steps is not None else defaults.steps
    guidance = request.guidance if request.guidance is not None else defaults.guidance
    edit = mode in (Mode.IMAGE_TO_IMAGE, Mode.INPAINTING, Mode.OUTPAINTING)
    strength = 1.0
    if edit:
        wanted = request.strength
        strength = wanted if wanted is not None else _edit_strength(mode, defaults)
        if int(steps * strength) < 1:
            raise InvalidInputError(
                f"With {steps} steps a strength of {strength:g} runs no step: raise the "
                f"strength to at least {1 / steps:.2g} or add steps.",
                field="strength",
            )
    negative = _readable(request.negative_prompt.strip())
    if negative and not uses_negative_prompt(model, guidance):
        notes.append(
            f"The negative prompt was not used: {model.name} does not read one"
            + (" at a guidance scale of 1 or less." if not model.guidance_embedded else ".")
        )
        negative = ""
    seed = request.seed if request.seed is not None else secrets.randbelow(RANDOM_SEEDS)
    settings = ImageSettings(
        mode=mode,
        prompt=_readable(request.prompt.strip()),
        negative_prompt=negative,
        width=size[0],
        height=size[1],
        steps=steps,
        guidance=float(guidance),
        count=request.count,
        seed=seed,
        strength=float(strength),
        model=model.name,
    )
    return settings, notes


def _edit_strength(mode: Mode, defaults: ModelDefaults) -> float:
    """Image to image changes the picture by the model's default (0.8); inpainting repaints the
    masked part completely (1.0)."""
    return defaults.strength if mode is Mode.IMAGE_TO_IMAGE else 1.0


def _readable(text: str) -> str:
    """``text`` as valid UTF-8 (a lone surrogate from a broken clipboard becomes "?": OpenVINO
    takes the prompt as UTF-8 bytes and would refuse it with a traceback)."""
    return text.encode("utf-8", "replace").decode("utf-8")
