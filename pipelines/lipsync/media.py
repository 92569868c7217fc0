"""Faces and speech in, an H.264 + AAC mp4 out.

Images are read with OpenCV (from bytes, so any path works), videos decoded with PyAV; frames
are BGR ``uint8``. Very large inputs are scaled down (longest side 1920 for images, 1280 for
video) — a talking head gains nothing above that and an 8000×8000 frame would cost gigabytes.
The mp4 is written to a hidden temp name in the target folder and renamed into place only when
complete; on failure or cancel the temp file is removed, so no half-written video is ever left.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pipelines.core import InvalidInputError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp")
VIDEO_SUFFIXES = (".mp4", ".mov", ".webm", ".mkv", ".avi", ".m4v")
STILL_FPS = 25.0
MIN_SIDE = 64
MAX_IMAGE_SIDE = 1920
MAX_VIDEO_SIDE = 1280
AUDIO_RATE = 16_000

Image = npt.NDArray[np.uint8]


@dataclass
class FaceSource:
    """The frames to animate: one (a still image) or a video's, and its frame rate."""

    frames: list[Image]
    fps: float
    still: bool
    scaled_from: tuple[int, int] | None = None
    """The original (width, height) when the input was scaled down."""


def read_face(path: Path, *, max_frames: int | None = None) -> FaceSource:
    """Read an image or (up to ``max_frames`` frames of) a video.

    Raises:
        InvalidInputError: missing, unsupported, corrupt, no video stream, too small
            (``field="face"``).
    """
    if not path.is_file():
        raise InvalidInputError(f"{path} does not exist.", field="face")
    suffix = path.suffix.lower()
    if suffix in IMAGE_SUFFIXES:
        return _read_image(path)
    if suffix in VIDEO_SUFFIXES:
        return _read_video(path, max_frames)
    raise InvalidInputError(
        f"{path.name}: {suffix or 'no extension'} is not supported. Use an image (png, jpg, "
        "webp) or a video (mp4, mov, webm).",
        field="face",
    )


def _read_image(path: Path) -> FaceSource:
    import cv2

    data = np.fromfile(str(path), dtype=np.uint8)
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    image: Image | None = None if decoded is None else np.asarray(decoded, dtype=np.uint8)
    if image is None:
        raise InvalidInputError(
            f"{path.name} is not a readable image (damaged or not really {path.suffix}).",
            field="face",
        )
    image, scaled = _fit(_checked_size(image, path), MAX_IMAGE_SIDE)
    return FaceSource([image], STILL_FPS, still=True, scaled_from=scaled)


def _read_video(path: Path, max_frames: int | None) -> FaceSource:
    import av

    try:
        container = av.open(str(path))
    except (av.error.FFmpegError, OSError, ValueError) as error:
        raise InvalidInputError(
            f"{path.name} is not a readable video ({_reason(error)}).", field="face"
        ) from error
    with container:
        if not container.streams.video:
            raise InvalidInputError(
                f"{path.name} has no video in it (audio only?): give a face image or video.",
                field="face",
            )
        stream = container.streams.video[0]
        rate = stream.average_rate or stream.guessed_rate or STILL_FPS
        fps = float(rate)
        frames: list[Image] = []
        scaled: tuple[int, int] | None = None
        try:
            for frame in container.decode(stream):
                bgr = np.asarray(frame.to_ndarray(format="bgr24"), dtype=np.uint8)
                image, scaled_now = _fit(bgr, MAX_VIDEO_SIDE)
                scaled = scaled or scaled_now
                frames.append(image)
                if max_frames is not None and len(frames) >= max_frames:
                    break
        except (av.error.FFmpegError, ValueError) as error:
            if not frames:
                raise InvalidInputError(
                    f"{path.name} is damaged: no frame could be decoded ({_reason(error)}).",
                    field="face",
                ) from error
    if not frames:
        raise InvalidInputError(f"{path.name} has no frames.", field="face")
    _checked_size(frames[0], path)
    if not 1.0 <= fps <= 120.0:
        fps = STILL_FPS
    return FaceSource(frames, fps, still=False, scaled_from=scaled)


def _checked_size(image: Image, path: Path) -> Image:
    height, width = image.shape[:2]
    if min(height, width) < MIN_SIDE:
        raise InvalidInputError(
            f"{path.name} is only {width}×{height} pixels; a face needs at least "
            f"{MIN_SIDE}×{MIN_SIDE} to be lip-synced.",
            field="face",
        )
    return image


def _fit(image: Image, limit: int) -> tuple[Image, tuple[int, int] | None]:
    import cv2

    height, width = image.shape[:2]
    longest = max(height, width)
    if longest <= limit:
        return np.ascontiguousarray(image), None
    scale = limit / longest
    size = (max(2, round(width * scale)), max(2, round(height * scale)))
    resized: Image = np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8)
    return resized, (width, height)


def read_speech(path: Path) -> npt.NDArray[np.float32]:
    """16 kHz mono samples of a speech file (wav, flac, ogg, mp3).

    Raises:
        InvalidInputError: unreadable or empty (``field="audio"``).
    """
    from pipelines.voice.audio import read_clip

    return read_clip(path, field="audio").samples


def check_output(path: Path) -> Path:
    """``path`` if an mp4 can be written there.

    Raises:
        InvalidInputError: not .mp4, missing folder, or a folder that is not writable
            (``field="output"``).
    """
    if path.suffix.lower() != ".mp4":
        raise InvalidInputError(f"Videos are saved as .mp4; “{path.name}” is not.", field="output")
    folder = path.parent
    if not folder.is_dir():
        raise InvalidInputError(f"The folder {folder} does not exist.", field="output")
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-test-"):
            pass
    except OSError as error:
        raise InvalidInputError(
            f"Cannot write in {folder}: {error.strerror or error}.", field="output"
        ) from error
    return path


class Mp4Writer:
    """Frames (BGR, one size) and 16 kHz mono audio into an H.264 + AAC mp4."""

    def __init__(self, path: Path, fps: float, width: int, height: int) -> None:
        import av

        self._container: Any = av.open(str(path), mode="w", format="mp4")
        rate = Fraction(fps).limit_denominator(1001)
        self._video: Any = self._container.add_stream("libx264", rate=rate)
        self._video.width, self._video.height = width - width % 2, height - height % 2
        self._video.pix_fmt = "yuv420p"
        self._video.options = {"crf": "20", "preset": "veryfast"}
        self._audio: Any = self._container.add_stream("aac", rate=AUDIO_RATE, layout="mono")
        self._size = (self._video.width, self._video.height)

    def add_frame(self, image: Image) -> None:
        """Encode one frame (cropped to even dimensions)."""
        import av

        width, height = self._size
        frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(image[:height, :width]), "bgr24")
        for packet in self._video.encode(frame):
            self._container.mux(packet)

    def finish(self, samples: npt.NDArray[np.float32]) -> None:
        """Encode the audio, flush both streams and close the file."""
        import av

        for packet in self._video.encode(None):
            self._container.mux(packet)
        chunk = 1024
        for start in range(0, len(samples), chunk):
            piece = np.ascontiguousarray(samples[start : start + chunk], dtype=np.float32)
            frame = av.AudioFrame.from_ndarray(piece[np.newaxis], format="fltp", layout="mono")
            frame.sample_rate = AUDIO_RATE
            frame.pts = start
            for packet in self._audio.encode(frame):
                self._container.mux(packet)
        for packet in self._audio.encode(None):
            self._container.mux(packet)
        self._container.close()

    def abort(self) -> None:
        """Close without finishing (the caller removes the file)."""
        # Closing a broken container must not hide the error that broke it.
        with contextlib.suppress(Exception):
            self._container.close()


@contextmanager
def temp_output(target: Path) -> Iterator[Path]:
    """A hidden temp path beside ``target``, renamed onto it when the block succeeds and
    removed when it raises (a cancel included)."""
    handle, name = tempfile.mkstemp(prefix=f".{target.stem}-", suffix=".mp4", dir=target.parent)
    os.close(handle)
    temp = Path(name)
    try:
        yield temp
        _readable_like_a_new_file(temp)
        os.replace(temp, target)
    finally:
        temp.unlink(missing_ok=True)


def _readable_like_a_new_file(path: Path) -> None:
    """mkstemp makes files private (0600); a saved video gets the user's usual mode."""
    mask = os.umask(0)
    os.umask(mask)
    path.chmod(0o666 & ~mask)


def _reason(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[-1][:160] if text else type(error).__name__
