"""Dictation: the microphone button's two jobs, Qt-free (they run in the GUI's workers).

:func:`open_listener` finds the chosen microphone, loads the voice activity model and opens
the device (each can take a moment: never on the GUI thread). :func:`finish_dictation` stops
the listener — at once when the turn is still going (a second click, push-to-talk released) —
and transcribes what it heard. A lost microphone keeps what was heard before it went: that
part is transcribed and :attr:`Dictated.cut` says the recording was cut.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.audio.devices import input_named
from app.speech.listening import Listener
from app.speech.service import SpeechInputService
from pipelines.core import CancelToken
from pipelines.speech_to_text import SAMPLE_RATE

MIN_SECONDS = 0.1
"""Less than this was a click, not a word: nothing is transcribed."""
HELD_SILENCE_MS = 60_000.0
"""Push-to-talk: the key ends the turn, not a pause (a minute is longer than any pause)."""


@dataclass(frozen=True)
class Dictated:
    """What a dictation turned into."""

    text: str
    """The transcript ("" when nothing was heard)."""
    seconds: float
    """Length of the audio that was transcribed."""
    cut: bool = False
    """The microphone stopped delivering sound mid-recording (``text`` is what came before)."""


def open_listener(service: SpeechInputService, microphone: str, held: bool = False) -> Listener:
    """A started dictation listener on the input called ``microphone`` ("" : the default);
    ``held`` (push-to-talk): pauses do not end the turn, :func:`finish_dictation` does.

    Raises:
        AudioDeviceError: no input device, the named one is gone, or it could not be opened.
        UserError: the voice activity model is not installed (``field="audio"``).
        PipelineError: the voice activity model could not be loaded.
    """
    silence = HELD_SILENCE_MS if held else None
    listener = service.listener(input_named(microphone), end_silence_ms=silence)
    listener.start()
    return listener


def finish_dictation(
    service: SpeechInputService, listener: Listener, cancel: CancelToken | None = None
) -> Dictated:
    """Stop ``listener`` and transcribe what it heard (its turn, or all it kept).

    Raises:
        UserError: no speech-to-text model, or another transcription is running.
        Cancelled: ``cancel`` was set (what was heard is dropped, as the user asked).
    """
    audio = listener.stop()
    cut = bool(listener.error)
    seconds = audio.size / SAMPLE_RATE
    if seconds < MIN_SECONDS:
        return Dictated("", seconds, cut)
    transcript = service.transcribe(audio, SAMPLE_RATE, cancel=cancel)
    return Dictated(transcript.text.strip(), seconds, cut)
