"""Subtitles (SubRip ``.srt``) from a :class:`~pipelines.speech_to_text.Transcript`.

Cues are built from the words when the transcript has them (a transcriber built with word
timestamps): at most :data:`MAX_CHARS` characters and :data:`MAX_SECONDS` on screen, a new cue
after a sentence ends or a pause. Without words, each Whisper segment is a cue. The file is
written atomically (a player never sees half of it).
"""

from __future__ import annotations

from pathlib import Path

from pipelines.core import InvalidInputError
from pipelines.files import check_output_file, usual_file_mode, write_text_atomic
from pipelines.speech_to_text import Segment, Transcript

MAX_CHARS = 84
"""Characters per cue: two subtitle lines of 42, the usual broadcast limit."""
MAX_SECONDS = 6.0
PAUSE_SECONDS = 0.8
"""A silence between words this long starts a new cue."""
SENTENCE_ENDS = (".", "?", "!")


def cues(transcript: Transcript) -> list[Segment]:
    """The transcript as subtitle cues (text and time span), in order."""
    if not transcript.words:
        return [segment for segment in transcript.segments if segment.text]
    result: list[Segment] = []
    text: list[str] = []
    start = end = 0.0
    for word in transcript.words:
        if text and _breaks(" ".join(text), word.text, start, end, word.start, word.end):
            result.append(Segment(" ".join(text), start, end))
            text = []
        if not text:
            start = word.start
        text.append(word.text)
        end = word.end
    if text:
        result.append(Segment(" ".join(text), start, end))
    return result


def _breaks(
    so_far: str, word: str, start: float, end: float, next_start: float, next_end: float
) -> bool:
    """Whether ``word`` must begin a new cue after the cue ``so_far``."""
    return (
        so_far.endswith(SENTENCE_ENDS)
        or next_start - end >= PAUSE_SECONDS
        or len(so_far) + 1 + len(word) > MAX_CHARS
        or next_end - start > MAX_SECONDS
    )


def srt_text(transcript: Transcript) -> str:
    """The SubRip text of the transcript ("" when nothing was heard)."""
    blocks = []
    for index, cue in enumerate(cues(transcript), start=1):
        span = f"{_timestamp(cue.start)} --> {_timestamp(max(cue.end, cue.start + 0.1))}"
        blocks.append(f"{index}\n{span}\n{cue.text}\n")
    return "\n".join(blocks)


def _timestamp(seconds: float) -> str:
    millis = max(0, round(seconds * 1000))
    hours, millis = divmod(millis, 3_600_000)
    minutes, millis = divmod(millis, 60_000)
    whole, millis = divmod(millis, 1000)
    return f"{hours:02d}:{minutes:02d}:{whole:02d},{millis:03d}"


def write_srt(path: Path, transcript: Transcript) -> Path:
    """Write the transcript's subtitles to ``path`` (atomically).

    Raises:
        InvalidInputError: ``path`` is not an ``.srt`` name in a writable folder, or it cannot
            be written (``field="output"``).
    """
    check_output_file(path, ".srt", "Subtitles")
    try:
        write_text_atomic(path, srt_text(transcript), mode=usual_file_mode())
    except OSError as error:
        raise InvalidInputError(
            f"Could not write {path.name}: {error.strerror or error}.", field="output"
        ) from error
    return path
