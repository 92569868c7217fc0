"""The hands-free spoken conversation: listen → transcribe → answer aloud → listen again.

A :class:`SpokenConversation` keeps a :class:`~app.audio.listening.Listener` open in
continuous mode. Every ``speech_ended`` is a turn, handled on the conversation's own thread:
Whisper transcribes it (``SpeechInputService``); an empty transcript (a cough, a door) is
ignored; otherwise the transcript is the user's message to ``ChatService.ask`` (knowledge as the
conversation has it), whose text streams into a :class:`SpokenAnswer` in the chosen voice (and,
with a face, as lip-synced clips). When the answer has been spoken, the next turn.

**Clock.** The latency figures count from the end of the user's speech as the VAD dated it
(:attr:`ListenEvent.at`), not from when the turn was handled: the end-of-turn silence
(``end_of_turn_ms``, 700 ms by default) that the listener waits before it knows the turn is
over is part of what a person waits after "I stopped talking", so it is in the figures.

**Barge-in.** ``speech_started`` while a turn is being transcribed, generated or played stops
it at once, on the listener's thread (:meth:`SpokenAnswer.interrupt`: silence, no more
synthesis, generation cancelled). What had been *said* of the answer replaces the generated
text in the conversation (``ChatService.keep_spoken``; the model writes ahead of the voice),
and the speech that interrupted becomes the next turn.

**Echo.** On loudspeakers the answer reaches the microphone and would interrupt itself (then
be answered). Detecting one's own voice reliably needs echo cancellation, which a desktop's
sound server may or may not do; so the choice is the user's: with ``barge_in`` (default)
speech during the answer interrupts it — right with headphones or an echo-cancelling
microphone; without it, whatever is heard while an answer is on is ignored, whole turns
included, so the answer's own echo can never become a turn (the user waits for the end).
"""

from __future__ import annotations

import enum
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from app.audio.listening import Listener, ListenEvent
from app.audio.recording import Level
from app.conversation.spoken_answer import SpokenAnswer
from app.errors import UserError
from app.performance.metrics import MetricsBus
from app.services.avatar import AvatarClip, AvatarService
from app.services.chat import Answer, ChatService
from app.services.speech_input import SpeechInputService
from app.services.voice import VoiceService
from pipelines.chat import GenerationSettings
from pipelines.core import Cancelled, CancelToken
from pipelines.speech_to_text import SAMPLE_RATE

log = logging.getLogger(__name__)

ANSWER_TIMEOUT_S = 600.0
"""Longest wait for one answer to be spoken (a stuck audio device must not hang the loop)."""


class TurnStatus(enum.Enum):
    """Where the conversation is, as the status line says it."""

    LISTENING = "Listening…"
    HEARING = "Hearing you…"
    TRANSCRIBING = "Transcribing…"
    THINKING = "Thinking…"
    SPEAKING = "Speaking…"
    INTERRUPTED = "Interrupted"
    STOPPED = "Stopped"


@dataclass(frozen=True)
class TurnEvent:
    """Something for the user to see (handed to ``on_event`` from the conversation's threads).

    ``kind``: ``status`` (:attr:`status`), ``question`` (the user's transcript in
    :attr:`text`), ``text`` (a chunk of the answer as it is written), ``clip`` (a lip-synced
    sentence to play), ``answer`` (the answer as saved, in :attr:`answer`; after a barge-in,
    what was said of it) or ``error`` (the conversation stopped: :attr:`error`).
    """

    kind: str
    status: TurnStatus | None = None
    text: str = ""
    clip: AvatarClip | None = None
    answer: Answer | None = None
    error: BaseException | None = None


@dataclass(frozen=True)
class TurnOptions:
    """How the conversation speaks and listens."""

    voice: str
    """The voice answers are spoken in (a name in the voice library)."""
    generation: GenerationSettings
    face: Path | None = None
    """The avatar's face: answers as lip-synced clips (``on_event`` ``clip``); None: audio."""
    barge_in: bool = True
    """Speech during an answer interrupts it (see the module's note on echo)."""
    input_device: int | None = None
    output_device: int | None = None
    tts_device: str | None = None
    lipsync_device: str | None = None


@dataclass(frozen=True)
class Services:
    """What a spoken conversation uses."""

    chat: ChatService
    speech_input: SpeechInputService
    voice: VoiceService
    metrics: MetricsBus
    avatar: AvatarService | None = None


_STOP = None
"""Put on the turn queue: the conversation ends."""


class SpokenConversation:
    """One hands-free conversation in ``conversation_id`` until :meth:`stop`.

    Use: :meth:`start` (opens the microphone), then events arrive at ``on_event``;
    :meth:`stop` (always) ends it, interrupting an answer still going.
    """

    def __init__(
        self,
        services: Services,
        conversation_id: str,
        options: TurnOptions,
        on_event: Callable[[TurnEvent], None],
    ) -> None:
        self._services = services
        self._conversation_id = conversation_id
        self._options = options
        self._on_event = on_event
        self._turns: queue.SimpleQueue[ListenEvent | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._cancel: CancelToken | None = None
        """The turn being handled (transcribed, answered, spoken); None between turns."""
        self._answer: SpokenAnswer | None = None
        self._ignoring = False
        self._hearing = False
        """The user is speaking (a turn, not ignored, has started and not ended)."""
        """The speech being heard started during an answer with barge-in off: not a turn."""
        self._listener: Listener | None = None
        self._thread: threading.Thread | None = None
        self._closing = threading.Event()
        """:meth:`stop` was called: what the listener still hands over is not a turn."""

    def start(self) -> None:
        """Open the microphone and start listening.

        Raises:
            UserError: no voice activity model, no such microphone.
            AudioDeviceError: the microphone could not be opened.
        """
        if self._options.face is not None and self._services.avatar is None:
            raise ValueError("a face needs the avatar service")
        listener = self._services.speech_input.listener(
            self._options.input_device, continuous=True, on_event=self._heard
        )
        listener.start()
        self._listener = listener
        self._thread = threading.Thread(target=self._run, name="conversation", daemon=True)
        self._thread.start()
        self._status(TurnStatus.LISTENING)

    def level(self) -> Level | None:
        """The microphone's level since the previous call (None before :meth:`start`)."""
        return self._listener.level() if self._listener is not None else None

    def stop(self) -> None:
        """Stop listening and the answer going on; returns when the turn thread has ended."""
        self._closing.set()
        self._interrupt()
        if self._listener is not None:
            self._listener.stop()
        self._turns.put(_STOP)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()

    # ----- the listener's thread -------------------------------------------------------

    def _heard(self, event: ListenEvent) -> None:
        if event.kind == "speech_started":
            with self._lock:
                busy = self._cancel is not None
                self._ignoring = busy and not self._options.barge_in
            if busy and self._options.barge_in:
                self._interrupt()
            self._hearing = not self._ignoring
            if self._hearing:
                self._status(TurnStatus.HEARING)
        elif event.kind == "speech_ended":
            self._hearing = False
            if not self._ignoring:
                self._turns.put(event)
        else:
            self._turns.put(event)  # stopped (by stop(), or the device was lost)

    def _interrupt(self) -> None:
        """Barge-in: stop the turn being handled, at once (any thread)."""
        with self._lock:
            cancel, answer = self._cancel, self._answer
        if cancel is not None:
            cancel.cancel()
        if answer is not None:
            answer.interrupt()

    # ----- the conversation's thread ---------------------------------------------------

    def _run(self) -> None:
        while (event := self._turns.get()) is not _STOP:
            if self._closing.is_set():
                break
            if event.kind == "stopped":
                if event.error:
                    self._emit(TurnEvent("error", error=UserError(event.error, field="audio")))
                break
            try:
                self._turn(event)
            except Cancelled:
                self._status(TurnStatus.INTERRUPTED)
            except Exception as error:  # the UI shows it; the conversation ends
                log.warning("the spoken conversation stopped: %s", error, exc_info=True)
                self._emit(TurnEvent("error", error=error))
                break
            finally:
                with self._lock:
                    self._cancel = self._answer = None
            if self._turns.empty():  # else the next turn says where it is
                self._status(TurnStatus.HEARING if self._hearing else TurnStatus.LISTENING)
        self._status(TurnStatus.STOPPED)

    def _turn(self, heard: ListenEvent) -> None:
        """One turn: transcribe, answer aloud, save what was said."""
        cancel = CancelToken()
        with self._lock:
            self._cancel = cancel
        # ListenEvent.at is on time.monotonic(); the figures use time.perf_counter().
        ended_at = time.perf_counter() - (time.monotonic() - heard.at)
        self._status(TurnStatus.TRANSCRIBING)
        utterance = heard.utterance if heard.utterance is not None else np.zeros(0, np.float32)
        began = time.perf_counter()
        transcript = self._services.speech_input.transcribe(utterance, SAMPLE_RATE, cancel=cancel)
        stt_seconds = time.perf_counter() - began
        question = transcript.text.strip()
        if not question or cancel.cancelled:
            return
        self._emit(TurnEvent("question", text=question))
        self._status(TurnStatus.THINKING)
        answer = self._spoken_answer(ended_at, stt_seconds, cancel)
        try:
            answer.start()
            with self._lock:
                self._answer = answer
            if cancel.cancelled:  # a barge-in between the two: nothing was said yet
                answer.interrupt()
            result = self._ask(question, answer, cancel)
            answer.finish()
            answer.wait(ANSWER_TIMEOUT_S)
        finally:
            answer.close()
        if answer.interrupted:
            result = self._services.chat.keep_spoken(self._conversation_id, answer.spoken_text)
            self._status(TurnStatus.INTERRUPTED)
        self._emit(TurnEvent("answer", answer=result))

    def _spoken_answer(
        self, ended_at: float, stt_seconds: float, cancel: CancelToken
    ) -> SpokenAnswer:
        options, services = self._options, self._services
        return SpokenAnswer(
            services.voice,
            options.voice,
            services.metrics,
            avatar=services.avatar if options.face is not None else None,
            face=options.face,
            on_clip=self._clip,
            output_device=options.output_device,
            speech_ended_at=ended_at,
            stt_seconds=stt_seconds,
            generation=cancel,
            tts_device=options.tts_device,
            lipsync_device=options.lipsync_device,
        )

    def _ask(self, question: str, answer: SpokenAnswer, cancel: CancelToken) -> Answer:
        """The chat answer, streamed into ``answer`` (and to the view)."""
        speaking = False

        def on_text(chunk: str) -> None:
            nonlocal speaking
            answer.feed(chunk)
            self._emit(TurnEvent("text", text=chunk))
            if not speaking and answer.figures.first_audio_at is not None:
                speaking = True
                self._status(TurnStatus.SPEAKING)

        result = self._services.chat.ask(
            self._conversation_id, question, self._options.generation, cancel, on_text
        )
        if not speaking and not cancel.cancelled:
            self._status(TurnStatus.SPEAKING)
        return result

    def _clip(self, clip: AvatarClip) -> None:
        self._emit(TurnEvent("clip", clip=clip))

    def _status(self, status: TurnStatus) -> None:
        self._emit(TurnEvent("status", status=status))

    def _emit(self, event: TurnEvent) -> None:
        self._on_event(event)
