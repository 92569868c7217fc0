"""Avatar mode: each chat answer spoken by the lip-synced avatar, sentence by sentence.

A checkable "Avatar mode" action (in the chat's options menu) and a small video area under the
conversation. While an answer is written, each sentence is spoken in the selected voice and
lip-synced to the face as soon as it is complete (:class:`app.hands_free.SpokenAnswer`, as in
hands-free mode), and the clips play here in order: the first sentence plays while the model
is still writing the next. Stop cancels the rest. What is missing (a voice, a face, the
lip-sync model) is said right here, with what to do.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QAction
from PySide6.QtMultimedia import QMediaPlayer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app.avatar import AvatarClip, AvatarService
from app.chat import Answer
from app.core import MetricsBus, UserError, device_value_of
from app.hands_free import SpokenAnswer
from app.models import ModelTask
from app.voice import VoiceService
from pipelines.core import Cancelled
from ui.a11y import announce, describe
from ui.avatar.video_player import VideoPreview
from ui.i18n import tr
from ui.icons import set_icon
from ui.numbers import count
from ui.settings_signals import SettingsSignals
from ui.shell.error_router import ErrorRouter
from ui.shell.notifications import NotificationBar
from ui.task_state import Policy, Task, TaskState
from ui.tasks import TaskRunner
from ui.voice.audio_widgets import CloseHook
from ui.widgets.inline_error import InlineError

SPEAK_JOB = "avatar-mode-speech"
VIDEO_SIZE = (240, 180)


def no_voice() -> str:
    """There is no voice to speak answers in."""
    return tr("Avatar mode needs a voice: make one in the Voice panel.")


def no_face() -> str:
    """There is no face to lip-sync."""
    return tr("Avatar mode needs a face: choose one in the Avatar panel.")


def waiting() -> str:
    """The status line before an answer."""
    return tr("The next answer will be spoken here.")


class AvatarMode(QWidget):
    """The mode's checkable :attr:`action` (in the chat's options menu) and the clips of the
    answer spoken."""

    def __init__(
        self,
        avatar: AvatarService,
        voice_service: VoiceService,
        metrics: MetricsBus,
        signals: SettingsSignals,
        tasks: TaskRunner,
        notifications: NotificationBar,
        parent: QWidget | None = None,
    ) -> None:
        """Args:
        avatar: Lip-syncs the clips.
        voice_service: The voices answers are spoken in.
        metrics: Where each answer's latency figures go (the overlay's conversation row).
        signals: The settings (the voice, the face, the devices).
        tasks: Runs the speech.
        notifications: Where what belongs to no control is said.
        parent: The chat panel.
        """
        super().__init__(parent)
        self.avatar = avatar
        self.voice_service = voice_service
        self.metrics = metrics
        self.signals = signals
        self.tasks = tasks
        self.action = QAction(tr("Avatar mode"), self)
        """On: each answer is spoken as a video of the avatar; the one switch of the mode."""
        self.action.setCheckable(True)
        set_icon(self.action, "account-box")
        self.action.setToolTip(
            tr("Speak each answer in your voice, as a lip-synced video of your avatar")
        )
        self.preview = VideoPreview("", controls=False)
        self.preview.setFixedSize(*VIDEO_SIZE)
        self.preview.hide()  # shown from the first answer spoken: no empty box before
        self.status = QLabel(waiting())
        self.status.setWordWrap(True)
        self.stop_button = QPushButton(tr("Stop"))
        set_icon(self.stop_button, "stop")
        describe(self.stop_button, tr("Stop speaking"), tr("Stop speaking this answer"))
        self.error = InlineError()
        self.errors = ErrorRouter(notifications, {"": self.error})
        self.pending: deque[AvatarClip] = deque()
        self.current: AvatarClip | None = None
        self._task: Task | None = None
        self._spoken: SpokenAnswer | None = None
        """The answer being spoken (or the last one)."""
        self._spoken_id: object = None
        """Marks its clips: a clip of an older answer arriving late is dropped."""
        """The newest answer's task (an older one still running is dropped by the runner)."""
        self._close_hook = CloseHook(self, self.stop)
        side = QVBoxLayout()
        side.addWidget(self.status)
        side.addWidget(self.stop_button, 0, Qt.AlignmentFlag.AlignLeft)
        side.addStretch(1)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.preview)
        row.addLayout(side, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.error)
        self.action.toggled.connect(self._on_toggled)
        self.stop_button.clicked.connect(self.stop)
        self.preview.player.mediaStatusChanged.connect(self._on_media_status)
        self.stop_button.setEnabled(False)
        self.hide()

    @property
    def enabled(self) -> bool:
        """Whether answers are spoken by the avatar."""
        return self.action.isChecked()

    @property
    def busy(self) -> bool:
        """Whether clips are being made or played."""
        return self._running or self.current is not None or bool(self.pending)

    @property
    def _running(self) -> bool:
        return self.tasks.running(SPEAK_JOB)

    @property
    def _cancelled(self) -> bool:
        return self._task is not None and self._task.state.cancelled

    def problem(self) -> str:
        """Why answers cannot be spoken now ("" when they can)."""
        if not self._voice_name():
            return no_voice()
        face = self.signals.settings.face_image
        if face is None:
            return no_face()
        if not face.is_file():
            return tr(
                "The avatar's face {path} is missing: choose another in the Avatar panel."
            ).format(path=face)
        try:
            self.avatar.model_folder()
        except UserError as error:
            return str(error)
        return ""

    def _voice_name(self) -> str:
        return self.voice_service.chosen_voice(self.signals.settings.voice)

    # ----- answers ---------------------------------------------------------------------

    def begin_answer(self) -> Callable[[str], None] | None:
        """An answer is about to be written: with the mode on, each of its sentences is spoken
        and lip-synced as soon as it is complete, while the rest is still being written.

        Returns:
            What the answer's text is fed to (from the answer's thread), or None: the mode is
            off, or something is missing (said here).
        """
        if not self.enabled:
            return None
        self.show()
        self._close_hook.attach()
        self.error.clear()
        self._interrupt_spoken()
        problem = self.problem()
        if problem:
            self.error.show_message(problem)
            return None
        settings = self.signals.settings
        spoken_id = object()
        spoken = SpokenAnswer(
            self.voice_service,
            self._voice_name(),
            self.metrics,
            avatar=self.avatar,
            face=settings.face_image,
            on_clip=functools.partial(self.tasks.post, self._on_clip_made, spoken_id),
            tts_device=device_value_of(settings.model_choice(ModelTask.TTS)),
            lipsync_device=device_value_of(settings.model_choice(ModelTask.LIPSYNC)),
        )
        self._spoken, self._spoken_id = spoken, spoken_id
        self._stop_playing()
        self._say(tr("The first sentence is spoken as soon as it is written…"))
        self.preview.show()
        self.stop_button.setEnabled(True)
        state = TaskState()
        # A new answer while one is spoken: the old one is cancelled and this one starts
        # speaking once it has returned (one speech model at a time); its clips are dropped.
        self._task = self.tasks.start(
            functools.partial(_speak_until_done, spoken, state),
            state=state,
            kind=SPEAK_JOB,
            policy=Policy.CANCEL_OLD,
            on_done=self._on_done,
            on_error=self._on_failed,
        )
        return spoken.feed

    def end_answer(self, answer: Answer | None) -> None:
        """The answer begun last ended (None: it failed): what is left of it is spoken; a
        stopped or failed answer is not spoken further."""
        spoken = self._spoken
        if spoken is None:
            return
        if answer is None or answer.message.stopped:
            spoken.interrupt()
        else:
            spoken.finish()

    def _interrupt_spoken(self) -> None:
        if self._spoken is not None:
            self._spoken.interrupt()
        self._spoken, self._spoken_id = None, None

    @Slot(object)
    def play_clip(self, clip: AvatarClip) -> None:
        """Play ``clip`` after those queued (a spoken conversation's lip-synced sentences)."""
        self.show()
        self.preview.show()
        self.pending.append(clip)
        if self.current is None:
            self._play_next()

    @Slot()
    def stop_playing(self) -> None:
        """Stop the clip playing and drop those queued (a barge-in)."""
        self._stop_playing()

    @Slot()
    def stop(self) -> None:
        """Stop making and playing this answer's clips."""
        if self._spoken is not None:
            self._spoken.interrupt()
        self.tasks.cancel(SPEAK_JOB)
        self._stop_playing()
        self.stop_button.setEnabled(self._running)
        self._say(tr("Stopped.") if self.enabled else waiting())

    def _say(self, text: str) -> None:
        """A status change: shown, and said by screen readers."""
        self.status.setText(text)
        announce(self.status, text)

    def _stop_playing(self) -> None:
        self.pending.clear()
        self.current = None
        self.preview.player.stop()

    # ----- the worker ------------------------------------------------------------------

    @Slot(object)
    def _on_done(self, _: list[AvatarClip]) -> None:
        self._job_ended()

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        self._job_ended()
        if not isinstance(error, Cancelled):
            self.errors.show(error, default_field="")

    def _job_ended(self) -> None:
        if self._cancelled:
            self._stop_playing()
        self._finish_if_idle()

    # ----- playing ---------------------------------------------------------------------

    def _on_clip_made(self, spoken_id: object, clip: AvatarClip) -> None:
        """A sentence's clip, made on the spoken answer's thread (dropped when that answer
        was stopped or followed by another)."""
        if spoken_id is not self._spoken_id or self._spoken is None or self._spoken.interrupted:
            return
        self.pending.append(clip)
        if self.current is None:
            self._play_next()

    def _play_next(self) -> None:
        if not self.pending:
            self._finish_if_idle()
            return
        clip = self.pending.popleft()
        self.current = clip
        short = clip.text if len(clip.text) <= 80 else clip.text[:79] + "…"
        if clip.total:
            status = tr("Sentence {number}/{total}: “{text}”").format(
                number=count(clip.index + 1), total=count(clip.total), text=short
            )
        else:  # an answer spoken while it is written: its length is not known yet
            status = tr("Sentence {number}: “{text}”").format(
                number=count(clip.index + 1), text=short
            )
        self.status.setText(status)
        self.preview.load(Path(clip.path))

    @Slot(QMediaPlayer.MediaStatus)
    def _on_media_status(self, status: QMediaPlayer.MediaStatus) -> None:
        ended = status in (
            QMediaPlayer.MediaStatus.EndOfMedia,
            QMediaPlayer.MediaStatus.InvalidMedia,
        )
        if ended and self.current is not None:
            self.current = None
            self._play_next()

    def _finish_if_idle(self) -> None:
        if self._running or self.current is not None or self.pending:
            return
        self.stop_button.setEnabled(False)
        if not self._cancelled and not self.error.text():
            self._say(tr("Done. The next answer will be spoken here."))

    @Slot(bool)
    def _on_toggled(self, on: bool) -> None:
        if on:
            self.show()
            self._close_hook.attach()
            self.status.setText(waiting())
            self.error.show_message(self.problem())
        else:
            self.stop()
            self.error.clear()
            self._spoken, self._spoken_id = None, None
            self.hide()


def _speak_until_done(spoken: SpokenAnswer, state: TaskState) -> None:
    """The job of one spoken answer: start it, wait for its last clip (a cancel interrupts
    it), then release it."""
    try:
        spoken.start()
        while not spoken.wait(0.1):
            if state.cancel.cancelled:
                spoken.interrupt()
    finally:
        spoken.close()
    if state.cancel.cancelled:
        raise Cancelled()
