"""What a picture is asked with: every refusal is one sentence with its field, before any work."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.core import InvalidInputError
from pipelines.images.model_folder import DiffusionFolder
from pipelines.images.request import (
    MAX_SEED,
    MAX_SIDE,
    RANDOM_SEEDS,
    ImageRequest,
    Mode,
    ModelDefaults,
    check_request,
    edit_size,
    resolve_settings,
    round_size,
)

SD15 = DiffusionFolder(Path("sd15"), "StableDiffusionPipeline", "unet", False, False, 8, 512)
LCM = DiffusionFolder(Path("lcm"), "LatentConsistencyModelPipeline", "unet", False, True, 8, 512)
DEFAULTS = ModelDefaults(steps=4, guidance=8.5, strength=0.8)


@pytest.mark.parametrize(
    ("request_", "field", "words"),
    [
        (ImageRequest(""), "prompt", "Write a prompt"),
        (ImageRequest("   \n"), "prompt", "Write a prompt"),
        (ImageRequest("x" * 100_000), "prompt", "100,000 characters"),
        (ImageRequest("a", negative_prompt="n" * 5000), "negative_prompt", "5,000 characters"),
        (ImageRequest("a", width=0, height=0), "size", "0×0 is not"),
        (ImageRequest("a", width=50_000, height=50_000), "size", "50,000×50,000 is not"),
        (ImageRequest("a", width=-64, height=64), "size", "1 to 2,048"),
        (ImageRequest("a", count=0), "count", "from 1 to 8"),
        (ImageRequest("a", count=1000), "count", "from 1 to 8"),
        (ImageRequest("a", steps=0), "steps", "from 1 to 150"),
        (ImageRequest("a", guidance=-1.0), "guidance", "between 0 and 30"),
        (ImageRequest("a", seed=-1), "seed", "The seed"),
        (ImageRequest("a", seed=MAX_SEED + 1), "seed", "The seed"),
        (ImageRequest("a", strength=0.0), "strength", "above 0"),
        (ImageRequest("a", strength=1.5), "strength", "above 0"),
    ],
)
def test_hostile_requests_are_refused_with_their_field(
    request_: ImageRequest, field: str, words: str
) -> None:
    with pytest.raises(InvalidInputError) as refused:
        check_request(request_)
    assert refused.value.field == field
    assert words in str(refused.value)
    assert "\n" not in str(refused.value)


def test_a_sensible_request_passes() -> None:
    check_request(ImageRequest("a lighthouse", width=512, height=768, steps=4, seed=MAX_SEED))


def test_sizes_round_to_the_models_step_with_a_note() -> None:
    assert round_size(512, 512, SD15) == (512, 512, "")
    width, height, note = round_size(500, 700, SD15)
    assert (width, height) == (512, 704)
    assert "512×704" in note and "steps of 64" in note and "500×700" in note
    assert round_size(1, 1, SD15)[:2] == (64, 64)  # at least one step
    assert round_size(MAX_SIDE, 2047, SD15)[:2] == (MAX_SIDE, MAX_SIDE)
    with pytest.raises(InvalidInputError, match="0×10"):
        round_size(0, 10, SD15)


def test_an_edit_keeps_the_pictures_size_or_scales_a_big_one_down() -> None:
    assert edit_size(512, 768, SD15) == (512, 768, "")
    width, height, note = edit_size(4000, 3000, SD15)  # at most twice 512 on the long side
    assert (width, height) == (1024, 768)
    assert "scaled down" in note
    width, height, note = edit_size(500, 300, SD15)
    assert (width, height) == (512, 320)
    assert "rounded" in note and "scaled" not in note


def test_the_models_defaults_fill_what_is_not_asked_and_the_seed_is_drawn() -> None:
    settings, notes = resolve_settings(
        ImageRequest("  a fox  "), SD15, DEFAULTS, Mode.TEXT_TO_IMAGE, (512, 512)
    )
    assert (settings.steps, settings.guidance, settings.strength) == (4, 8.5, 1.0)
    assert settings.prompt == "a fox"
    assert 0 <= settings.seed < RANDOM_SEEDS
    assert settings.model == "sd15"
    assert notes == []
    assert settings.as_dict()["mode"] == "text-to-image"
    seeds = {
        resolve_settings(ImageRequest("a"), SD15, DEFAULTS, Mode.TEXT_TO_IMAGE, (64, 64))[0].seed
        for _ in range(5)
    }
    assert len(seeds) > 1  # random by default


def test_an_edits_strength_defaults_by_mode() -> None:
    image, _ = resolve_settings(ImageRequest("a"), SD15, DEFAULTS, Mode.IMAGE_TO_IMAGE, (64, 64))
    inpaint, _ = resolve_settings(ImageRequest("a"), SD15, DEFAULTS, Mode.INPAINTING, (64, 64))
    assert (image.strength, inpaint.strength) == (0.8, 1.0)


def test_a_strength_that_leaves_no_step_is_refused() -> None:
    request = ImageRequest("a", steps=4, strength=0.2)
    with pytest.raises(InvalidInputError, match="runs no step") as refused:
        resolve_settings(request, SD15, DEFAULTS, Mode.IMAGE_TO_IMAGE, (64, 64))
    assert refused.value.field == "strength"


def test_a_negative_prompt_is_dropped_with_a_note_where_the_model_reads_none() -> None:
    request = ImageRequest("a", negative_prompt="blurry")
    settings, notes = resolve_settings(request, LCM, DEFAULTS, Mode.TEXT_TO_IMAGE, (64, 64))
    assert settings.negative_prompt == ""
    assert notes == ["The negative prompt was not used: lcm does not read one."]
    request = ImageRequest("a", negative_prompt="blurry", guidance=1.0)
    settings, notes = resolve_settings(request, SD15, DEFAULTS, Mode.TEXT_TO_IMAGE, (64, 64))
    assert settings.negative_prompt == "" and "guidance scale of 1 or less" in notes[0]
    request = ImageRequest("a", negative_prompt="blurry", guidance=7.5)
    settings, notes = resolve_settings(request, SD15, DEFAULTS, Mode.TEXT_TO_IMAGE, (64, 64))
    assert settings.negative_prompt == "blurry" and notes == []


def test_a_broken_clipboards_lone_surrogate_does_not_reach_openvino() -> None:
    settings, _ = resolve_settings(
        ImageRequest("a \ud800 fox"), SD15, DEFAULTS, Mode.TEXT_TO_IMAGE, (64, 64)
    )
    assert settings.prompt == "a ? fox"
    settings.prompt.encode("utf-8")
