"""Reading the face (an image or a video) and the speech, with messages a person understands.

Images are decoded with OpenCV from bytes (so any path works, non-ASCII included), videos
with PyAV on demand (never all held in memory); frames are BGR ``uint8``. Large inputs are
scaled down — longest side 1920 for an image, 1280 for a video: a talking head gains nothing
above that, an 8000×8000 frame would cost gigabytes per second of video, and H.264 players
refuse frames that large anyway. The result video has the scaled size; face boxes are
reported in the original's pixels. Speech is decoded with soundfile (wav, flac, ogg, mp3) or
PyAV (m4a/aac and the sound of a video) and resampled to 16 kHz mono with a polyphase
filter.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from pipelines.core import Cancelled, CancelToken, InvalidInputError
from pipelines.files import check_input_file
from pipelines.image_size import check_pixels, header_size
from pipelines.native_output import decode_image

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp")
VIDEO_SUFFIXES = (".mp4", ".mov", ".webm", ".mkv", ".avi", ".m4v")
SOUNDFILE_SUFFIXES = (".wav", ".flac", ".ogg", ".oga", ".opus", ".mp3")
AV_AUDIO_SUFFIXES = (".m4a", ".aac", ".mp4", ".mov", ".webm", ".mkv")
STILL_FPS = 25.0
MIN_SIDE = 64
MAX_IMAGE_SIDE = 1920
MAX_VIDEO_SIDE = 1280
AUDIO_RATE = 16_000
MAX_AUDIO_SECONDS = 15 * 60

Image = npt.NDArray[np.uint8]
Float32Array = npt.NDArray[np.float32]


@dataclass
class FaceSource:
    """A face image or video, opened and checked; its frames are decoded on demand.

    A video is decoded twice — once to find the face, once to render — rather than held in
    memory: decoding costs a few ms per frame, while a minute of 720p is ~4 GB of pixels.
    """

    path: Path
    fps: float
    still: bool
    width: int
    height: int
    scale: float = 1.0
    """Original size / frame size: above 1 when the input was scaled down."""
    limit: int | None = None
    """Most frames :meth:`frames` yields (None: all)."""
    image: Image | None = None
    """The picture of a still image."""

    def frames(self, cancel: CancelToken | None = None) -> Iterator[Image]:
        """The frames from the first one (BGR, ``height × width``), up to :attr:`limit`.

        Raises:
            InvalidInputError: the video is damaged before its first frame.
            Cancelled: ``cancel`` was set.
        """
        if self.image is not None:
            yield self.image
            return
        import av

        count = 0
        try:
            with av.open(str(self.path)) as container:
                stream = container.streams.video[0]
                stream.thread_type = "AUTO"
                for frame in container.decode(stream):
                    if cancel is not None and cancel.cancelled:
                        raise Cancelled()
                    picture = frame.reformat(width=self.width, height=self.height, format="bgr24")
                    yield np.ascontiguousarray(picture.to_ndarray(), dtype=np.uint8)
                    count += 1
                    if self.limit is not None and count >= self.limit:
                        return
        except (av.error.FFmpegError, OSError, ValueError) as error:
            if not count:  # a damaged tail keeps the frames before it
                raise InvalidInputError(
                    f"{self.path.name} is damaged: no frame could be decoded ({_reason(error)}).",
                    field="face",
                ) from error
        if not count:
            raise InvalidInputError(f"{self.path.name} has no frames in it.", field="face")


def read_face(path: Path, *, seconds: float | None = None, limit: int | None = None) -> FaceSource:
    """Open an image (decoded now) or a video (checked now, decoded on demand): only the first
    ``seconds`` of a video, and at most ``limit`` frames, when given.

    Raises:
        InvalidInputError: missing, unsupported, corrupt, no video stream, or too small
            (``field="face"``).
    """
    check_input_file(path, "an image or a video", field="face")
    suffix = path.suffix.lower()
    if suffix in IMAGE_SUFFIXES:
        return _read_image(path)
    if suffix in VIDEO_SUFFIXES:
        return _open_video(path, seconds, limit)
    raise InvalidInputError(
        f"{path.name}: {suffix or 'a file without an extension'} is not supported as a face. "
        "Use an image (png, jpg, webp) or a video (mp4, mov, webm).",
        field="face",
    )


def _read_image(path: Path) -> FaceSource:
    try:
        data = np.fromfile(str(path), dtype=np.uint8)  # not cv2.imread: non-ASCII paths fail
    except OSError as error:
        raise InvalidInputError(
            f"Cannot read {path.name}: {error.strerror or error}.", field="face"
        ) from error
    # The header first: OpenCV decodes whatever size it declares (a 20,000² PNG of a few
    # kilobytes took 2.5 GB). A header Pillow cannot read is not decoded at all.
    size = header_size(data.tobytes())
    if size is not None:
        check_pixels(*size, path.name, field="face")
    decoded = None if size is None else decode_image(data)
    if decoded is None:
        raise InvalidInputError(
            f"{path.name} is not a readable image: it is damaged, empty or not really a "
            f"{path.suffix.lstrip('.').upper()} file.",
            field="face",
        )
    image = np.asarray(decoded, dtype=np.uint8)
    _check_size(image.shape[1], image.shape[0], path)
    image, scale = _fit(image, MAX_IMAGE_SIDE)
    height, width = image.shape[:2]
    return FaceSource(path, STILL_FPS, True, width, height, scale, limit=1, image=image)


def _open_video(path: Path, seconds: float | None, limit: int | None) -> FaceSource:
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
                f"{path.name} has no video in it (only sound?): give a face image or video.",
                field="face",
            )
        stream = container.streams.video[0]
        width, height = stream.codec_context.width, stream.codec_context.height
        rate = stream.average_rate or stream.guessed_rate
    if not width or not height:
        raise InvalidInputError(
            f"{path.name} is not a readable video (no frame size).", field="face"
        )
    check_pixels(width, height, path.name, field="face")  # each frame is decoded whole
    _check_size(width, height, path)
    fps = float(rate) if rate else STILL_FPS
    fps = fps if 1.0 <= fps <= 120.0 else STILL_FPS
    wanted = max(1, math.ceil(seconds * fps - 1e-9)) if seconds is not None else None
    if limit is not None:
        wanted = min(wanted or limit, limit)
    scale = max(1.0, max(width, height) / MAX_VIDEO_SIDE)
    if scale > 1.0:  # even sizes: H.264 needs them, and no pixel row is cropped then
        width, height = _even(width / scale), _even(height / scale)
    return FaceSource(path, fps, False, width, height, scale, limit=wanted)


def _check_size(width: int, height: int, path: Path) -> None:
    if min(width, height) < MIN_SIDE:
        raise InvalidInputError(
            f"{path.name} is only {width}×{height} pixels; a face needs at least "
            f"{MIN_SIDE}×{MIN_SIDE} to be lip-synced.",
            field="face",
        )


def _fit(image: Image, limit: int) -> tuple[Image, float]:
    """``image`` with its longest side at most ``limit``, and the factor it shrank by."""
    import cv2

    height, width = image.shape[:2]
    longest = max(height, width)
    if longest <= limit:
        return np.ascontiguousarray(image), 1.0
    scale = longest / limit
    size = (max(2, round(width / scale)), max(2, round(height / scale)))
    resized = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return np.asarray(resized, dtype=np.uint8), scale


def _even(value: float) -> int:
    return max(2, round(value) // 2 * 2)


def read_speech(path: Path) -> Float32Array:
    """16 kHz mono samples of a speech file (wav, flac, ogg, mp3, m4a, or a video's sound).

    Raises:
        InvalidInputError: missing, unsupported, damaged, empty or longer than 15 minutes
            (``field="audio"``).
    """
    check_input_file(path, "an audio file", field="audio")
    suffix = path.suffix.lower()
    if suffix in SOUNDFILE_SUFFIXES:
        from pipelines.voice.audio import read_clip

        return read_clip(path, field="audio").samples
    if suffix in AV_AUDIO_SUFFIXES:
        return _read_audio_with_av(path)
    raise InvalidInputError(
        f"{path.name} is not an audio file this app can read. Use wav, flac, ogg, mp3 or m4a.",
        field="audio",
    )


def _read_audio_with_av(path: Path) -> Float32Array:
    from pipelines.voice.audio import decode_with_av, to_model_rate

    return to_model_rate(*decode_with_av(path))


def _reason(error: BaseException) -> str:
    """The cause without the path (the message names the file already)."""
    text = getattr(error, "strerror", None) or str(error).strip()
    return str(text).splitlines()[-1][:160] if text else type(error).__name__
