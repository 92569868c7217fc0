"""Files to text off the GUI thread: *File → Transcribe…* and the Avatar panel's subtitles.

:func:`transcribe_audio_file` is the dialog's job (word timestamps on, so the subtitles are
timed by word); :func:`save_transcript_text` and :func:`subtitles_for_video` write what it
heard. Qt-free: plain functions with a cancel token and a progress callback.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from app.core.errors import ModelMissingError, UserError
from app.core.texts import tr
from app.speech.service import SpeechInputService
from pipelines.core import CancelToken, InvalidInputError, PipelineError, Progress
from pipelines.files import check_output_file, usual_file_mode, write_text_atomic
from pipelines.speech_to_text import Transcript
from pipelines.subtitles import write_subtitles

AUDIO_SUFFIXES = (".wav", ".flac", ".ogg", ".oga", ".opus", ".mp3")
"""What :func:`~pipelines.voice.audio.read_clip` decodes (the file dialog's filter)."""
NO_WHISPER = tr("No subtitles: they need a speech-to-text model (Whisper); get one in Models….")
NO_SUBTITLES = tr("No subtitles: {reason}")
NO_SPEECH = tr("No subtitles: no speech was heard in it.")


def transcribe_audio_file(
    service: SpeechInputService,
    path: Path,
    language: str | None,
    cancel: CancelToken,
    on_progress: Callable[[Progress], None],
) -> Transcript:
    """What is said in ``path``, timed word by word.

    Args:
        language: a code ("de"); None: the ``speech_language`` setting.

    Raises:
        UserError: a bad file (``field="file"``), no model, a bad language, busy.
        Cancelled: ``cancel`` was set.
    """
    return service.transcribe_file(
        path,
        language=language,
        word_timestamps=True,
        cancel=cancel,
        on_progress=on_progress,
    )


def save_transcript_text(path: Path, transcript: Transcript) -> Path:
    """Write the transcript's text to the ``.txt`` file ``path`` (UTF-8, atomically).

    Raises:
        InvalidInputError: not a ``.txt`` name in a writable folder (``field="output"``).
    """
    check_output_file(path, ".txt", "Transcripts")
    try:
        write_text_atomic(path, transcript.text + "\n", mode=usual_file_mode())
    except OSError as error:
        raise InvalidInputError(
            tr("Could not write {name}: {reason}.").format(
                name=path.name, reason=error.strerror or error
            ),
            field="output",
        ) from error
    return path


@dataclass(frozen=True)
class VideoSubtitles:
    """What became of a video's subtitles: the file, or why there is none."""

    path: Path | None
    note: str = ""
    """One sentence when no file was written (no Whisper model, nothing heard)."""


def subtitles_for_video(video: Path, transcript: Transcript) -> VideoSubtitles:
    """Write ``<video>.srt`` next to ``video``; a failure is a note, never an exception (the
    video is made: its subtitles are extra)."""
    if transcript.empty:
        return VideoSubtitles(None, NO_SPEECH)
    target = video.with_suffix(".srt")
    try:
        return VideoSubtitles(write_subtitles(target, transcript))
    except (UserError, PipelineError) as error:
        return VideoSubtitles(None, f"No subtitles: {error}")


def transcribe_for_video(
    service: SpeechInputService, audio: Path, cancel: CancelToken
) -> Transcript | str:
    """The transcript of a video's speech file, or the sentence saying why there is none
    (no Whisper model, an unreadable file) — the video is made either way.

    Raises:
        Cancelled: ``cancel`` was set.
    """
    try:
        return service.transcribe_file(audio, word_timestamps=True, cancel=cancel)
    except ModelMissingError:
        return NO_WHISPER
    except (UserError, PipelineError) as error:
        return NO_SUBTITLES.format(reason=error)
