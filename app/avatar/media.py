"""What the Avatar panel does off the GUI thread: face previews, the video job, result copies.

Qt-free, so the panel's workers call plain functions: :func:`preview_face` reads a face image
or a video's first frame (downscaled for a thumbnail) and asks the avatar service where the
faces are; :func:`make_video` speaks a text first when no speech file was given, then
lip-syncs, and when asked writes ``<video>.srt`` next to the result — from the sentences
spoken and their lengths (exact, no Whisper), or from a speech file transcribed by Whisper;
:func:`copy_result` saves a finished video (and its subtitles) elsewhere through a temp name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.avatar.service import AvatarService, VideoResult
from app.avatar.speaking import speak
from app.core.errors import UserError
from app.core.texts import tr
from app.speech.service import SpeechInputService
from app.speech.transcription import VideoSubtitles, subtitles_for_video, transcribe_for_video
from app.voice.service import VoiceService
from app.voice.speech_files import PAUSE_SECONDS, join_sentences
from pipelines.core import CancelToken, DeviceError, Progress
from pipelines.files import check_input_file, copy_atomic
from pipelines.image_size import check_pixels, header_size
from pipelines.native_output import decode_image
from pipelines.speech_to_text import Transcript
from pipelines.subtitles import sentence_transcript
from pipelines.voice.audio import MODEL_RATE

FACE_IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
FACE_VIDEO_SUFFIXES = (".mp4", ".mov", ".webm")
SPEECH_SUFFIXES = (".wav", ".flac", ".mp3")
THUMBNAIL_SIDE = 480
"""Longest side of a face preview, in pixels (the panel shows it at up to this size)."""
SPEECH_STAGE = "speech"
SUBTITLES_STAGE = "subtitles"

Box = tuple[int, int, int, int]
RgbImage = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class FacePreview:
    """A face file as the panel shows it."""

    path: Path
    image: RgbImage
    """RGB thumbnail, longest side at most :data:`THUMBNAIL_SIDE`."""
    scale: float
    """Thumbnail pixels per source pixel."""
    boxes: list[Box]
    """Faces ``(x, y, width, height)`` in source pixels, largest first."""
    is_video: bool
    problem: UserError | DeviceError | None = None
    """Why no faces could be looked for (no model, unreadable frame, a model that failed on
    its device); the thumbnail stays."""


@dataclass(frozen=True)
class VideoRequest:
    """One Generate: a face and either a speech file or a voice and a text."""

    face: Path
    audio: Path | None = None
    voice: str = ""
    text: str = ""
    device: str | None = None
    tts_device: str | None = None
    detector_device: str | None = None
    """None: the face detector's device in the settings (``models.face_detector``)."""
    face_index: int | None = None
    subtitles: bool = False
    """Write ``<video>.srt`` next to the result."""


@dataclass(frozen=True)
class MadeVideo:
    """A Generate's outcome: the video and, when asked for, its subtitles."""

    result: VideoResult
    subtitles: VideoSubtitles | None = None


def check_face_file(path: Path) -> bool:
    """Whether ``path`` is a face video (True) or image (False).

    Raises:
        UserError: missing, or not a supported format (``field="face"``).
    """
    suffix = path.suffix.lower()
    if suffix not in FACE_IMAGE_SUFFIXES + FACE_VIDEO_SUFFIXES:
        raise UserError(
            tr(
                "“{name}” is not a face the app can use: choose an image (png, jpg, webp) or "
                "a video (mp4, mov, webm)."
            ).format(name=path.name),
            field="face",
        )
    check_input_file(path, "an image or a video", field="face")
    return suffix in FACE_VIDEO_SUFFIXES


def check_speech_file(path: Path) -> None:
    """Raises UserError (``field="audio"``) unless ``path`` is an existing wav/flac/mp3."""
    if path.suffix.lower() not in SPEECH_SUFFIXES:
        raise UserError(
            tr("“{name}” is not an audio file the app reads: choose a wav, flac or mp3.").format(
                name=path.name
            ),
            field="audio",
        )
    check_input_file(path, "an audio file", field="audio")


def check_request(request: VideoRequest) -> None:
    """The cheap checks before a Generate starts (a face, and speech of some kind).

    Raises:
        UserError: ``field`` "face", "audio", "voice" or "text".
    """
    check_face_file(request.face)
    if request.audio is not None:
        check_speech_file(request.audio)
        return
    if not request.voice:
        raise UserError(
            tr("Choose a voice (make one in the Voice panel) or an audio file."), field="voice"
        )
    if not request.text.strip():
        raise UserError(tr("Type what the face should say."), field="text")


def read_frame(path: Path) -> RgbImage:
    """The full-size RGB pixels of an image, or of a video's first frame.

    Raises:
        UserError: unreadable or not a supported format (``field="face"``).
    """
    if check_face_file(path):
        return _first_video_frame(path)
    try:
        data = np.fromfile(path, dtype=np.uint8)  # not cv2.imread: it fails on non-ASCII paths
    except OSError as error:
        reason = error.strerror or error
        raise UserError(
            tr("Cannot read {name}: {reason}.").format(name=path.name, reason=reason), field="face"
        ) from error
    size = header_size(data.tobytes())  # the size before the pixels: see image_size
    if size is not None:
        check_pixels(*size, f"“{path.name}”", field="face")
    bgr = None if size is None else decode_image(data)  # OpenCV loads only when a face is chosen
    if bgr is None:
        raise UserError(
            tr("“{name}” is not a readable image (damaged?).").format(name=path.name), field="face"
        )
    return np.ascontiguousarray(bgr[:, :, ::-1])


def _first_video_frame(path: Path) -> RgbImage:
    import av

    try:
        with av.open(str(path)) as container:
            if not container.streams.video:
                raise UserError(
                    tr("“{name}” has no picture, only sound.").format(name=path.name), field="face"
                )
            video = container.streams.video[0].codec_context
            check_pixels(video.width, video.height, f"“{path.name}”", field="face")
            for frame in container.decode(video=0):
                return np.asarray(frame.to_ndarray(format="rgb24"), dtype=np.uint8)
    except (av.FFmpegError, OSError) as error:
        message = f"“{path.name}” is not a readable video (damaged?)."
        raise UserError(message, field="face") from error
    raise UserError(tr("“{name}” has no frames.").format(name=path.name), field="face")


def thumbnail(image: RgbImage, side: int = THUMBNAIL_SIDE) -> tuple[RgbImage, float]:
    """``image`` scaled so its longest side is at most ``side``; returns it and the scale."""
    height, width = image.shape[:2]
    scale = min(1.0, side / max(height, width, 1))
    if scale >= 1.0:
        return image, 1.0
    import cv2

    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return np.asarray(small, dtype=np.uint8), scale


def video_thumbnail(path: Path, side: int = 160) -> RgbImage | None:
    """A small first frame of a result video (None when it cannot be read)."""
    try:
        return thumbnail(_first_video_frame(path), side)[0]
    except UserError:
        return None


def preview_face(avatar: AvatarService, path: Path, side: int = THUMBNAIL_SIDE) -> FacePreview:
    """Read a face image or video and find its faces (on the first frame of a video).

    A failure to look for faces (no lip-sync model yet, or a model that failed on its device)
    is kept in ``problem``: the thumbnail is still worth showing.

    Raises:
        UserError: the file cannot be used at all (``field="face"``).
    """
    is_video = check_face_file(path)
    frame = read_frame(path)
    small, scale = thumbnail(frame, side)
    try:
        boxes = avatar.faces(path)  # a video's first frame
    except (UserError, DeviceError) as error:
        return FacePreview(path, small, scale, [], is_video, error)
    return FacePreview(path, small, scale, list(boxes), is_video)


def make_video(
    avatar: AvatarService,
    voice: VoiceService,
    speech_input: SpeechInputService,
    request: VideoRequest,
    cancel: CancelToken,
    on_progress: Callable[[Progress], None],
) -> MadeVideo:
    """Generate: lip-sync ``request.face`` to its speech file, or to its text spoken first;
    with ``request.subtitles``, ``<video>.srt`` next to it.

    The text is spoken by :func:`~app.avatar.speaking.speak` and lip-synced from memory,
    the sentences with a reader's pause between them (nothing written but the video). A
    speech file is transcribed before the lip-sync (a Cancel then leaves nothing behind);
    without a Whisper model the video is still made and :attr:`MadeVideo.subtitles` says why
    there are none.

    Raises:
        UserError: from either service (its ``field`` names the control).
        Cancelled: nothing is left behind.
    """

    def lipsync(audio: Path | tuple[npt.NDArray[np.float32], int]) -> VideoResult:
        return avatar.lipsync(
            request.face,
            audio,
            None,
            device=request.device,
            detector_device=request.detector_device,
            face_index=request.face_index,
            cancel=cancel,
            on_progress=on_progress,
        )

    if request.audio is not None:
        if not request.subtitles:
            return MadeVideo(lipsync(request.audio))
        on_progress(Progress(SUBTITLES_STAGE, 0, None, "Transcribing the speech for subtitles…"))
        heard = transcribe_for_video(speech_input, request.audio, cancel)
        return _with_subtitles(lipsync(request.audio), heard)

    sentences: list[tuple[str, float]] = []
    pieces: list[npt.NDArray[np.float32]] = []
    rate = MODEL_RATE
    on_progress(Progress(SPEECH_STAGE, 0, None, "Speaking the text…"))
    for piece in speak(
        voice, request.text, request.voice, device=request.tts_device, cancel=cancel
    ):
        sentences.append((piece.text, piece.seconds))
        pieces.append(piece.samples)
        rate = piece.rate
        done = piece.index + 1
        message = f"Speaking sentence {done}/{piece.total}…"
        on_progress(Progress(SPEECH_STAGE, done, piece.total, message))
    # The speech stays in memory (no temp file): the sentences with a reader's pauses.
    result = lipsync((join_sentences(pieces, rate), rate))
    if not request.subtitles:
        return MadeVideo(result)
    # The sentences are known and so are their lengths: exact cues, no Whisper needed.
    return _with_subtitles(result, sentence_transcript(sentences, pause=PAUSE_SECONDS))


def _with_subtitles(result: VideoResult, heard: Transcript | str) -> MadeVideo:
    """The video with ``<video>.srt`` written from ``heard`` (or the note saying why not)."""
    if isinstance(heard, str):
        return MadeVideo(result, VideoSubtitles(None, heard))
    return MadeVideo(result, subtitles_for_video(result.path, heard))


def copy_result(source: Path, target: Path) -> Path:
    """Copy a finished video to ``target`` (".mp4" added when missing) through a temp name;
    its subtitles (``<video>.srt``), when it has them, go along next to it.

    Raises:
        UserError: the source is gone or the target folder is not writable (``field="output"``).
    """
    if target.suffix.lower() != ".mp4":
        target = target.with_name(target.name + ".mp4")
    if not source.is_file():
        raise UserError(
            tr("The video {name} is gone (deleted?).").format(name=source.name), field="output"
        )
    if target.resolve() == source.resolve():
        return target
    subtitles = source.with_suffix(".srt")
    try:
        copy_atomic(source, target)  # a killed copy leaves a temp file the next save removes
        if subtitles.is_file():
            copy_atomic(subtitles, target.with_suffix(".srt"))
    except OSError as error:
        reason = error.strerror or str(error)
        raise UserError(
            tr("Cannot save to {parent}: {reason}.").format(parent=target.parent, reason=reason),
            field="output",
        ) from error
    return target


def recent_videos(avatar: AvatarService, side: int = 160) -> list[tuple[Path, RgbImage | None]]:
    """The gallery: the newest results, each with a small first frame (None if unreadable)."""
    return [(path, video_thumbnail(path, side)) for path in avatar.recent()]
