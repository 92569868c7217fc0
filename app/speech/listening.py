"""Listening for speech: the microphone, 16 kHz, and voice activity detection.

A :class:`Listener` records from one input (:class:`~app.core.audio.recording.Recorder`, asked for
16 kHz, which PulseAudio and most drivers give; other rates are resampled), runs silero-vad on
its own worker thread (never in PortAudio's callback, which must return at once) and reports
``speech_started`` / ``speech_ended`` events, both on :attr:`Listener.events` (a queue to poll)
and to an optional callback (called on the worker thread: hand it on, e.g. to a Qt signal).

Two modes:

- **dictation** (``continuous=False``): the first turn ends the listening; :meth:`utterance`
  is what was said (with a short pre-roll), ready for Whisper.
- **conversation** (``continuous=True``): listening goes on; every turn's ``speech_ended``
  carries its utterance; :meth:`next_turn` forgets what was heard so far (e.g. while the
  answer was being played) and waits for new speech.

Whatever happens — :meth:`stop`, ``max_seconds``, a device that disappears — what was recorded
is kept: :meth:`stop` returns it.
"""

from __future__ import annotations

import enum
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

import numpy as np

from app.core.audio.devices import Float32Array
from app.core.audio.recording import Level, Recorder
from app.core.texts import tr
from pipelines.vad import SAMPLE_RATE, Endpointer, SileroVad, VadEvent
from pipelines.voice.audio import to_model_rate

log = logging.getLogger(__name__)

PRE_ROLL_S = 0.3
"""Audio kept before the detected start (the VAD needs a chunk or two to be sure)."""
TAIL_S = 0.2
"""Audio kept after the detected end (Whisper hears a clipped last word worse)."""
POLL_S = 0.05
DEVICE_LOST = tr(
    "The microphone stopped delivering sound (was it unplugged?); what was recorded is kept."
)

EventKind = Literal["speech_started", "speech_paused", "speech_resumed", "speech_ended", "stopped"]


class ListenState(enum.Enum):
    """Where the listener is in a turn."""

    WAITING = "waiting"
    SPEAKING = "speaking"
    ENDED = "ended"


@dataclass(frozen=True)
class ListenEvent:
    """Something the listener noticed, ``time`` seconds after listening started.

    ``speech_ended`` carries the turn's :attr:`utterance` (16 kHz), and so does
    ``speech_paused`` (with ``pause_ms``: what was said up to a pause, which
    ``speech_resumed`` or ``speech_ended`` follows); ``stopped`` ends the
    events (after :meth:`Listener.stop`, the first turn in dictation mode, ``max_seconds`` or a
    lost device, whose sentence is in :attr:`error`).
    """

    kind: EventKind
    time: float
    utterance: Float32Array | None = None
    error: str = ""
    at: float = 0.0
    """When it happened on :func:`time.monotonic`'s clock (the audio received so far dates
    it; PortAudio's input latency, ~0.1 s, is not counted)."""


class Listener:
    """Listens on one input device for speech.

    Args:
        vad_model: silero-vad's OpenVINO file (:func:`app.speech.vad_model.find_vad_model`).
        device: PortAudio input index (None: the default input).
        end_silence_ms: silence that ends a turn.
        max_seconds: longest turn; a longer one ends there.
        continuous: keep listening after a turn (conversation) instead of stopping (dictation).
        pause_ms: a silence this long in a turn is reported (``speech_paused``; None: never).
        on_event: called with every event, on the listener's worker thread.
    """

    def __init__(
        self,
        vad_model: Path,
        device: int | None = None,
        *,
        end_silence_ms: float = 700.0,
        max_seconds: float = 30.0,
        continuous: bool = False,
        pause_ms: float | None = None,
        on_event: Callable[[ListenEvent], None] | None = None,
    ) -> None:
        self.continuous = continuous
        self.pause_ms = pause_ms
        self.max_seconds = max_seconds
        self.end_silence_ms = end_silence_ms
        self.events: queue.SimpleQueue[ListenEvent] = queue.SimpleQueue()
        self.error = ""
        self._on_event = on_event
        self._vad = SileroVad(vad_model)
        self._endpointer = Endpointer(end_silence_ms=end_silence_ms, pause_ms=pause_ms)
        self._blocks: queue.SimpleQueue[Float32Array] = queue.SimpleQueue()
        self._recorder = Recorder(device, rate=SAMPLE_RATE, on_block=self._blocks.put, keep=False)
        self._lock = threading.Lock()
        self._state = ListenState.WAITING
        self._audio = np.zeros(0, np.float32)  # at the device's rate, from _audio_start
        self._audio_start = 0  # sample index (device rate) of _audio[0] since listening began
        self._turn_start = 0.0
        self._utterance: Float32Array | None = None
        self._stopping = threading.Event()
        self._worker: threading.Thread | None = None

    # ----- control (any thread) -------------------------------------------------------

    def start(self) -> None:
        """Load the VAD, open the microphone and start listening.

        Raises:
            AudioDeviceError: no such device, or it could not be opened.
            PipelineError: the VAD model could not be loaded.
        """
        self._vad.load()
        self._recorder.start()
        self._worker = threading.Thread(target=self._run, name="listener", daemon=True)
        self._worker.start()

    @property
    def state(self) -> ListenState:
        """Waiting for speech, hearing it, or done (dictation: after the first turn)."""
        with self._lock:
            return self._state

    @property
    def rate(self) -> int:
        """The rate the device records at (16 kHz unless it cannot)."""
        return self._recorder.rate

    @property
    def seconds_listened(self) -> float:
        """Seconds of audio taken from the device since listening began: the clock its
        events' times are on (audio time, which a busy machine does not stretch)."""
        with self._lock:
            return self._seconds_now()

    def level(self) -> Level:
        """The input level since the previous call (for a meter)."""
        return self._recorder.level()

    def utterance(self) -> Float32Array | None:
        """The last complete turn at 16 kHz (None before the first ``speech_ended``)."""
        with self._lock:
            return self._utterance

    def next_turn(self) -> None:
        """Forget what was heard so far and wait for new speech (conversation mode)."""
        with self._lock:
            self._reset_turn()

    def stop(self) -> Float32Array:
        """Stop listening; returns what was recorded: the turn in progress (from its start),
        else the last complete turn, else everything kept (all 16 kHz)."""
        self._stopping.set()
        self._recorder.stop()
        if self._worker is not None and self._worker is not threading.current_thread():
            self._worker.join(timeout=5.0)
        with self._lock:
            self._drain()
            kept = self._kept_audio()
            self._finish("")
        return kept

    # ----- the worker --------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                block = self._blocks.get(timeout=POLL_S)
            except queue.Empty:
                if not self._recorder.recording and not self._stopping.is_set():
                    with self._lock:
                        self._drain()
                        self._finish(DEVICE_LOST)
                    return
                continue
            with self._lock:
                self._take(block)
                if self._state is ListenState.ENDED:
                    self._stopping.set()
        self._recorder.stop()

    def _drain(self) -> None:
        while True:
            try:
                self._take(self._blocks.get_nowait())
            except queue.Empty:
                return

    def _take(self, block: Float32Array) -> None:
        """One block from the microphone: keep it, run the VAD, act on its events."""
        if self._state is ListenState.ENDED:
            return
        self._audio = np.concatenate([self._audio, block])
        for probability in self._vad.probabilities(to_model_rate(block, self.rate)):
            event = self._endpointer.feed(probability)
            if event is not None:
                self._on_vad(event)
            elif (
                self._state is ListenState.SPEAKING
                and self._endpointer.now - self._turn_start > self.max_seconds
            ):
                self._on_vad(VadEvent("speech_ended", self._endpointer.now))
            if self._ended():
                return
        if self._state is ListenState.WAITING:  # only the pre-roll is needed from silence
            self._trim(self._seconds_now() - PRE_ROLL_S - 0.5)

    def _ended(self) -> bool:
        return self._state is ListenState.ENDED

    def _on_vad(self, event: VadEvent) -> None:
        if event.kind == "speech_started":
            self._state = ListenState.SPEAKING
            self._turn_start = max(0.0, event.time - PRE_ROLL_S)
            self._emit(ListenEvent("speech_started", event.time))
            return
        if self._state is not ListenState.SPEAKING:
            return
        if event.kind == "speech_paused":
            pause = self._segment(self._turn_start, event.time + TAIL_S)
            self._emit(ListenEvent("speech_paused", event.time, pause))
            return
        if event.kind == "speech_resumed":
            self._emit(ListenEvent("speech_resumed", event.time))
            return
        self._utterance = self._segment(self._turn_start, event.time + TAIL_S)
        self._emit(ListenEvent("speech_ended", event.time, self._utterance))
        if self.continuous:
            self._reset_turn()
        else:
            self._state = ListenState.ENDED
            self._emit(ListenEvent("stopped", event.time))

    def _reset_turn(self) -> None:
        """Wait for new speech; the clock (the endpointer's and the audio's) runs on."""
        self._state = ListenState.WAITING
        fresh = Endpointer(end_silence_ms=self.end_silence_ms, pause_ms=self.pause_ms)
        fresh.now = self._endpointer.now
        self._endpointer = fresh

    def _finish(self, error: str) -> None:
        """The last event (once): ``stopped``, with ``error`` when the device was lost."""
        if self._state is ListenState.ENDED and not error:
            return
        if self._state is ListenState.SPEAKING:
            end = self._endpointer.finish()
            self._utterance = self._kept_audio()
            ended = end.time if end else self._seconds_now()
            self._emit(ListenEvent("speech_ended", ended, self._utterance))
        self._state = ListenState.ENDED
        self.error = error
        self._emit(ListenEvent("stopped", self._seconds_now(), error=error))

    def _emit(self, event: ListenEvent) -> None:
        event = replace(event, at=time.monotonic() - (self._seconds_now() - event.time))
        self.events.put(event)
        if self._on_event is not None:
            self._on_event(event)

    # ----- audio bookkeeping (under the lock) ----------------------------------------------

    def _seconds_now(self) -> float:
        return (self._audio_start + self._audio.size) / self.rate if self.rate else 0.0

    def _segment(self, start: float, end: float | None = None) -> Float32Array:
        """Kept audio from ``start`` to ``end`` seconds (None: all so far), at 16 kHz."""
        first = max(0, int(start * self.rate) - self._audio_start)
        last = self._audio.size if end is None else int(end * self.rate) - self._audio_start
        return to_model_rate(self._audio[first : max(first, last)], self.rate)

    def _trim(self, before: float) -> None:
        drop = int(before * self.rate) - self._audio_start
        if drop > 0:
            self._audio = self._audio[drop:]
            self._audio_start += drop

    def _kept_audio(self) -> Float32Array:
        if self._state is ListenState.SPEAKING:
            return self._segment(self._turn_start)
        if self._utterance is not None:
            return self._utterance
        return to_model_rate(self._audio, self.rate)
