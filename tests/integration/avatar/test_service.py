"""The avatar service on the tiny Wav2Lip-contract model and the real BlazeFace detector: the
gallery, the field each refusal names, the detector's own device (the pipeline itself:
tests/integration/pipelines/lipsync/test_pipeline.py)."""

from __future__ import annotations

import stat
from pathlib import Path

import cv2
import numpy as np
import pytest

from app.avatar.service import AvatarService
from app.core.devices import DeviceInfo
from app.core.errors import ModelMissingError, UserError
from app.core.model_choices import Local, ModelChoices
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from app.core.settings import Settings
from app.models.registry import ModelRegistry
from pipelines.core import DeviceError

pytestmark = pytest.mark.integration
CPU = DeviceInfo("CPU", "Test CPU")


# -- the service, the loop and the command line -------------------------------------------


def test_service_writes_into_the_gallery_and_reports_metrics(
    avatar: AvatarService, media: Path
) -> None:
    first = avatar.lipsync(media / "astronaut.png", media / "speech.wav")
    second = avatar.lipsync(media / "astronaut.png", media / "speech.wav")
    assert first.path != second.path
    assert avatar.recent() == [second.path, first.path]
    assert stat.S_IMODE(avatar.results_dir.stat().st_mode) == 0o700  # the cloned voice speaks
    assert avatar.faces(media / "astronaut.png")[0][2] > 50
    record = avatar._metrics.latest("lipsync")
    assert record is not None and record.values["fps"] > 0 and "infer_ms" in record.values


def test_service_errors_name_the_field(avatar: AvatarService, media: Path, tmp_path: Path) -> None:
    with pytest.raises(UserError, match="No face") as caught:
        cv2.imwrite(str(media / "wall.png"), np.full((200, 200, 3), 50, np.uint8))
        avatar.lipsync(media / "wall.png", media / "speech.wav", tmp_path / "x.mp4")
    assert caught.value.field == "face"


def test_the_face_detector_runs_on_its_own_device(
    app_home: AppPaths, lipsync_model_dir: Path, media: Path, out_dir: Path
) -> None:
    # A GPU this machine lacks passes the device check and fails to compile: what a broken
    # driver does.
    devices = [CPU, DeviceInfo("GPU", "Test GPU")]
    models = ModelChoices().with_folder(ModelTask.LIPSYNC, lipsync_model_dir)
    settings = Settings(models=models.with_placement(ModelTask.FACE_DETECTOR, Local(device="GPU")))
    registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
    avatar = AvatarService(app_home.avatar_dir, settings, MetricsBus(), devices, registry)
    face, speech = media / "astronaut.png", media / "speech.wav"
    # As in Chat, the DeviceError itself arrives (with its device), so the panel can offer
    # the CPU.
    with pytest.raises(DeviceError, match="GPU is not available for the face detector") as caught:
        avatar.lipsync(face, speech, out_dir / "gpu.mp4", device="CPU")  # the setting's GPU
    assert caught.value.device == "GPU" and caught.value.field == "detector_device"
    with pytest.raises(DeviceError) as model_failed:
        avatar.lipsync(face, speech, out_dir / "gpu.mp4", device="GPU", detector_device="CPU")
    assert model_failed.value.device == "GPU" and model_failed.value.field == "device"
    with pytest.raises(UserError, match="Face detector: Device 'TPU' is not available") as bad:
        avatar.lipsync(face, speech, out_dir / "tpu.mp4", device="CPU", detector_device="TPU")
    assert bad.value.field == "detector_device" and list(out_dir.iterdir()) == []
    result = avatar.lipsync(face, speech, out_dir / "cpu.mp4", device="CPU", detector_device="cpu")
    assert (result.device, result.detector_device, result.frames) == ("CPU", "CPU", 58)


def test_no_lipsync_model_explains_the_licence(app_home: AppPaths) -> None:
    registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
    metrics = MetricsBus()
    bare = AvatarService(app_home.avatar_dir, Settings(), metrics, [CPU], registry)
    with pytest.raises(UserError, match="non-commercial") as caught:
        bare.model_folder()
    assert caught.value.field == "model" and "Models… → Convert" in str(caught.value)
    assert isinstance(caught.value, ModelMissingError) and caught.value.task == "lipsync"


# -- a long job stopped from outside ------------------------------------------------------


# -- bad inputs through the real command: one line of ours, nothing from the libraries -----


def test_service_refuses_a_face_number_that_was_not_found(
    avatar: AvatarService, media: Path
) -> None:
    with pytest.raises(UserError, match=r"no face number 3 in astronaut\.png") as caught:
        avatar.lipsync(media / "astronaut.png", media / "speech.wav", face_index=3)
    assert caught.value.field == "face" and avatar.recent() == []
