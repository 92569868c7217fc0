"""Dictation in chat: the microphone button, its level meter, and what went wrong.

Click (or hold F9): the microphone opens in a worker (finding the device, loading the voice
activity model and opening PortAudio all take a moment) while Whisper loads on the model lane.
While listening a 50 ms timer moves the meter and reads the listener's events; the turn ends
on a pause (the VAD), a second click, or letting go of F9. What was said is transcribed in a
worker and inserted at the cursor of the message box, for editing — never sent. Esc or the
button cancels. Problems are shown under the box, never in a dialog.
"""

from __future__ import annotations

import enum
import queue

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QLabel,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core import DeviceInfo, ModelMissingError
from app.models import ModelRegistry
from app.speech import Dictated, Listener, SpeechInputService, finish_dictation, open_listener
from pipelines.core import Cancelled
from ui.a11y import announce
from ui.chat.dictation_options import DictationOptions
from ui.chat.dictation_texts import (
    cancel_text,
    cancelling,
    cut,
    cut_nothing,
    hearing,
    held_status,
    idle_text,
    listening_status,
    listening_text,
    loading,
    nothing_heard,
    opening,
    tooltip,
    transcribing,
)
from ui.chat.push_to_talk import PushToTalk
from ui.icons import set_icon
from ui.settings_signals import SettingsSignals
from ui.shell.error_router import ErrorRouter
from ui.task_state import Lane, Policy, TaskState
from ui.tasks import TaskRunner
from ui.voice.audio_widgets import CloseHook, LevelMeter
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox
from ui.widgets.model_needed import ModelNeeded

METER_MS = 50
OPEN_KIND = "dictation-open"
TEXT_KIND = "dictation-text"
MODEL_KIND = "speech-model"


class Phase(enum.Enum):
    """Where a dictation is."""

    IDLE = "idle"
    OPENING = "opening"
    LISTENING = "listening"
    TRANSCRIBING = "transcribing"


class Dictation(QWidget):
    """The meter, status and problem lines under the message box; owns :attr:`button`.

    Args:
        speech_input: Opens the microphone and transcribes.
        models: The installed speech-to-text models (the button's menu).
        devices: What Whisper may run on (the button's menu).
        signals: The settings (the microphone, the language, the model).
        tasks: The window's task runner.
        errors: The panel's router; the ``audio`` and ``language`` fields show here.
        target: The message box the words go into.
    """

    modelsRequested = Signal(str)  # "Get it in Models…": the ModelTask value to show
    phaseChanged = Signal(str)

    def __init__(
        self,
        speech_input: SpeechInputService,
        models: ModelRegistry,
        devices: list[DeviceInfo],
        signals: SettingsSignals,
        tasks: TaskRunner,
        errors: ErrorRouter,
        target: QPlainTextEdit,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.speech_input = speech_input
        self.signals = signals
        self.tasks = tasks
        self.errors = errors
        self.target = target
        self.phase = Phase.IDLE
        self.listener: Listener | None = None
        self._stop_wanted = False  # ended (click, key let go) before the microphone opened
        self._held = False
        self.button = QToolButton()
        self.button.setText(idle_text())
        self.button.setToolTip(tooltip())
        self.button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        self.button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        set_icon(self.button, "microphone")
        self.button.setMenu(QMenu(self.button))
        # As tall as the push buttons beside it (Attach…, Send): a tool button is shorter or
        # taller depending on the style, and the row is aligned on its bottom edge.
        self.button.setFixedHeight(QPushButton(idle_text()).sizeHint().height())
        # As wide as its widest text ("Dictate"): the message box keeps its width throughout.
        self.button.setMinimumWidth(self.button.sizeHint().width())
        self.meter = LevelMeter()
        self.status = QLabel()
        self.error = InlineError()
        self.model_needed = ModelNeeded()
        self.options = DictationOptions(
            speech_input, models, devices, signals, self.button.menu(), self.error.show_message
        )
        self.push_to_talk = PushToTalk(self.button)
        errors.inline["audio"] = errors.inline["language"] = self.error
        self._poll = QTimer(self)
        self._poll.setInterval(METER_MS)
        self._poll.timeout.connect(self._tick)
        self._close_hook = CloseHook(self, self.shutdown)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(hbox((self.meter, 1), self.status, margins=0))
        layout.addWidget(self.error)
        layout.addWidget(self.model_needed)
        self.meter.hide()
        self.status.hide()
        self.button.clicked.connect(self._on_clicked)
        self.push_to_talk.pressed.connect(self._on_key_pressed)
        self.push_to_talk.released.connect(self._on_key_released)
        self.model_needed.openRequested.connect(self.modelsRequested)
        for watched in (target, self.button):  # Esc where the focus is while dictating
            watched.installEventFilter(self)

    # ----- what the user does ------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """Whether a dictation is under way (listening or transcribing)."""
        return self.phase is not Phase.IDLE

    @Slot()
    def _on_clicked(self) -> None:
        if self.phase is Phase.IDLE:
            self.start()
        elif self.phase is Phase.TRANSCRIBING:
            self.cancel()
        else:
            self.finish()

    @Slot()
    def _on_key_pressed(self) -> None:
        if self.phase is Phase.IDLE:
            self.start(held=True)

    @Slot()
    def _on_key_released(self) -> None:
        if self._held and self.phase in (Phase.OPENING, Phase.LISTENING):
            self.finish()

    def start(self, *, held: bool = False) -> None:
        """Open the microphone and listen (``held``: until :meth:`finish`, not a pause)."""
        if self.phase is not Phase.IDLE:
            return
        self._close_hook.attach()
        self.error.clear()
        self.model_needed.show_problem(None)
        self._stop_wanted, self._held = False, held
        self._set_phase(Phase.OPENING, opening())
        microphone = self.signals.settings.microphone
        self.tasks.start(
            open_listener,
            self.speech_input,
            microphone,
            held,
            kind=OPEN_KIND,
            on_done=self._on_opened,
            on_error=self._on_failed,
        )
        # Whisper loads while the user speaks (the first time; later this returns at once).
        self.tasks.start(
            self.speech_input.recognizer,
            kind=MODEL_KIND,
            policy=Policy.REFUSE,
            lane=Lane.MODEL,
            on_error=self._on_model_failed,
            on_finished=self._update_status,
        )

    def finish(self) -> None:
        """End the turn now and transcribe what was heard."""
        if self.phase is Phase.OPENING:
            self._stop_wanted = True
            return
        if self.phase is not Phase.LISTENING or self.listener is None:
            return
        self._poll.stop()
        listener, self.listener = self.listener, None
        self._set_phase(Phase.TRANSCRIBING, transcribing())
        self._update_status()
        state = TaskState()
        self.tasks.start(
            finish_dictation,
            self.speech_input,
            listener,
            state.cancel,
            state=state,
            kind=TEXT_KIND,
            on_done=self._on_dictated,
            on_error=self._on_failed,
        )

    @Slot()
    def cancel(self) -> None:
        """Drop this dictation: stop listening, or stop transcribing (nothing is inserted)."""
        if self.phase is Phase.TRANSCRIBING:
            self.tasks.cancel(TEXT_KIND)
            self.status.setText(cancelling())
            announce(self.status, cancelling())
            return
        self._drop_listener()
        self._set_phase(Phase.IDLE, "")  # an opening microphone is closed when it has opened

    @Slot()
    def shutdown(self) -> None:
        """The window closes: stop listening now (a running transcription is cancelled with
        the window's other jobs)."""
        self._poll.stop()
        self.push_to_talk.let_go()
        if self.listener is not None:
            self.listener.stop()
            self.listener = None
        self.phase = Phase.IDLE
        # The window's widgets outlive its Python objects until Qt deletes them: a filter
        # left installed would be called on a wrapper that has lost its attributes.
        for watched in (self.target, self.button):
            watched.removeEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Esc in the message box (or on the button) cancels a dictation under way."""
        if (
            event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Escape
            and self.busy
        ):
            self.cancel()
            return True
        return False

    # ----- results (GUI thread) -------------------------------------------------------------

    @Slot(object)
    def _on_opened(self, listener: Listener) -> None:
        self.listener = listener
        if self.phase is not Phase.OPENING:  # cancelled while it opened
            self._drop_listener()
            return
        self._set_phase(Phase.LISTENING, held_status() if self._held else listening_status())
        self.meter.setValue(0)
        self._poll.start()
        if self._stop_wanted:
            self.finish()

    @Slot()
    def _tick(self) -> None:
        listener = self.listener
        if listener is None:
            self._poll.stop()
            return
        self.meter.show_level(listener.level())
        while True:
            try:
                event = listener.events.get_nowait()
            except queue.Empty:
                return
            if event.kind == "speech_started":
                self.status.setText(hearing())
            elif event.kind == "stopped":
                self.finish()
                return

    @Slot(object)
    def _on_dictated(self, dictated: Dictated) -> None:
        self._set_phase(Phase.IDLE, "" if dictated.text or dictated.cut else nothing_heard())
        if dictated.text:
            self._insert(dictated.text)
        if dictated.cut:
            self.error.show_message(cut() if dictated.text else cut_nothing())

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        self._poll.stop()
        self._drop_listener()
        self._set_phase(Phase.IDLE, "")
        self._show_problem(error)

    @Slot(object)
    def _on_model_failed(self, error: BaseException) -> None:
        """Whisper cannot load: no use listening (a transcription already under way fails
        with the same error, shown once by :meth:`_on_failed`)."""
        if self.phase in (Phase.OPENING, Phase.LISTENING):
            self._on_failed(error)

    def _show_problem(self, error: BaseException) -> None:
        if isinstance(error, Cancelled):
            return
        if isinstance(error, ModelMissingError):
            self.model_needed.show_problem(error)
            return
        self.errors.show(error, default_field="audio")

    # ----- helpers ---------------------------------------------------------------------------

    def _insert(self, text: str) -> None:
        """``text`` at the cursor (replacing a selection), a space apart from its neighbours."""
        cursor = self.target.textCursor()
        typed = self.target.toPlainText()
        before, after = typed[: cursor.selectionStart()], typed[cursor.selectionEnd() :]
        if before and not before[-1].isspace():
            text = " " + text
        if after and not after[0].isspace():
            text += " "
        cursor.insertText(text)
        self.target.setTextCursor(cursor)
        self.target.setFocus()

    def _drop_listener(self) -> None:
        """Stop the listener in a worker (closing PortAudio can take a moment); audio dropped."""
        self._poll.stop()
        listener, self.listener = self.listener, None
        if listener is not None:
            self.tasks.start(listener.stop)

    @Slot()
    def _update_status(self) -> None:
        if self.phase is Phase.TRANSCRIBING and self.status.text() != cancelling():
            busy = self.tasks.running(MODEL_KIND)
            self.status.setText(loading() if busy else transcribing())

    def _set_phase(self, phase: Phase, status: str) -> None:
        self.phase = phase
        self.status.setText(status)
        self.status.setVisible(bool(status))
        announce(self.status, status)  # says nothing for ""
        self.meter.setVisible(phase is Phase.LISTENING)
        self.button.setText(
            {Phase.IDLE: idle_text(), Phase.TRANSCRIBING: cancel_text()}.get(
                phase, listening_text()
            )
        )
        self.phaseChanged.emit(phase.value)
