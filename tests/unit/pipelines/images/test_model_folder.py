"""A diffusion folder recognised from its files, and anything else refused in one sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipelines.core import ModelLoadError
from pipelines.images.model_folder import read_diffusion_folder


def _diffusion_folder(
    root: Path, class_name: str = "StableDiffusionPipeline", **unet: object
) -> Path:
    folder = root / "model"
    for part in ("unet", "text_encoder", "vae_decoder"):
        (folder / part).mkdir(parents=True)
        (folder / part / "openvino_model.xml").write_text("<net/>", encoding="utf-8")
    (folder / "model_index.json").write_text(json.dumps({"_class_name": class_name}))
    config = {"sample_size": 64, "in_channels": 4, **unet}
    (folder / "unet" / "config.json").write_text(json.dumps(config))
    vae = {"block_out_channels": [128, 256, 512, 512]}
    (folder / "vae_decoder" / "config.json").write_text(json.dumps(vae))
    return folder


def test_stable_diffusions_facts_are_read_from_its_configs(tmp_path: Path) -> None:
    facts = read_diffusion_folder(_diffusion_folder(tmp_path))
    assert (facts.vae_scale, facts.default_side, facts.size_step) == (8, 512, 64)
    assert not facts.inpainting_model and not facts.guidance_embedded
    assert facts.name == "model"


def test_an_inpainting_unet_and_an_lcm_are_told_apart(tmp_path: Path) -> None:
    inpaint = read_diffusion_folder(
        _diffusion_folder(tmp_path / "a", "StableDiffusionInpaintPipeline", in_channels=9)
    )
    lcm = read_diffusion_folder(
        _diffusion_folder(tmp_path / "b", "LatentConsistencyModelPipeline", time_cond_proj_dim=256)
    )
    assert inpaint.inpainting_model and not inpaint.guidance_embedded
    assert lcm.guidance_embedded and not lcm.inpainting_model


def test_damaged_configs_fall_back_to_stable_diffusions_values(tmp_path: Path) -> None:
    folder = _diffusion_folder(tmp_path)
    (folder / "unet" / "config.json").write_text("{not json")
    (folder / "vae_decoder" / "config.json").write_text(json.dumps({"block_out_channels": "x"}))
    facts = read_diffusion_folder(folder)
    assert (facts.vae_scale, facts.default_side) == (8, 512)


def test_a_chat_model_is_not_a_diffusion_model(tmp_path: Path) -> None:
    (tmp_path / "openvino_model.xml").write_text("<net/>")
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "qwen2"}))
    with pytest.raises(ModelLoadError) as refused:
        read_diffusion_folder(tmp_path)
    assert "is not an image-generation model (model_index.json is missing" in str(refused.value)
    assert refused.value.field == "model"


def test_missing_parts_and_folders_are_named(tmp_path: Path) -> None:
    folder = _diffusion_folder(tmp_path)
    (folder / "vae_decoder" / "openvino_model.xml").unlink()
    with pytest.raises(ModelLoadError, match=r"vae_decoder/openvino_model\.xml is missing"):
        read_diffusion_folder(folder)
    with pytest.raises(ModelLoadError, match="does not exist"):
        read_diffusion_folder(tmp_path / "nowhere")
    (folder / "model_index.json").write_text(json.dumps({"_class_name": 42}))
    with pytest.raises(ModelLoadError, match="names no diffusers pipeline"):
        read_diffusion_folder(folder)
    (folder / "model_index.json").write_text("[" * 100_000)  # hostile JSON: refused, not a crash
    with pytest.raises(ModelLoadError, match="missing or damaged"):
        read_diffusion_folder(folder)
