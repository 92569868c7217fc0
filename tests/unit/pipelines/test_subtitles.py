"""Subtitles from transcripts: cue grouping and lines, times that only go forward, SubRip and
WebVTT text, the atomic file (and none for silence)."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from pipelines.core import InvalidInputError
from pipelines.speech_to_text import Segment, Transcript, Word
from pipelines.subtitles import (
    MAX_LINE,
    MAX_LINES,
    MAX_SECONDS,
    NOTHING_HEARD,
    cues,
    sentence_transcript,
    srt_text,
    vtt_text,
    write_srt,
    write_subtitles,
)


def _words(text: str, start: float = 0.0, step: float = 0.3) -> tuple[Word, ...]:
    return tuple(
        Word(word, start + i * step, start + i * step + step * 0.9)
        for i, word in enumerate(text.split())
    )


def _fits(cue: Segment) -> bool:
    lines = cue.text.split("\n")
    return len(lines) <= MAX_LINES and all(len(line) <= MAX_LINE for line in lines)


def _forward(made: list[Segment]) -> bool:
    return all(cue.end > cue.start for cue in made) and all(
        later.start >= earlier.end for earlier, later in pairwise(made)
    )


def test_words_group_into_cues_at_sentences_pauses_and_limits() -> None:
    words = _words("Hello there. How are you") + _words("today?", start=5.0)
    made = cues(Transcript("", words=words))
    assert [cue.text for cue in made] == ["Hello there.", "How are you", "today?"]
    assert made[0].start == 0.0 and made[1].start == pytest.approx(0.6)
    long = cues(Transcript("", words=_words("word " * 60, step=0.2)))
    assert len(long) > 2 and all(_fits(cue) for cue in long)
    assert all(cue.end - cue.start <= MAX_SECONDS for cue in long)
    assert " ".join(cue.text.replace("\n", " ") for cue in long) == " ".join(["word"] * 60)


def test_a_full_cue_takes_two_lines_of_at_most_42_characters() -> None:
    text = "Subtitles are read faster when each line is short and the cue stays a while"
    made = cues(Transcript("", words=_words(text, step=0.05)))
    assert all(_fits(cue) for cue in made)
    assert "\n" in made[0].text  # two lines, broken at a space
    assert " ".join(cue.text.replace("\n", " ") for cue in made) == text


def test_a_word_longer_than_a_line_is_cut_and_still_fits() -> None:
    url = "https://example.org/" + "a" * 130
    made = cues(Transcript("", words=(Word("See", 0.0, 0.3), Word(url, 0.4, 2.0))))
    assert all(_fits(cue) for cue in made)
    assert "".join(cue.text.replace("\n", "") for cue in made) == "See" + url
    assert _forward(made) and made[-1].end == pytest.approx(2.0)


def test_overlapping_or_instant_words_still_give_times_that_go_forward() -> None:
    words = (Word("One.", 1.0, 1.0), Word("Two.", 0.9, 0.95), Word("Three.", 0.95, 2.0))
    made = cues(Transcript("", words=words))
    assert [cue.text for cue in made] == ["One.", "Two.", "Three."]
    assert _forward(made)
    stamps = [line for line in srt_text(Transcript("", words=words)).splitlines() if "-->" in line]
    assert stamps == sorted(stamps) and len(set(stamps)) == 3


def test_segments_are_the_cues_without_words_and_srt_format() -> None:
    transcript = Transcript(
        "a b", segments=(Segment("First.", 0.0, 1.5), Segment("Second.", 3661.25, 3662.0))
    )
    assert srt_text(transcript) == (
        "1\n00:00:00,000 --> 00:00:01,500\nFirst.\n\n2\n01:01:01,250 --> 01:01:02,000\nSecond.\n"
    )
    assert vtt_text(transcript) == (
        "WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nFirst.\n\n"
        "01:01:01.250 --> 01:01:02.000\nSecond.\n"
    )
    assert srt_text(Transcript("")) == ""


def test_known_sentences_and_durations_become_cues_a_long_one_cut_in_time() -> None:
    long = "This sentence is long enough that it cannot fit in one subtitle of two short lines"
    transcript = sentence_transcript([("Hello there.", 1.2), (long, 6.5)], pause=0.25)
    made = cues(transcript)
    assert made[0] == Segment("Hello there.", 0.0, 1.2)
    assert made[1].start == pytest.approx(1.45) and made[-1].end == pytest.approx(7.95)
    assert len(made) == 3 and all(_fits(cue) for cue in made) and _forward(made)
    assert all(cue.end - cue.start <= MAX_SECONDS for cue in made)
    assert transcript.text == f"Hello there. {long}"


def test_write_srt_is_atomic_utf8_and_refuses_bad_names(tmp_path: Path) -> None:
    said = Transcript("x", segments=(Segment("Grüße, 東京.", 0, 1),))
    target = write_srt(tmp_path / "talk.srt", said)
    assert target.read_bytes() == "1\n00:00:00,000 --> 00:00:01,000\nGrüße, 東京.\n".encode()
    assert [path.name for path in tmp_path.iterdir()] == ["talk.srt"]  # no temp file left
    with pytest.raises(InvalidInputError, match=r"saved as \.srt") as error:
        write_srt(tmp_path / "talk.txt", said)
    assert error.value.field == "output"
    with pytest.raises(InvalidInputError, match=r"\.srt or \.vtt"):
        write_subtitles(tmp_path / "talk.txt", said)
    with pytest.raises(InvalidInputError, match="does not exist"):
        write_srt(tmp_path / "missing" / "talk.srt", said)
    assert write_subtitles(tmp_path / "talk.vtt", said).read_text("utf-8").startswith("WEBVTT")


def test_nothing_heard_writes_no_file_and_says_so(tmp_path: Path) -> None:
    for silence in (Transcript(""), Transcript("", segments=(Segment("", 0, 1),))):
        with pytest.raises(InvalidInputError, match=NOTHING_HEARD) as error:
            write_srt(tmp_path / "quiet.srt", silence)
        assert error.value.field == "audio"
    assert list(tmp_path.iterdir()) == []
