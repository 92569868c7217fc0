"""OpenAI's images API: ``POST /v1/images/generations`` and ``POST /v1/images/edits``.

Generations take OpenAI's JSON body; edits its multipart form (``image``, optional ``mask``).
Pictures come back as ``b64_json`` only — the server keeps no files to point a ``url`` at, so
``response_format: "url"`` is a 400 — in ``output_format`` png (the default, carrying its
settings like the app's own files), jpeg or webp. ``size`` is ``WIDTHxHEIGHT`` (rounded to
what the model draws) or ``auto`` (the model's own); ``n`` is 1–8. ``model`` may be empty,
``dall-e-2``, ``dall-e-3``, ``gpt-image-1`` or the installed image model's folder name: all mean
the app's image model. OpenAI's ``quality``, ``style``, ``background``, ``moderation`` and
``user`` are accepted and change nothing; streaming (``stream``, ``partial_images``) is refused.

What OpenAI's API has no field for comes as extra fields, as OpenVINO Model Server names them:
``seed`` (or OVMS's ``rng_seed``; random when absent: the answer's pictures carry it),
``negative_prompt``,
``num_inference_steps``, ``guidance_scale`` and, for edits, ``strength``. An edit's ``mask``
repaints its transparent part (OpenAI's rule) — or, opaque, its white part; without a mask the
whole picture is redrawn at ``strength``. One picture job runs at a time: a second is a 429.
The server's pictures do not go to the user's gallery.
"""

from __future__ import annotations

import base64
import io
import re
import time
from collections.abc import Callable
from typing import Annotated, Any, Literal

import anyio
from fastapi import APIRouter, File, Form, Request, UploadFile
from pydantic import Field

from app.context import AppContext
from app.images import (
    Created,
    ImageRequest,
    PictureOptions,
    png_bytes,
    read_mask,
    read_picture,
)
from app.server.answer_stream import unless_gone
from app.server.errors import ApiError
from app.server.schema import Lenient, TextRoute
from app.server.state import state_of
from pipelines.core import CancelToken, PipelineError

router = APIRouter(prefix="/v1/images", route_class=TextRoute)

OPENAI_MODELS = ("dall-e-2", "dall-e-3", "gpt-image-1", "gpt-image-1-mini")
MAX_PROMPT_CHARS = 32_000
"""OpenAI's own limit (the image service refuses past its own, shorter one, in a sentence)."""
MAX_UPLOAD_BYTES = 25 * 1024 * 1024
_SIZE = re.compile(r"^(\d{1,5})x(\d{1,5})$")
OutputFormat = Literal["png", "jpeg", "webp"]
MEDIA = {"png": "PNG", "jpeg": "JPEG", "webp": "WEBP"}


class GenerationRequest(Lenient):
    prompt: str = Field(min_length=1, max_length=MAX_PROMPT_CHARS)
    model: str | None = Field(None, max_length=256)
    n: int = Field(1, ge=1, le=8)
    size: str | None = Field(None, max_length=20)
    response_format: Literal["url", "b64_json"] | None = None
    output_format: OutputFormat | None = None
    stream: bool | None = None
    partial_images: int | None = None
    seed: int | None = Field(None, ge=0, le=2**63 - 1)
    rng_seed: int | None = Field(None, ge=0, le=2**63 - 1)
    negative_prompt: str | None = Field(None, max_length=MAX_PROMPT_CHARS)
    num_inference_steps: int | None = Field(None, ge=1, le=150)
    guidance_scale: float | None = Field(None, ge=0.0, le=30.0)


@router.post("/generations")
async def generations(request: Request, body: GenerationRequest) -> dict[str, Any]:
    """Pictures of ``prompt``."""
    state = state_of(request)
    _refuse_unsupported(body.response_format, body.stream, body.partial_images)
    ctx = state.ctx
    _check_model(ctx, body.model)
    width, height = _size(body.size)
    picture_request = ImageRequest(
        body.prompt,
        negative_prompt=body.negative_prompt or "",
        width=width,
        height=height,
        steps=body.num_inference_steps,
        guidance=body.guidance_scale,
        count=body.n,
        seed=body.seed if body.seed is not None else body.rng_seed,
    )
    created = await _drawn(request, lambda cancel: _generate(ctx, picture_request, cancel))
    state.requests += 1
    return _answer(created, body.output_format or "png")


@router.post("/edits")
async def edits(
    request: Request,
    image: Annotated[UploadFile, File()],
    prompt: Annotated[str, Form(min_length=1, max_length=MAX_PROMPT_CHARS)],
    mask: Annotated[UploadFile | None, File()] = None,
    model: Annotated[str | None, Form(max_length=256)] = None,
    n: Annotated[int, Form(ge=1, le=8)] = 1,
    size: Annotated[str | None, Form(max_length=20)] = None,
    response_format: Annotated[Literal["url", "b64_json"] | None, Form()] = None,
    output_format: Annotated[OutputFormat | None, Form()] = None,
    stream: Annotated[bool | None, Form()] = None,
    partial_images: Annotated[int | None, Form()] = None,
    seed: Annotated[int | None, Form(ge=0, le=2**63 - 1)] = None,
    rng_seed: Annotated[int | None, Form(ge=0, le=2**63 - 1)] = None,
    negative_prompt: Annotated[str | None, Form(max_length=MAX_PROMPT_CHARS)] = None,
    num_inference_steps: Annotated[int | None, Form(ge=1, le=150)] = None,
    guidance_scale: Annotated[float | None, Form(ge=0.0, le=30.0)] = None,
    strength: Annotated[float | None, Form(gt=0.0, le=1.0)] = None,
) -> dict[str, Any]:
    """``image`` edited after ``prompt``: repainted under ``mask``, else redrawn."""
    state = state_of(request)
    _refuse_unsupported(response_format, stream, partial_images)
    ctx = state.ctx
    _check_model(ctx, model)
    width, height = _size(size)
    picture = read_picture(await _read(image, "image"), name=_name(image, "The image"))
    painted = None
    if mask is not None:
        painted = read_mask(await _read(mask, "mask"), name=_name(mask, "The mask"))
    picture_request = ImageRequest(
        prompt,
        negative_prompt=negative_prompt or "",
        width=width,
        height=height,
        steps=num_inference_steps,
        guidance=guidance_scale,
        count=n,
        seed=seed if seed is not None else rng_seed,
        strength=strength,
    )
    created = await _drawn(
        request, lambda cancel: _edit(ctx, picture_request, picture, painted, cancel)
    )
    state.requests += 1
    return _answer(created, output_format or "png")


async def _drawn(request: Request, work: Callable[[CancelToken], Created]) -> Created:
    """``work``'s pictures, drawn on a worker thread; a client that hangs up first cancels
    them (the generator stops at its next step, and nothing is answered).

    Raises:
        PipelineError: what ``work`` raised (the app's handlers answer it).
        ClientGoneError: the client went away first.
    """
    cancel = CancelToken()
    failures: list[PipelineError] = []

    async def draw() -> Created | None:
        try:
            return await anyio.to_thread.run_sync(work, cancel, abandon_on_cancel=True)
        except anyio.get_cancelled_exc_class():
            cancel.cancel()  # the client is gone: the thread stops drawing at its next step
            raise
        except PipelineError as error:  # kept out of the task group, answered as usual
            failures.append(error)
            return None

    created = await unless_gone(draw, request.receive)
    if failures:
        raise failures[0]
    assert created is not None
    return created


def _generate(ctx: AppContext, request: ImageRequest, cancel: CancelToken) -> Created:
    """The pictures (blocking: run in a worker thread)."""
    options = PictureOptions(save=False, cancel=cancel)
    return ctx.images.text_to_image(request, picture_options=options)


def _edit(
    ctx: AppContext, request: ImageRequest, picture: Any, mask: Any, cancel: CancelToken
) -> Created:
    options = PictureOptions(save=False, cancel=cancel)
    if mask is None:
        return ctx.images.image_to_image(request, picture, picture_options=options)
    return ctx.images.inpaint(request, picture, mask, picture_options=options)


def _answer(created: Created, output_format: OutputFormat) -> dict[str, Any]:
    result = created.result
    return {
        "created": int(time.time()),
        "data": [
            {"b64_json": base64.b64encode(_encoded(picture, result, output_format)).decode()}
            for picture in result.pictures
        ],
        "output_format": output_format,
        "size": f"{result.settings.width}x{result.settings.height}",
        "seed": result.settings.seed,
        "notes": list(result.notes),
    }


def _encoded(picture: Any, result: Any, output_format: OutputFormat) -> bytes:
    if output_format == "png":
        return png_bytes(picture, result.settings)
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(picture).save(buffer, format=MEDIA[output_format], quality=95)
    return buffer.getvalue()


def _refuse_unsupported(
    response_format: str | None, stream: bool | None, partial_images: int | None
) -> None:
    if response_format == "url":
        raise ApiError(
            400,
            "'response_format' \"url\" is not supported: pictures come back as b64_json.",
            param="response_format",
        )
    if stream or partial_images:
        param = "stream" if stream else "partial_images"
        raise ApiError(400, "Streaming pictures is not supported.", param=param)


def _check_model(ctx: AppContext, requested: str | None) -> None:
    """Refuse a ``model`` that is neither one of OpenAI's image models nor the installed
    image model's folder name."""
    if not requested or requested in OPENAI_MODELS:
        return
    installed = ctx.images.model_folder()
    if requested in (installed.name, str(installed)):
        return
    raise ApiError(
        404,
        f"There is no model '{requested}' for pictures; use gpt-image-1 or {installed.name}.",
        param="model",
        code="model_not_found",
    )


def _size(size: str | None) -> tuple[int | None, int | None]:
    if size is None or size == "auto":
        return None, None
    match = _SIZE.match(size.strip())
    if match is None:
        raise ApiError(400, f"'size' {size!r}: write it as WIDTHxHEIGHT or auto.", param="size")
    return int(match.group(1)), int(match.group(2))


async def _read(upload: UploadFile, param: str) -> bytes:
    """An upload's bytes, refusing one over 25 MB without reading further."""
    data = await upload.read(MAX_UPLOAD_BYTES + 1)
    if len(data) > MAX_UPLOAD_BYTES:
        raise ApiError(
            413, f"The {param} is over the {MAX_UPLOAD_BYTES // 2**20} MB limit.", param=param
        )
    return data


def _name(upload: UploadFile, default: str) -> str:
    from pathlib import Path

    return Path(upload.filename or "").name or default
