"""The image service's preview decoder: the installed one, or the settings' choice, rides with
the generator; a gone one is a note on the pictures, which are drawn all the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.devices import DeviceInfo
from app.core.model_choices import ModelChoices
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from app.core.settings import Settings
from app.images import ImageRequest, ImageService
from app.models.registry import ModelRegistry
from tests.fixtures.preview_decoder_models import CONVERTED_X2

pytestmark = pytest.mark.integration
CPU = DeviceInfo("CPU", "Test CPU")


def _service(home: AppPaths, model: Path, decoder: Path | None = None) -> ImageService:
    models = ModelChoices().with_folders(
        {ModelTask.IMAGE_GENERATION: model, ModelTask.PREVIEW_DECODER: decoder}
    )
    registry = ModelRegistry(home.model_registry, home.models_dir)
    return ImageService(Settings(models=models), MetricsBus(), [CPU], registry, home.gallery_dir)


def test_an_installed_preview_decoder_is_used(
    app_home: AppPaths, diffusion_model_dir: Path, preview_decoder_dir: Path
) -> None:
    assert not _service(app_home, diffusion_model_dir).generator().fast_previews
    registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
    installed = registry.add_folder(preview_decoder_dir / CONVERTED_X2, ModelTask.PREVIEW_DECODER)
    assert installed.task is ModelTask.PREVIEW_DECODER and installed.usable
    service = _service(app_home, diffusion_model_dir)
    generator = service.generator()
    assert generator.fast_previews and generator.preview_note == ""
    created = service.text_to_image(ImageRequest("a fox", steps=2), picture_options=None)
    assert not any("preview decoder" in note for note in created.result.notes)


def test_a_gone_preview_decoder_is_a_note_and_the_picture_is_drawn(
    app_home: AppPaths, diffusion_model_dir: Path, tmp_path: Path
) -> None:
    service = _service(app_home, diffusion_model_dir, tmp_path / "taesd-gone")
    created = service.text_to_image(ImageRequest("a fox", steps=2, seed=1))
    assert len(created.result.pictures) == 1 and created.saved
    assert created.result.notes[-1] == (
        "The preview decoder taesd-gone is not used — taesd-gone has no preview decoder model "
        "(openvino_model.xml is missing); previews are drawn as before."
    )
