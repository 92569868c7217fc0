"""The Avatar panel: a face and speech in, a lip-synced mp4 out, previewed, saved, remembered.

Left: the face (chosen or dropped; its faces outlined, one clickable when there are several),
the speech (a file, the Voice panel's speech, or a voice and a text spoken first), "Write
subtitles (.srt)", the device and Generate. Right: the preview with play/pause and seek,
Save as…, and the gallery of recent results. Work runs in workers (``app.avatar.media``
functions over the avatar service); errors appear next to the control named by their ``field``
and no input is cleared by one. The panel owns its parts: the face is read by a
:class:`~ui.avatar.face_preview.FacePreviewer`, "Use CPU instead" is a
:class:`~ui.avatar.cpu_fallback.CpuFallback`, the result side a
:class:`~ui.avatar.result_pane.ResultPane`.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, Signal, Slot
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.avatar import (
    FACE_IMAGE_SUFFIXES,
    FACE_VIDEO_SUFFIXES,
    SPEECH_STAGE,
    SPEECH_SUFFIXES,
    AvatarService,
    MadeVideo,
    VideoRequest,
    check_request,
    make_video,
)
from app.core import DeviceInfo, ModelMissingError, UserError, device_value_of
from app.models import ModelTask
from app.speech import SpeechInputService
from app.voice import SpokenClip, VoiceService
from pipelines.core import Cancelled, Progress
from ui.a11y import announce, describe
from ui.avatar.cpu_fallback import CpuFallback
from ui.avatar.face_box import FaceBox
from ui.avatar.face_preview import FacePreviewer
from ui.avatar.progress_line import FrameRate
from ui.avatar.result_pane import ResultPane
from ui.avatar.speech_source import SpeechSource
from ui.avatar.subtitles_option import SubtitlesOption
from ui.i18n import tr
from ui.icons import set_icon
from ui.settings_signals import SettingsSignals
from ui.shell.error_router import ErrorRouter
from ui.shell.notifications import NotificationBar
from ui.tasks import TaskRunner
from ui.voice.audio_widgets import CloseHook
from ui.voice.status_area import StatusArea
from ui.widgets.device_picker import DevicePicker
from ui.widgets.file_drops import take_file_drop
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import ScrollColumn, panel_splitter, vbox
from ui.widgets.model_needed import ModelNeeded

VIDEO_JOB = "avatar-video"
STATUS_LINES = 4


def stopped() -> str:
    """The progress line after Cancel."""
    return tr("Stopped: no video was made.")


DROPPED_SUFFIXES = FACE_IMAGE_SUFFIXES + FACE_VIDEO_SUFFIXES + SPEECH_SUFFIXES
"""Files the panel takes when dropped on it: a face (picture or video) or speech."""


class AvatarPanel(QWidget):
    """Lip-synced videos over the :class:`AvatarService`."""

    modelsRequested = Signal(str)  # "Get it in Models…": the ModelTask value to show

    def __init__(
        self,
        avatar: AvatarService,
        voice_service: VoiceService,
        speech_input: SpeechInputService,
        devices: list[DeviceInfo],
        signals: SettingsSignals,
        tasks: TaskRunner,
        notifications: NotificationBar,
        parent: QWidget | None = None,
    ) -> None:
        """Args:
        avatar: Lip-syncs.
        voice_service: Lists the voices and speaks a typed text.
        speech_input: Transcribes a speech for its subtitles.
        devices: What the lip-sync model may run on.
        signals: The settings (the face, the voice, the devices).
        tasks: Runs the previews and the video.
        notifications: Where what belongs to no control is said.
        parent: The window.
        """
        super().__init__(parent)
        self.avatar = avatar
        self.voice_service = voice_service
        self.speech_input = speech_input
        self.signals = signals
        self.tasks = tasks
        self.notifications = notifications
        self.face = FaceBox()
        self.speech = SpeechSource()
        self.subtitles = SubtitlesOption(signals.store, notifications.warn)
        self.device = DevicePicker(
            devices, "lipsync", settings=signals.store, report=self.notifications.warn
        )
        describe(self.device, tr("Lip-sync device"), tr("Where the lip-sync model runs"))
        self.generate_button = QPushButton(tr("Generate"))
        set_icon(self.generate_button, "movie-open-play")
        self.generate_button.setDefault(True)
        describe(self.generate_button, tr("Generate"), tr("Make the lip-synced video"))
        self.cancel_button = QPushButton(tr("Cancel"))
        set_icon(self.cancel_button, "close")
        describe(self.cancel_button, tr("Cancel"), tr("Stop making the video (nothing is kept)"))
        self.progress_bar = QProgressBar()
        self.progress_bar.setTextVisible(False)
        self.progress_bar.setMaximumHeight(12)
        self.progress_label = QLabel()
        self.progress_label.setWordWrap(True)
        self.generate_error = InlineError()
        self.model_needed = ModelNeeded()
        self.model_error = self.model_needed.note  # also where a job's model error goes
        self.result = ResultPane(avatar, tasks, notifications)
        self.rate = FrameRate()
        self.errors = ErrorRouter(
            notifications,
            {
                "face": self.face.error,
                "audio": self.speech.error,
                "voice": self.speech.error,
                "text": self.speech.error,
                "output": self.result.error,
                "model": self.model_error,
                "device": self.generate_error,
                "": self.generate_error,
            },
        )
        self._close_hook = CloseHook(self, self.shutdown)
        self.cpu = CpuFallback(signals, self.device, notifications.warn, self)
        self.previewer = FacePreviewer(
            avatar, tasks, self.face, self.errors, self.cpu, signals, notifications.warn, self
        )
        self._layout()
        self._connect()
        # A model chosen elsewhere (the model manager's Use): the missing-model line follows.
        signals.connect_model_choices(
            (ModelTask.LIPSYNC, ModelTask.FACE_DETECTOR), self.check_model
        )
        self.setAcceptDrops(True)
        self._set_busy(False)
        self._show_progress(False)
        face_image = signals.settings.face_image
        if face_image is not None and face_image.is_file():
            self.face.set_face(face_image, announce=False)  # previewed when shown

    def _layout(self) -> None:
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        # Said on arrival, not after a click: above the controls, where it moves none of them.
        column.addWidget(self.model_needed)
        column.addWidget(self.face, 1)
        column.addWidget(self.speech)
        column.addWidget(self.subtitles)
        run_row = QHBoxLayout()
        run_row.addWidget(QLabel(tr("Device")))
        run_row.addWidget(self.device)
        run_row.addStretch(1)
        run_row.addWidget(self.generate_button)
        run_row.addWidget(self.cancel_button)
        # Every line that comes and goes under the face shares one fixed area below Generate:
        # the face box takes the rest of the column, so a line appearing anywhere else would
        # move Generate and the speech controls.
        self.status_area = StatusArea(
            [
                self.progress_bar,
                self.progress_label,
                self.speech.error,
                self.subtitles.note,
                self.generate_error,
            ],
            lines=STATUS_LINES,
        )
        # What is chosen scrolls in a short window; Generate and its lines stay in sight.
        side = QWidget()
        vbox(ScrollColumn(left), run_row, self.status_area, parent=side, margins=0)
        self.splitter = panel_splitter([side, self.result], [420, 740], stretch={1: 1})
        vbox(self.splitter, parent=self, margins=0)

    def _connect(self) -> None:
        self.face.faceChosen.connect(self.previewer.read)
        self.previewer.stateChanged.connect(self._on_preview_state)
        self.model_needed.openRequested.connect(self.modelsRequested)
        self.result.empty.modelRequested.connect(self.modelsRequested)
        self.face.faceChosen.connect(self.check_model)
        self.generate_button.clicked.connect(self.generate)
        self.cancel_button.clicked.connect(self.cancel)

    # ----- state -----------------------------------------------------------------------

    @property
    def generating(self) -> bool:
        """Whether a video is being made."""
        return self.tasks.running(VIDEO_JOB)

    @Slot()
    def cancel(self) -> None:
        """Stop making the video (nothing is kept)."""
        self.tasks.cancel(VIDEO_JOB)

    def refresh(self) -> None:
        """Read voices, the model and the gallery again (they may have changed elsewhere)."""
        voices = self.voice_service.voice_names()  # the speech model's: presets or clones
        chosen = self.voice_service.chosen_voice(self.signals.settings.voice)
        if chosen and chosen not in voices:
            voices.insert(0, chosen)  # a blend made in the Voice panel speaks here too
        self.speech.set_voices(voices, chosen)
        self.check_model()
        self.result.reload_gallery()
        face = self.face
        if face.path is not None and face.preview is None and not face.error.text():
            self.previewer.read(face.path)  # the remembered face, previewed on first show

    @Slot()
    def check_model(self) -> None:
        """Say up front when no lip-sync model is installed, and what to do."""
        missing: ModelMissingError | None = None
        try:
            self.avatar.model_folder()
        except UserError as error:  # none installed: the empty video area says it first
            missing = error if isinstance(error, ModelMissingError) else None
            self.model_needed.show_problem(None if missing else error)
        else:
            self.model_needed.show_problem(None)
        self.result.show_needs(missing, self.face.path is not None)

    def event(self, event: QEvent) -> bool:
        """Shown: refresh; hidden: pause; files dragged in: faces or speech."""
        # event(), not showEvent()/dropEvent(): see ui.chat.input_box.ChatInput.event.
        kind = event.type()
        if kind == QEvent.Type.Show:
            self._close_hook.attach()
            if not self.generating:
                self.refresh()
        elif kind == QEvent.Type.Hide:
            self.result.preview.pause()
        elif take_file_drop(event, DROPPED_SUFFIXES, self.drop_files, busy=self.generating):
            return True
        return super().event(event)

    def use_speech(self, clip: SpokenClip) -> None:
        """The Voice panel's speech becomes what the face says (Generate uses it)."""
        self.speech.set_spoken(clip)

    def drop_files(self, paths: list[Path]) -> None:
        """Files dropped on the panel: a face and/or a speech file."""
        if self.generating:
            return
        for path in paths:
            if path.suffix.lower() in SPEECH_SUFFIXES:
                self.speech.set_file(path)
            else:
                self.face.set_face(path)

    @Slot()
    def shutdown(self) -> None:
        """The window closes: stop the video (workers are cancelled by the window)."""
        self.result.preview.player.stop()
        self.cancel()

    # ----- generate --------------------------------------------------------------------

    def request(self) -> VideoRequest:
        """What Generate would make, from the controls.

        Raises:
            UserError: something is missing (``field`` names the control).
        """
        if self.face.path is None:
            raise UserError(tr("Choose a face first: a photo or a video."), field="face")
        audio = None
        if self.speech.uses_spoken and self.speech.spoken is not None:
            audio = self.speech.spoken.path
        elif self.speech.uses_file:
            audio = self.speech.audio_path
            if audio is None:
                raise UserError(
                    tr("Choose an audio file, or a voice and a text to speak."), field="audio"
                )
        request = VideoRequest(
            face=self.face.path,
            audio=audio,
            voice=self.speech.voice(),
            text=self.speech.text(),
            device=self.device.device(),
            tts_device=device_value_of(self.signals.settings.model_choice(ModelTask.TTS)),
            face_index=self.face.face_index,
            subtitles=self.subtitles.wanted,
        )
        check_request(request)
        return request

    @Slot()
    def generate(self) -> None:
        """Make the video in a worker; the inputs stay as they are whatever happens."""
        if self.generating:
            return
        for label in (self.face.error, self.speech.error, self.generate_error, self.result.error):
            label.clear()
        self.subtitles.show_outcome(None)
        try:
            request = self.request()
        except UserError as error:
            self.errors.show(error, default_field="")
            return
        self.rate.reset()
        self.progress_bar.setRange(0, 0)
        self.progress_label.setText(tr("Starting…"))
        self._show_progress(True)
        self._set_busy(True)
        self.tasks.start_with_progress(
            make_video,
            self.avatar,
            self.voice_service,
            self.speech_input,
            request,
            kind=VIDEO_JOB,
            on_progress=self._on_progress,
            on_done=self._on_generated,
            on_error=self._on_generate_failed,
        )

    @Slot(object)
    def _on_progress(self, progress: Progress) -> None:
        if progress.total and progress.stage != SPEECH_STAGE:
            self.progress_bar.setRange(0, progress.total)
            self.progress_bar.setValue(progress.done)
        else:
            self.progress_bar.setRange(0, 0)  # busy: the length is not known yet
        self.progress_label.setText(self.rate.text(progress))

    @Slot(object)
    def _on_generated(self, made: MadeVideo) -> None:
        self._set_busy(False)
        self._show_progress(False)
        self.model_error.clear()  # a model evidently works now
        self.result.show_result(made.result)
        self.subtitles.show_outcome(made.subtitles)

    @Slot(object)
    def _on_generate_failed(self, error: BaseException) -> None:
        self._set_busy(False)
        self._show_progress(False)
        if isinstance(error, Cancelled):
            self.progress_label.setText(stopped())
            announce(self.progress_label, stopped())
            self.progress_label.show()
            return
        self.errors.show(error, default_field="", use_cpu=self.cpu.offer(error, self.generate))

    @Slot()
    def _on_preview_state(self) -> None:
        self._set_busy(self.generating)

    def _set_busy(self, busy: bool) -> None:
        self.face.set_busy(busy)
        self.speech.set_busy(busy)
        self.subtitles.setEnabled(not busy)
        self.device.setEnabled(not busy)
        self.generate_button.setEnabled(
            not busy and not self.previewer.previewing and not self.face.no_face
        )
        self.cancel_button.setEnabled(busy)
        self.cancel_button.setVisible(busy)
        self.result.set_locked(busy)

    def _show_progress(self, visible: bool) -> None:
        self.progress_bar.setVisible(visible)
        self.progress_label.setVisible(visible)
