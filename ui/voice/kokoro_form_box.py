"""Make for Kokoro: a voice made from a clip, made speakable by the Kokoro model in use.

Kokoro speaks style packs, not speaker embeddings: a voice's Kokoro form is searched from its
stored clip (:func:`app.voice.jobs.make_kokoro_voice_job`, scored by the speaker-similarity
model: minutes on a laptop CPU), so it is made on demand, with progress and Stop, and kept.
The box is under the voice list and shows only while a Kokoro model is the speech model; it
says whether the selected voice is ready, and why not.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from app.core import ModelMissingError, UserError
from app.voice import (
    FormState,
    TtsEngine,
    VoiceService,
    kokoro_form_state,
    make_kokoro_voice_job,
)
from pipelines.core import Cancelled, Progress
from ui.a11y import announce, describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.numbers import count
from ui.tasks import TaskRunner
from ui.widgets.flow_layout import flow_row
from ui.widgets.inline_error import InlineError

JOB = "kokoro-form"


class KokoroFormBox(QWidget):
    """Make for Kokoro, Stop, progress and the selected voice's state."""

    made = Signal(str)
    """The Kokoro form of this voice was made."""
    busyChanged = Signal(bool)
    modelNeeded = Signal(object)
    """The speaker-similarity model is missing (a ModelMissingError, for the Download line)."""

    def __init__(
        self, voice_service: VoiceService, tasks: TaskRunner, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.voice_service = voice_service
        self.tasks = tasks
        self.voice = ""
        self.make_button = QPushButton(tr("Make for Kokoro"))
        set_icon(self.make_button, "account-voice")
        describe(
            self.make_button,
            tr("Make for Kokoro"),
            tr("Search Kokoro's voices for the one closest to this voice's clip (a few minutes)"),
        )
        self.stop_button = QPushButton(tr("Stop"))
        set_icon(self.stop_button, "stop")
        describe(self.stop_button, tr("Stop making"), tr("Stop; nothing is kept"))
        self.state = QLabel()
        self.state.setWordWrap(True)
        self.progress = QProgressBar()
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(10)
        self.error = InlineError()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.state)
        layout.addWidget(flow_row(self.make_button, self.stop_button))
        layout.addWidget(self.progress)
        layout.addWidget(self.error)
        self.make_button.clicked.connect(self.make)
        self.stop_button.clicked.connect(self.stop)
        self._show_idle()
        self.hide()

    @property
    def busy(self) -> bool:
        """Whether a form is being made."""
        return self.tasks.running(JOB)

    def show_voice(self, name: str) -> None:
        """The selected voice ("" none): shown only while a Kokoro model speaks, with whether
        this voice is ready for it."""
        if self.busy:
            return  # the job's own line stays until it ends
        self.voice = name
        try:
            kokoro = self.voice_service.engine() is TtsEngine.KOKORO  # its config file only
        except UserError:
            kokoro = False  # no speech model: the Speak side says what to do
        self.setVisible(kokoro)
        if not kokoro:
            return
        try:
            state = kokoro_form_state(self.voice_service, name) if name else None
        except UserError:
            state = None  # deleted meanwhile: the list says so
        if state is None:
            self.state.setText(tr("Select a voice to make it speak with Kokoro."))
            self.make_button.setEnabled(False)
        elif state[0] is FormState.READY:
            self.state.setText(
                tr("“{name}” speaks with Kokoro: choose it under Speak.").format(name=name)
            )
            self.make_button.setEnabled(True)  # again: after a better clip, say
            self.make_button.setText(tr("Make again"))
        else:
            self.state.setText(state[1])
            self.make_button.setEnabled(True)
            self.make_button.setText(tr("Make for Kokoro"))

    @Slot()
    def make(self) -> None:
        """Derive the selected voice's Kokoro form (a job; Stop keeps nothing)."""
        if self.busy or not self.voice or self.voice_service.busy:
            if self.voice_service.busy:
                self.error.show_message(tr("The voice models are busy; try again when done."))
            return
        self.error.clear()
        name = self.voice
        started = self.tasks.start_with_progress(
            make_kokoro_voice_job,
            self.voice_service,
            name,
            None,
            kind=JOB,
            on_progress=self._on_progress,
            on_done=partial(self._on_done, name),
            on_error=self._on_error,
        )
        if started is None:
            return
        self.progress.setRange(0, 0)
        self.state.setText(tr("Making “{name}” for Kokoro…").format(name=name))
        self.make_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.busyChanged.emit(True)

    @Slot()
    def stop(self) -> None:
        """Stop making the form (nothing is written)."""
        self.tasks.cancel(JOB)

    def _on_progress(self, progress: Progress) -> None:
        if progress.total:
            self.progress.setRange(0, progress.total)
            self.progress.setValue(progress.done)
        self.state.setText(
            tr("Making “{name}” for Kokoro: {done} of {total} tries…").format(
                name=self.voice, done=count(progress.done), total=count(progress.total or 0)
            )
        )

    def _on_done(self, name: str, _form: object = None) -> None:
        self._show_idle()
        self.busyChanged.emit(False)
        announce(self.state, tr("“{name}” now speaks with Kokoro.").format(name=name))
        self.made.emit(name)
        self.show_voice(name)

    def _on_error(self, error: BaseException) -> None:
        self._show_idle()
        self.busyChanged.emit(False)
        if isinstance(error, ModelMissingError):
            self.modelNeeded.emit(error)
        elif not isinstance(error, Cancelled):
            self.error.show_message(str(error))
        self.show_voice(self.voice)

    def _show_idle(self) -> None:
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.stop_button.setEnabled(False)
