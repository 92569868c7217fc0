"""Speech in a task, played while it is made: the Voice panel's Speak and the chat's Speak.

The work is :func:`app.voice.jobs.speak_and_play` (Qt-free); :class:`SpeechRunner` runs it
through the window's :class:`~ui.tasks.TaskRunner` and turns its progress, its outcome (a
partial result, as soon as the last sentence is made) and its end into signals.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal, Slot

from app.core import AudioDeviceError, Player, audio_devices
from app.voice import SpeechOutcome, VoiceService, speak_and_play
from ui.task_state import Task, TaskState
from ui.tasks import TaskRunner

__all__ = ["SpeechOutcome", "SpeechRunner", "output_index"]


class SpeechRunner(QObject):
    """One speech at a time: synthesis in a task, playback on the chosen output.

    ``progressed`` reports sentences; ``synthesised`` the outcome once the last sentence is
    made; ``failed`` an error as soon as it happens (the sound stops); ``finished`` comes last,
    once the speech has also been heard (or stopped).
    """

    progressed = Signal(object)  # SpeechFigures (the service's, so far)
    synthesised = Signal(object)  # SpeechOutcome
    failed = Signal(object)  # BaseException
    playbackFailed = Signal(str)  # the output device could not be opened: not played
    ticked = Signal()  # at the task runner's pace while busy: the playback position may move
    finished = Signal()

    def __init__(self, tasks: TaskRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tasks = tasks
        self._tasks.flushed.connect(self._tick)
        self.player: Player | None = None
        self._task: Task | None = None
        self._synthesising = False

    @property
    def busy(self) -> bool:
        """Synthesising, or playing what was synthesised."""
        return self._task is not None

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
        state = TaskState()
        self._task = self._tasks.start(
            speak_and_play,
            service,
            text,
            voice,
            device,
            self.player,
            state.cancel,
            state.set_progress,
            state.add_partial,
            state=state,
            on_progress=self.progressed.emit,
            on_partial=self._on_synthesised,
            on_done=self._on_ended,
            on_error=self._on_failed,
        )

    @Slot()
    def stop(self) -> None:
        """Stop now: no further sentence is made and the sound stops."""
        if self._task is not None:
            self._task.cancel()
        if self.player is not None:
            self.player.stop()

    @Slot(list)
    def _on_synthesised(self, outcomes: list[SpeechOutcome]) -> None:
        self._synthesising = False
        self.synthesised.emit(outcomes[-1])

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        # The job stopped the sound as it failed: the error is shown at once.
        self._synthesising = False
        self.failed.emit(error)
        self._on_ended(None)

    @Slot(object)
    def _on_ended(self, _: object) -> None:
        self._synthesising = False
        self._task = None
        self.ticked.emit()
        if self.player is not None:
            self.player.close()
        self.finished.emit()

    @Slot()
    def _tick(self) -> None:
        if self.busy:
            self.ticked.emit()

    def playback_position(self) -> tuple[float, float]:
        """Seconds played and seconds made so far (0, 0 when not playing)."""
        if self.player is None:
            return 0.0, 0.0
        return self.player.position, self.player.queued_seconds


def output_index() -> int | None:
    """The default output device's index (None with no sound card)."""
    outputs = audio_devices.output_devices()
    return outputs[0].index if outputs else None
