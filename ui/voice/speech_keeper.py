"""Keeping a finished speech as a file: Save as wav…, and Use in Avatar.

The Voice panel's :class:`~ui.voice.speech_box.SpeechBox` hands a complete
:class:`~ui.voice.speech_runner.SpeechOutcome` to a :class:`SpeechKeeper`, which writes it off
the GUI thread: as a wav where the user chooses (``app.voice.save_outcome``: a temp name, then
renamed), or as a spoken clip for the Avatar panel (``app.voice.hand_off_speech``). The same
speech handed over twice is written once. One file is written at a time
(:attr:`SpeechKeeper.writing`).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import QWidget

from app.voice import SpokenClip, hand_off_speech, save_outcome
from ui.i18n import tr
from ui.tasks import TaskRunner
from ui.voice.speech_runner import SpeechOutcome
from ui.widgets.file_dialogs import FileKind, save_file


class SpeechKeeper(QObject):
    """Writes a speech to a wav file or hands it to the Avatar panel, one file at a time."""

    saved = Signal(object)
    """Path: the wav file written."""
    handedOff = Signal(object)
    """SpokenClip: the speech to make a video of."""
    failed = Signal(object)
    """BaseException: a file could not be written (its ``field`` is ``output``)."""
    writingChanged = Signal()

    def __init__(self, tasks: TaskRunner, spoken_dir: Path, parent: QWidget) -> None:
        """Args:
        tasks: Runs the writing.
        spoken_dir: Where a speech handed to the Avatar panel is written.
        parent: The box (the file dialog's parent).
        """
        super().__init__(parent)
        self._box = parent
        self._tasks = tasks
        self._spoken_dir = spoken_dir
        self._writing = False
        self._handed_off: tuple[SpeechOutcome, SpokenClip] | None = None
        self._handing_off: SpeechOutcome | None = None  # being written (Speak may come first)

    @property
    def writing(self) -> bool:
        """Whether a save or a hand-off is being written."""
        return self._writing

    def forget(self) -> None:
        """A new speech is being made: the file handed over last need not outlive it."""
        self._handed_off = None

    def save(self, outcome: SpeechOutcome) -> None:
        """Ask where, then write the whole of ``outcome`` as a wav."""
        path, _ = save_file(
            self._box, tr("Save audio"), FileKind.AUDIO, "speech.wav", tr("WAV audio") + " (*.wav)"
        )
        if path is None:
            return
        if not path.suffix:
            path = path.with_suffix(".wav")
        self._set_writing(True)
        self._tasks.start(
            save_outcome, path, outcome, on_done=self._on_saved, on_error=self._on_failed
        )

    def hand_off(self, outcome: SpeechOutcome) -> None:
        """Keep ``outcome`` as a file and hand it over (``handedOff``)."""
        if self._handed_off is not None:
            handed, clip = self._handed_off
            if handed is outcome and clip.path.is_file():  # clicked again: the same file
                self.handedOff.emit(clip)
                return
        self._handing_off = outcome
        self._set_writing(True)
        self._tasks.start(
            hand_off_speech,
            self._spoken_dir,
            outcome,
            on_done=self._on_handed_off,
            on_error=self._on_failed,
        )

    def _set_writing(self, writing: bool) -> None:
        self._writing = writing
        self.writingChanged.emit()

    @Slot(object)
    def _on_saved(self, path: Path) -> None:
        self._set_writing(False)
        self.saved.emit(path)

    @Slot(object)
    def _on_handed_off(self, clip: SpokenClip) -> None:
        if self._handing_off is not None:
            self._handed_off = (self._handing_off, clip)
        self._handing_off = None
        self._set_writing(False)
        self.handedOff.emit(clip)

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        self._handing_off = None
        self._set_writing(False)
        self.failed.emit(error)
