"""The image service: the model from the settings or the registry, loaded once through the
engine host for every mode, one job at a time, pictures kept in the gallery, figures
published, and the sentences a person sees."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from app.core.devices import DeviceInfo
from app.core.errors import BusyError, ModelMissingError, UserError
from app.core.model_choices import ModelChoices
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from app.core.settings import Settings
from app.images import ImageRequest, ImageService, Mode, PictureOptions, Side, StageDevices
from app.models.registry import ModelRegistry
from pipelines.core import Progress

pytestmark = pytest.mark.integration
CPU = DeviceInfo("CPU", "Test CPU")


def _service(
    home: AppPaths, folder: Path | None = None, devices: list[DeviceInfo] | None = None
) -> tuple[ImageService, MetricsBus]:
    models = ModelChoices()
    if folder is not None:
        models = models.with_folder(ModelTask.IMAGE_GENERATION, folder)
    metrics = MetricsBus()
    registry = ModelRegistry(home.model_registry, home.models_dir)
    service = ImageService(
        Settings(models=models), metrics, devices or [CPU], registry, home.gallery_dir
    )
    return service, metrics


def test_no_model_is_the_model_missing_sentence(app_home: AppPaths, tmp_path: Path) -> None:
    service, _ = _service(app_home)
    with pytest.raises(ModelMissingError, match="No image-generation model is installed") as error:
        service.text_to_image(ImageRequest("a fox"))
    assert error.value.task == "image-generation"
    gone, _ = _service(app_home, tmp_path / "gone")
    with pytest.raises(UserError, match=r"folder .* is missing") as missing:
        gone.model_folder()
    assert missing.value.field == "model"


def test_the_installed_model_draws_and_the_gallery_keeps_it(
    app_home: AppPaths, diffusion_model_dir: Path
) -> None:
    registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
    registry.add_folder(diffusion_model_dir, ModelTask.IMAGE_GENERATION)
    service, metrics = _service(app_home)  # no choice in the settings: the installed model
    created = service.text_to_image(ImageRequest("a fox", steps=2, count=2, seed=3))
    assert len(created.result.pictures) == 2 and created.problem == ""
    assert [item.settings.seed for item in created.saved] == [3, 3]
    assert [item.name for item in service.gallery.items()] == sorted(
        (item.name for item in created.saved), reverse=True
    )
    record = metrics.latest("images")
    assert record is not None
    assert record.values["steps"] == 2 and record.values["load_ms"] > 0


def test_every_mode_reuses_the_one_loaded_model(
    app_home: AppPaths, inpainting_model_dir: Path
) -> None:
    service, _ = _service(app_home, inpainting_model_dir)
    picture = np.random.default_rng(0).integers(0, 255, (64, 64, 3), dtype=np.uint8)
    mask = np.zeros((64, 64), np.uint8)
    mask[:32] = 255
    quick = ImageRequest("a", steps=2)
    modes = [
        service.text_to_image(quick).result.settings.mode,
        service.image_to_image(quick, picture).result.settings.mode,
        service.inpaint(quick, picture, mask).result.settings.mode,
        service.outpaint(quick, picture, Side.BOTTOM, 16).result.settings.mode,
    ]
    assert modes == [mode for mode in Mode if mode is not Mode.UPSCALE]  # the drawing modes
    generator = service.generator()
    assert generator.compiles == 1  # four modes, one compile
    assert len(service.gallery.items()) == 4


def test_a_second_job_is_refused_while_one_runs(
    app_home: AppPaths, diffusion_model_dir: Path
) -> None:
    service, _ = _service(app_home, diffusion_model_dir)
    started, release = threading.Event(), threading.Event()

    def hold(progress: Progress) -> None:
        started.set()
        release.wait(timeout=60)

    options = PictureOptions(save=False, on_progress=hold)
    runner = threading.Thread(
        target=service.text_to_image,
        args=(ImageRequest("a", steps=3),),
        kwargs={"picture_options": options},
    )
    runner.start()
    try:
        assert started.wait(timeout=60)
        with pytest.raises(BusyError, match="A picture is already being made") as busy:
            service.text_to_image(ImageRequest("b"))
        assert busy.value.field == "prompt"
    finally:
        release.set()
        runner.join(timeout=60)
    assert service.gallery.items() == []  # save=False kept nothing


def test_devices_auto_and_named(app_home: AppPaths, diffusion_model_dir: Path) -> None:
    gpu = DeviceInfo("GPU", "Test GPU")
    service, _ = _service(app_home, diffusion_model_dir, [CPU, gpu])
    assert service.stages("AUTO") == StageDevices("CPU", "GPU", "GPU")
    assert service.stages("cpu") == StageDevices.on("CPU")
    with pytest.raises(UserError, match="Device 'NPU' is not available") as error:
        service.stages("NPU")
    assert error.value.field == "device"


def test_each_stage_on_its_own_device(app_home: AppPaths, diffusion_model_dir: Path) -> None:
    gpu, npu = DeviceInfo("GPU", "Test GPU"), DeviceInfo("NPU", "Test NPU")
    service, _ = _service(app_home, diffusion_model_dir, [CPU, gpu, npu])
    spec = "text=CPU,denoise=NPU,vae=GPU"
    assert service.stages(spec) == StageDevices("CPU", "NPU", "GPU")
    assert service.stages("denoise=npu") == StageDevices("CPU", "NPU", "GPU")  # rest as AUTO
    assert service.stages("text=GPU,vae=auto") == StageDevices("GPU", "GPU", "GPU")
    registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
    settings = Settings(image_stages="vae=CPU")  # the setting, when no device is given
    configured = ImageService(settings, MetricsBus(), [CPU, gpu], registry, app_home.gallery_dir)
    assert configured.stages() == StageDevices("CPU", "GPU", "CPU")
    assert configured.stages("CPU") == StageDevices.on("CPU")  # a device given wins
    for bad in ("text=CPU,text=GPU", "unet=GPU", "text=", "text=CPU,denoise=TPU"):
        with pytest.raises(UserError) as error:
            service.stages(bad)
        assert error.value.field == "device"


def test_stages_apart_draw_on_the_cpu(app_home: AppPaths, diffusion_model_dir: Path) -> None:
    """The only devices here are CPUs: a spec naming each stage still compiles and draws."""
    service, metrics = _service(app_home, diffusion_model_dir)
    options = PictureOptions(device="text=CPU,denoise=CPU,vae=CPU", save=False)
    created = service.text_to_image(ImageRequest("a", steps=2), picture_options=options)
    assert created.result.pictures[0].shape[2] == 3
    record = metrics.latest("images")
    assert record is not None and record.device == "CPU"


def test_a_gallery_that_cannot_be_written_keeps_the_pictures(
    app_home: AppPaths, diffusion_model_dir: Path, unwritable_folder: Path
) -> None:
    service, _ = _service(app_home, diffusion_model_dir)
    service.gallery.folder = unwritable_folder / "pictures"
    created = service.text_to_image(ImageRequest("a", steps=2))
    assert created.result.pictures and created.saved == ()
    assert created.problem.startswith("The picture could not be saved in")


def test_the_models_facts_are_read_without_loading_it(
    app_home: AppPaths, diffusion_model_dir: Path, inpainting_model_dir: Path, tmp_path: Path
) -> None:
    lcm, _ = _service(app_home, diffusion_model_dir)
    facts = lcm.model_facts()
    assert facts.name == diffusion_model_dir.name and facts.guidance_embedded
    assert facts.size_step > 0 and facts.default_side % facts.size_step == 0
    inpainting, _ = _service(app_home, inpainting_model_dir)
    assert not inpainting.model_facts().guidance_embedded  # reads a negative prompt
    (tmp_path / "chat-model").mkdir()
    wrong, _ = _service(app_home, tmp_path / "chat-model")
    with pytest.raises(UserError, match="is not an image-generation model") as error:
        wrong.model_facts()
    assert error.value.field == "model"
