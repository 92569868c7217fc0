"""Hands-free mode: listen → transcribe → answer aloud → listen again.

A :class:`HandsFreeSession` keeps a :class:`~app.speech.listening.Listener` open in
continuous mode. Every ``speech_ended`` is a turn, handled on the conversation's own thread:
Whisper transcribes it (``SpeechInputService``); an empty transcript (a cough, a door) is
ignored; otherwise the transcript is the user's message to ``ChatService.ask`` (knowledge as the
conversation has it), whose text streams into a :class:`SpokenAnswer` in the chosen voice (and,
with a face, as lip-synced clips). When the answer has been spoken, the next turn.

**Clock.** The latency figures count from the end of the user's speech as the VAD dated it
(:attr:`ListenEvent.at`), not from when the turn was handled: the end-of-turn silence
(``end_of_turn_ms``, 700 ms by default) that the listener waits before it knows the turn is
over is part of what a person waits after "I stopped talking", so it is in the figures (the
answer is prepared during it, see below: the first audio comes at the end of that silence at
the earliest).

**Eager turn end.** The listener reports a pause of :data:`EAGER_PAUSE_MS` too: the turn
starts there, speculatively (a :class:`~app.hands_free.heard_turn.HeardTurn` not yet
confirmed) — transcribed, answered and synthesised while the end-of-turn silence runs — and
nothing of it is shown, played or saved until ``speech_ended`` confirms it; then its first
words play at once. Speech resuming first (``speech_resumed``) drops it silently, and the
utterance at the end is the whole turn. Speech starting after the end but before any of the
answer was heard (or kept) also drops it, and its utterance is carried into the next turn (the
user had only paused longer): no word said is lost.

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

from app.avatar.service import AvatarClip, AvatarService
from app.chat.results import Answer
from app.chat.service import ChatService
from app.core.audio.recording import Level
from app.core.errors import UserError
from app.core.performance.metrics import MetricsBus
from app.hands_free.heard_turn import HeardTurn
from app.hands_free.spoken_answer import SpokenAnswer
from app.speech.listening import Listener, ListenEvent
from app.speech.service import SpeechInputService
from app.voice.service import VoiceService
from pipelines.core import Cancelled, CancelToken
from pipelines.generation import GenerationSettings
from pipelines.speech_to_text import SAMPLE_RATE

log = logging.getLogger(__name__)

EAGER_PAUSE_MS = 250.0
"""A pause that starts answering, speculatively: longer than a comma pause (~130 ms), well
below the end-of-turn silence (700 ms by default)."""
ANSWER_TIMEOUT_S = 600.0
"""Longest wait for one answer to be spoken (a stuck audio device must not hang the loop)."""


class TurnStatus(enum.Enum):
    """Where the session is, as the status line says it."""

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
    """How the session speaks and listens."""

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
    """What a hands-free session uses."""

    chat: ChatService
    speech_input: SpeechInputService
    voice: VoiceService
    metrics: MetricsBus
    avatar: AvatarService | None = None


_STOP = None
"""Put on the turn queue: the session ends."""


class HandsFreeSession:
    """One hands-free session in the conversation ``conversation_id`` until :meth:`stop`.

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
        self._turns: queue.SimpleQueue[HeardTurn | ListenEvent | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._handling: HeardTurn | None = None
        """The turn being handled (transcribed, answered, spoken); None between turns."""
        self._latest: HeardTurn | None = None
        """The last turn the listener started, until it is handled (confirm, drop, merge)."""
        self._carry = np.zeros(0, np.float32)
        """Speech of a dropped confirmed turn, said again before the next one's."""
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
            self._options.input_device,
            continuous=True,
            pause_ms=EAGER_PAUSE_MS,
            on_event=self._heard,
        )
        listener.start()
        self._listener = listener
        self._thread = threading.Thread(target=self._run, name="hands-free", daemon=True)
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
            self._started()
        elif event.kind == "speech_paused":
            if not self._ignoring:
                self._new_turn(event, confirmed=False)
        elif event.kind == "speech_resumed":
            with self._lock:
                latest = self._latest
            if latest is not None and not latest.confirmed and latest.drop():
                log.debug("speech resumed: the answer prepared at the pause is dropped")
        elif event.kind == "speech_ended":
            self._hearing = False
            if self._ignoring:
                return
            with self._lock:
                latest = self._latest
            if latest is not None and not latest.confirmed and not latest.cancel.cancelled:
                with self._lock:
                    self._carry = np.zeros(0, np.float32)
                latest.confirm()  # the answer prepared at the pause is heard now
            else:
                self._new_turn(event, confirmed=True)
        else:
            self._turns.put(event)  # stopped (by stop(), or the device was lost)

    def _started(self) -> None:
        """Speech starts: it continues a turn not yet heard, or barges in, or is ignored."""
        with self._lock:
            latest = self._latest
        ignoring = False
        if latest is not None and latest.drop():
            log.debug("speech before the answer was heard: the turn goes on")
            with self._lock:  # the user had only paused: what they said is not lost
                if latest.confirmed:
                    self._carry = latest.utterance
                self._latest = None
        else:
            with self._lock:
                busy = self._handling is not None
            ignoring = busy and not self._options.barge_in
            if busy and self._options.barge_in:
                self._interrupt()
        self._ignoring = ignoring
        self._hearing = not ignoring
        if self._hearing:
            self._status(TurnStatus.HEARING)

    def _new_turn(self, event: ListenEvent, *, confirmed: bool) -> None:
        """A turn from the listener's utterance (after what a dropped turn carried)."""
        utterance = event.utterance if event.utterance is not None else np.zeros(0, np.float32)
        with self._lock:
            turn = HeardTurn(
                np.concatenate([self._carry, utterance]), event.at, confirmed=confirmed
            )
            if confirmed:
                self._carry = np.zeros(0, np.float32)
            self._latest = turn
        self._turns.put(turn)

    def _interrupt(self) -> None:
        """Barge-in: stop the turn being handled, at once (any thread)."""
        with self._lock:
            turns = {self._handling, self._latest} - {None}
        for turn in turns:
            if turn is not None:
                turn.interrupt()

    # ----- the session's thread --------------------------------------------------------

    def _run(self) -> None:
        while (event := self._turns.get()) is not _STOP:
            if self._closing.is_set():
                break
            if isinstance(event, HeardTurn):
                self._handle(event)
            elif event.kind == "stopped":
                if event.error:
                    self._emit(TurnEvent("error", error=UserError(event.error, field="audio")))
                break
        self._status(TurnStatus.STOPPED)

    def _handle(self, turn: HeardTurn) -> None:
        with self._lock:
            self._handling = turn
        try:
            self._turn(turn)
        except Cancelled:
            turn.show(lambda: self._status(TurnStatus.INTERRUPTED))
        except Exception as error:  # the UI shows it; the session ends
            log.warning("hands-free mode stopped: %s", error, exc_info=True)
            self._emit(TurnEvent("error", error=error))
            self._closing.set()
            self._turns.put(_STOP)
        finally:
            with self._lock:
                self._handling = None
                if self._latest is turn:
                    self._latest = None
        if self._turns.empty():  # else the next turn says where it is
            self._status(TurnStatus.HEARING if self._hearing else TurnStatus.LISTENING)

    def _turn(self, turn: HeardTurn) -> None:
        """One turn: transcribe, answer aloud, save what was said (a speculative turn: the
        same, held until it is confirmed; see the module's note)."""
        cancel = turn.cancel
        # HeardTurn.at is on time.monotonic(); the figures use time.perf_counter().
        ended_at = time.perf_counter() - (time.monotonic() - turn.at)
        turn.show(lambda: self._status(TurnStatus.TRANSCRIBING))
        began = time.perf_counter()
        transcript = self._services.speech_input.transcribe(
            turn.utterance, SAMPLE_RATE, cancel=cancel
        )
        stt_seconds = time.perf_counter() - began
        question = transcript.text.strip()
        if not question or cancel.cancelled:
            return
        turn.show(lambda: self._emit(TurnEvent("question", text=question)))
        turn.show(lambda: self._status(TurnStatus.THINKING))
        answer = self._spoken_answer(ended_at, stt_seconds, cancel)
        try:
            answer.start()
            turn.attach(answer)
            result = self._ask(question, answer, turn)
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
            held=True,  # HeardTurn.attach releases it once the turn is confirmed
        )

    def _ask(self, question: str, answer: SpokenAnswer, turn: HeardTurn) -> Answer:
        """The chat answer, streamed into ``answer`` (and to the view once the turn is
        confirmed); saved only if the turn is kept."""
        speaking = False
        cancel = turn.cancel

        def on_text(chunk: str) -> None:
            nonlocal speaking
            answer.feed(chunk)
            turn.show(lambda: self._emit(TurnEvent("text", text=chunk)))
            if not speaking and answer.heard:
                speaking = True
                self._status(TurnStatus.SPEAKING)

        result = self._services.chat.ask(
            self._conversation_id,
            question,
            self._options.generation,
            cancel,
            on_text,
            confirm=turn.keep,
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
