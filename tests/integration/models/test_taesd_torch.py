"""Tiny autoencoders (TAESD-class): a diffusers AutoencoderTiny folder converted through the
real conversion job into a preview decoder that draws what diffusers' own decoder draws, and
every other folder refused in one sentence before any work."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.models.convert import convert_model
from app.models.convert_plan import ConvertRequest, Weights, plan_conversion
from app.models.inspect import detect_task
from app.models.registry import ModelRegistry
from pipelines.images.tiny_decoder import TinyDecoder
from tests.fixtures.preview_decoder_models import AUTOENCODER, CONVERTED

torch = pytest.importorskip("torch")
taesd = pytest.importorskip("app.models.taesd_torch")

pytestmark = pytest.mark.integration


@pytest.fixture
def registry(tmp_path: Path) -> ModelRegistry:
    return ModelRegistry(tmp_path / "home" / "models.json", tmp_path / "home" / "models")


def _latent(height: int, width: int, seed: int = 0) -> np.ndarray:
    # The spread of an SD latent mid-denoising (×0.18215-scaled pictures plus noise).
    return np.random.default_rng(seed).normal(0.0, 1.0, (1, 4, height, width)).astype(np.float32)


def _diffusers_picture(folder: Path, latent: np.ndarray) -> np.ndarray:
    """What diffusers' own AutoencoderTiny decodes ``latent`` to, as RGB bytes [H, W, 3]."""
    from diffusers import AutoencoderTiny

    autoencoder = AutoencoderTiny.from_pretrained(str(folder)).eval()  # type: ignore[no-untyped-call]
    with torch.no_grad():
        decoded = autoencoder.decode(torch.from_numpy(latent)).sample.numpy()
    rgb = np.clip((decoded[0] + 1.0) * 127.5 + 0.5, 0, 255).astype(np.uint8)
    return np.ascontiguousarray(rgb.transpose(1, 2, 0))


def test_the_converted_decoder_draws_what_diffusers_draws(preview_decoder_dir: Path) -> None:
    decoder = TinyDecoder(
        preview_decoder_dir / CONVERTED, properties={"INFERENCE_PRECISION_HINT": "f32"}
    )
    assert decoder.scale == 8
    for height, width, seed in ((8, 8, 1), (6, 10, 2)):
        latent = _latent(height, width, seed)
        expected = _diffusers_picture(preview_decoder_dir / AUTOENCODER, latent)
        got = decoder.decode(latent)
        assert got.shape == (height * 8, width * 8, 3) and got.dtype == np.uint8
        difference = np.abs(got.astype(np.int16) - expected.astype(np.int16))
        # Content, not shape: random weights still draw a texture that varies over the picture
        # (a decoder that drew a flat colour or another latent's picture fails).
        assert float(expected.std()) > 2.0
        assert int(difference.max()) <= 3  # fp16 weights, f32 arithmetic, rounding to bytes
        other = _diffusers_picture(preview_decoder_dir / AUTOENCODER, _latent(height, width, 99))
        assert float(np.abs(got.astype(np.int16) - other).mean()) > 4 * float(difference.mean())


def test_a_folder_converts_through_the_job_into_a_preview_decoder(
    preview_decoder_dir: Path, tmp_path: Path, registry: ModelRegistry
) -> None:
    source = shutil.copytree(preview_decoder_dir / AUTOENCODER, tmp_path / "taesd")
    stages: list[str] = []
    model = convert_model(
        ConvertRequest(str(source), Weights.INT8, task=ModelTask.PREVIEW_DECODER),
        registry,
        on_progress=lambda progress: stages.append(progress.message),
    )
    assert model.id == "taesd-int8-ov"
    assert model.task is ModelTask.PREVIEW_DECODER and model.usable
    assert detect_task(model.folder) is ModelTask.PREVIEW_DECODER
    config = json.loads((model.folder / "config.json").read_text(encoding="utf-8"))
    assert config == {
        "model_type": "taesd",
        "task": "preview-decoder",
        "weights": "int8",
        "latent_channels": 4,
        "scale": 8,
    }
    assert "Converting the preview decoder to OpenVINO" in stages
    latent = _latent(8, 8, 3)
    expected = _diffusers_picture(source, latent)
    got = TinyDecoder(model.folder).decode(latent)
    assert float(np.abs(got.astype(np.int16) - expected).mean()) < 4.0  # int8 weights, bf16


def _vae_folder(folder: Path) -> Path:
    folder.mkdir()
    config = {"_class_name": "AutoencoderKL", "_diffusers_version": "0.36.0"}
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    (folder / "diffusion_pytorch_model.safetensors").write_bytes(b"\0" * 16)
    return folder


def test_another_kind_of_folder_is_refused_before_the_job(
    tmp_path: Path, registry: ModelRegistry
) -> None:
    request = ConvertRequest(
        str(_vae_folder(tmp_path / "vae")), Weights.FP16, task=ModelTask.PREVIEW_DECODER
    )
    with pytest.raises(UserError) as raised:
        plan_conversion(request, registry)
    assert str(raised.value) == (
        "Not a tiny autoencoder to make a preview decoder of: vae holds AutoencoderKL, "
        "not a tiny autoencoder (AutoencoderTiny)."
    )
    assert raised.value.field == "source"


def test_pickled_weights_and_damaged_configs_are_refused(
    preview_decoder_dir: Path, tmp_path: Path
) -> None:
    pickled = shutil.copytree(preview_decoder_dir / AUTOENCODER, tmp_path / "pickled")
    (pickled / "diffusion_pytorch_model.safetensors").rename(pickled / "model.bin")
    with pytest.raises(taesd.CheckpointError, match=r"has no \*\.safetensors weights"):
        taesd.check_tiny_autoencoder(pickled)
    damaged = shutil.copytree(preview_decoder_dir / AUTOENCODER, tmp_path / "damaged")
    (damaged / "config.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(taesd.CheckpointError, match=r"no readable config\.json"):
        taesd.check_tiny_autoencoder(damaged)
    truncated = shutil.copytree(preview_decoder_dir / AUTOENCODER, tmp_path / "truncated")
    (truncated / "diffusion_pytorch_model.safetensors").write_bytes(b"\x10\0\0\0\0\0\0\0{")
    with pytest.raises(taesd.CheckpointError, match="could not be read as an AutoencoderTiny"):
        taesd.convert_tiny_decoder(truncated, tmp_path / "out")
    assert not (tmp_path / "out" / "openvino_model.xml").exists()


def test_preview_decoders_convert_with_int8_or_fp16_only(
    preview_decoder_dir: Path, registry: ModelRegistry
) -> None:
    request = ConvertRequest(
        str(preview_decoder_dir / AUTOENCODER), Weights.INT4, task=ModelTask.PREVIEW_DECODER
    )
    with pytest.raises(UserError, match="int8 or fp16"):
        plan_conversion(request, registry)
    # A hub id is fetched by the job (config.json and its safetensors), as the catalog's.
    request = ConvertRequest("madebyollin/taesd", Weights.FP16, task=ModelTask.PREVIEW_DECODER)
    plan = plan_conversion(request, registry)
    assert (
        plan.source == "madebyollin/taesd" and not plan.local and plan.model_id == "taesd-fp16-ov"
    )
