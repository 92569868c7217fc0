"""Pictures drawn on a remote endpoint that speaks OpenAI's images API: another OV Studio's
server (``…/v1/images/generations`` and ``/edits``) or OpenVINO Model Server (``…/v3/…``).

The same methods as :class:`pipelines.images.ImageGenerator` (text to image, image to image,
inpainting, outpainting; ``metrics()``), so the image service hands a job to either.

What is sent is what both servers read (OVMS's ``images/generations`` refuses any field it does
not know, ``seed`` and ``output_format`` among them): ``prompt``, ``model``, ``n``, ``size``,
``response_format: b64_json`` and GenAI's own names for the rest — ``rng_seed``,
``negative_prompt``, ``num_inference_steps``, ``guidance_scale``, ``strength``. An edit is a
multipart form with ``image`` and, for inpainting, an opaque ``mask`` whose white part is
repainted (OVMS's rule; OV Studio reads an opaque mask the same way). The seed is drawn here
when the user gave none, so the gallery always knows it.

What comes back is hostile until checked: a body past :data:`MAX_PICTURE_BYTES` a picture, JSON
that is not an images answer, base64 that is not a picture, a picture over
:data:`~pipelines.images.request.MAX_SIDE` a side — each is one sentence, and nothing is kept.
The server gives no progress: the caller gets one indeterminate :class:`Progress`.
"""

from __future__ import annotations

import io
import json
import secrets
import time
from typing import Any

import numpy as np

from app.core.errors import UserError
from app.core.remote_endpoints import RemoteEndpoint, device_label
from app.core.texts import tr
from app.engines.remote.cancellable_post import CONNECT_TIMEOUT_S, ConnectionFailedError, post
from app.images.remote_answers import explain_failure, not_pictures, pictures_in, refusal
from pipelines.core import CancelToken, MetricRecord, Progress
from pipelines.images import ImageRequest, ImageResult, ImageSettings, Mode, Picture, Side
from pipelines.images.pictures import check_picture, extend_canvas, mask_for
from pipelines.images.preview import PreviewCallback, ProgressCallback
from pipelines.images.request import RANDOM_SEEDS, check_request

READ_TIMEOUT_S = 900.0
"""How long a picture may take to come back. The answer arrives only when it is drawn: an SDXL
picture at 1024² on a CPU-only server takes minutes, so the chat's 60 s would cut it off."""
MAX_PICTURE_BYTES = 32 * 1024 * 1024
"""A 2048² PNG of noise is ~12.6 MB, 16.8 MB as base64: twice that is room, and a bound."""
REMOTE_STAGE = "remote"
OUTPAINT_STEP = 8
"""Outpainting extends the canvas in multiples of 8 (every diffusion VAE's factor); the
endpoint rounds further to what its model draws."""


class RemoteImageGenerator:
    """One model on one endpoint; one picture job at a time (the service's lock)."""

    name = "images"

    def __init__(self, endpoint: RemoteEndpoint, api_key: str, model: str) -> None:
        self.endpoint = endpoint
        self.model = model
        self.device = device_label(endpoint.name)
        self._api_key = api_key
        self._figures: dict[str, float] = {}

    def metrics(self) -> MetricRecord:
        """The last picture's round trip (ms)."""
        return MetricRecord(self.name, self.device, dict(self._figures))

    def text_to_image(
        self,
        request: ImageRequest,
        *,
        cancel: CancelToken | None = None,
        on_progress: ProgressCallback | None = None,
        on_preview: PreviewCallback | None = None,
    ) -> ImageResult:
        """Pictures of ``request.prompt``, drawn by the endpoint.

        Raises:
            InvalidInputError: the request is refused before anything is sent.
            UserError: the endpoint failed or answered with something else than pictures
                (``field="device"``; a missing model: ``field="model"``).
            Cancelled: ``cancel`` was set; the connection is closed, nothing is returned.
        """
        check_request(request)
        seed = _seed(request)
        body: dict[str, Any] = {**self._fields(request, seed), "prompt": request.prompt}
        if request.width and request.height:
            body["size"] = f"{request.width}x{request.height}"
        answer = self._send("generations", cancel, on_progress, json_body=body)
        return self._result(answer, request, seed, Mode.TEXT_TO_IMAGE)

    def image_to_image(
        self,
        request: ImageRequest,
        picture: Picture,
        *,
        cancel: CancelToken | None = None,
        on_progress: ProgressCallback | None = None,
        on_preview: PreviewCallback | None = None,
    ) -> ImageResult:
        """``picture`` redrawn by the endpoint (raises as :meth:`text_to_image`)."""
        return self._edit(Mode.IMAGE_TO_IMAGE, request, picture, None, cancel, on_progress)

    def inpaint(
        self,
        request: ImageRequest,
        picture: Picture,
        mask: Any,
        *,
        cancel: CancelToken | None = None,
        on_progress: ProgressCallback | None = None,
        on_preview: PreviewCallback | None = None,
    ) -> ImageResult:
        """The white part of ``mask`` repainted by the endpoint (raises as
        :meth:`text_to_image`; a mask of another aspect ratio: ``field="mask"``)."""
        check_picture(picture)
        binary, _ = mask_for(np.asarray(mask), picture)
        return self._edit(Mode.INPAINTING, request, picture, binary, cancel, on_progress)

    def outpaint(
        self,
        request: ImageRequest,
        picture: Picture,
        side: Side,
        pixels: int,
        *,
        cancel: CancelToken | None = None,
        on_progress: ProgressCallback | None = None,
        on_preview: PreviewCallback | None = None,
    ) -> ImageResult:
        """``picture`` extended on ``side``, the new part painted by the endpoint."""
        check_picture(picture)
        canvas, mask = extend_canvas(picture, Side(side), pixels, step=OUTPAINT_STEP)
        return self._edit(Mode.OUTPAINTING, request, canvas, mask, cancel, on_progress)

    # -- the shared path --------------------------------------------------------------------

    def _edit(
        self,
        mode: Mode,
        request: ImageRequest,
        picture: Picture,
        mask: Picture | None,
        cancel: CancelToken | None,
        on_progress: ProgressCallback | None,
    ) -> ImageResult:
        check_request(request)
        check_picture(picture)
        seed = _seed(request)
        fields = {key: str(value) for key, value in self._fields(request, seed).items()}
        fields["prompt"] = request.prompt
        if request.strength is not None:
            fields["strength"] = str(request.strength)
        files = {"image": ("image.png", _png(picture), "image/png")}
        if mask is not None:
            files["mask"] = ("mask.png", _png(mask), "image/png")
        answer = self._send("edits", cancel, on_progress, form=fields, files=files)
        return self._result(answer, request, seed, mode)

    def _fields(self, request: ImageRequest, seed: int) -> dict[str, Any]:
        fields: dict[str, Any] = {"n": request.count, "response_format": "b64_json"}
        fields["rng_seed"] = seed
        if self.model:
            fields["model"] = self.model
        if request.negative_prompt.strip():
            fields["negative_prompt"] = request.negative_prompt
        if request.steps is not None:
            fields["num_inference_steps"] = request.steps
        if request.guidance is not None:
            fields["guidance_scale"] = request.guidance
        return fields

    def _send(
        self,
        route: str,
        cancel: CancelToken | None,
        on_progress: ProgressCallback | None,
        *,
        json_body: dict[str, Any] | None = None,
        form: dict[str, str] | None = None,
        files: dict[str, tuple[str, bytes, str]] | None = None,
    ) -> Any:
        """The answer's JSON object, once the status and the size are checked."""
        if on_progress is not None:
            message = tr("Drawing on {name}…").format(name=self.endpoint.name)
            on_progress(Progress(REMOTE_STAGE, 0, None, message))
        count = int((json_body or {}).get("n") or (form or {}).get("n") or 1)
        headers = {"Accept": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        started = time.perf_counter()
        try:
            answer = post(
                f"{self.endpoint.base_url}/images/{route}",
                headers=headers,
                json=json_body,
                data=form,
                files=files,
                cancel=cancel,
                connect_timeout_s=CONNECT_TIMEOUT_S,
                read_timeout_s=READ_TIMEOUT_S,
                max_bytes=MAX_PICTURE_BYTES * count + 64 * 1024,
            )
        except ConnectionFailedError as failure:
            raise UserError(
                explain_failure(failure.cause, self.endpoint, READ_TIMEOUT_S), field="device"
            ) from failure
        self._figures = {"wall_ms": (time.perf_counter() - started) * 1000.0, "load_ms": 0.0}
        problem = refusal(answer, self.endpoint, self.model, route)
        if problem is not None:
            raise problem
        try:
            return json.loads(answer.body)
        except ValueError as error:
            raise UserError(not_pictures(self.endpoint), field="device") from error

    def _result(self, answer: Any, request: ImageRequest, seed: int, mode: Mode) -> ImageResult:
        pictures, said = pictures_in(answer, request.count, self.endpoint)
        height, width = pictures[0].shape[:2]
        settings = ImageSettings(
            mode=mode,
            prompt=request.prompt.strip(),
            negative_prompt=request.negative_prompt.strip(),
            width=width,
            height=height,
            steps=request.steps or said.steps or 0,
            guidance=float(request.guidance if request.guidance is not None else said.guidance),
            count=len(pictures),
            seed=said.seed if said.seed is not None else seed,
            strength=request.strength or (1.0 if mode is Mode.TEXT_TO_IMAGE else said.strength),
            model=self.model or said.model or self.endpoint.name,
            endpoint=self.endpoint.name,
        )
        return ImageResult(tuple(pictures), settings)


def _seed(request: ImageRequest) -> int:
    return request.seed if request.seed is not None else secrets.randbelow(RANDOM_SEEDS)


def _png(picture: Picture) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(picture).save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()
