"""The one limit on pixels, read from the header before decoding, wherever a picture enters."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from app.avatar import media as avatar_media
from app.avatar.media import read_frame
from app.chat.images import prepare_image, prepare_image_bytes
from pipelines.core import InvalidInputError
from pipelines.image_size import MAX_IMAGE_PIXELS, check_pixels, header_size, pixels_refusal
from pipelines.lipsync import media
from pipelines.lipsync.media import read_face
from tests.image_samples import png_claiming, y4m_claiming

HUGE = (
    "has too many pixels to open safely (20,000×20,000, 400 megapixels; at most 180 can be "
    "opened): scale it down first."
)


@pytest.fixture
def no_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail at once if OpenCV is asked to decode: the refusal must come from the header."""

    def decoded(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the image was decoded before its size was checked")

    monkeypatch.setattr(media, "decode_image", decoded)
    monkeypatch.setattr(avatar_media, "decode_image", decoded)


def test_the_size_comes_from_the_header_alone(tmp_path: Path) -> None:
    claim = png_claiming(20_000, 20_000)  # 41 bytes: no pixel behind the header
    assert header_size(claim) == (20_000, 20_000)
    (tmp_path / "claim.png").write_bytes(claim)
    assert header_size(tmp_path / "claim.png") == (20_000, 20_000)
    assert header_size(b"not a picture") is None


def test_the_limit_and_its_sentence() -> None:
    check_pixels(18_000, 10_000, "scan.png", field="face")  # exactly the limit passes
    assert MAX_IMAGE_PIXELS == 18_000 * 10_000
    with pytest.raises(InvalidInputError) as refused:
        check_pixels(20_000, 20_000, "face.png", field="face")
    assert str(refused.value) == f"face.png {HUGE}" and refused.value.field == "face"
    just_over = pixels_refusal(18_001, 10_000, "scan.png")
    assert just_over is not None and "(18,001×10,000, 180.0 megapixels;" in just_over


@pytest.mark.usefixtures("no_decoding")
def test_a_lipsync_face_is_refused_before_opencv_decodes_it(tmp_path: Path) -> None:
    face = tmp_path / "face.png"
    face.write_bytes(png_claiming(20_000, 20_000))  # decoded, 2.5 GB in lip-sync
    with pytest.raises(InvalidInputError) as refused:
        read_face(face)
    assert str(refused.value) == f"face.png {HUGE}" and refused.value.field == "face"


@pytest.mark.usefixtures("no_decoding")
def test_a_face_preview_is_refused_before_opencv_decodes_it(tmp_path: Path) -> None:
    face = tmp_path / "face.png"
    face.write_bytes(png_claiming(20_000, 20_000))
    with pytest.raises(InvalidInputError) as refused:
        read_frame(face)
    assert str(refused.value) == f"“face.png” {HUGE}" and refused.value.field == "face"


@pytest.mark.usefixtures("no_decoding")
def test_a_face_header_that_cannot_be_read_is_not_decoded(tmp_path: Path) -> None:
    face = tmp_path / "face.png"
    face.write_bytes(b"YUV4MPEG2 not a picture")
    with pytest.raises(InvalidInputError, match="is not a readable image"):
        read_face(face)
    with pytest.raises(InvalidInputError, match="is not a readable image"):
        read_frame(face)


def test_a_video_whose_frames_are_too_big_is_refused_when_opened(tmp_path: Path) -> None:
    video = tmp_path / "talking.mp4"
    video.write_bytes(y4m_claiming(14_000, 14_000))  # FFmpeg itself stops at ~268 megapixels
    expected = (
        "has too many pixels to open safely (14,000×14,000, 196 megapixels; at most 180 can be "
        "opened): scale it down first."
    )
    with pytest.raises(InvalidInputError) as refused:
        read_face(video)
    assert str(refused.value) == f"talking.mp4 {expected}"
    with pytest.raises(InvalidInputError) as refused:
        read_frame(video)
    assert str(refused.value) == f"“talking.mp4” {expected}"


def test_a_chat_attachment_is_refused_with_its_size(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError) as refused:
        prepare_image_bytes(png_claiming(20_000, 20_000), "pasted.png")
    assert str(refused.value) == f"pasted.png {HUGE}" and refused.value.field == "images"
    # A real one, past Pillow's own refusal (179 megapixels): the same sentence, not Pillow's.
    Image.new("1", (20_000, 20_000)).save(tmp_path / "bomb.png")
    with pytest.raises(InvalidInputError) as refused:
        prepare_image(tmp_path / "bomb.png")
    assert str(refused.value) == f"bomb.png {HUGE}"
