"""A diffusers pipeline folder converts to an image-generation model: checked before any
process starts (app.models.diffusers_folder, app.models.convert_plan)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.models.convert_plan import ConvertRequest, Weights, plan_conversion
from app.models.registry import ModelRegistry


@pytest.fixture
def registry(tmp_path: Path) -> ModelRegistry:
    return ModelRegistry(tmp_path / "data" / "models.json", tmp_path / "data" / "models")


def pipeline_folder(
    root: Path, pipeline: str = "StableDiffusionPipeline", unet_channels: int = 4
) -> Path:
    """A folder laid out as diffusers saves a pipeline (no config.json at its top)."""
    folder = root / "dreamy-sd"
    for part in ("unet", "tokenizer", "text_encoder", "vae"):
        (folder / part).mkdir(parents=True)
    (folder / "model_index.json").write_text(json.dumps({"_class_name": pipeline}))
    (folder / "unet" / "config.json").write_text(json.dumps({"in_channels": unet_channels}))
    (folder / "unet" / "diffusion_pytorch_model.safetensors").write_bytes(b"\0" * 16)
    (folder / "tokenizer" / "vocab.json").write_text("{}")
    return folder


def test_a_pipeline_folder_is_an_image_model_exported_as_text_to_image(
    tmp_path: Path, registry: ModelRegistry
) -> None:
    plan = plan_conversion(ConvertRequest(str(pipeline_folder(tmp_path)), Weights.INT8), registry)
    assert plan.task is ModelTask.IMAGE_GENERATION and plan.local and plan.offline
    assert plan.job_task == "text-to-image"
    assert plan.model_id == "dreamy-sd-int8-ov"
    assert plan.export_args == ("--weight-format", "int8")


@pytest.mark.parametrize(
    ("pipeline", "channels"),
    [("StableDiffusionInpaintPipeline", 9), ("StableDiffusionPipeline", 9)],
)
def test_an_inpainting_pipeline_is_exported_for_inpainting(
    tmp_path: Path, registry: ModelRegistry, pipeline: str, channels: int
) -> None:
    # Its class says so, or its UNet's nine input channels (the mask and the masked picture).
    folder = pipeline_folder(tmp_path, pipeline, channels)
    plan = plan_conversion(ConvertRequest(str(folder), Weights.INT8), registry)
    assert plan.job_task == "inpainting"


def test_a_hub_id_of_an_inpainting_model_is_exported_for_inpainting(
    registry: ModelRegistry,
) -> None:
    task = ModelTask.IMAGE_GENERATION
    inpaint = ConvertRequest("Lykon/dreamshaper-8-inpainting", Weights.INT8, task=task)
    plain = ConvertRequest("stabilityai/sdxl-turbo", Weights.INT8, task=task)
    assert plan_conversion(inpaint, registry).job_task == "inpainting"
    assert plan_conversion(plain, registry).job_task == "text-to-image"
    assert not plan_conversion(plain, registry).local


@pytest.mark.parametrize(
    ("damage", "sentence"),
    [
        ("index", "model_index.json cannot be read as a diffusers pipeline"),
        ("class", "model_index.json cannot be read as a diffusers pipeline"),
        ("weights", "has no denoiser weights"),
        ("tokenizer", "has no tokenizer files"),
    ],
)
def test_a_pipeline_folder_that_cannot_convert_is_one_sentence(
    tmp_path: Path, registry: ModelRegistry, damage: str, sentence: str
) -> None:
    folder = pipeline_folder(tmp_path)
    if damage == "index":
        (folder / "model_index.json").write_bytes(b"\xff{not json")
    elif damage == "class":
        (folder / "model_index.json").write_text(json.dumps({"_class_name": ["a", "list"]}))
    elif damage == "weights":
        (folder / "unet" / "diffusion_pytorch_model.safetensors").unlink()
    else:
        (folder / "tokenizer" / "vocab.json").unlink()
    with pytest.raises(UserError, match=sentence) as caught:
        plan_conversion(ConvertRequest(str(folder), Weights.INT8), registry)
    assert caught.value.field == "source"


def test_a_pipeline_folder_asked_for_another_task_is_refused(
    tmp_path: Path, registry: ModelRegistry
) -> None:
    folder = pipeline_folder(tmp_path)
    request = ConvertRequest(str(folder), Weights.INT8, task=ModelTask.CHAT)
    with pytest.raises(UserError, match="diffusers pipeline") as caught:
        plan_conversion(request, registry)
    assert caught.value.field == "task"
