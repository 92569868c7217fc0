"""The one "speak this text (with a face)" generator: order, laziness, cancel and failures.

The voice and the avatar are stand-ins typed against the generator's Protocols; they log
every synthesis and lip-sync, so the tests assert on what was asked for when (events), not on
how long anything took.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from app.avatar.service import AvatarClip
from app.avatar.speaking import Face, Samples, SpokenPiece, hand_over_clips, speak
from app.core.errors import UserError
from pipelines.core import Cancelled, CancelToken
from pipelines.voice.tts import SpeechChunk

SAMPLES_PER_WORD = 1600


class LoggedSpeech:
    """One request to speak: a sentence per ``|`` of the text, made when asked for."""

    def __init__(self, voice: LoggedVoice, text: str, cancel: CancelToken | None) -> None:
        self._voice = voice
        self._sentences = [part.strip() for part in text.split("|")]
        self._cancel = cancel
        self._next = 0
        self.closed = False

    def __iter__(self) -> Iterator[SpeechChunk]:
        return self

    def __next__(self) -> SpeechChunk:
        if self.closed or self._next == len(self._sentences):
            raise StopIteration
        if self._cancel is not None and self._cancel.cancelled:
            raise Cancelled()
        index, sentence = self._next, self._sentences[self._next]
        self._next += 1
        self._voice.log.append(f"say {sentence}")
        if sentence == self._voice.stop_while_saying and self._cancel is not None:
            self._cancel.cancel()  # Stop pressed while this sentence is made: it still comes
        if sentence == self._voice.fails_on:
            raise UserError(f"Cannot say “{sentence}”.", field="text")
        samples = np.full(SAMPLES_PER_WORD * len(sentence.split()), 0.1, np.float32)
        return SpeechChunk(index, len(self._sentences), sentence, samples, 0.0)

    def close(self) -> None:
        self.closed = True
        self._voice.log.append("close")


class LoggedVoice:
    """``TextToSpeech`` keeping a log of what it was asked and made."""

    def __init__(self, fails_on: str = "", stop_while_saying: str = "") -> None:
        self.log: list[str] = []
        self.requests: list[LoggedSpeech] = []
        self.fails_on = fails_on
        self.stop_while_saying = stop_while_saying

    def speak(
        self,
        text: str,
        voice_name: str,
        *,
        device: str | None = None,
        cancel: CancelToken | None = None,
        short_lead: bool = True,
    ) -> LoggedSpeech:
        self.log.append(f"ask {voice_name}: {text}" + ("" if short_lead else " (no lead)"))
        self.requests.append(LoggedSpeech(self, text, cancel))
        return self.requests[-1]

    def speak_with(
        self,
        embedding: Samples,
        text: str,
        *,
        device: str | None = None,
        cancel: CancelToken | None = None,
        short_lead: bool = True,
    ) -> LoggedSpeech:
        return self.speak(text, "<embedding>", device=device, cancel=cancel, short_lead=short_lead)


class LoggedAvatar:
    """``LipSync`` writing a small file per clip (the real one writes through a temp name)."""

    def __init__(self, results: Path, voice: LoggedVoice, cancel_at: int | None = None) -> None:
        self.results = results
        self.voice = voice
        self.cancel_at = cancel_at
        """Set the cancel token while lip-syncing this piece (a Stop mid-clip)."""

    def answer_folder(self) -> Path:
        self.voice.log.append("folder")
        return self.results / "answer"

    def lipsync_sentence(
        self,
        face: Path,
        folder: Path,
        index: int,
        text: str,
        samples: Samples,
        *,
        rate: int,
        total: int = 0,
        device: str | None = None,
        cancel: CancelToken | None = None,
    ) -> AvatarClip:
        self.voice.log.append(f"lipsync {index}")
        if index == self.cancel_at and cancel is not None:
            cancel.cancel()
            raise Cancelled()  # as the lip-sync pipeline does: its file is removed
        folder.mkdir(exist_ok=True)
        path = folder / f"{index + 1:03d}.mp4"
        path.write_bytes(b"clip")
        return AvatarClip(index, total, text, path, samples.size / rate)


def texts(pieces: list[SpokenPiece]) -> list[str]:
    return [piece.text for piece in pieces]


def test_one_text_is_spoken_in_order_with_its_length_known() -> None:
    voice = LoggedVoice()
    pieces = list(speak(voice, "Hello there. | How are you? | Fine.", "Ada"))
    assert texts(pieces) == ["Hello there.", "How are you?", "Fine."]
    assert [(p.index, p.total, p.part) for p in pieces] == [(0, 3, 0), (1, 3, 1), (2, 3, 2)]
    assert [p.seconds for p in pieces] == [0.2, 0.3, 0.1]
    assert all(p.clip is None and p.lipsync_seconds is None for p in pieces)
    assert voice.log[0] == "ask Ada: Hello there. | How are you? | Fine."
    assert voice.log[-1] == "close"  # the voice models are free when the speech ends


def test_the_first_piece_comes_before_the_next_sentence_is_made() -> None:
    voice = LoggedVoice()
    pieces = speak(voice, "One. | Two. | Three.", "Ada")
    assert voice.log == []  # nothing happens before the first piece is asked for
    first = next(pieces)
    assert first.text == "One."
    assert voice.log == ["ask Ada: One. | Two. | Three.", "say One."]
    assert next(pieces).text == "Two."
    assert voice.log[-1] == "say Two."
    pieces.close()
    assert voice.log[-1] == "close" and voice.requests[0].closed


def test_streamed_texts_are_each_asked_for_when_the_last_is_spoken(tmp_path: Path) -> None:
    voice = LoggedVoice()
    avatar = LoggedAvatar(tmp_path, voice)

    def written() -> Iterator[str]:
        for sentence in ("First one.", "Second one. | Still second.", "Third."):
            voice.log.append(f"written {sentence}")
            yield sentence

    embedding = np.zeros(512, np.float32)
    face = Face(avatar, tmp_path / "face.png")
    pieces = speak(voice, written(), embedding, face=face)
    first = next(pieces)
    assert voice.log == [
        "written First one.",
        "ask <embedding>: First one.",
        "say First one.",
        "folder",
        "lipsync 0",
    ]
    rest = list(pieces)
    assert texts([first, *rest]) == ["First one.", "Second one.", "Still second.", "Third."]
    # Streamed: the number of pieces is not known; each text starts at part 0.
    assert [(p.index, p.total, p.part) for p in [first, *rest]] == [
        (0, 0, 0),
        (1, 0, 0),
        (2, 0, 1),
        (3, 0, 0),
    ]
    clips = [p.clip for p in [first, *rest]]
    assert [c.path.name for c in clips if c is not None] == [
        "001.mp4",
        "002.mp4",
        "003.mp4",
        "004.mp4",
    ]
    assert voice.log.count("folder") == 1  # one folder for the whole speech
    assert all(p.lipsync_seconds is not None for p in rest)
    # Only the first text may be cut short for an early start; the later ones continue it.
    assert [line for line in voice.log if line.startswith("ask")] == [
        "ask <embedding>: First one.",
        "ask <embedding>: Second one. | Still second. (no lead)",
        "ask <embedding>: Third. (no lead)",
    ]


def test_cancel_between_pieces_stops_at_once_and_frees_the_voice(tmp_path: Path) -> None:
    voice = LoggedVoice()
    cancel = CancelToken()
    pieces = speak(
        voice,
        "One. | Two. | Three.",
        "Ada",
        face=Face(LoggedAvatar(tmp_path, voice), tmp_path / "face.png"),
        cancel=cancel,
    )
    next(pieces)
    cancel.cancel()
    made = len(voice.log)
    with pytest.raises(Cancelled):
        next(pieces)
    assert voice.log[made:] == ["close"]  # no sentence more, no clip more
    assert [p.name for p in (tmp_path / "answer").iterdir()] == ["001.mp4"]


def test_a_sentence_finished_after_a_stop_is_not_lip_synced(tmp_path: Path) -> None:
    voice = LoggedVoice(stop_while_saying="Two.")
    cancel = CancelToken()
    face = Face(LoggedAvatar(tmp_path, voice), tmp_path / "face.png")
    made: list[AvatarClip] = []
    with pytest.raises(Cancelled):
        hand_over_clips(
            speak(voice, "One. | Two. | Three.", "Ada", face=face, cancel=cancel), made.append
        )
    assert [clip.text for clip in made] == ["One."]
    assert voice.log[-2:] == ["say Two.", "close"]  # no lip-sync of it, nothing after it


def test_a_stop_between_streamed_sentences_asks_the_voice_for_nothing_more() -> None:
    cancel = CancelToken()

    def written() -> Iterator[str]:
        yield "First."
        cancel.cancel()  # the answer was interrupted while the next sentence was written
        yield "Second."

    voice = LoggedVoice()
    with pytest.raises(Cancelled):
        list(speak(voice, written(), "Ada", cancel=cancel))
    assert voice.log == ["ask Ada: First.", "say First.", "close"]


def test_cancel_during_a_clip_leaves_only_the_clips_made(tmp_path: Path) -> None:
    voice = LoggedVoice()
    cancel = CancelToken()
    avatar = LoggedAvatar(tmp_path, voice, cancel_at=1)
    face = Face(avatar, tmp_path / "face.png")
    made: list[AvatarClip] = []
    with pytest.raises(Cancelled):
        hand_over_clips(
            speak(voice, "One. | Two. | Three.", "Ada", face=face, cancel=cancel), made.append
        )
    assert [clip.text for clip in made] == ["One."]
    assert sorted(p.name for p in (tmp_path / "answer").iterdir()) == ["001.mp4"]
    assert "say Three." not in voice.log and voice.requests[0].closed


def test_a_failing_sentence_surfaces_after_the_pieces_before_it(tmp_path: Path) -> None:
    voice = LoggedVoice(fails_on="Two.")
    made: list[AvatarClip] = []
    pieces = speak(
        voice, "One. | Two. | Three.", "Ada", face=Face(LoggedAvatar(tmp_path, voice), tmp_path)
    )
    with pytest.raises(UserError, match=r"Cannot say “Two\.”") as caught:
        hand_over_clips(pieces, made.append)
    assert caught.value.field == "text"  # the error as the voice raised it
    assert [clip.text for clip in made] == ["One."]
    assert voice.log[-1] == "close" and "lipsync 1" not in voice.log


def test_clips_need_a_face() -> None:
    with pytest.raises(ValueError, match="face"):
        hand_over_clips(speak(LoggedVoice(), "One.", "Ada"), lambda clip: None)
