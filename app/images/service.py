"""Image generation as the front ends use it: the model chosen in the settings, loaded through
the engine host on its stages' devices, one picture job at a time, results kept in the gallery;
and upscaling, through the same host and the same one-job lock (:mod:`app.images.upscaling`).

The model is the settings' ``models.image_generation`` folder or, when unset, the first
installed image-generation model; its device picker's value places every stage on one device,
or AUTO: the denoiser and the VAE on a GPU when there is one, the text encoder on the CPU
(:func:`pipelines.images.placement.auto_stages`). The engine host keeps one loaded model per
(folder, stages): switching between text to image, image to image, inpainting and outpainting
reuses it (:mod:`pipelines.images.model_pipes`).

Every method runs on the caller's thread (the window's task runner, the command line, the
server's worker); ``on_progress`` and ``on_preview`` are called on OpenVINO's callback thread.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from app.core.devices import AUTO, DeviceInfo, resolve_device
from app.core.errors import ModelMissingError, StorageError, UserError
from app.core.model_choices import device_value_of
from app.core.model_tasks import ModelTask
from app.core.performance.metrics import MetricsBus
from app.core.settings import Settings
from app.core.texts import tr
from app.engines.host import CachePolicy, EngineHost, LoadRequest, pipeline_loader, with_model
from app.engines.slots import BusyLock
from app.images.gallery import Gallery, GalleryItem
from app.images.upscaling import (
    Upscaled,
    gallery_settings,
    model_scale,
    scaled_to,
    upscaler_folder,
)
from app.models.registry import ModelRegistry
from pipelines.core import CancelToken
from pipelines.images import (
    DiffusionFolder,
    ImageGenerator,
    ImageModelConfig,
    ImageRequest,
    ImageResult,
    ImageSettings,
    Picture,
    Side,
    StageDevices,
    Upscaler,
    check_upscale,
    read_diffusion_folder,
)
from pipelines.images.placement import auto_stages
from pipelines.images.preview import PreviewCallback, ProgressCallback

log = logging.getLogger(__name__)

DEVICE_KEY = "images"
"""The pipeline's name for the devices it prefers (:func:`app.core.devices.resolve_auto`)."""
TASK = ModelTask.IMAGE_GENERATION
UPSCALE = ModelTask.UPSCALE


@dataclass(frozen=True)
class Created:
    """A finished picture job: the pictures, and where the gallery keeps them."""

    result: ImageResult
    saved: tuple[GalleryItem, ...] = ()
    problem: str = ""
    """Why the pictures could not be kept ("" when they were, or were not asked to be): the
    pictures are still here, for the front end to show and offer to save elsewhere."""


class ImageService:
    """The image-generation model and the gallery, for the window, the command line and the
    server."""

    def __init__(
        self,
        settings: Settings,
        metrics: MetricsBus,
        devices: Sequence[DeviceInfo],
        models: ModelRegistry,
        gallery_dir: Path,
        *,
        compiled_cache: Path | None = None,
        engines: EngineHost | None = None,
    ) -> None:
        self._settings = settings
        self._metrics = metrics
        self._devices = list(devices)
        self._models = models
        self.gallery = Gallery(gallery_dir)
        self._engines = engines or EngineHost(devices, metrics, compiled_cache)
        self._engines.register(
            TASK.value,
            _load_generator,
            metrics_name=ImageGenerator.name,
            device_key=DEVICE_KEY,
            cache=CachePolicy.ACCELERATORS,
            publish_load=False,  # the generator's figures carry its load time
        )
        self._engines.register(
            UPSCALE.value,
            pipeline_loader(Upscaler),
            metrics_name=Upscaler.name,
            device_key=DEVICE_KEY,
            cache=CachePolicy.ACCELERATORS,
            publish_load=False,  # the upscaler's figures carry its load time
        )
        self._busy = BusyLock()

    # -- the model --------------------------------------------------------------------------

    def model_folder(self, model: Path | None = None) -> Path:
        """The image model to use: ``model``, else the settings' choice, else the first
        installed one.

        Raises:
            UserError: the folder given or chosen is gone (``field="model"``).
            ModelMissingError: none chosen and none installed.
        """
        chosen = model or self._settings.model_choice(TASK).folder
        if chosen is not None:
            if chosen.is_file():
                raise UserError(
                    tr("{name} is a file: choose an image-generation model's folder.").format(
                        name=chosen.name
                    ),
                    field="model",
                )
            if not chosen.is_dir():
                raise UserError(
                    tr(
                        "The image model folder {folder} is missing. Choose another in Models…."
                    ).format(folder=str(chosen)),
                    field="model",
                )
            return chosen
        for installed in self._models.models(TASK):
            if installed.usable:
                return installed.folder
        raise ModelMissingError(
            tr(
                "No image-generation model is installed: download one (e.g. "
                "OpenVINO/LCM_Dreamshaper_v7-int8-ov) in Models…."
            ),
            TASK.value,
        )

    def model_facts(self, model: Path | None = None) -> DiffusionFolder:
        """What the model to use is (its name, sizes, whether it reads a negative prompt),
        read from its folder's small config files without loading it.

        Raises:
            UserError, ModelMissingError: as :meth:`model_folder`.
            ModelLoadError: the folder is not an image-generation model (``field="model"``).
        """
        return read_diffusion_folder(self.model_folder(model))

    def stages(self, device: str | None = None) -> StageDevices:
        """The stages' devices for ``device`` (default: the settings' choice; AUTO: see the
        module docstring).

        Raises:
            UserError: the device does not exist here (``field="device"``).
        """
        wanted = device or device_value_of(self._settings.model_choice(TASK))
        if wanted.strip().upper() == AUTO:
            return auto_stages([info.name for info in self._devices])
        return StageDevices.on(resolve_device(wanted, self._devices, DEVICE_KEY))

    def generator(self, *, model: Path | None = None, device: str | None = None) -> ImageGenerator:
        """The loaded generator (loading it on first use, or for another model or device).

        Raises:
            UserError: no model, or a device that does not exist here.
            ModelLoadError, DeviceError: the model could not be loaded there.
        """
        stages = self.stages(device)
        folder = self.model_folder(model)
        # The host keys the engine by the denoiser's device, the stages ride along as options.
        choice = with_model(self._settings.model_choice(TASK), folder, stages.denoiser)
        generator: ImageGenerator = self._engines.get(choice, options=stages)
        return generator

    # -- the work ---------------------------------------------------------------------------

    def text_to_image(
        self, request: ImageRequest, *, picture_options: PictureOptions | None = None
    ) -> Created:
        """Pictures of a prompt (see :meth:`ImageGenerator.text_to_image`).

        Raises:
            BusyError: another picture is being made (``field="prompt"``).
            UserError, ModelLoadError, DeviceError, Cancelled, PipelineError: as the
                generator raises them.
        """
        options = picture_options or PictureOptions()
        return self._run(options, lambda gen, **kw: gen.text_to_image(request, **kw))

    def image_to_image(
        self,
        request: ImageRequest,
        picture: Picture,
        *,
        picture_options: PictureOptions | None = None,
    ) -> Created:
        """``picture`` redrawn after a prompt (raises as :meth:`text_to_image`)."""
        options = picture_options or PictureOptions()
        return self._run(options, lambda gen, **kw: gen.image_to_image(request, picture, **kw))

    def inpaint(
        self,
        request: ImageRequest,
        picture: Picture,
        mask: Any,
        *,
        picture_options: PictureOptions | None = None,
    ) -> Created:
        """The white part of ``mask`` repainted (raises as :meth:`text_to_image`)."""
        options = picture_options or PictureOptions()
        return self._run(options, lambda gen, **kw: gen.inpaint(request, picture, mask, **kw))

    def outpaint(
        self,
        request: ImageRequest,
        picture: Picture,
        side: Side,
        pixels: int,
        *,
        picture_options: PictureOptions | None = None,
    ) -> Created:
        """``picture`` extended on ``side`` (raises as :meth:`text_to_image`)."""
        options = picture_options or PictureOptions()
        return self._run(
            options, lambda gen, **kw: gen.outpaint(request, picture, side, pixels, **kw)
        )

    def upscale(
        self,
        picture: Picture,
        factor: int | None = None,
        *,
        settings: ImageSettings | None = None,
        picture_options: PictureOptions | None = None,
    ) -> Upscaled:
        """``picture`` ×``factor`` (None: the model's own) through the upscaling model.

        ``settings``: what the source picture was drawn with (a gallery picture's); the
        gallery keeps the result with them (see :mod:`app.images.upscaling`). The picture is
        checked before the model loads.

        Raises:
            BusyError: another picture job is running (``field="prompt"``).
            UserError: no model, a gone one, or a factor it cannot give (``field="factor"``).
            InvalidInputError: not an RGB picture, or a result over the pixel limit.
            ModelLoadError, DeviceError, Cancelled: as the upscaler raises them.
        """
        options = picture_options or PictureOptions()
        chosen = options.model or self._settings.model_choice(UPSCALE).folder
        folder = upscaler_folder(chosen, self._models, factor)
        scale, factor = model_scale(folder, factor)
        check_upscale(picture, scale)
        with self._busy.hold(tr("A picture is already being made."), field="prompt"):
            device = options.device or device_value_of(self._settings.model_choice(UPSCALE))
            choice = with_model(self._settings.model_choice(UPSCALE), folder, device)
            upscaler: Upscaler = self._engines.get(choice)
            result = upscaler.upscale(
                picture, cancel=options.cancel, on_progress=options.on_progress
            )
            self._metrics.publish(upscaler.metrics())
        if factor != scale:
            result = scaled_to(result, picture, factor)
        kept = gallery_settings(settings)
        done = Upscaled(result, factor, folder.name, kept)
        if not options.save:
            return done
        if kept is None:
            problem = tr(
                "Not kept in the gallery: the picture carries no settings to keep with it."
            )
            return replace(done, problem=problem)
        try:
            saved = self.gallery.save([result], kept)
        except StorageError as error:
            log.warning("upscaled picture not saved: %s", error)
            return replace(done, problem=str(error))
        return replace(done, saved=saved[0])

    def close(self) -> None:
        """Drop the loaded models."""
        self._engines.drop(TASK.value)
        self._engines.drop(UPSCALE.value)

    def _run(self, options: PictureOptions, work: Callable[..., ImageResult]) -> Created:
        with self._busy.hold(tr("A picture is already being made."), field="prompt"):
            generator = self.generator(model=options.model, device=options.device)
            result = work(
                generator,
                cancel=options.cancel,
                on_progress=options.on_progress,
                on_preview=options.on_preview,
            )
            self._metrics.publish(generator.metrics())
        if not options.save:
            return Created(result)
        try:
            saved = self.gallery.save(result.pictures, result.settings)
        except StorageError as error:
            log.warning("pictures not saved: %s", error)
            return Created(result, problem=str(error))
        return Created(result, tuple(saved))


@dataclass(frozen=True)
class PictureOptions:
    """How a picture job runs, besides what it draws."""

    model: Path | None = None
    """A model folder other than the settings' choice."""
    device: str | None = None
    """A device other than the settings' choice (``AUTO`` too)."""
    save: bool = True
    """Keep the pictures in the gallery."""
    cancel: CancelToken | None = None
    on_progress: ProgressCallback | None = None
    on_preview: PreviewCallback | None = None


def _load_generator(request: LoadRequest) -> ImageGenerator:
    """How the engine host loads an image model (``options``: the stages' devices)."""
    stages = request.options
    if not isinstance(stages, StageDevices):
        stages = StageDevices.on(request.device)
    config = ImageModelConfig(request.folder, stages, request.cache_dir, dict(request.properties))
    generator = ImageGenerator(config)
    generator.load()
    return generator
