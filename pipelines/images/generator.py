"""Pictures from text, from pictures, and repainted under a mask: one loaded diffusion model.

REPL use (the shape of every pipeline: :class:`pipelines.contract.Pipeline`)::

    with ImageGenerator(ImageModelConfig(Path("models/LCM_Dreamshaper_v7-int8-ov"))) as images:
        result = images.text_to_image(ImageRequest("a lighthouse at dusk", seed=7))
        result.pictures[0]  # uint8 [512, 512, 3]

The model is compiled once and serves every mode (:mod:`pipelines.images.model_pipes`: which
GenAI pipeline is built first, and which are made from it); switching mode loads nothing.
Every work method checks its input before anything runs (:mod:`pipelines.images.request`),
reports each step and decodes throttled previews (:mod:`pipelines.images.preview`), raises
:class:`~pipelines.core.Cancelled` — never half a result — when ``cancel`` is set
(:mod:`pipelines.images.denoising`), and keeps the stages' figures for :meth:`metrics`.
Inpainting and outpainting put the user's own pixels back outside the mask.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pipelines.contract import ModelPipeline
from pipelines.core import CancelToken, InvalidInputError, MetricRecord
from pipelines.images.denoising import Observers, denoise
from pipelines.images.model_folder import DiffusionFolder, read_diffusion_folder
from pipelines.images.model_pipes import ModelPipes, StaticShape, build_pipes
from pipelines.images.pictures import (
    Picture,
    Side,
    blank_canvas,
    check_picture,
    extend_canvas,
    full_mask,
    mask_for,
    paste_outside,
    resized,
)
from pipelines.images.placement import StageDevices, compile_plan
from pipelines.images.preview import PreviewCallback, PreviewPolicy, ProgressCallback
from pipelines.images.request import (
    ImageRequest,
    ImageSettings,
    Mode,
    ModelDefaults,
    check_request,
    edit_size,
    resolve_settings,
    round_size,
)
from pipelines.images.tiny_decoder import TinyDecoder, not_used, open_preview_decoder

log = logging.getLogger(__name__)

LCM_GUIDANCE = 8.5
"""The guidance a static compile assumes before the model is read (GenAI's defaults)."""
CFG_GUIDANCE = 7.5


@dataclass(frozen=True)
class ImageModelConfig:
    """Which diffusion model, where its stages run, and how previews are paced."""

    model_dir: Path
    devices: StageDevices = field(default_factory=StageDevices)
    cache_dir: Path | None = None
    """Compiled-blob cache (``CACHE_DIR``), used on GPU and NPU only."""
    properties: dict[str, Any] = field(default_factory=dict)
    preview: PreviewPolicy = field(default_factory=PreviewPolicy)
    preview_decoder: Path | None = None
    """A tiny TAESD-class decoder for the previews, in the VAE's place (None: the VAE's)."""


@dataclass(frozen=True)
class ImageResult:
    """The pictures of one request and what they were drawn with."""

    pictures: tuple[Picture, ...]
    settings: ImageSettings
    notes: tuple[str, ...] = ()
    """What changed on the way (a size rounded, a negative prompt not read), for the user."""


class ImageGenerator(ModelPipeline):
    """A diffusion model serving text to image, image to image, inpainting and outpainting;
    one call at a time (not thread-safe). ``on_progress`` and ``on_preview`` are called on
    OpenVINO's callback thread."""

    name = "images"

    def __init__(self, config: ImageModelConfig) -> None:
        super().__init__(config.devices.denoiser, config.cache_dir)
        self.config = config
        self.compiles = 0
        """How many times the model was compiled (a mode switch must not add one)."""
        self._folder: DiffusionFolder | None = None
        self._figures: dict[str, float] = {}
        self._fast: TinyDecoder | None = None
        self.preview_note = ""
        """Why the configured preview decoder is not used ("" when it is, or none is)."""

    @property
    def fast_previews(self) -> bool:
        """Whether previews are decoded by a tiny preview decoder."""
        return self._fast is not None

    @property
    def folder(self) -> DiffusionFolder:
        """The model's facts, read from its files on first use.

        Raises:
            ModelLoadError: not a diffusion model folder.
        """
        if self._folder is None:
            self._folder = read_diffusion_folder(self.config.model_dir)
        return self._folder

    @property
    def defaults(self) -> ModelDefaults:
        """The model's own steps, guidance and image-to-image strength (loads the model)."""
        return self._pipes().defaults

    @property
    def modes(self) -> tuple[Mode, ...]:
        """What this model can do (loads the model)."""
        return self._pipes().modes

    def metrics(self) -> MetricRecord:
        """The last picture's stages (text encoder, denoiser per step, VAE; ms) and load time."""
        values = {"load_ms": self.load_ms, **self._figures}
        return MetricRecord(self.name, self.config.devices.label(), values)

    # -- work -----------------------------------------------------------------------------

    def text_to_image(
        self,
        request: ImageRequest,
        *,
        cancel: CancelToken | None = None,
        on_progress: ProgressCallback | None = None,
        on_preview: PreviewCallback | None = None,
    ) -> ImageResult:
        """Pictures of ``request.prompt`` at the requested (rounded) or the model's size.

        Raises:
            InvalidInputError: the request is refused (its field says which control).
            ModelLoadError, DeviceError: the model could not be loaded.
            Cancelled: ``cancel`` was set; nothing is returned.
            PipelineError: OpenVINO failed while drawing.
        """
        check_request(request)
        side = self.folder.default_side
        width, height, note = round_size(request.width or side, request.height or side, self.folder)
        observers = Observers(cancel, on_progress, on_preview)
        settings, notes = self._settings(request, Mode.TEXT_TO_IMAGE, (width, height), note)
        pipes = self._pipes(settings)
        if pipes.text_to_image is None:  # a model trained for inpainting: everything masked
            inputs = (blank_canvas(width, height), full_mask(width, height))
            return self._draw(pipes.inpainting, settings, inputs, notes, observers)
        return self._draw(pipes.text_to_image, settings, (), notes, observers)

    def image_to_image(
        self,
        request: ImageRequest,
        picture: Picture,
        *,
        cancel: CancelToken | None = None,
        on_progress: ProgressCallback | None = None,
        on_preview: PreviewCallback | None = None,
    ) -> ImageResult:
        """``picture`` redrawn after ``request.prompt``, changed by ``request.strength``
        (default: the model's), at the picture's size unless the request gives one.

        Raises:
            InvalidInputError: as :meth:`text_to_image`; a picture that is not RGB bytes
                (``field="image"``); a model that cannot edit (``field="mode"``).
            ModelLoadError, DeviceError, Cancelled, PipelineError: as :meth:`text_to_image`.
        """
        check_request(request)
        check_picture(picture)
        settings, notes, scaled = self._edit(request, picture, Mode.IMAGE_TO_IMAGE)
        observers = Observers(cancel, on_progress, on_preview)
        pipes = self._pipes(settings)
        if pipes.image_to_image is not None:
            return self._draw(pipes.image_to_image, settings, (scaled,), notes, observers)
        if pipes.inpainting is None:
            raise self._cannot(Mode.IMAGE_TO_IMAGE)
        inputs = (scaled, full_mask(settings.width, settings.height))
        return self._draw(pipes.inpainting, settings, inputs, notes, observers)

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
        """``picture`` with the white part of ``mask`` (any array of the picture's aspect
        ratio) repainted after ``request.prompt``; the rest keeps its pixels.

        Raises:
            InvalidInputError: as :meth:`image_to_image`; a mask of another aspect ratio or
                with nothing white (``field="mask"``).
            ModelLoadError, DeviceError, Cancelled, PipelineError: as :meth:`text_to_image`.
        """
        observers = Observers(cancel, on_progress, on_preview)
        return self._masked(Mode.INPAINTING, request, picture, mask, observers)

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
        """``picture`` extended by ``pixels`` on ``side`` (rounded up to the model's size
        step), the new part painted after ``request.prompt``.

        Raises:
            InvalidInputError: as :meth:`inpaint`; ``pixels`` below 1 (``field="pixels"``).
            ModelLoadError, DeviceError, Cancelled, PipelineError: as :meth:`text_to_image`.
        """
        check_request(request)
        check_picture(picture)
        canvas, mask = extend_canvas(picture, Side(side), pixels, step=self.folder.size_step)
        observers = Observers(cancel, on_progress, on_preview)
        return self._masked(Mode.OUTPAINTING, request, canvas, mask, observers)

    # -- the shared path --------------------------------------------------------------------

    def _masked(
        self, mode: Mode, request: ImageRequest, picture: Picture, mask: Any, observers: Observers
    ) -> ImageResult:
        check_request(request)
        check_picture(picture)
        binary, mask_note = mask_for(np.asarray(mask), picture)
        settings, notes, scaled = self._edit(request, picture, mode)
        if mask_note:
            notes.insert(0, mask_note)
        pipes = self._pipes(settings)
        if pipes.inpainting is None:
            raise self._cannot(mode)
        scaled_mask = resized(binary, settings.width, settings.height)
        result = self._draw(pipes.inpainting, settings, (scaled, scaled_mask), notes, observers)
        pasted = tuple(paste_outside(scaled, painted, scaled_mask) for painted in result.pictures)
        return ImageResult(pasted, result.settings, result.notes)

    def _settings(
        self, request: ImageRequest, mode: Mode, size: tuple[int, int], note: str
    ) -> tuple[ImageSettings, list[str]]:
        settings, notes = resolve_settings(request, self.folder, self.defaults, mode, size)
        return settings, [note, *notes] if note else notes

    def _edit(
        self, request: ImageRequest, picture: Picture, mode: Mode
    ) -> tuple[ImageSettings, list[str], Picture]:
        """The settings of an edit, its notes, and ``picture`` at the size it is drawn at."""
        height, width = picture.shape[:2]
        if request.width or request.height:
            sized = round_size(request.width or width, request.height or height, self.folder)
        else:
            sized = edit_size(width, height, self.folder)
        new_width, new_height, note = sized
        settings, notes = self._settings(request, mode, (new_width, new_height), note)
        return settings, notes, resized(picture, new_width, new_height)

    def _draw(
        self,
        pipe: Any,
        settings: ImageSettings,
        inputs: tuple[Picture, ...],
        notes: list[str],
        observers: Observers,
    ) -> ImageResult:
        static = self._pipes(settings).shape is not None
        problems: list[str] = []
        pictures, figures = denoise(
            pipe,
            settings,
            inputs,
            observers,
            policy=self.config.preview,
            scale=self.folder.vae_scale,
            first_only=not static,
            fast_decode=self._fast.decode if self._fast is not None else None,
            problems=problems,
        )
        self._figures = figures
        if problems and self._fast is not None:  # it failed mid-way: not tried again
            self._fast.close()
            self._fast, self.preview_note = None, not_used(self._fast_folder(), problems[0])
        if self.preview_note:
            notes = [*notes, self.preview_note]
        return ImageResult(pictures, settings, tuple(notes))

    def _cannot(self, mode: Mode) -> InvalidInputError:
        return InvalidInputError(
            f"{self.folder.name} cannot do {mode.value.replace('-', ' ')}: choose a Stable "
            "Diffusion-class model for it.",
            field="mode",
        )

    # -- loading --------------------------------------------------------------------------

    def _load(self) -> ModelPipes:
        shape = None
        if compile_plan(self.config.devices).static_shapes:
            side = self.folder.default_side
            guidance = LCM_GUIDANCE if self.folder.guidance_embedded else CFG_GUIDANCE
            shape = (1, side, side, guidance)
        pipes = self._build(shape)
        if self.config.preview_decoder is not None:
            cache = None if self.cache_dir is None else self.cache_dir / "preview-decoder"
            self._fast, self.preview_note = open_preview_decoder(
                self.config.preview_decoder, self.config.devices.vae, self.folder.vae_scale, cache
            )
        return pipes

    def _fast_folder(self) -> Path:
        assert self.config.preview_decoder is not None
        return self.config.preview_decoder

    def close(self) -> None:
        """Drop the compiled pipelines and the preview decoder."""
        if self._fast is not None:
            self._fast.close()
            self._fast = None
        super().close()

    def _build(self, shape: StaticShape | None) -> ModelPipes:
        pipes = build_pipes(
            self.folder,
            self.config.devices,
            cache_dir=self.cache_dir,
            properties=self.config.properties,
            shape=shape,
        )
        self.compiles += 1
        return pipes

    def _pipes(self, settings: ImageSettings | None = None) -> ModelPipes:
        """The loaded pipelines; a static-shape compile is redone for another shape (an NPU
        compiles one size, count and guidance at a time)."""
        pipes: ModelPipes = self._loaded_model()
        if pipes.shape is not None and settings is not None:
            wanted = (settings.count, settings.height, settings.width, settings.guidance)
            if wanted != pipes.shape:
                log.info("compiling %s again for the static shape %s", self.folder.name, wanted)
                self._model = pipes = self._build(wanted)
        return pipes
