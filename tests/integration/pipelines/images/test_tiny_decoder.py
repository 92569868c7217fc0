"""The tiny preview decoder: SD latents in, full-size pictures out; other latents and damaged
folders refused in a sentence."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from pipelines.core import InvalidInputError, ModelLoadError
from pipelines.images.tiny_decoder import TinyDecoder, read_decoder_config
from tests.fixtures.preview_decoder_models import CONVERTED

pytestmark = pytest.mark.integration


def test_a_latent_decodes_to_a_picture_eight_times_its_size(preview_decoder_dir: Path) -> None:
    decoder = TinyDecoder(preview_decoder_dir / CONVERTED)
    assert not decoder.loaded
    latent = np.random.default_rng(0).normal(size=(2, 4, 5, 7)).astype(np.float32)
    picture = decoder.decode(latent)
    assert decoder.loaded and picture.shape == (40, 56, 3) and picture.dtype == np.uint8
    first_only = decoder.decode(latent[:1])
    np.testing.assert_array_equal(picture, first_only)  # the batch's first latent, no other
    assert decoder.metrics().values["decode_ms"] > 0


@pytest.mark.parametrize("shape", [(1, 16, 8, 8), (4, 8, 8), (1, 3, 8, 8)])
def test_a_latent_of_another_layout_is_refused(
    preview_decoder_dir: Path, shape: tuple[int, ...]
) -> None:
    decoder = TinyDecoder(preview_decoder_dir / CONVERTED)
    with pytest.raises(InvalidInputError, match=r"reads \[batch, 4, height, width\] latents"):
        decoder.decode(np.zeros(shape, dtype=np.float32))
    assert not decoder.loaded  # refused before anything compiled


def test_damaged_folders_are_refused_in_a_sentence(
    preview_decoder_dir: Path, tmp_path: Path
) -> None:
    folder = shutil.copytree(preview_decoder_dir / CONVERTED, tmp_path / "taesd")
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    (folder / "config.json").write_text(
        json.dumps({**config, "latent_channels": 16}), encoding="utf-8"
    )
    with pytest.raises(ModelLoadError, match="decodes 16-channel latents"):
        read_decoder_config(folder)
    (folder / "config.json").write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(ModelLoadError, match="does not say taesd"):
        read_decoder_config(folder)
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    (folder / "openvino_model.xml").write_text("<net>", encoding="utf-8")
    with pytest.raises(ModelLoadError):
        TinyDecoder(folder).load()
    (folder / "openvino_model.xml").unlink()
    with pytest.raises(ModelLoadError, match=r"openvino_model\.xml is missing"):
        TinyDecoder(folder).decode(np.zeros((1, 4, 8, 8), dtype=np.float32))


def test_another_network_with_a_taesd_config_is_refused(
    preview_decoder_dir: Path, tmp_path: Path
) -> None:
    import openvino as ov
    from openvino import opset13 as ops

    folder = shutil.copytree(preview_decoder_dir / CONVERTED, tmp_path / "other")
    source = ops.parameter(ov.PartialShape([-1, 3, -1, -1]), np.float32, name="image")
    ov.save_model(ov.Model([ops.relu(source)], [source]), str(folder / "openvino_model.xml"))
    with pytest.raises(ModelLoadError, match="is not a preview decoder: it should take"):
        TinyDecoder(folder).load()


def test_an_optimum_export_of_a_tiny_autoencoder_is_read_as_it_is(
    preview_decoder_dir: Path, tmp_path: Path
) -> None:
    from app.core.model_tasks import ModelTask
    from app.models.contracts import missing_files
    from app.models.inspect import detect_task
    from tests.fixtures.preview_decoder_models import AUTOENCODER

    # deinferno/taesd-openvino's layout: vae_decoder/ (IR + diffusers' config), vae_encoder/.
    folder = tmp_path / "taesd-openvino"
    shutil.copytree(preview_decoder_dir / CONVERTED, folder / "vae_decoder")
    shutil.copy(preview_decoder_dir / AUTOENCODER / "config.json", folder / "vae_decoder")
    assert detect_task(folder) is ModelTask.PREVIEW_DECODER
    assert missing_files(folder, ModelTask.PREVIEW_DECODER) == []
    assert read_decoder_config(folder) == (4, 8)  # TAESD's: three ×2 upsamplings
    latent = np.random.default_rng(4).normal(size=(1, 4, 6, 6)).astype(np.float32)
    np.testing.assert_array_equal(
        TinyDecoder(folder).decode(latent),
        TinyDecoder(preview_decoder_dir / CONVERTED).decode(latent),
    )
    config = json.loads((folder / "vae_decoder" / "config.json").read_text(encoding="utf-8"))
    (folder / "vae_decoder" / "config.json").write_text(
        json.dumps({**config, "_class_name": "AutoencoderKL"}), encoding="utf-8"
    )
    assert detect_task(folder) is not ModelTask.PREVIEW_DECODER
    with pytest.raises(ModelLoadError, match="names 'AutoencoderKL', not AutoencoderTiny"):
        read_decoder_config(folder)
