"""Image generation: pictures from text, redrawn from pictures, repainted under a mask.

Modules, in the order a request flows: ``model_folder`` (what an exported diffusion folder is,
read from its files), ``request`` (what is asked, checked, and the concrete settings drawn
with), ``pictures`` (files read safely, masks, outpainting's canvas), ``placement`` (each
stage's device and how it must be compiled there), ``preview`` (the step callback: progress,
throttled previews, Cancel), ``stage_metrics`` and ``generator`` (one loaded model serving
every mode); ``upscaler`` (super-resolution, tile by tile). OpenVINO loads on first use.
"""

from pipelines.images.generator import ImageGenerator, ImageModelConfig, ImageResult
from pipelines.images.model_folder import DiffusionFolder, read_diffusion_folder
from pipelines.images.pictures import Picture, Side, read_mask, read_picture
from pipelines.images.placement import StageDevices, stages_for
from pipelines.images.preview import Preview, PreviewKind, PreviewPolicy
from pipelines.images.request import ImageRequest, ImageSettings, Mode
from pipelines.images.upscaler import Upscaler, check_upscale, read_scale

__all__ = [
    "DiffusionFolder",
    "ImageGenerator",
    "ImageModelConfig",
    "ImageRequest",
    "ImageResult",
    "ImageSettings",
    "Mode",
    "Picture",
    "Preview",
    "PreviewKind",
    "PreviewPolicy",
    "Side",
    "StageDevices",
    "Upscaler",
    "check_upscale",
    "read_diffusion_folder",
    "read_mask",
    "read_picture",
    "read_scale",
    "stages_for",
]
