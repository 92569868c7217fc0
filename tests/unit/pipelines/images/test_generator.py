"""The generator's compile decisions without the hardware: on an NPU (static shapes) a
picture of another size, count or guidance compiles again, the same one does not; elsewhere
nothing compiles twice. OpenVINO is replaced by a fake that draws blank pictures."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from pipelines.images import ImageGenerator, ImageModelConfig, ImageRequest, StageDevices
from pipelines.images import generator as generator_module
from pipelines.images.model_pipes import ModelPipes
from pipelines.images.request import ModelDefaults


class FakePipe:
    """GenAI's generate / decode / metrics, drawing blank pictures of the asked size."""

    def generate(self, prompt: str, *inputs: Any, **arguments: Any) -> Any:
        shape = (arguments["num_images_per_prompt"], arguments["height"], arguments["width"], 3)
        pictures = np.zeros(shape, np.uint8)
        return SimpleNamespace(data=pictures, get_size=lambda: pictures.size)

    def decode(self, latent: Any) -> Any:
        raise AssertionError("no preview was asked for")

    def get_performance_metrics(self) -> Any:
        raw = SimpleNamespace(unet_inference_durations=[1.0], transformer_inference_durations=[])
        return SimpleNamespace(
            raw_metrics=raw,
            get_first_and_other_unet_infer_duration=lambda: (1.0, 1.0),
            get_text_encoder_infer_duration=lambda: {"text_encoder": 1.0},
            get_vae_decoder_infer_duration=lambda: 1.0,
            get_vae_encoder_infer_duration=lambda: 0.0,
        )


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []

    def build_pipes(folder: Any, devices: StageDevices, **options: Any) -> ModelPipes:
        calls.append({"devices": devices, **options})
        pipe = FakePipe()
        return ModelPipes(pipe, pipe, pipe, ModelDefaults(4, 8.5, 0.8), options["shape"])

    monkeypatch.setattr(generator_module, "build_pipes", build_pipes)
    return calls


def _model(tmp_path: Path) -> Path:
    for part in ("unet", "text_encoder", "vae_decoder"):
        (tmp_path / part).mkdir()
        (tmp_path / part / "openvino_model.xml").write_text("<net/>")
    (tmp_path / "model_index.json").write_text('{"_class_name": "LatentConsistencyModelPipeline"}')
    (tmp_path / "unet" / "config.json").write_text(
        json.dumps({"sample_size": 64, "time_cond_proj_dim": 256})
    )
    return tmp_path


def test_an_npu_compiles_again_for_another_shape_only(
    tmp_path: Path, builds: list[dict[str, Any]]
) -> None:
    devices = StageDevices("CPU", "NPU", "GPU")
    config = ImageModelConfig(_model(tmp_path), devices, cache_dir=tmp_path / "cache")
    generator = ImageGenerator(config)
    generator.load()
    assert builds[0]["shape"] == (1, 512, 512, 8.5)  # the model's own size, one picture
    assert builds[0]["devices"] == devices and builds[0]["cache_dir"] == tmp_path / "cache"
    generator.text_to_image(ImageRequest("a"))
    assert len(builds) == 1  # the compiled shape
    drawn = generator.text_to_image(ImageRequest("a", width=640, height=384, count=2))
    assert builds[-1]["shape"] == (2, 384, 640, 8.5)
    assert [picture.shape for picture in drawn.pictures] == [(384, 640, 3)] * 2
    generator.text_to_image(ImageRequest("b", width=640, height=384, count=2))
    assert len(builds) == 2 and generator.compiles == 2


def test_dynamic_devices_compile_once_for_every_size(
    tmp_path: Path, builds: list[dict[str, Any]]
) -> None:
    generator = ImageGenerator(ImageModelConfig(_model(tmp_path), StageDevices.on("GPU")))
    for size in (512, 256, 768):
        generator.text_to_image(ImageRequest("a", width=size, height=size, count=3))
    assert [call["shape"] for call in builds] == [None]
    assert generator.metrics().device == "GPU"
