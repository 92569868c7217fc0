"""Subtitles (SubRip ``.srt`` or WebVTT ``.vtt``) from a
:class:`~pipelines.speech_to_text.Transcript`.

Cues are built from the words when the transcript has them (a transcriber built with word
timestamps): at most :data:`MAX_LINES` lines of :data:`MAX_LINE` characters and
:data:`MAX_SECONDS` on screen, a new cue after a sentence ends or a pause. Without words, each
segment is cut the same way, its time shared among its words by their length — which is also
how text whose sentences' durations are known (a typed text spoken by the avatar) becomes
subtitles. A word longer than a line is cut into line-long pieces.

Times only go forward: each cue starts at or after the end of the one before and lasts at
least :data:`MIN_SECONDS`. The file is written atomically (a player never sees half of it);
nothing heard writes no file and says so.
"""

from __future__ import annotations

import textwrap
from dataclasses import replace
from pathlib import Path

from pipelines.core import InvalidInputError
from pipelines.files import check_output_file, usual_file_mode, write_text_atomic
from pipelines.speech_to_text import Segment, Transcript, Word

MAX_LINE = 42
"""Characters per subtitle line, the usual broadcast limit."""
MAX_LINES = 2
MAX_CHARS = MAX_LINE * MAX_LINES
MAX_SECONDS = 6.0
"""Longest time a cue stays on screen (a reader needs no more for two lines)."""
MIN_SECONDS = 0.1
PAUSE_SECONDS = 0.8
"""A silence between words this long starts a new cue."""
SENTENCE_ENDS = (".", "?", "!", "…")
FORMATS = {".srt": "SubRip", ".vtt": "WebVTT"}
NOTHING_HEARD = "Nothing was said in it, so no subtitles were written."


def cues(transcript: Transcript) -> list[Segment]:
    """The transcript as subtitle cues (text of at most two lines, time span), in order."""
    if transcript.words:
        groups = _grouped(transcript.words)
    else:
        groups = [cue for segment in transcript.segments for cue in _grouped(_spread(segment))]
    return _forward(groups)


def sentence_transcript(sentences: list[tuple[str, float]], pause: float = 0.0) -> Transcript:
    """A transcript of sentences said one after another, each lasting its given seconds with
    ``pause`` between them (a typed text spoken sentence by sentence)."""
    segments: list[Segment] = []
    start = 0.0
    for text, seconds in sentences:
        segments.append(Segment(text.strip(), start, start + seconds))
        start += seconds + pause
    kept = tuple(segment for segment in segments if segment.text)
    return Transcript(" ".join(segment.text for segment in kept), segments=kept)


def _spread(segment: Segment) -> tuple[Word, ...]:
    """The segment's words, its time shared among them by length (spaces included)."""
    words = segment.text.split()
    total = sum(len(word) + 1 for word in words)
    span = max(segment.end - segment.start, 0.0)
    timed, at = [], segment.start
    for word in words:
        length = span * (len(word) + 1) / total
        timed.append(Word(word, at, at + length))
        at += length
    return tuple(timed)


def _grouped(words: tuple[Word, ...]) -> list[Segment]:
    """Words joined into cues: a break after a sentence end, a pause, two full lines or
    :data:`MAX_SECONDS`."""
    result: list[Segment] = []
    text: list[str] = []
    start = end = 0.0
    for word in (piece for whole in words for piece in _pieces(whole)):
        token = word.text
        if text and _breaks(text, token, start, end, word):
            result.append(Segment(_lines(text), start, end))
            text = []
        if not text:
            start = word.start
        text.append(token)
        end = word.end
    if text:
        result.append(Segment(_lines(text), start, end))
    return result


def _pieces(word: Word) -> list[Word]:
    """``word`` stripped, cut into line-long pieces sharing its time when it is longer than a
    line (a URL, a run of digits), so every cue fits on two lines."""
    text = word.text.strip()
    parts = [text[at : at + MAX_LINE] for at in range(0, len(text), MAX_LINE)]
    step = (word.end - word.start) / max(len(parts), 1)
    return [
        Word(part, word.start + i * step, word.start + (i + 1) * step)
        for i, part in enumerate(parts)
    ]


def _breaks(so_far: list[str], token: str, start: float, end: float, word: Word) -> bool:
    """Whether ``word`` must begin a new cue after the words ``so_far``."""
    return (
        so_far[-1].endswith(SENTENCE_ENDS)
        or word.start - end >= PAUSE_SECONDS
        or len(_wrap([*so_far, token])) > MAX_LINES
        or word.end - start > MAX_SECONDS
    )


def _wrap(words: list[str]) -> list[str]:
    return textwrap.wrap(" ".join(words), MAX_LINE, break_long_words=True, break_on_hyphens=False)


def _lines(words: list[str]) -> str:
    """The cue's text on at most :data:`MAX_LINES` lines."""
    return "\n".join(_wrap(words))


def _forward(made: list[Segment]) -> list[Segment]:
    """The cues with times that only go forward: no overlap, none shorter than the minimum."""
    result: list[Segment] = []
    last_end = 0.0
    for cue in made:
        start = max(cue.start, last_end)
        end = max(cue.end, start + MIN_SECONDS)
        result.append(replace(cue, start=start, end=end))
        last_end = end
    return result


def srt_text(transcript: Transcript) -> str:
    """The SubRip text of the transcript ("" when nothing was heard)."""
    blocks = []
    for index, cue in enumerate(cues(transcript), start=1):
        span = f"{_timestamp(cue.start, ',')} --> {_timestamp(cue.end, ',')}"
        blocks.append(f"{index}\n{span}\n{cue.text}\n")
    return "\n".join(blocks)


def vtt_text(transcript: Transcript) -> str:
    """The WebVTT text of the transcript (its header alone when nothing was heard)."""
    blocks = ["WEBVTT\n"]
    for cue in cues(transcript):
        span = f"{_timestamp(cue.start, '.')} --> {_timestamp(cue.end, '.')}"
        blocks.append(f"{span}\n{cue.text}\n")
    return "\n".join(blocks)


def _timestamp(seconds: float, decimal: str) -> str:
    millis = max(0, round(seconds * 1000))
    hours, millis = divmod(millis, 3_600_000)
    minutes, millis = divmod(millis, 60_000)
    whole, millis = divmod(millis, 1000)
    return f"{hours:02d}:{minutes:02d}:{whole:02d}{decimal}{millis:03d}"


def check_subtitle_file(path: Path) -> Path:
    """``path`` if subtitles can be written there: an ``.srt`` or ``.vtt`` name in a writable
    folder.

    Raises:
        InvalidInputError: another name, a folder, a missing or read-only folder
            (``field="output"``).
    """
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise InvalidInputError(
            f"Subtitles are saved as .srt or .vtt; “{path.name}” is neither.", field="output"
        )
    return check_output_file(path, suffix, "Subtitles")


def write_subtitles(path: Path, transcript: Transcript) -> Path:
    """Write the transcript's subtitles to ``path`` (atomically): SubRip for ``.srt``,
    WebVTT for ``.vtt``.

    Raises:
        InvalidInputError: ``path`` is not a subtitle name in a writable folder, or it cannot
            be written (``field="output"``); nothing was heard (``field="audio"``, no file).
    """
    check_subtitle_file(path)
    if not cues(transcript):
        raise InvalidInputError(NOTHING_HEARD, field="audio")
    text = vtt_text(transcript) if path.suffix.lower() == ".vtt" else srt_text(transcript)
    try:
        write_text_atomic(path, text, mode=usual_file_mode())
    except OSError as error:
        raise InvalidInputError(
            f"Could not write {path.name}: {error.strerror or error}.", field="output"
        ) from error
    return path


def write_srt(path: Path, transcript: Transcript) -> Path:
    """Write the transcript's SubRip subtitles to ``path`` (see :func:`write_subtitles`).

    Raises:
        InvalidInputError: not an ``.srt`` name (``field="output"``), and what
            :func:`write_subtitles` raises.
    """
    check_output_file(path, ".srt", "Subtitles")
    return write_subtitles(path, transcript)
