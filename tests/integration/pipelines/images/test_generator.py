"""Image generation with OpenVINO GenAI on tiny random diffusion models (their pictures are
noise: the tests check sizes, seeds, modes, previews, Cancel and the stages' figures)."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from pipelines.core import Cancelled, CancelToken, InvalidInputError, ModelLoadError, Progress
from pipelines.images import (
    ImageGenerator,
    ImageModelConfig,
    ImageRequest,
    Mode,
    Preview,
    PreviewPolicy,
    Side,
)

pytestmark = pytest.mark.integration
EVERY_PREVIEW = PreviewPolicy(min_interval_s=0.0, budget=1.0)


@pytest.fixture(scope="module")
def lcm(diffusion_model_dir: Path) -> ImageGenerator:
    generator = ImageGenerator(ImageModelConfig(diffusion_model_dir, preview=EVERY_PREVIEW))
    generator.load()
    return generator


@pytest.fixture(scope="module")
def inpainter(inpainting_model_dir: Path) -> ImageGenerator:
    generator = ImageGenerator(ImageModelConfig(inpainting_model_dir, preview=EVERY_PREVIEW))
    generator.load()
    return generator


def _picture(width: int = 64, height: int = 64, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 255, (height, width, 3), dtype=np.uint8)


def test_a_prompt_gives_pictures_of_the_rounded_size_and_its_seed(lcm: ImageGenerator) -> None:
    result = lcm.text_to_image(ImageRequest("a red fox", width=100, height=60, count=2, steps=2))
    assert [picture.shape for picture in result.pictures] == [(64, 96, 3)] * 2
    assert all(picture.dtype == np.uint8 for picture in result.pictures)
    assert result.settings.mode is Mode.TEXT_TO_IMAGE
    assert (result.settings.width, result.settings.height) == (96, 64)
    assert result.notes[0].startswith("Drawn at 96×64")
    again = lcm.text_to_image(
        ImageRequest("a red fox", width=96, height=64, count=2, steps=2, seed=result.settings.seed)
    )
    assert all(np.array_equal(a, b) for a, b in zip(result.pictures, again.pictures, strict=True))
    other = lcm.text_to_image(
        ImageRequest("a red fox", width=96, height=64, steps=2, seed=result.settings.seed + 1)
    )
    assert not np.array_equal(other.pictures[0], result.pictures[0])


def test_the_models_own_steps_and_guidance_are_the_defaults(lcm: ImageGenerator) -> None:
    assert (lcm.defaults.steps, lcm.defaults.guidance) == (4, 8.5)  # LCM's, from GenAI
    result = lcm.text_to_image(ImageRequest("a"))
    assert (result.settings.steps, result.settings.guidance) == (4, 8.5)
    assert (result.settings.width, result.settings.height) == (64, 64)  # the model's size


@pytest.mark.parametrize("model", ["lcm", "inpainter"])
def test_every_mode_runs_on_one_compiled_model(model: str, request: pytest.FixtureRequest) -> None:
    generator: ImageGenerator = request.getfixturevalue(model)
    compiles = generator.compiles
    picture = _picture(96, 64)
    mask = np.zeros((64, 96), np.uint8)
    mask[16:48, 32:64] = 255
    drawn = generator.text_to_image(ImageRequest("a fox", steps=2))
    edited = generator.image_to_image(ImageRequest("a fox", steps=2, strength=0.5), picture)
    painted = generator.inpaint(ImageRequest("a cat", steps=2), picture, mask)
    grown = generator.outpaint(ImageRequest("a cat", steps=2), picture, Side.RIGHT, 20)
    assert generator.modes == tuple(Mode)
    assert generator.compiles == compiles  # switching mode compiled nothing again
    assert drawn.pictures[0].shape == (64, 64, 3)
    assert edited.pictures[0].shape == (64, 96, 3)
    assert (edited.settings.mode, edited.settings.strength) == (Mode.IMAGE_TO_IMAGE, 0.5)
    assert painted.pictures[0].shape == (64, 96, 3)
    # Outside the mask (and its feathered edge) the user's pixels are kept exactly.
    assert np.array_equal(painted.pictures[0][:, :24], picture[:, :24])
    assert not np.array_equal(painted.pictures[0][16:48, 32:64], picture[16:48, 32:64])
    assert grown.pictures[0].shape == (64, 128, 3)  # 96 + 20 = 116, up to a step of 16
    assert grown.settings.mode is Mode.OUTPAINTING
    assert np.array_equal(grown.pictures[0][:, :88], picture[:, :88])


def test_an_inpainting_model_reads_a_negative_prompt_and_an_lcm_does_not(
    lcm: ImageGenerator, inpainter: ImageGenerator
) -> None:
    request = ImageRequest("a fox", negative_prompt="blurry", steps=2, guidance=7.5)
    assert inpainter.text_to_image(request).settings.negative_prompt == "blurry"
    lcm_result = lcm.text_to_image(request)
    assert lcm_result.settings.negative_prompt == ""
    assert "negative prompt was not used" in lcm_result.notes[-1]


def test_progress_and_previews_arrive_while_the_picture_forms(lcm: ImageGenerator) -> None:
    progress: list[Progress] = []
    previews: list[Preview] = []
    threads: set[str] = set()

    def on_preview(preview: Preview) -> None:
        threads.add(threading.current_thread().name)
        previews.append(preview)

    result = lcm.text_to_image(
        ImageRequest("a", steps=4, count=2), on_progress=progress.append, on_preview=on_preview
    )
    assert progress[-1] == Progress("done", 4, 4)
    assert [p.done for p in progress[:-1]] == sorted(p.done for p in progress[:-1])
    assert previews, "no preview was decoded"
    assert all(p.picture.shape == (64, 64, 3) and p.total == 4 for p in previews)
    assert all(p.step < 4 for p in previews)  # the last step's picture is the result itself
    assert threading.current_thread().name not in threads  # OpenVINO's callback thread
    figures = lcm.metrics().values
    assert figures["previews"] == len(previews) and figures["preview_ms"] > 0
    assert len(result.pictures) == 2


def test_the_stages_figures_come_from_the_pipeline(lcm: ImageGenerator) -> None:
    lcm.text_to_image(ImageRequest("a", steps=3))
    record = lcm.metrics()
    assert record.pipeline == "images" and record.device == "CPU"
    values = record.values
    assert values["steps"] == 3 and values["images"] == 1
    for name in ("text_encoder_ms", "denoise_first_ms", "denoise_step_ms", "vae_decode_ms"):
        assert values[name] > 0, name
    assert values["load_ms"] > 0 and values["generate_ms"] >= values["vae_decode_ms"]


def test_cancel_mid_step_returns_nothing(lcm: ImageGenerator) -> None:
    cancel = CancelToken()

    def stop_after_the_second_step(progress: Progress) -> None:
        if progress.done >= 2:
            cancel.cancel()

    with pytest.raises(Cancelled):
        lcm.text_to_image(
            ImageRequest("a", steps=8), cancel=cancel, on_progress=stop_after_the_second_step
        )
    assert lcm.text_to_image(ImageRequest("a", steps=2)).pictures  # still serves the next one


def test_cancel_before_the_start_runs_nothing(lcm: ImageGenerator) -> None:
    cancel = CancelToken()
    cancel.cancel()
    seen: list[Progress] = []
    with pytest.raises(Cancelled):
        lcm.text_to_image(ImageRequest("a", steps=2), cancel=cancel, on_progress=seen.append)
    assert seen == []


def test_a_failing_preview_callback_is_raised_here_and_the_process_lives(
    lcm: ImageGenerator,
) -> None:
    def broken(preview: Preview) -> None:
        raise KeyError("the panel is gone")

    with pytest.raises(KeyError, match="the panel is gone"):
        lcm.text_to_image(ImageRequest("a", steps=4), on_preview=broken)


def test_hostile_input_is_refused_before_the_model_loads(diffusion_model_dir: Path) -> None:
    generator = ImageGenerator(ImageModelConfig(diffusion_model_dir))
    for request, field in [
        (ImageRequest("x" * 100_000), "prompt"),
        (ImageRequest("a", width=0, height=0), "size"),
        (ImageRequest("a", width=50_000, height=50_000), "size"),
    ]:
        with pytest.raises(InvalidInputError) as refused:
            generator.text_to_image(request)
        assert refused.value.field == field
    assert not generator.loaded


def test_a_mask_of_another_picture_is_refused(lcm: ImageGenerator) -> None:
    with pytest.raises(InvalidInputError, match="paint the mask on this picture") as refused:
        lcm.inpaint(ImageRequest("a"), _picture(64, 64), np.full((30, 90), 255, np.uint8))
    assert refused.value.field == "mask"


def test_a_folder_that_is_not_a_diffusion_model_is_refused(chat_model_dir: Path) -> None:
    generator = ImageGenerator(ImageModelConfig(chat_model_dir))
    with pytest.raises(ModelLoadError, match="is not an image-generation model") as refused:
        generator.load()
    assert refused.value.field == "model"
