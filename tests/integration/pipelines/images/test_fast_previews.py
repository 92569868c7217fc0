"""Previews through a tiny preview decoder (TAESD-class) on the tiny random LCM: full-size fast
previews in the VAE's place; a damaged decoder, or one failing mid-way, is a note on the
pictures and previews are made as before — the picture is always drawn."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from pipelines.images import ImageGenerator, ImageModelConfig, ImageRequest, Preview, PreviewKind
from pipelines.images.preview import PreviewPolicy
from pipelines.images.tiny_decoder import TinyDecoder
from tests.fixtures.preview_decoder_models import CONVERTED, CONVERTED_X2

pytestmark = pytest.mark.integration
EVERY_PREVIEW = PreviewPolicy(min_interval_s=0.0, budget=1.0)


def _generator(model: Path, decoder: Path | None) -> ImageGenerator:
    generator = ImageGenerator(
        ImageModelConfig(model, preview=EVERY_PREVIEW, preview_decoder=decoder)
    )
    generator.load()
    return generator


def _draw(generator: ImageGenerator, steps: int = 6) -> tuple[list[Preview], tuple[str, ...]]:
    previews: list[Preview] = []
    result = generator.text_to_image(
        ImageRequest("a lighthouse", width=96, height=64, steps=steps, seed=5),
        on_preview=previews.append,
    )
    assert len(result.pictures) == 1 and result.pictures[0].shape == (64, 96, 3)
    return previews, result.notes


def test_previews_come_from_the_fast_decoder_at_full_size(
    diffusion_model_dir: Path, preview_decoder_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    generator = _generator(diffusion_model_dir, preview_decoder_dir / CONVERTED_X2)
    assert generator.fast_previews and generator.preview_note == ""
    decoded: list[tuple[np.ndarray, np.ndarray]] = []
    decode = TinyDecoder.decode

    def spy(self: TinyDecoder, latent: np.ndarray) -> np.ndarray:
        picture = decode(self, latent)
        decoded.append((latent.copy(), picture))
        return picture

    monkeypatch.setattr(TinyDecoder, "decode", spy)
    previews, notes = _draw(generator)
    kinds = {preview.kind for preview in previews}
    assert PreviewKind.FAST in kinds and PreviewKind.DECODED not in kinds
    fast = [preview for preview in previews if preview.kind is PreviewKind.FAST]
    assert all(preview.picture.shape == (64, 96, 3) for preview in fast)
    # Each fast preview is the decoder's picture of that step's latent (the 32×48 latent of a
    # 96×64 picture: the fixture's VAE enlarges ×2), not the VAE's nor a sketch.
    assert [latent.shape for latent, _ in decoded] == [(1, 4, 32, 48)] * len(fast)
    for preview, (_, picture) in zip(fast, decoded, strict=True):
        np.testing.assert_array_equal(preview.picture, picture)
    assert not any("preview decoder" in note for note in notes)
    figures = generator.metrics().values
    assert figures["preview_ms"] > 0 and figures["previews"] == len(previews)


def test_without_a_decoder_nothing_changes(diffusion_model_dir: Path) -> None:
    generator = _generator(diffusion_model_dir, None)
    assert not generator.fast_previews
    previews, _ = _draw(generator)
    assert previews and PreviewKind.FAST not in {preview.kind for preview in previews}


def _damaged(preview_decoder_dir: Path, tmp_path: Path, damage: str) -> Path:
    folder = shutil.copytree(preview_decoder_dir / CONVERTED_X2, tmp_path / "taesd-damaged")
    if damage == "xml":
        (folder / "openvino_model.xml").write_bytes(b"<net><layers><layer id='0' type=")
    elif damage == "bin":
        (folder / "openvino_model.bin").write_bytes(b"\0" * 64)
    elif damage == "config":
        (folder / "config.json").write_text(json.dumps({"model_type": "rrdbnet"}), "utf-8")
    else:
        shutil.rmtree(folder)
    return folder


def test_a_decoder_of_another_scale_is_not_used(
    diffusion_model_dir: Path, preview_decoder_dir: Path
) -> None:
    generator = _generator(diffusion_model_dir, preview_decoder_dir / CONVERTED)
    assert not generator.fast_previews
    assert generator.preview_note == (
        "The preview decoder taesd-random is not used — it enlarges latents ×8, this model's "
        "VAE ×2; previews are drawn as before."
    )


@pytest.mark.parametrize("damage", ["xml", "bin", "config", "gone"])
def test_a_damaged_decoder_is_one_sentence_and_previews_are_made_as_before(
    diffusion_model_dir: Path, preview_decoder_dir: Path, tmp_path: Path, damage: str
) -> None:
    folder = _damaged(preview_decoder_dir, tmp_path, damage)
    generator = _generator(diffusion_model_dir, folder)
    assert not generator.fast_previews
    note = generator.preview_note
    assert note.startswith("The preview decoder taesd-damaged is not used — ")
    assert note.endswith("; previews are drawn as before.") and "\n" not in note
    previews, notes = _draw(generator)
    assert previews and PreviewKind.FAST not in {preview.kind for preview in previews}
    assert notes[-1] == note


def test_a_decoder_failing_mid_way_is_dropped_and_the_picture_drawn(
    diffusion_model_dir: Path, preview_decoder_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    generator = _generator(diffusion_model_dir, preview_decoder_dir / CONVERTED_X2)

    def broken(self: TinyDecoder, latent: np.ndarray) -> np.ndarray:
        raise RuntimeError("Exception from src/inference/src/cpp/infer.cpp:223:\nout of memory")

    monkeypatch.setattr(TinyDecoder, "decode", broken)
    previews, notes = _draw(generator, steps=8)
    assert PreviewKind.FAST not in {preview.kind for preview in previews}
    assert notes[-1].startswith("The preview decoder taesd-random-x2 is not used — out of memory;")
    assert not generator.fast_previews  # not tried again for the next picture
    monkeypatch.undo()
    _, again = _draw(generator)
    assert again[-1] == notes[-1]
