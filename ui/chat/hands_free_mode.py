"""Hands-free mode: the chat spoken and heard, turn after turn.

A checkable "Hands-free" button (in the chat header) starts an
:class:`~app.hands_free.turns.HandsFreeSession` in the conversation on screen: the user
speaks, Whisper transcribes, the answer streams and is spoken in the chosen voice (lip-synced
by the avatar when a face is chosen: the clips play in Avatar mode's video area), and the user
can interrupt it by speaking. Under the header: a status line (Listening… / Hearing you… /
Transcribing… / Thinking… / Speaking… / Interrupted), the microphone's level, Stop, and
"Interrupt when I speak" (off for loudspeakers: the answer's echo would interrupt it).

What is missing is one sentence next to the button with a button to where it is fixed (the
model manager, the Voice panel). The session's events arrive on its own threads; the
task runner's bridge brings them to the GUI thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QTimer, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QCheckBox, QLabel, QPushButton, QToolButton, QWidget

from app.core import Level, UserError, audio_devices, device_value_of
from app.hands_free import HandsFreeSession, Services, TurnEvent, TurnOptions, TurnStatus
from app.models import ModelTask
from app.speech import find_vad_model
from pipelines.core import PipelineError
from ui.a11y import announce, describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.settings_signals import SettingsSignals
from ui.shell.error_router import ErrorRouter
from ui.shell.notifications import NotificationBar
from ui.tasks import TaskRunner
from ui.voice.audio_widgets import CloseHook, LevelMeter
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox, vbox

STOP_JOB = "hands-free-stop"
LEVEL_MS = 100


def no_model() -> str:
    """No chat model is loaded."""
    return tr("Hands-free mode needs a chat model: choose one above.")


def no_microphone() -> str:
    """There is no microphone."""
    return tr("Hands-free mode needs a microphone, and none was found.")


def no_voice() -> str:
    """There is no voice to answer in."""
    return tr("Hands-free mode needs a voice to answer in: make one in the Voice panel.")


def barge_in_tip() -> str:
    """What "Interrupt when I speak" does, and when to switch it off."""
    return tr(
        "Speaking while the answer plays stops it and starts your next turn. Use headphones: on "
        "loudspeakers the answer's own sound would interrupt it — switch this off then, and wait "
        "for the end of each answer."
    )


def status_text(status: TurnStatus) -> str:
    """The status line for ``status`` (the enum's values are the English)."""
    texts = {
        TurnStatus.LISTENING: tr("Listening…"),
        TurnStatus.HEARING: tr("Hearing you…"),
        TurnStatus.TRANSCRIBING: tr("Transcribing…"),
        TurnStatus.THINKING: tr("Thinking…"),
        TurnStatus.SPEAKING: tr("Speaking…"),
        TurnStatus.INTERRUPTED: tr("Interrupted", "a spoken answer cut by the user"),
        TurnStatus.STOPPED: tr("Stopped", "hands-free mode ended"),
    }
    return texts.get(status, status.value)


class HandsFree(Protocol):
    """What the widget needs of a hands-free session (a fake in UI tests)."""

    def start(self) -> None: ...
    def stop(self) -> None: ...
    def level(self) -> Level | None: ...


SessionFactory = Callable[[Services, str, TurnOptions, Callable[[TurnEvent], None]], HandsFree]


@dataclass(frozen=True)
class Problem:
    """Why hands-free mode cannot start, and where it is fixed."""

    text: str
    fix: str = ""
    """The fixing button's label ("" for none)."""
    models: str = ""
    """A ModelTask value: the fix opens the model manager there."""
    panel: str = ""
    """A panel's name: the fix shows it."""


class HandsFreeMode(QWidget):
    """The mode's checkable :attr:`action` (in the chat's options menu, and shown by
    :attr:`toggle`, the icon button the chat panel places in the composer) and the session's
    controls."""

    questionHeard = Signal(str)  # the user's transcript: a new turn in the view
    answerText = Signal(str)  # the answer as it is written
    turnSaved = Signal(object)  # Answer, as saved (after a barge-in: what was said)
    clipReady = Signal(object)  # AvatarClip to play
    interrupted = Signal()  # stop playing the clips
    modelsAtRequested = Signal(str)  # ModelTask value
    panelRequested = Signal(str)  # a panel's name

    def __init__(
        self,
        services: Services,
        signals: SettingsSignals,
        tasks: TaskRunner,
        notifications: NotificationBar,
        conversation_id: Callable[[], str],
        factory: SessionFactory = HandsFreeSession,
        parent: QWidget | None = None,
    ) -> None:
        """Args:
        services: What a hands-free session uses (the chat, speech input, voices, avatar).
        signals: The settings (the voice, the face, the devices, interrupting).
        tasks: Runs the stop; its bridge brings the session's events here.
        notifications: Where what belongs to no control is said.
        conversation_id: The conversation on screen, where the turns go.
        factory: Makes the session (a fake in UI tests).
        parent: The chat panel.
        """
        super().__init__(parent)
        self.services = services
        self.signals = signals
        self.tasks = tasks
        self._conversation_id = conversation_id
        self.factory = factory
        """Makes the session (a fake in UI tests)."""
        self.session: HandsFree | None = None
        self._start_when_stopped = False
        """A start asked for while the last session was still stopping."""
        self._syncing = False
        self.action = QAction(tr("Hands-free"), self)
        """On: a session listens and answers aloud; the one switch of the mode."""
        self.action.setCheckable(True)
        set_icon(self.action, "headset")
        self.action.setToolTip(tr("Talk with the model hands-free: it listens, answers aloud"))
        self.toggle = QToolButton()
        """The action as an icon button (it is the chat's headline way to talk)."""
        self.toggle.setDefaultAction(self.action)
        self.toggle.setAutoRaise(True)
        describe(self.toggle, tr("Hands-free mode"), self.action.toolTip())
        self.problem_label = QLabel()
        self.problem_label.setWordWrap(True)
        self.fix_button = QPushButton()
        self.status = QLabel()
        self.meter = LevelMeter()
        self.stop_button = QPushButton(tr("Stop"))
        set_icon(self.stop_button, "stop")
        describe(self.stop_button, tr("Stop hands-free"), tr("End hands-free mode"))
        self.barge_in = QCheckBox(tr("Interrupt when I speak"))
        self.barge_in.setToolTip(barge_in_tip())
        self.barge_in.setChecked(signals.settings.conversation_barge_in)
        self.error = InlineError()
        self.errors = ErrorRouter(notifications, {"": self.error})
        self._problem = Problem("")
        self._timer = QTimer(self)
        self._timer.setInterval(LEVEL_MS)
        self._close_hook = CloseHook(self, self._stop_now)
        row = hbox((self.status, 1), (self.meter, 1), self.barge_in, self.stop_button)
        fix_row = hbox((self.problem_label, 1), self.fix_button)
        vbox(row, fix_row, self.error, parent=self, margins=0)
        self.action.toggled.connect(self._on_toggled)
        self.stop_button.clicked.connect(self.stop)
        self.fix_button.clicked.connect(self._on_fix)
        self.barge_in.toggled.connect(self._on_barge_in)
        self._timer.timeout.connect(self._show_level)
        self._show_problem(Problem(""))
        self.hide()

    @property
    def running(self) -> bool:
        """Whether a session is listening (or answering)."""
        return self.session is not None

    # ----- what is missing -------------------------------------------------------------

    def problem(self) -> Problem:
        """Why a session cannot start now (``Problem("")`` when it can)."""
        if self.services.chat.loaded_model is None:
            return Problem(no_model())
        if not audio_devices.input_devices():
            return Problem(no_microphone())
        try:
            find_vad_model()
        except UserError as error:  # part of the app: no download fixes it
            return Problem(str(error))
        try:
            self.services.speech_input.model_folder()
        except UserError as error:
            return Problem(str(error), tr("Models…"), models=ModelTask.SPEECH_TO_TEXT.value)
        if not self.services.voice.chosen_voice(self.signals.settings.voice):
            return Problem(no_voice(), tr("Voice panel"), panel="Voice")
        try:
            self.services.voice.model_folder(ModelTask.TTS)
        except UserError as error:
            return Problem(str(error), tr("Models…"), models=ModelTask.TTS.value)
        return Problem("")

    def _face(self) -> Path | None:
        """The avatar's face when one is chosen and lip-sync is installed (else audio only)."""
        face = self.signals.settings.face_image
        avatar = self.services.avatar
        if face is None or not face.is_file() or avatar is None:
            return None
        try:
            avatar.model_folder()
        except UserError:
            return None
        return face

    def _show_problem(self, problem: Problem) -> None:
        self._problem = problem
        self.problem_label.setText(problem.text)
        self.problem_label.setVisible(bool(problem.text))
        self.fix_button.setText(problem.fix)
        self.fix_button.setVisible(bool(problem.fix))
        self.fix_button.setToolTip(problem.text)
        announce(self.problem_label, problem.text)

    @Slot()
    def _on_fix(self) -> None:
        if self._problem.models:
            self.modelsAtRequested.emit(self._problem.models)
        elif self._problem.panel:
            self.panelRequested.emit(self._problem.panel)

    # ----- on and off ------------------------------------------------------------------

    @Slot(bool)
    def _on_toggled(self, on: bool) -> None:
        if self._syncing:  # the mode showing its state, not the user asking
            return
        if on:
            self.start()
        else:
            self.stop()

    def start(self) -> None:
        """Start listening in the conversation on screen (or say what is missing)."""
        self.show()
        self.error.clear()
        problem = self.problem()
        self._show_problem(problem)
        if problem.text or self.running:
            self._set_toggle(self.running)
            return
        if self.tasks.running(STOP_JOB):
            # The last session is still stopping (a sentence being synthesised): this
            # one starts when it has stopped, rather than the click being lost.
            self._start_when_stopped = True
            self._set_toggle(True)
            return
        options = TurnOptions(
            voice=self.services.voice.chosen_voice(self.signals.settings.voice),
            generation=self.services.chat.generation_for(self.signals.settings),  # preset, clamped
            face=self._face(),
            barge_in=self.barge_in.isChecked(),
            tts_device=device_value_of(self.signals.settings.model_choice(ModelTask.TTS)),
            lipsync_device=device_value_of(self.signals.settings.model_choice(ModelTask.LIPSYNC)),
        )
        # Its events come from its own threads: posted to the GUI thread, in order.
        on_event = partial(self.tasks.post, self._on_event)
        session = self.factory(self.services, self._conversation_id(), options, on_event)
        self.session = session  # its first status arrives from start()
        try:
            session.start()
        except (UserError, PipelineError, OSError) as error:
            self.session = None
            self.errors.show(error, default_field="")
            self._set_toggle(False)
            return
        self._close_hook.attach()
        self._timer.start()
        self.stop_button.setEnabled(True)
        self._set_toggle(True)

    @Slot()
    def stop(self) -> None:
        """End the session; an answer being spoken stops at once, what was said is kept."""
        session, self.session = self.session, None
        self._start_when_stopped = False
        self._timer.stop()
        self.meter.setValue(0)
        self.stop_button.setEnabled(False)
        self._set_toggle(False)
        self.interrupted.emit()
        if session is not None:
            # stop() waits for the turn's thread (a sentence being synthesised): not here.
            self.tasks.start(session.stop, kind=STOP_JOB, on_done=self._on_stopped)
        else:
            self.hide()

    def _stop_now(self) -> None:
        """The window closes: stop before it is gone (waiting is fine then)."""
        session, self.session = self.session, None
        self._timer.stop()
        if session is not None:
            session.stop()

    @Slot(object)
    def _on_stopped(self, _: object) -> None:
        if self._start_when_stopped:
            self._start_when_stopped = False
            self.start()
        elif not self.running:
            self._set_status(TurnStatus.STOPPED)

    def _set_status(self, status: TurnStatus) -> None:
        text = status_text(status)
        self.status.setText(text)
        announce(self.status, text)

    def _set_toggle(self, on: bool) -> None:
        # Not blockSignals(): the button showing the action follows its changed() signal.
        self._syncing = True
        try:
            self.action.setChecked(on)
        finally:
            self._syncing = False

    @Slot(bool)
    def _on_barge_in(self, on: bool) -> None:
        try:
            self.signals.store.update(conversation_barge_in=on)
        except UserError as error:
            self.errors.show(error, default_field="")

    # ----- events (GUI thread) ---------------------------------------------------------

    @Slot()
    def _show_level(self) -> None:
        level = self.session.level() if self.session is not None else None
        if level is not None:
            self.meter.show_level(level)

    @Slot(object)
    def _on_event(self, event: TurnEvent) -> None:
        if event.kind == "status" and event.status is not None:
            if self.running or event.status is TurnStatus.STOPPED:
                self._set_status(event.status)
            if event.status is TurnStatus.INTERRUPTED:
                self.interrupted.emit()
        elif event.kind == "question":
            self.questionHeard.emit(event.text)
        elif event.kind == "text":
            self.answerText.emit(event.text)
        elif event.kind == "clip":
            self.clipReady.emit(event.clip)
        elif event.kind == "answer":
            self.turnSaved.emit(event.answer)
        elif event.kind == "error" and event.error is not None:
            self.errors.show(event.error, default_field="")
            self.stop()
