"""What an image generator is loaded with besides its model: its stages' devices and the tiny
preview decoder, and how the engine host loads it.

The preview decoder (TAESD-class, :mod:`pipelines.images.tiny_decoder`) is the settings'
``models.preview_decoder`` folder, else the first installed one; with none, previews are made
as before (the VAE's within the budget, sketches otherwise). A decoder that cannot be used is
a note on the pictures, never a failed picture. The host keys the loaded generator by this
setup too, so choosing another decoder loads the generator again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.core.model_tasks import ModelTask
from app.core.settings import Settings
from app.engines.host import LoadRequest
from app.models.registry import ModelRegistry
from pipelines.images import ImageGenerator, ImageModelConfig, StageDevices

PREVIEW_DECODER = ModelTask.PREVIEW_DECODER


@dataclass(frozen=True)
class GeneratorSetup:
    """The engine host's options for an image generator."""

    stages: StageDevices
    preview_decoder: Path | None = None


def preview_decoder_folder(settings: Settings, models: ModelRegistry) -> Path | None:
    """The preview decoder to use: the settings' choice (even a gone folder: the generator
    then says why it is not used), else the first usable installed one, else None."""
    chosen = settings.model_choice(PREVIEW_DECODER).folder
    if chosen is not None:
        return chosen
    return next((model.folder for model in models.models(PREVIEW_DECODER) if model.usable), None)


def load_generator(request: LoadRequest) -> ImageGenerator:
    """How the engine host loads an image model (``options``: a :class:`GeneratorSetup`, or
    the stages' devices alone)."""
    setup = request.options
    if isinstance(setup, StageDevices):
        setup = GeneratorSetup(setup)
    if not isinstance(setup, GeneratorSetup):
        setup = GeneratorSetup(StageDevices.on(request.device))
    config = ImageModelConfig(
        request.folder,
        setup.stages,
        request.cache_dir,
        dict(request.properties),
        preview_decoder=setup.preview_decoder,
    )
    generator = ImageGenerator(config)
    generator.load()
    return generator
