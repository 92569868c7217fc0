"""Speech made and played off the GUI thread: the Voice panel's Speak and the chat's Speak.

:func:`speak_job` asks ``VoiceService.speak`` for sentences and hands each to a
:class:`~app.core.audio.playback.Player` as soon as it is ready, so playback starts after the first
sentence while the rest are synthesised. :func:`speak_and_play` also waits until the last
sentence has been heard, so the task lasts as long as the sound. A finished speech is saved
(:func:`save_outcome`) or kept for the Avatar panel (:func:`hand_off_speech`).
:func:`make_kokoro_voice_job` derives a library voice's Kokoro form (minutes, with progress and
Stop).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.core.audio.playback import Player
from app.voice.figures import SpeechFigures
from app.voice.kokoro_forms import KokoroForm
from app.voice.kokoro_making import make_kokoro_voice
from app.voice.service import VoiceService
from app.voice.speech_files import check_output_wav, join_sentences, pause_samples, save_speech
from app.voice.spoken_clips import SpokenClip, keep_spoken
from pipelines.core import Cancelled, CancelToken, Progress
from pipelines.voice.audio import MODEL_RATE
from pipelines.voice.kokoro_clone import CloneSettings

PLAYBACK_CHECK_SECONDS = 0.05
"""How often the play-out wait looks at the cancel token."""


@dataclass(frozen=True)
class SpeechOutcome:
    """A synthesis that ended: its sentences (all, or those made before Stop)."""

    pieces: list[npt.NDArray[np.float32]] = field(default_factory=list)
    total: int = 0
    stopped: bool = False
    figures: SpeechFigures = field(default_factory=lambda: SpeechFigures(""))
    """What the service measured (shown, never recomputed)."""
    text: str = ""
    """What was asked to be spoken (the box may have been edited since)."""
    voice: str = ""
    rate: int = MODEL_RATE
    """The sentences' sample rate: the voice engine's own (Kokoro 24 kHz, SpeechT5 16 kHz)."""

    @property
    def complete(self) -> bool:
        """Every sentence was made."""
        return not self.stopped and len(self.pieces) == self.total > 0

    def audio(self) -> npt.NDArray[np.float32]:
        """The sentences joined as the wav is saved (with pauses between them)."""
        return join_sentences(self.pieces, self.rate)

    @property
    def seconds(self) -> float:
        """Length of :meth:`audio`."""
        return self.audio().size / self.rate if self.pieces else 0.0


def speak_job(
    service: VoiceService,
    text: str,
    voice: str,
    device: str | None,
    player: Player | None,
    cancel: CancelToken,
    on_progress: Callable[[SpeechFigures], None],
) -> SpeechOutcome:
    """Speak ``text`` in ``voice``, feeding ``player`` sentence by sentence (worker thread).

    Stop (``cancel``) ends it between sentences and silences the player; what was made is
    returned with ``stopped``.

    Raises:
        UserError: from the service (text, voice, model, device), before any sound.
    """
    pieces: list[npt.NDArray[np.float32]] = []
    figures = SpeechFigures("")
    total = 0
    rate = MODEL_RATE
    stopped = False
    try:
        figures = SpeechFigures(service.device(device))
        speech = service.speak(text, voice, device=device, cancel=cancel)  # loads the model
        try:
            for chunk in speech:
                total = chunk.total  # the synthesiser's own split (a long first one is cut)
                rate = chunk.rate
                if player is not None:  # with the pause the saved wav has before it
                    audible = _with_pause(chunk.samples, chunk.index, rate)
                    player.put(audible, label=chunk.index, rate=rate)
                pieces.append(chunk.samples)
                figures = speech.figures
                on_progress(figures)
        finally:
            speech.close()  # releases the service at once, also when stopped midway
    except Cancelled:
        stopped = True
    finally:
        if player is not None:
            if cancel.cancelled:
                player.stop()
            else:
                player.end()
    stopped = stopped or cancel.cancelled
    return SpeechOutcome(pieces, total, stopped, figures, text, voice, rate)


def _with_pause(samples: npt.NDArray[np.float32], index: int, rate: int) -> npt.NDArray[np.float32]:
    if index == 0:
        return samples
    return np.concatenate([np.zeros(pause_samples(rate), np.float32), samples])


def speak_and_play(
    service: VoiceService,
    text: str,
    voice: str,
    device: str | None,
    player: Player | None,
    cancel: CancelToken,
    on_progress: Callable[[SpeechFigures], None],
    on_synthesised: Callable[[SpeechOutcome], None],
) -> SpeechOutcome:
    """:func:`speak_job`, then wait until ``player`` has played everything (worker thread).

    ``on_synthesised`` receives the outcome as soon as the last sentence is made; the return
    comes once it has also been heard (or stopped). A failure stops the sound and is raised at
    once: the error is shown while it is news and Speak (or "Use CPU instead") works again at
    once, rather than after the rest of a speech that cannot be finished has played.
    """
    try:
        outcome = speak_job(service, text, voice, device, player, cancel, on_progress)
    except Exception:
        if player is not None:
            player.stop()
        raise
    on_synthesised(outcome)
    _play_out(player, cancel)
    return outcome


def _play_out(player: Player | None, cancel: CancelToken) -> None:
    if player is None:
        return
    while not player.wait(PLAYBACK_CHECK_SECONDS):
        if cancel.cancelled:
            player.stop()


def save_outcome(path: Path, outcome: SpeechOutcome) -> Path:
    """Write the whole speech to ``path`` (temp name, then renamed); worker thread.

    Raises:
        UserError: not a usable wav path (``field="output"``).
        StorageError: the disk refused it.
    """
    path = check_output_wav(path)
    save_speech(outcome.audio(), path, outcome.rate)
    return path


def hand_off_speech(folder: Path, outcome: SpeechOutcome) -> SpokenClip:
    """Keep the whole speech as a wav of its own in ``folder`` for the Avatar panel; worker
    thread. Its own file, so a later Speak does not change what the avatar was given."""
    return keep_spoken(folder, outcome.audio(), outcome.text, outcome.voice, rate=outcome.rate)


def make_kokoro_voice_job(
    service: VoiceService,
    name: str,
    device: str | None,
    cancel: CancelToken,
    on_progress: Callable[[Progress], None],
    settings: CloneSettings | None = None,
) -> KokoroForm:
    """Derive and store the Kokoro form of the library voice ``name`` (worker thread; a few
    minutes). ``on_progress`` gets a :class:`~pipelines.core.Progress` after every synthesis
    (``done`` of ``total``, ``message`` for a status line); Stop (``cancel``) ends it at the
    next one and nothing is written. ``settings``: the search's (default: the full one).

    Raises:
        UserError: as :func:`app.voice.kokoro_making.make_kokoro_voice` (its ``field``: ``voice``,
            ``model`` or ``reference``); ModelMissingError when the speaker-similarity model
            is missing (the panel's Download line).
        Cancelled: stopped.
    """
    return make_kokoro_voice(
        service, name, device=device, cancel=cancel, on_progress=on_progress, settings=settings
    )
