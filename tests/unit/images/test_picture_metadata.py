"""A picture's settings in its PNG: written by the app, read back from any file as hostile."""

from __future__ import annotations

import io
import json
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, PngImagePlugin

from app.images.picture_metadata import (
    NOTHING,
    parameters_text,
    png_bytes,
    read_settings,
    recall,
)
from pipelines.images import ImageRequest, ImageSettings, Mode

SETTINGS = ImageSettings(
    mode=Mode.INPAINTING,
    prompt="a lighthouse at dusk",
    negative_prompt="blurry",
    width=96,
    height=64,
    steps=20,
    guidance=7.5,
    count=2,
    seed=4_000_000_000,
    strength=0.75,
    model="dreamshaper-8-inpainting-int8-ov",
)
PICTURE = np.random.default_rng(0).integers(0, 255, (64, 96, 3), dtype=np.uint8)


def _png_with(text: dict[str, str], *, compressed: bool = False) -> bytes:
    info = PngImagePlugin.PngInfo()
    for key, value in text.items():
        info.add_text(key, value, zip=compressed)
    buffer = io.BytesIO()
    Image.fromarray(PICTURE[:4, :4]).save(buffer, format="PNG", pnginfo=info)
    return buffer.getvalue()


def test_the_settings_travel_inside_the_png(tmp_path: Path) -> None:
    data = png_bytes(PICTURE, SETTINGS)
    with Image.open(io.BytesIO(data)) as image:
        assert np.array_equal(np.asarray(image), PICTURE)
        assert "Negative prompt: blurry" in image.text["parameters"]
    recalled = recall(data)
    assert recalled.found and recalled.mode is Mode.INPAINTING
    assert recalled.model == SETTINGS.model
    assert recalled.request == ImageRequest(
        "a lighthouse at dusk", "blurry", 96, 64, 20, 7.5, 2, 4_000_000_000, 0.75
    )
    path = tmp_path / "p.png"
    path.write_bytes(data)
    assert read_settings(path) == SETTINGS


def test_the_text_other_tools_show() -> None:
    assert parameters_text(SETTINGS) == (
        "a lighthouse at dusk\nNegative prompt: blurry\nSteps: 20, CFG scale: 7.5, "
        "Seed: 4000000000, Size: 96x64, Model: dreamshaper-8-inpainting-int8-ov, "
        "Denoising strength: 0.75, Mode: inpainting"
    )


@pytest.mark.parametrize(
    "chunk",
    [
        "{not json",
        "[" * 50_000 + "]" * 50_000,  # nested far too deep
        json.dumps([1, 2, 3]),  # not an object
        json.dumps({"prompt": "x" * 70_000}),  # larger than any settings the app writes
        "NaN",
    ],
)
def test_unreadable_settings_are_nothing_never_a_crash(chunk: str) -> None:
    assert recall(_png_with({"ov-studio": chunk})) == NOTHING


def test_wrong_types_and_ranges_fall_back_to_the_defaults_one_by_one() -> None:
    hostile = {
        "prompt": "a fox",
        "negative_prompt": 42,
        "width": "512",
        "height": -5,
        "steps": True,
        "guidance": 1e308,
        "count": 10_000,
        "seed": -1,
        "strength": 0,
        "mode": "teleport",
        "model": ["x"],
    }
    recalled = recall(_png_with({"ov-studio": json.dumps(hostile)}))
    assert recalled.request == ImageRequest("a fox")  # every other value: the default
    assert recalled.mode is None and recalled.model == ""
    missing = recall(_png_with({"ov-studio": json.dumps({"seed": 7})}))
    assert missing.request == ImageRequest("", seed=7) and not missing.found


def test_a_huge_compressed_text_chunk_is_refused_by_the_reader() -> None:
    bomb = zlib.compress(b"a" * (64 * 1024 * 1024), 9)  # 64 MB of text in ~64 KB
    data = bytearray(_png_with({}))
    body = b"ov-studio\x00\x00" + bomb
    chunk = len(body).to_bytes(4, "big") + b"zTXt" + body
    chunk += zlib.crc32(b"zTXt" + body).to_bytes(4, "big")
    end = data.rfind(b"IEND") - 4
    hostile = bytes(data[:end]) + chunk + bytes(data[end:])
    assert recall(hostile) == NOTHING


@pytest.mark.parametrize("content", [b"", b"plain text, not a picture", b"\x89PNG\r\n\x1a\n"])
def test_files_that_are_not_pictures_carry_nothing(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "dropped.png"
    path.write_bytes(content)
    assert recall(path) == NOTHING
    assert read_settings(path) is None
    assert recall(tmp_path / "missing.png") == NOTHING


def test_a_jpeg_or_a_png_of_another_tool_carries_nothing_of_ours() -> None:
    buffer = io.BytesIO()
    Image.fromarray(PICTURE).save(buffer, format="JPEG")
    assert recall(buffer.getvalue()) == NOTHING
    assert recall(_png_with({"parameters": "a cat\nSteps: 20, Seed: 1"})) == NOTHING
