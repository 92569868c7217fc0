"""Pictures in: files read safely, masks checked, outpainting's canvas, the user's pixels kept."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from pipelines.core import InvalidInputError
from pipelines.images.pictures import (
    Side,
    check_picture,
    extend_canvas,
    mask_for,
    paste_outside,
    read_picture,
)
from tests.image_samples import png_claiming


def _png(array: np.ndarray, mode: str | None = None) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(array, mode).save(buffer, format="PNG")
    return buffer.getvalue()


def test_a_picture_file_is_read_as_rgb(tmp_path: Path) -> None:
    rgba = np.zeros((4, 6, 4), np.uint8)
    rgba[..., 0] = 200
    rgba[:, :3, 3] = 255  # the right half transparent: laid over white
    path = tmp_path / "p.png"
    path.write_bytes(_png(rgba))
    picture = read_picture(path)
    assert picture.shape == (4, 6, 3) and picture.dtype == np.uint8
    assert tuple(picture[0, 0]) == (200, 0, 0)
    assert tuple(picture[0, 5]) == (255, 255, 255)
    assert read_picture(_png(rgba)).shape == (4, 6, 3)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "is empty"),
        (b"just some text, named .png", "is not a picture that can be read"),
        (png_claiming(50_000, 50_000), "too many pixels to open safely (50,000×50,000"),
    ],
)
def test_what_is_not_a_readable_picture_is_refused_in_a_sentence(
    tmp_path: Path, content: bytes, words: str
) -> None:
    path = tmp_path / "image.png"
    path.write_bytes(content)
    with pytest.raises(InvalidInputError) as refused:
        read_picture(path, field="init_image")
    assert words in str(refused.value)
    assert refused.value.field == "init_image"


def test_a_truncated_picture_is_refused(tmp_path: Path) -> None:
    whole = _png(np.random.default_rng(0).integers(0, 255, (64, 64, 3), dtype=np.uint8))
    with pytest.raises(InvalidInputError, match=r"damaged|not a picture"):
        read_picture(whole[: len(whole) // 2], name="cut.png")


def test_a_folder_is_not_a_picture(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="is a folder"):
        read_picture(tmp_path)


def test_arrays_that_are_not_rgb_bytes_are_refused() -> None:
    with pytest.raises(InvalidInputError, match="RGB bytes"):
        check_picture(np.zeros((4, 4), np.uint8))
    with pytest.raises(InvalidInputError, match="RGB bytes"):
        check_picture(np.zeros((4, 4, 3), np.float32))
    with pytest.raises(InvalidInputError, match="no pixels"):
        check_picture(np.zeros((0, 4, 3), np.uint8))


def test_a_mask_is_binarised_white_repaints() -> None:
    picture = np.zeros((4, 4, 3), np.uint8)
    grey = np.array([[0, 100, 128, 255]] * 4, np.uint8)
    mask, note = mask_for(grey, picture)
    assert note == ""
    assert mask.shape == (4, 4, 3)
    assert mask[0, :, 0].tolist() == [0, 0, 255, 255]
    rgba = np.zeros((4, 4, 4), np.uint8)
    rgba[:2] = 255
    assert mask_for(rgba, picture)[0][:, 0, 0].tolist() == [255, 255, 0, 0]


def test_a_mask_painted_on_a_scaled_copy_is_scaled_with_a_note() -> None:
    picture = np.zeros((64, 96, 3), np.uint8)
    small = np.zeros((32, 48), np.uint8)
    small[:, 24:] = 255
    mask, note = mask_for(small, picture)
    assert mask.shape == (64, 96, 3)
    assert mask[:, :40].max() == 0 and mask[:, 56:].min() == 255
    assert note == "The 48×32 mask was scaled to the 96×64 picture."


def test_a_mask_of_another_picture_or_of_nothing_is_refused() -> None:
    picture = np.zeros((64, 64, 3), np.uint8)
    with pytest.raises(InvalidInputError) as refused:
        mask_for(np.full((30, 50), 255, np.uint8), picture)
    assert str(refused.value) == (
        "The mask is 50×30 but the picture is 64×64: paint the mask on this picture."
    )
    assert refused.value.field == "mask"
    with pytest.raises(InvalidInputError, match="The mask is empty"):
        mask_for(np.zeros((64, 64), np.uint8), picture)
    with pytest.raises(InvalidInputError, match="must be a picture"):
        mask_for(np.zeros((2, 2, 2, 2), np.uint8), picture)


@pytest.mark.parametrize(
    ("side", "shape"),
    [(Side.RIGHT, (40, 80, 3)), (Side.LEFT, (40, 80, 3)), (Side.TOP, (64, 50, 3))],
)
def test_outpainting_grows_the_canvas_to_the_models_step_and_masks_the_new_part(
    side: Side, shape: tuple[int, int, int]
) -> None:
    picture = np.random.default_rng(1).integers(0, 255, (40, 50, 3), dtype=np.uint8)
    canvas, mask = extend_canvas(picture, side, 20, step=16)
    assert canvas.shape == mask.shape == shape
    new = mask[..., 0] == 255
    if side is Side.RIGHT:
        assert (
            np.array_equal(canvas[:, :50], picture) and new[:, 50:].all() and not new[:, :50].any()
        )
        assert np.array_equal(canvas[:, 79], picture[:, 49])  # the edge stretched out
    elif side is Side.LEFT:
        assert np.array_equal(canvas[:, 30:], picture) and new[:, :30].all()
    else:
        assert np.array_equal(canvas[24:], picture) and new[:24].all() and not new[24:].any()
    with pytest.raises(InvalidInputError, match="at least 1 pixel"):
        extend_canvas(picture, side, 0)


def test_the_users_pixels_are_put_back_outside_the_mask() -> None:
    original = np.full((32, 32, 3), 10, np.uint8)
    painted = np.full((32, 32, 3), 250, np.uint8)
    mask = np.zeros((32, 32, 3), np.uint8)
    mask[8:24, 8:24] = 255
    result = paste_outside(original, painted, mask)
    assert (result[8:24, 8:24] == 250).all()  # the mask is repainted whole
    assert (result[:, :2] == 10).all() and (result[:2] == 10).all()  # far outside: untouched
    assert 10 < result[8, 6, 0] < 250  # the edge is feathered, not a seam


def test_a_masks_transparent_part_is_repainted_else_its_white_part() -> None:
    from pipelines.images.pictures import read_mask

    hole = np.full((4, 4, 4), 200, np.uint8)  # the picture itself, opaque …
    hole[:2, :, 3] = 0  # … with its top half cut out (OpenAI's images API's mask)
    assert read_mask(_png(hole)).tolist() == [[255] * 4] * 2 + [[0] * 4] * 2
    grey = np.zeros((4, 4), np.uint8)
    grey[:, 2:] = 255
    assert read_mask(_png(grey)).tolist() == [[0, 0, 255, 255]] * 4
    opaque = np.zeros((4, 4, 4), np.uint8)
    opaque[..., 3] = 255  # an alpha channel that hides nothing: read by brightness
    opaque[3, :, :3] = 255
    assert read_mask(_png(opaque))[3].tolist() == [255] * 4
    with pytest.raises(InvalidInputError, match="The mask is not a picture"):
        read_mask(b"text")
