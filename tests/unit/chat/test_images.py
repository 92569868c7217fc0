"""Image attachments: hostile files give one sentence (field ``images``) and write nothing."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from app.chat.images import (
    MAX_IMAGES,
    MAX_SIDE,
    check_count,
    decode_rgb,
    prepare_image,
    text_only_refusal,
)
from app.core.errors import UserError


def _save(path: Path, image: Image.Image, **options: object) -> Path:
    image.save(path, **options)
    return path


def _refusal(path: Path) -> str:
    before = sorted(path.parent.iterdir())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no Pillow warning may escape
        with pytest.raises(UserError) as refused:
            prepare_image(path)
    assert refused.value.field == "images"
    message = str(refused.value)
    assert message.endswith(".") and message.count(". ") == 0, message  # one sentence
    assert "Traceback" not in message
    assert sorted(path.parent.iterdir()) == before  # nothing written
    return message


def test_a_corrupt_image_is_refused(tmp_path: Path) -> None:
    good = _save(tmp_path / "photo.png", Image.new("RGB", (300, 200), "red"))
    damaged = tmp_path / "damaged.png"
    damaged.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    assert "damaged" in _refusal(damaged)


def test_a_truncated_jpeg_is_refused(tmp_path: Path) -> None:
    noise = np.random.default_rng(0).integers(0, 255, (400, 400, 3), dtype=np.uint8)
    good = _save(tmp_path / "photo.jpg", Image.fromarray(noise), quality=90)
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(good.read_bytes()[:2000])
    assert "cut.jpg" in _refusal(cut)


def test_a_non_image_renamed_png_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "notes.png"
    fake.write_text("These are my notes, not a picture.\n" * 20)
    assert _refusal(fake) == "notes.png is not an image this app can read."


def test_an_empty_file_is_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    assert "empty" in _refusal(empty)


def test_a_missing_file_and_a_folder_are_refused(tmp_path: Path) -> None:
    assert "does not exist" in _refusal(tmp_path / "gone.png")
    (tmp_path / "folder.png").mkdir()
    assert "folder" in _refusal(tmp_path / "folder.png")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file_is_refused(tmp_path: Path) -> None:
    locked = _save(tmp_path / "locked.png", Image.new("RGB", (10, 10)))
    locked.chmod(0)
    try:
        assert "Permission denied" in _refusal(locked)
    finally:
        locked.chmod(0o600)


def test_a_pipe_named_png_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "stream.png"
    os.mkfifo(fifo)
    assert "pipe" in _refusal(fifo)


def test_a_huge_image_is_scaled_with_a_note_and_no_warning(tmp_path: Path) -> None:
    # 12000×12000 is past Pillow's decompression-bomb warning (89 megapixels).
    huge = _save(tmp_path / "huge.png", Image.new("L", (12000, 12000), 128))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        prepared = prepare_image(huge)
    assert (prepared.width, prepared.height) == (MAX_SIDE, MAX_SIDE)
    assert prepared.note == "Scaled down from 12000×12000."
    assert decode_rgb(prepared.png).shape == (MAX_SIDE, MAX_SIDE, 3)


def test_too_many_pixels_is_one_sentence(tmp_path: Path) -> None:
    # Above Pillow's limit (~179 megapixels) it refuses to open: our sentence, not its error.
    bomb = _save(tmp_path / "bomb.png", Image.new("1", (20000, 10000)))
    assert "too many pixels" in _refusal(bomb)


def test_an_animated_gif_gives_its_first_frame(tmp_path: Path) -> None:
    frames = [Image.new("RGB", (40, 30), colour) for colour in ("red", "lime", "blue")]
    gif = tmp_path / "anim.gif"
    frames[0].save(gif, save_all=True, append_images=frames[1:], duration=100)
    prepared = prepare_image(gif)
    assert prepared.note == "Animated: only the first frame is sent."
    pixels = decode_rgb(prepared.png)
    assert pixels.shape == (30, 40, 3) and pixels[0, 0].tolist() == [255, 0, 0]


def test_transparency_goes_on_white_and_grayscale_becomes_rgb(tmp_path: Path) -> None:
    clear = _save(tmp_path / "logo.png", Image.new("RGBA", (30, 30), (0, 0, 0, 0)))
    assert decode_rgb(prepare_image(clear).png)[0, 0].tolist() == [255, 255, 255]
    grey = _save(tmp_path / "grey.png", Image.new("L", (30, 30), 7))
    assert decode_rgb(prepare_image(grey).png)[0, 0].tolist() == [7, 7, 7]


def test_a_very_thin_image_is_padded(tmp_path: Path) -> None:
    thin = _save(tmp_path / "thin.png", Image.new("RGB", (3000, 8), "red"))
    prepared = prepare_image(thin)
    assert (prepared.width, prepared.height) == (2048, 103)  # 2048 / 20, rounded up
    assert (
        prepared.note
        == "Scaled down from 3000×8. Padded to 2048×103: too small or thin for the model."
    )


def test_the_limit_per_message_is_one_sentence() -> None:
    check_count(MAX_IMAGES)
    with pytest.raises(UserError) as refused:
        check_count(20)
    assert str(refused.value) == "At most 10 images per message."
    assert refused.value.field == "images"


def test_the_text_only_refusal_names_the_vision_models() -> None:
    error = text_only_refusal("qwen3-4b", ["InternVL2 1B (int4)", "Phi-3.5 vision"])
    assert str(error) == (
        "qwen3-4b reads text only: load a vision model such as InternVL2 1B (int4), "
        "Phi-3.5 vision to ask about images."
    )
