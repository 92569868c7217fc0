"""One diffusion model compiled once, and the GenAI pipelines that share it for every mode.

OpenVINO GenAI shares a model's compiled stages between its three pipelines when one is made
from another — but only in some directions (found on this machine, GenAI 2026.4.1):

- ``InpaintingPipeline(folder)`` reads any Stable Diffusion-class model, and ``Text2Image`` and
  ``Image2ImagePipeline`` made from it share its weights: built first, it serves every mode;
- ``InpaintingPipeline(Image2ImagePipeline)`` loads but crashes the process on its first
  picture, and ``Image2ImagePipeline(Text2ImagePipeline)`` does not exist: never that way;
- from a model *trained* for inpainting (a UNet reading a mask) GenAI refuses to make the other
  two ("Cannot create 'Text2ImagePipeline' from InpaintingPipeline with inpainting model"), so
  :mod:`pipelines.images.generator` runs text to image as inpainting of a blank canvas with
  everything masked, and image to image as inpainting with everything masked at the chosen
  strength (what diffusers does with such a model);
- a model GenAI cannot inpaint with falls back to ``Image2ImagePipeline``, then to
  ``Text2ImagePipeline`` alone, and the modes it lacks are refused in a sentence.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipelines.contract import compile_properties, load_error
from pipelines.images.model_folder import DiffusionFolder
from pipelines.images.placement import StageDevices, compile_plan
from pipelines.images.request import Mode, ModelDefaults

log = logging.getLogger(__name__)

IMAGE_TO_IMAGE_STRENGTH = 0.8
"""Image to image's strength when the model does not say (diffusers' and GenAI's default)."""
StaticShape = tuple[int, int, int, float]
"""What a static compile is for: (count, height, width, guidance)."""


@dataclass(frozen=True)
class ModelPipes:
    """The compiled pipelines of one model (None: a mode GenAI cannot build for it)."""

    inpainting: Any
    image_to_image: Any
    text_to_image: Any
    defaults: ModelDefaults
    shape: StaticShape | None
    """The static shape it was compiled for; None: dynamic shapes."""

    @property
    def modes(self) -> tuple[Mode, ...]:
        """What the model can do: everything when it inpaints (text to image and image to image
        run as inpainting when their own pipelines cannot be made)."""
        if self.inpainting is not None:
            return tuple(Mode)
        if self.image_to_image is not None:
            return Mode.TEXT_TO_IMAGE, Mode.IMAGE_TO_IMAGE
        return (Mode.TEXT_TO_IMAGE,)


def build_pipes(
    folder: DiffusionFolder,
    devices: StageDevices,
    *,
    cache_dir: Path | None,
    properties: dict[str, Any],
    shape: StaticShape | None,
) -> ModelPipes:
    """Read the model, reshape it to ``shape`` (static devices), compile its stages on
    ``devices`` and make the other pipelines from the first (see the module docstring).

    Raises:
        ModelLoadError: GenAI cannot read the folder as any pipeline, or its files are damaged.
        DeviceError: a stage could not be compiled on its device.
    """
    import openvino_genai as ov_genai

    plan = compile_plan(devices)
    compile_with = compile_properties(cache_dir if plan.use_cache else None, properties)
    base, kind = _construct(ov_genai, folder)
    try:
        if shape is not None:
            base.reshape(*shape)
        base.compile(*devices.names(), **compile_with)
    except RuntimeError as error:
        raise load_error(error, what=folder.name, device=devices.label()) from error
    inpainting = base if kind == "inpainting" else None
    image_to_image = base if kind == "image-to-image" else None
    text_to_image = base if kind == "text-to-image" else None
    if kind == "inpainting" and not folder.inpainting_model:
        image_to_image = ov_genai.Image2ImagePipeline(base)
        text_to_image = ov_genai.Text2ImagePipeline(base)
    elif kind == "image-to-image":
        text_to_image = ov_genai.Text2ImagePipeline(base)
    config = base.get_generation_config()
    strength = float(config.strength) if kind == "image-to-image" else IMAGE_TO_IMAGE_STRENGTH
    defaults = ModelDefaults(
        steps=int(config.num_inference_steps),
        guidance=float(config.guidance_scale),
        strength=strength,
    )
    return ModelPipes(inpainting, image_to_image, text_to_image, defaults, shape)


def _construct(ov_genai: Any, folder: DiffusionFolder) -> tuple[Any, str]:
    """The first pipeline GenAI can read ``folder`` as: inpainting, else image to image, else
    text to image (read, not compiled).

    Raises:
        ModelLoadError: GenAI reads it as none of them (its first refusal, explained).
    """
    kinds = (
        ("inpainting", ov_genai.InpaintingPipeline),
        ("image-to-image", ov_genai.Image2ImagePipeline),
        ("text-to-image", ov_genai.Text2ImagePipeline),
    )
    first_error: RuntimeError | None = None
    for kind, make in kinds:
        try:
            return make(str(folder.folder)), kind
        except RuntimeError as error:
            log.info("%s is not readable as %s: %s", folder.name, kind, error)
            first_error = first_error or error
    assert first_error is not None
    raise load_error(first_error, what=folder.name, device="CPU") from first_error
