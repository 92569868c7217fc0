"""Speak a chat answer aloud in the selected voice: a thin bar under the conversation.

Hidden until an answer's "Speak" link is clicked; then it says what it is doing ("Speaking in
“Alice” · sentence 1/3") with Stop, or why it cannot (no voice yet, no audio device, no
speech model) right there.
"""

from __future__ import annotations

from PySide6.QtCore import Slot
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app.voice import SpeechFigures, VoiceService
from ui.a11y import announce, describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.numbers import count, decimal
from ui.settings_signals import SettingsSignals
from ui.shell.error_router import ErrorRouter
from ui.shell.notifications import NotificationBar
from ui.tasks import TaskRunner
from ui.voice.audio_widgets import CloseHook
from ui.voice.speech_runner import SpeechOutcome, SpeechRunner, output_index
from ui.widgets.inline_error import InlineError


def no_voice_yet() -> str:
    """Why answers cannot be spoken with no voice."""
    return tr("There is no voice yet: create one in the Voice panel to hear answers.")


def no_speaker() -> str:
    """Why answers are not heard with no speaker."""
    return tr("No audio device: answers cannot be played on this computer.")


def plain_text(markdown: str) -> str:
    """What is read aloud from an answer: its text without markdown marks."""
    document = QTextDocument()
    document.setMarkdown(markdown)
    return document.toPlainText()


class SpeakBar(QWidget):
    """Speaks text through ``VoiceService.speak`` and the default speaker; Stop."""

    def __init__(
        self,
        voice_service: VoiceService,
        signals: SettingsSignals,
        tasks: TaskRunner,
        notifications: NotificationBar,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.voice_service = voice_service
        self.signals = signals
        self.runner = SpeechRunner(tasks, self)
        self.voice = ""
        self.voice_label = ""
        """How :attr:`voice` is shown: a blend in words."""
        self.label = QLabel()
        self.stop_button = QPushButton(tr("Stop speaking"))
        set_icon(self.stop_button, "stop")
        describe(self.stop_button, tr("Stop speaking"), tr("Stop reading the answer aloud"))
        self.error = InlineError()
        self.errors = ErrorRouter(notifications, {"": self.error})
        self._close_hook = CloseHook(self, self.runner.stop)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label, 1)
        row.addWidget(self.stop_button)
        self.row = QWidget()
        self.row.setLayout(row)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.row)
        layout.addWidget(self.error)
        self.stop_button.clicked.connect(self.runner.stop)
        self.runner.progressed.connect(self._on_progress)
        self.runner.synthesised.connect(self._on_synthesised)
        self.runner.failed.connect(self._on_failed)
        self.runner.playbackFailed.connect(self.error.show_message)
        self.runner.finished.connect(self._on_finished)
        self.row.hide()
        self.hide()

    @property
    def speaking(self) -> bool:
        """Whether an answer is being made or played."""
        return self.runner.busy

    @Slot(str)
    def speak(self, markdown: str) -> None:
        """Speak an answer (given as markdown) in the selected voice."""
        self.show()
        self._close_hook.attach()
        if self.runner.busy:
            return  # Stop first: one answer at a time
        self.error.clear()
        self.voice = self.voice_service.chosen_voice(self.signals.settings.voice)
        self.voice_label = self.voice_service.voice_label(self.voice) if self.voice else ""
        output = output_index()
        if not self.voice:
            self.error.show_message(no_voice_yet())
        elif output is None:
            self.error.show_message(no_speaker())
        else:
            self._say(tr("Speaking in “{voice}”…").format(voice=self.voice_label))
            self.row.show()
            self.runner.start(self.voice_service, plain_text(markdown), self.voice, None, output)

    def _say(self, text: str) -> None:
        self.label.setText(text)
        announce(self.label, text)

    @Slot(object)
    def _on_progress(self, progress: SpeechFigures) -> None:
        self.label.setText(
            tr("Speaking in “{voice}” · sentence {done}/{total}").format(
                voice=self.voice_label,
                done=count(progress.done),
                total=count(progress.total),
            )
        )

    @Slot(object)
    def _on_synthesised(self, outcome: SpeechOutcome) -> None:
        if not outcome.stopped:
            seconds = decimal(outcome.seconds, 1)
            self.label.setText(
                tr("Speaking in “{voice}” · {seconds} s").format(
                    voice=self.voice_label, seconds=seconds
                )
            )

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        self.errors.show(error, default_field="")

    @Slot()
    def _on_finished(self) -> None:
        self.row.hide()
        if not self.error.text():
            self.hide()
