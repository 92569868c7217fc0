"""Speak this text (with a face): the one way from text to speech and lip-synced clips.

:func:`speak` is a generator: it synthesises the text in a voice piece by piece and yields each
piece (a sentence's 16 kHz samples) as soon as it is made; with a :class:`Face`, each piece is
lip-synced first and comes with its clip (``NNN.mp4`` in a new answer folder, see
:meth:`~app.avatar.service.AvatarService.answer_folder`). Nothing is synthesised ahead: the next
piece is made only when the caller asks for it, so a caller that plays or shows a piece before
asking for the next one keeps to one voice request and one lip-sync at a time.

Its callers only decide what to do with the pieces: the Avatar panel joins them into one speech
for one video (:func:`app.avatar.media.make_video`), Avatar mode shows each clip as it comes
(:func:`hand_over_clips`), and hands-free mode plays each piece or shows each clip as the chat
model writes the sentences (:class:`app.hands_free.spoken_answer.SpokenAnswer`).

Cancel: ``cancel`` stops synthesis and lip-sync at once (:class:`~pipelines.core.Cancelled`); a
clip being written is removed by the lip-sync pipeline, the clips already yielded remain. The
voice service publishes each request's figures (time to first audio, real-time factor) as it
always does; each piece carries what the hands-free figures need (its synthesis and lip-sync
time). Errors (an unknown voice, no model, a bad face, a device failure) surface from the
iteration, unchanged, when the piece they concern is asked for.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from app.avatar.service import AvatarClip
from pipelines.core import Cancelled, CancelToken
from pipelines.voice.tts import SpeechChunk

Samples = npt.NDArray[np.float32]


class SpeechStream(Protocol):
    """A request to speak under way (:class:`~app.voice.figures.Speech`)."""

    def __iter__(self) -> Iterator[SpeechChunk]: ...

    def __next__(self) -> SpeechChunk: ...

    def close(self) -> None:
        """Stop making sentences and release the models."""


class TextToSpeech(Protocol):
    """What speaking needs of the voice (:class:`~app.voice.service.VoiceService`)."""

    def speak(
        self,
        text: str,
        voice_name: str,
        *,
        device: str | None = None,
        cancel: CancelToken | None = None,
        short_lead: bool = True,
    ) -> SpeechStream:
        """``text`` in a stored voice, sentence by sentence (``short_lead``: a long first
        sentence in two parts, so that its audio starts early)."""
        ...

    def speak_with(
        self,
        embedding: Samples,
        text: str,
        *,
        device: str | None = None,
        cancel: CancelToken | None = None,
        short_lead: bool = True,
    ) -> SpeechStream:
        """``text`` in the voice of a speaker embedding, sentence by sentence."""
        ...


class LipSync(Protocol):
    """What speaking needs of the avatar (:class:`~app.avatar.service.AvatarService`)."""

    def answer_folder(self) -> Path:
        """A new folder for one speech's clips (created with its first clip)."""
        ...

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
        """One piece (``samples`` at ``rate`` Hz) lip-synced as ``NNN.mp4`` in ``folder``."""
        ...


@dataclass(frozen=True)
class Face:
    """Who lip-syncs the speech and to which picture."""

    avatar: LipSync
    image: Path
    """The face image (or video) the clips show."""
    device: str | None = None
    """Where the lip-sync model runs (None: its setting)."""


@dataclass(frozen=True)
class SpokenPiece:
    """One piece of speech (a sentence, or part of a long one), made and, with a face,
    lip-synced."""

    index: int
    """Its place in the whole speech, from 0."""
    total: int
    """Pieces in the whole speech when known (one text given), else 0."""
    part: int
    """Its place in the text it comes from: 0 starts a text (a reader pauses before it)."""
    text: str
    samples: Samples
    """Mono float32 at :attr:`rate`."""
    rate: int
    """The voice engine's sample rate."""
    synthesis_seconds: float
    """From asking for this piece to having its samples (the first piece of a text: the voice
    request's checks, and the model load if it had to load)."""
    clip: AvatarClip | None = None
    """With a face: the lip-synced clip (its audio muxed in)."""
    lipsync_seconds: float | None = None
    """With a face: how long its lip-sync took."""

    @property
    def seconds(self) -> float:
        """Audio length of the piece."""
        return self.samples.size / self.rate


def speak(
    voice: TextToSpeech,
    texts: str | Iterable[str],
    speaker: str | Samples,
    *,
    face: Face | None = None,
    device: str | None = None,
    cancel: CancelToken | None = None,
) -> Generator[SpokenPiece, None, None]:
    """``texts`` spoken by ``speaker``, piece by piece, each yielded as soon as it is made.

    Args:
        voice: synthesises the speech.
        texts: one text (its sentences are the pieces, their number is known), or texts as
            they come (a chat answer's sentences: taken one at a time, the iterable may block
            until the next is written).
        speaker: a voice's name in the library, or a speaker embedding.
        face: lip-sync each piece to this face; None: audio only.
        device: where the text-to-speech model runs (None: its setting).
        cancel: stops synthesis and lip-sync (checked between and during pieces).

    Raises:
        UserError: as ``VoiceService.speak`` and ``AvatarService.lipsync`` (unknown
            voice, unsayable text, no model, a bad face…), when the piece concerned is asked for.
        DeviceError: a model failed on its device.
        Cancelled: ``cancel`` was set; the pieces yielded so far (and their clips) remain.
    """
    single = isinstance(texts, str)
    folder: Path | None = None
    index = 0
    for number, text in enumerate([texts] if isinstance(texts, str) else texts):
        _check(cancel)
        asked = time.perf_counter()
        # Only the first text's first sentence is cut short for an early start: a later one
        # continues speech already playing, and a cut there is a pause mid-sentence.
        lead = number == 0
        if isinstance(speaker, str):
            speech = voice.speak(text, speaker, device=device, cancel=cancel, short_lead=lead)
        else:
            speech = voice.speak_with(speaker, text, device=device, cancel=cancel, short_lead=lead)
        try:  # closing the speech frees the voice models at once (a cancel, a failed lip-sync)
            for chunk in speech:
                _check(cancel)
                made = time.perf_counter()
                total = chunk.total if single else 0
                clip, lipsync_seconds = None, None
                if face is not None:
                    folder = folder or face.avatar.answer_folder()  # created with its first clip
                    lipsync_began = time.perf_counter()
                    clip = face.avatar.lipsync_sentence(
                        face.image,
                        folder,
                        index,
                        chunk.text,
                        chunk.samples,
                        rate=chunk.rate,
                        total=total,
                        device=face.device,
                        cancel=cancel,
                    )
                    lipsync_seconds = time.perf_counter() - lipsync_began
                yield SpokenPiece(
                    index=index,
                    total=total,
                    part=chunk.index,
                    text=chunk.text,
                    samples=chunk.samples,
                    rate=chunk.rate,
                    synthesis_seconds=made - asked,
                    clip=clip,
                    lipsync_seconds=lipsync_seconds,
                )
                index += 1
                asked = time.perf_counter()
        finally:
            speech.close()


def hand_over_clips(
    pieces: Iterable[SpokenPiece], on_clip: Callable[[AvatarClip], None]
) -> list[AvatarClip]:
    """Run a face's speech to its end, handing each clip to ``on_clip`` as soon as it is made
    (a worker's job: the first clip plays while the next are made).

    Raises:
        ValueError: a piece without a clip (the speech was not given a face).
        UserError, DeviceError, Cancelled: as :func:`speak`.
    """
    clips: list[AvatarClip] = []
    for piece in pieces:
        if piece.clip is None:
            raise ValueError("hand_over_clips needs a speech with a face")
        clips.append(piece.clip)
        on_clip(piece.clip)
    return clips


def _check(cancel: CancelToken | None) -> None:
    if cancel is not None and cancel.cancelled:
        raise Cancelled()
