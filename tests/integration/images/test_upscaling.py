"""Upscaling through the image service: the upscaler from the settings or the registry (one of
the factor asked for), loaded through the engine host, refusals before it loads, and what the
gallery keeps."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from app.core.devices import DeviceInfo
from app.core.errors import ModelMissingError, UserError
from app.core.model_choices import ModelChoices
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from app.core.settings import Settings
from app.images import ImageService, ImageSettings, Mode, PictureOptions
from app.images.picture_metadata import read_settings
from app.models.registry import ModelRegistry
from pipelines.core import InvalidInputError, Progress

pytestmark = pytest.mark.integration
CPU = DeviceInfo("CPU", "Test CPU")
DRAWN = ImageSettings(Mode.TEXT_TO_IMAGE, "a fox", "", 64, 48, 4, 1.0, 1, 7, 1.0, "lcm-tiny")


def _service(home: AppPaths, folder: Path | None = None) -> tuple[ImageService, MetricsBus]:
    models = ModelChoices()
    if folder is not None:
        models = models.with_folder(ModelTask.UPSCALE, folder)
    metrics = MetricsBus()
    registry = ModelRegistry(home.model_registry, home.models_dir)
    service = ImageService(Settings(models=models), metrics, [CPU], registry, home.gallery_dir)
    return service, metrics


def _picture(height: int = 48, width: int = 64) -> np.ndarray:
    return np.random.default_rng(1).integers(0, 255, (height, width, 3), dtype=np.uint8)


def test_no_upscaler_is_the_model_missing_sentence(app_home: AppPaths, tmp_path: Path) -> None:
    service, _ = _service(app_home)
    with pytest.raises(ModelMissingError, match="No upscaling model is installed") as error:
        service.upscale(_picture())
    assert error.value.task == "upscale"
    gone, _ = _service(app_home, tmp_path / "gone")
    with pytest.raises(UserError, match=r"upscaling model .* is missing"):
        gone.upscale(_picture())


def test_the_installed_upscaler_of_the_factor_is_used_and_the_gallery_keeps_it(
    app_home: AppPaths, upscale_models_dir: Path
) -> None:
    registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
    for scale in (4, 2):
        registry.add_folder(upscale_models_dir / f"x{scale}", ModelTask.UPSCALE)
    service, metrics = _service(app_home)
    heard: list[Progress] = []
    done = service.upscale(
        _picture(), 2, settings=DRAWN, picture_options=PictureOptions(on_progress=heard.append)
    )
    assert done.picture.shape == (96, 128, 3) and done.factor == 2 and done.model == "x2"
    assert heard[-1].done == heard[-1].total and done.problem == ""
    assert done.saved is not None and service.gallery.items()[0].name == done.saved.name
    # The source's settings, mode "upscale": Reuse draws the source again.
    kept = read_settings(done.saved.path)
    assert kept == ImageSettings(**{**DRAWN.__dict__, "mode": Mode.UPSCALE})
    record = metrics.latest("upscaler")
    assert record is not None and record.values["tiles"] >= 1 and record.values["load_ms"] > 0
    assert service.upscale(_picture(), 4).model == "x4"


def test_a_x4_model_gives_x2_by_scaling_its_result_down(
    app_home: AppPaths, upscale_models_dir: Path
) -> None:
    service, _ = _service(app_home, upscale_models_dir / "x4")
    done = service.upscale(_picture(), 2)
    assert done.picture.shape == (96, 128, 3) and done.model == "x4"
    # A picture from outside the gallery: upscaled, not kept, and said so.
    assert done.saved is None and "carries no settings" in done.problem
    assert service.gallery.items() == []


def test_refusals_come_before_the_model_loads(
    app_home: AppPaths, upscale_models_dir: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "x2"
    shutil.copytree(upscale_models_dir / "x2", folder)
    service, metrics = _service(app_home, folder)
    with pytest.raises(UserError, match="x2 upscales ×2: choose a ×4 model for ×4") as raised:
        service.upscale(_picture(), 4)
    assert raised.value.field == "factor"
    with pytest.raises(UserError, match="×2 or ×4, not ×3"):
        service.upscale(_picture(), 3)
    with pytest.raises(InvalidInputError, match="too big to upscale ×2: 6,000×4,500"):
        service.upscale(np.zeros((4500, 6000, 3), np.uint8))
    assert metrics.latest("upscaler") is None  # nothing was loaded
    (folder / "openvino_model.bin").write_bytes(b"\x00" * 64)  # damaged: said when it loads
    with pytest.raises(Exception, match="x2") as damaged:
        service.upscale(_picture())
    assert "Traceback" not in str(damaged.value)
