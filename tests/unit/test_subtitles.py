"""Subtitles from transcripts: cue grouping, SubRip timestamps, the atomic file."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.core import InvalidInputError
from pipelines.speech_to_text import Segment, Transcript, Word
from pipelines.subtitles import MAX_CHARS, MAX_SECONDS, cues, srt_text, write_srt


def _words(text: str, start: float = 0.0, step: float = 0.3) -> tuple[Word, ...]:
    return tuple(
        Word(word, start + i * step, start + i * step + step * 0.9)
        for i, word in enumerate(text.split())
    )


def test_words_group_into_cues_at_sentences_pauses_and_limits() -> None:
    words = _words("Hello there. How are you") + _words("today?", start=5.0)
    made = cues(Transcript("", words=words))
    assert [cue.text for cue in made] == ["Hello there.", "How are you", "today?"]
    assert made[0].start == 0.0 and made[1].start == pytest.approx(0.6)
    long = cues(Transcript("", words=_words("word " * 60, step=0.2)))
    assert all(len(cue.text) <= MAX_CHARS for cue in long)
    assert all(cue.end - cue.start <= MAX_SECONDS for cue in long)
    assert " ".join(cue.text for cue in long) == " ".join(["word"] * 60)


def test_segments_are_the_cues_without_words_and_srt_format() -> None:
    transcript = Transcript(
        "a b", segments=(Segment("First.", 0.0, 1.5), Segment("Second.", 3661.25, 3662.0))
    )
    assert srt_text(transcript) == (
        "1\n00:00:00,000 --> 00:00:01,500\nFirst.\n\n2\n01:01:01,250 --> 01:01:02,000\nSecond.\n"
    )
    assert srt_text(Transcript("")) == ""


def test_write_srt_is_atomic_and_refuses_bad_names(tmp_path: Path) -> None:
    target = write_srt(tmp_path / "talk.srt", Transcript("x", segments=(Segment("Hi.", 0, 1),)))
    assert target.read_text(encoding="utf-8").startswith("1\n00:00:00,000 --> 00:00:01,000\nHi.")
    assert [path.name for path in tmp_path.iterdir()] == ["talk.srt"]  # no temp file left
    with pytest.raises(InvalidInputError, match=r"saved as \.srt") as error:
        write_srt(tmp_path / "talk.txt", Transcript(""))
    assert error.value.field == "output"
    with pytest.raises(InvalidInputError, match="does not exist"):
        write_srt(tmp_path / "missing" / "talk.srt", Transcript(""))
