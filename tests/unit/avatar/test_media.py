"""The Avatar panel's Qt-free helpers: face files, first frames, thumbnails, saved copies."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
import soundfile

from app.avatar.media import (
    VideoRequest,
    check_request,
    copy_result,
    read_frame,
    thumbnail,
    video_thumbnail,
)
from app.core.errors import UserError
from tests.video_samples import write_clip, write_frames


@pytest.fixture
def face_png(tmp_path: Path) -> Path:
    path = tmp_path / "face.png"
    image = np.zeros((60, 80, 3), np.uint8)
    image[:, :, 2] = 255  # BGR: red
    assert cv2.imwrite(str(path), image)
    return path


@pytest.fixture
def speech_wav(tmp_path: Path) -> Path:
    path = tmp_path / "speech.wav"
    soundfile.write(path, np.zeros(1600, np.float32), 16_000)
    return path


def field_of(request: VideoRequest) -> str:
    with pytest.raises(UserError) as error:
        check_request(request)
    return error.value.field


def test_requests_are_checked_before_any_work(
    face_png: Path, speech_wav: Path, tmp_path: Path
) -> None:
    check_request(VideoRequest(face_png, audio=speech_wav))
    check_request(VideoRequest(face_png, voice="Alice", text="Hello."))
    assert field_of(VideoRequest(tmp_path / "face.gif", audio=speech_wav)) == "face"
    assert field_of(VideoRequest(tmp_path / "gone.png", audio=speech_wav)) == "face"
    assert field_of(VideoRequest(face_png, audio=tmp_path / "speech.ogg")) == "audio"
    assert field_of(VideoRequest(face_png, audio=tmp_path / "gone.wav")) == "audio"
    assert field_of(VideoRequest(face_png, voice="", text="Hello.")) == "voice"
    assert field_of(VideoRequest(face_png, voice="Alice", text="  \n")) == "text"


def test_frames_of_images_and_videos(face_png: Path, tmp_path: Path) -> None:
    image = read_frame(face_png)
    assert image.shape == (60, 80, 3) and tuple(image[0, 0]) == (255, 0, 0)  # RGB
    video = write_clip(tmp_path / "clip.mp4", (20, 200, 40), frames=3, size=32)
    first = read_frame(video)
    assert first.shape == (32, 32, 3)
    assert np.abs(first[16, 16].astype(int) - (20, 200, 40)).max() < 30


@pytest.mark.parametrize("name", ["face.webp", "face.mov", "face.webm"])
def test_first_frames_of_every_offered_face_format(tmp_path: Path, name: str) -> None:
    bgr = np.zeros((72, 96, 3), np.uint8)
    bgr[:, :48] = (40, 200, 20)  # left half green, right half black: the sides cannot swap
    path = tmp_path / name
    if name.endswith(".webp"):
        assert cv2.imwrite(str(path), bgr, [cv2.IMWRITE_WEBP_QUALITY, 101])  # lossless
    else:
        write_frames(path, [bgr, np.zeros_like(bgr), np.zeros_like(bgr)])
    frame = read_frame(path)
    assert frame.shape == (72, 96, 3)
    assert np.abs(frame[36, 20].astype(int) - (20, 200, 40)).max() <= 3  # RGB
    assert frame[36, 80].max() <= 3


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("broken.png", b"not a picture", "“broken.png” is not a readable image (damaged?)."),
        ("empty.jpg", b"", "empty.jpg is empty (0 bytes)."),  # said as such, not "damaged"
        ("broken.mp4", b"\x00" * 100, "“broken.mp4” is not a readable video (damaged?)."),
    ],
)
def test_unreadable_faces_say_so(tmp_path: Path, name: str, content: bytes, message: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(UserError) as error:
        read_frame(path)
    assert (str(error.value), error.value.field) == (message, "face")


def test_a_video_with_only_sound_is_not_a_face(tmp_path: Path) -> None:
    import av

    path = tmp_path / "sound.mp4"
    with av.open(str(path), "w") as container:
        stream = container.add_stream("aac", rate=16_000)
        stream.layout = "mono"
        frame = av.AudioFrame.from_ndarray(
            np.zeros((1, 1024), np.float32), format="fltp", layout="mono"
        )
        frame.sample_rate = 16_000
        for packet in [*stream.encode(frame), *stream.encode()]:
            container.mux(packet)
    with pytest.raises(UserError, match="has no picture, only sound"):
        read_frame(path)
    assert video_thumbnail(path) is None  # the gallery shows it without a picture


def test_thumbnails_keep_the_aspect_and_report_their_scale() -> None:
    wide = np.zeros((400, 1000, 3), np.uint8)
    small, scale = thumbnail(wide, 250)
    assert small.shape == (100, 250, 3) and scale == 0.25
    tiny = np.zeros((20, 30, 3), np.uint8)
    same, scale = thumbnail(tiny, 250)
    assert same is tiny and scale == 1.0  # never enlarged


def test_copy_result_writes_through_a_temp_name(tmp_path: Path) -> None:
    source = tmp_path / "a.mp4"
    source.write_bytes(b"new video")
    target = tmp_path / "out" / "b.mp4"
    target.parent.mkdir()
    target.write_bytes(b"old")
    assert copy_result(source, target) == target
    assert target.read_bytes() == b"new video"
    assert copy_result(source, tmp_path / "out" / "c") == tmp_path / "out" / "c.mp4"
    assert sorted(p.name for p in target.parent.iterdir()) == ["b.mp4", "c.mp4"]


def test_copy_result_failures_name_the_output(tmp_path: Path) -> None:
    source = tmp_path / "a.mp4"
    source.write_bytes(b"video")
    with pytest.raises(UserError) as gone:
        copy_result(tmp_path / "gone.mp4", tmp_path / "b.mp4")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(UserError) as blocked:
        copy_result(source, blocker / "b.mp4")
    assert gone.value.field == blocked.value.field == "output"
    assert str(blocked.value).startswith(f"Cannot save to {blocker}")
