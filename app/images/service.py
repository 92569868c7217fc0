"""Image generation as the front ends use it: the model chosen in the settings, loaded through
the engine host on its stages' devices, one picture job at a time, results kept in the gallery;
and upscaling, through the same host and the same one-job lock (:mod:`app.images.upscaling`).

The model is the settings' ``models.image_generation`` folder or, when unset, the first
installed image-generation model; its device picker's value places every stage on one device,
or AUTO: the denoiser and the VAE on a GPU when there is one, the text encoder on the CPU
(:func:`pipelines.images.placement.auto_stages`); previews go through a tiny preview decoder
when one is installed (:mod:`app.images.generator_setup`). The engine host keeps one loaded
model per (folder, stages, preview decoder): switching between text to image, image to image,
inpainting and outpainting reuses it (:mod:`pipelines.images.model_pipes`).

Every method runs on the caller's thread (the window's task runner, the command line, the
server's worker); ``on_progress`` and ``on_preview`` are called on OpenVINO's callback thread.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.core.devices import AUTO, DeviceInfo, resolve_device
from app.core.errors import ModelMissingError, StorageError, UserError
from app.core.model_choices import device_value_of
from app.core.model_tasks import ModelTask
from app.core.performance.metrics import MetricsBus
from app.core.remote_endpoints import is_remote
from app.core.settings import Settings
from app.core.texts import tr
from app.engines.host import CachePolicy, EngineHost, pipeline_loader, with_model
from app.engines.slots import BusyLock
from app.images.gallery import Gallery, GalleryItem
from app.images.generator_setup import GeneratorSetup, load_generator, preview_decoder_folder
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
from pipelines.images.placement import auto_stages, is_stage_spec, parse_stage_spec
from pipelines.images.preview import PreviewCallback, ProgressCallback

if TYPE_CHECKING:
    from app.images.remote_factory import RemoteImagesFactory
    from app.images.remote_generator import RemoteImageGenerator

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
        remote_factory: RemoteImagesFactory | None = None,
    ) -> None:
        self._settings = settings
        self._remote_factory = remote_factory
        self._metrics = metrics
        self._devices = list(devices)
        self._models = models
        self.gallery = Gallery(gallery_dir)
        self._engines = engines or EngineHost(devices, metrics, compiled_cache)
        self._engines.register(
            TASK.value,
            load_generator,
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

    def runs_remotely(self, device: str | None = None) -> bool:
        """Whether ``device`` (default: the settings' choice) is a remote endpoint, where the
        endpoint's model draws and no model need be installed here."""
        return is_remote(device or device_value_of(self._settings.model_choice(TASK)))

    def model_facts(self, model: Path | None = None) -> DiffusionFolder:
        """What the model to use is (its name, sizes, whether it reads a negative prompt),
        read from its folder's small config files without loading it.

        Raises:
            UserError, ModelMissingError: as :meth:`model_folder`.
            ModelLoadError: the folder is not an image-generation model (``field="model"``).
        """
        return read_diffusion_folder(self.model_folder(model))

    def stages(self, device: str | None = None) -> StageDevices:
        """The stages' devices for ``device`` (default: the settings' ``image_stages`` when set,
        else the image device; AUTO: see the module docstring; a stage spec such as
        ``text=CPU,denoise=GPU,vae=GPU`` places each, a stage left out as AUTO would).

        Raises:
            UserError: a device that does not exist here, or a spec that cannot be read
                (``field="device"``).
        """
        wanted = (
            device
            or self._settings.image_stages.strip()
            or device_value_of(self._settings.model_choice(TASK))
        )
        auto = auto_stages([info.name for info in self._devices])
        if wanted.strip().upper() == AUTO:
            return auto
        if not is_stage_spec(wanted):
            return StageDevices.on(resolve_device(wanted, self._devices, DEVICE_KEY))
        placed = parse_stage_spec(wanted)

        def placed_or_auto(key: str, default: str) -> str:
            name = placed.get(key, AUTO)
            return default if name == AUTO else resolve_device(name, self._devices, DEVICE_KEY)

        return StageDevices(
            placed_or_auto("text", auto.text_encoder),
            placed_or_auto("denoise", auto.denoiser),
            placed_or_auto("vae", auto.vae),
        )

    def generator(self, *, model: Path | None = None, device: str | None = None) -> ImageGenerator:
        """The loaded generator (loading it on first use, or for another model or device).

        Raises:
            UserError: no model, or a device that does not exist here.
            ModelLoadError, DeviceError: the model could not be loaded there.
        """
        stages = self.stages(device)
        folder = self.model_folder(model)
        # The host keys the engine by the denoiser's device; the stages and the preview decoder
        # ride along as options.
        choice = with_model(self._settings.model_choice(TASK), folder, stages.denoiser)
        setup = GeneratorSetup(stages, preview_decoder_folder(self._settings, self._models))
        generator: ImageGenerator = self._engines.get(choice, options=setup)
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

    def _generator_for(self, options: PictureOptions) -> ImageGenerator | RemoteImageGenerator:
        """The local generator, or a remote endpoint's (made for each job: it holds nothing
        but the endpoint's address, read from the settings as they are now).

        Raises:
            UserError: as :meth:`generator`; an endpoint that is not configured.
        """
        device = options.device or device_value_of(self._settings.model_choice(TASK))
        if not is_remote(device):
            return self.generator(model=options.model, device=options.device)
        if self._remote_factory is None:
            raise UserError(tr("Remote endpoints cannot draw pictures here."), field="device")
        return self._remote_factory(device)

    def close(self) -> None:
        """Drop the loaded models."""
        self._engines.drop(TASK.value)
        self._engines.drop(UPSCALE.value)

    def _run(self, options: PictureOptions, work: Callable[..., ImageResult]) -> Created:
        with self._busy.hold(tr("A picture is already being made."), field="prompt"):
            generator = self._generator_for(options)
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
