"""Speech in a worker, played while it is made: the Voice panel's Speak and the chat's Speak.

:func:`speak_job` is the plain (Qt-free) work: it asks ``VoiceService.speak`` for sentences and
hands each to a :class:`~app.audio.playback.Player` as soon as it is ready, so playback starts
after the first sentence while the rest are synthesised. :class:`SpeechRunner` runs it through
a :class:`~ui.progress_runner.ProgressRunner` and polls the player from a GUI timer to know
when the last sentence has been heard.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QObject, QTimer, Signal, Slot

from app.audio import devices as audio_devices
from app.audio.devices import AudioDeviceError
from app.audio.playback import Player
from app.services.voice import PAUSE_SECONDS, VoiceService, join_sentences
from pipelines.core import Cancelled, CancelToken
from pipelines.voice.audio import MODEL_RATE
from ui.progress_runner import ProgressRunner
from ui.workers import WorkerRegistry

POLL_MS = 50


@dataclass(frozen=True)
class SpeechProgress:
    """Where a synthesis is: ``done`` of ``total`` sentences, and its numbers so far."""

    done: int
    total: int
    device: str
    first_audio_seconds: float | None = None
    real_time_factor: float | None = None


@dataclass(frozen=True)
class SpeechOutcome:
    """A synthesis that ended: its sentences (all, or those made before Stop)."""

    pieces: list[npt.NDArray[np.float32]] = field(default_factory=list)
    total: int = 0
    stopped: bool = False
    device: str = ""
    first_audio_seconds: float | None = None
    real_time_factor: float | None = None
    text: str = ""
    """What was asked to be spoken (the box may have been edited since)."""
    voice: str = ""

    @property
    def complete(self) -> bool:
        """Every sentence was made."""
        return not self.stopped and len(self.pieces) == self.total > 0

    def audio(self) -> npt.NDArray[np.float32]:
        """The sentences joined as the wav is saved (with pauses between them)."""
        return join_sentences(self.pieces)

    @property
    def seconds(self) -> float:
        """Length of :meth:`audio`."""
        return self.audio().size / MODEL_RATE if self.pieces else 0.0


def speak_job(
    service: VoiceService,
    text: str,
    voice: str,
    device: str | None,
    player: Player | None,
    cancel: CancelToken,
    on_progress: Callable[[SpeechProgress], None],
) -> SpeechOutcome:
    """Speak ``text`` in ``voice``, feeding ``player`` sentence by sentence (worker thread).

    Stop (``cancel``) ends it between sentences and silences the player; what was made is
    returned with ``stopped``.

    Raises:
        UserError: from the service (text, voice, model, device), before any sound.
    """
    started = time.perf_counter()
    pieces: list[npt.NDArray[np.float32]] = []
    first: float | None = None
    synth = audio = 0.0
    concrete = ""
    total = 0
    stopped = False
    try:
        concrete = service.device(device)
        chunks = service.speak(text, voice, device=device, cancel=cancel)  # loads the model
        try:
            for chunk in chunks:
                total = chunk.total  # the synthesiser's own split (a long first one is cut)
                if player is not None:  # with the pause the saved wav has before it
                    player.put(_with_pause(chunk.samples, chunk.index), label=chunk.index)
                first = time.perf_counter() - started if first is None else first
                synth += chunk.synth_seconds
                audio += chunk.seconds
                pieces.append(chunk.samples)
                rtf = synth / audio if audio else None
                on_progress(SpeechProgress(len(pieces), total, concrete, first, rtf))
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()  # releases the service at once, also when stopped midway
    except Cancelled:
        stopped = True
    finally:
        if player is not None:
            if cancel.cancelled:
                player.stop()
            else:
                player.end()
    stopped = stopped or cancel.cancelled
    rtf = synth / audio if audio else None
    return SpeechOutcome(pieces, total, stopped, concrete, first, rtf, text, voice)


def _with_pause(samples: npt.NDArray[np.float32], index: int) -> npt.NDArray[np.float32]:
    if index == 0:
        return samples
    return np.concatenate([np.zeros(int(PAUSE_SECONDS * MODEL_RATE), np.float32), samples])


class SpeechRunner(QObject):
    """One speech at a time: synthesis in a worker, playback on the chosen output.

    ``progressed`` reports sentences; ``synthesised`` the outcome once the last sentence is
    made; ``failed`` an error (nothing more is played); ``finished`` comes last, once the
    speech has also been heard (or stopped).
    """

    progressed = Signal(object)  # SpeechProgress
    synthesised = Signal(object)  # SpeechOutcome
    failed = Signal(object)  # BaseException
    playbackFailed = Signal(str)  # the output device could not be opened: not played
    ticked = Signal()  # every 50 ms while busy: the playback position may have moved
    finished = Signal()

    def __init__(self, workers: WorkerRegistry, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = ProgressRunner(workers, self)
        self._runner.progressed.connect(self.progressed)
        self._runner.finished.connect(self._on_synthesised)
        self._runner.failed.connect(self._on_failed)
        self.player: Player | None = None
        self._synthesising = False
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    @property
    def busy(self) -> bool:
        """Synthesising, or playing what was synthesised."""
        return self._synthesising or self._timer.isActive()

    @property
    def synthesising(self) -> bool:
        """Whether sentences are still being made."""
        return self._synthesising

    @property
    def playing(self) -> bool:
        """Whether speech is being played."""
        return self.player is not None and not self.player.done

    def start(
        self,
        service: VoiceService,
        text: str,
        voice: str,
        device: str | None,
        output: int | None,
    ) -> None:
        """Speak ``text``; ``output`` is the PortAudio device (None: synthesise only)."""
        if self.busy:
            return
        self.player = None
        if output is not None:
            player = Player(output)
            try:
                player.start()
            except AudioDeviceError as error:
                self.playbackFailed.emit(str(error))
            else:
                self.player = player
        self._synthesising = True
        self._timer.start()
        self._runner.start(speak_job, service, text, voice, device, self.player)

    @Slot()
    def stop(self) -> None:
        """Stop now: no further sentence is made and the sound stops."""
        self._runner.cancel()
        if self.player is not None:
            self.player.stop()

    @Slot(object)
    def _on_synthesised(self, outcome: SpeechOutcome) -> None:
        self._synthesising = False
        self.synthesised.emit(outcome)
        self._poll()

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        # The job has ended the player: what was queued is still played, nothing more comes.
        self._synthesising = False
        self.failed.emit(error)
        self._poll()

    @Slot()
    def _poll(self) -> None:
        self.ticked.emit()
        if self._synthesising or self.playing:
            return
        self._timer.stop()
        if self.player is not None:
            self.player.close()
        self.finished.emit()

    def playback_position(self) -> tuple[float, float]:
        """Seconds played and seconds made so far (0, 0 when not playing)."""
        if self.player is None:
            return 0.0, 0.0
        return self.player.position, self.player.queued_seconds


def output_index() -> int | None:
    """The default output device's index (None with no sound card)."""
    outputs = audio_devices.output_devices()
    return outputs[0].index if outputs else None
