"""The Voice panel: voices on the left (list, new voice from a file or a recording), speech on
the right (text → speech in a voice, played as it is made, saved as wav).

Model work (checking clips, computing a voice, speaking) runs in workers; sound runs on
PortAudio's thread and is polled by GUI timers. With no sound card, Record and Play say
"No audio device" and are disabled; voices from files and speech saved as wav still work.
A finished speech can be handed to the Avatar panel (``speechForAvatar``: the main window, not
this panel, knows where it goes).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QTimer, Signal, Slot
from PySide6.QtWidgets import QMessageBox, QVBoxLayout, QWidget

from app.core import (
    AudioDeviceError,
    DeviceInfo,
    ModelMissingError,
    Player,
    UserError,
    audio_devices,
)
from app.models import ModelTask
from app.voice import MODEL_RATE, Clip, Voice, VoiceService
from ui.i18n import tr
from ui.settings_signals import SettingsSignals
from ui.shell.error_router import ErrorRouter
from ui.shell.notifications import NotificationBar
from ui.shell.settings_changes import change_settings
from ui.tasks import TaskRunner
from ui.voice.audio_widgets import CloseHook
from ui.voice.kokoro_form_box import KokoroFormBox
from ui.voice.likeness_runner import LikenessRunner
from ui.voice.new_voice import NewVoiceBox
from ui.voice.speech_box import SpeechBox
from ui.voice.voice_list import VoiceList, empty_text, from_file_text
from ui.widgets.layouts import ScrollColumn, panel_splitter, vbox

PLAY_POLL_MS = 100


class VoicePanel(QWidget):
    """Voices and speech over the :class:`VoiceService`."""

    speechForAvatar = Signal(object)  # SpokenClip: "Use in Avatar" was clicked
    modelsRequested = Signal(str)  # "Get it in Models…": the ModelTask value to show

    def __init__(
        self,
        voice_service: VoiceService,
        devices: list[DeviceInfo],
        spoken_dir: Path,
        signals: SettingsSignals,
        tasks: TaskRunner,
        notifications: NotificationBar,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.voice_service = voice_service
        self.signals = signals
        self.tasks = tasks
        self.notifications = notifications
        self.voices = VoiceList()
        self.new_voice = NewVoiceBox(voice_service, tasks, notifications)
        self.speech = SpeechBox(
            voice_service,
            devices,
            spoken_dir,
            signals,
            tasks,
            notifications,
            self.notifications.warn,
        )
        self.likeness_needed = self.voices.likeness_needed
        self.likeness = LikenessRunner(
            voice_service, self.voices, self.likeness_needed, tasks, self.speech.voice_combo, self
        )
        self.kokoro_form = KokoroFormBox(voice_service, tasks)
        """Make for Kokoro: the selected voice made speakable by a Kokoro model."""
        self.errors = ErrorRouter(notifications, {"voice": self.voices.error})
        self.clip_player: Player | None = None
        self._clip_timer = QTimer(self)
        self._clip_timer.setInterval(PLAY_POLL_MS)
        self._clip_timer.timeout.connect(self._poll_clip)
        self._close_hook = CloseHook(self, self.shutdown)
        self._problems_shown = list(voice_service.library.problems)  # the start notice said them
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.voices, 1)
        column.addWidget(self.kokoro_form)
        column.addSpacing(8)
        column.addWidget(self.new_voice)
        self.splitter = panel_splitter(
            [ScrollColumn(left), ScrollColumn(self.speech)], [460, 700], stretch={1: 1}
        )
        vbox(self.splitter, parent=self, margins=0)
        self.voices.renameRequested.connect(self._rename)
        self.voices.deleteRequested.connect(self._delete)
        self.voices.deleteDamagedRequested.connect(self._delete_damaged)
        self.voices.playRequested.connect(self._play_reference)
        self.new_voice.voiceCreated.connect(self._on_created)
        self.voices.selected.connect(self.kokoro_form.show_voice)
        self.kokoro_form.made.connect(self.reload)
        self.kokoro_form.modelNeeded.connect(self._show_similarity_needed)
        self.kokoro_form.busyChanged.connect(self._measure_when_idle)
        self.new_voice.cpuChosen.connect(self.speech.use_cpu)
        self.speech.speechHandedOff.connect(self.speechForAvatar)
        self.speech.model_needed.openRequested.connect(self.modelsRequested)
        self.new_voice.model_needed.openRequested.connect(self.modelsRequested)
        self.voices.empty.modelRequested.connect(self.modelsRequested)
        self.voices.empty.clicked.connect(self.new_voice.choose_file)
        self.likeness_needed.openRequested.connect(self.modelsRequested)
        # The figures are measured when nothing else uses the voice models.
        self.new_voice.busyChanged.connect(self._measure_when_idle)
        self.speech.busyChanged.connect(self._measure_when_idle)
        signals.connect_model_choices(
            (ModelTask.TTS, ModelTask.SPEAKER_SIMILARITY), self.likeness.refresh
        )
        # A model chosen elsewhere (the model manager's Use): the missing-model line follows.
        signals.connect_model_choices((ModelTask.TTS, ModelTask.SPEAKER_ENCODER), self.check_models)
        self.refresh_devices()
        self.reload()

    # ----- state -----------------------------------------------------------------------

    def refresh_devices(self) -> None:
        """List microphones and speakers again (what PortAudio found)."""
        inputs = audio_devices.input_devices()
        outputs = audio_devices.output_devices()
        self.new_voice.set_inputs(inputs)
        self.speech.set_outputs(outputs)
        self.voices.set_can_play(bool(outputs))

    def reload(self, select: str = "") -> None:
        """Read the voice library again (a few small files) and show it everywhere."""
        library = self.voice_service.library
        found = library.voices()
        self.voices.set_voices(found, select, library.damaged)
        # The speech model's voices: a Kokoro model's presets, else those made from clips
        # (damaged ones never speak).
        self.speech.set_voices(self.voice_service.voice_names(), self.voice_service.presets())
        # Said once, not on every visit: the list shows damaged voices from now on.
        new = [problem for problem in library.problems if problem not in self._problems_shown]
        if new:
            said = "\n".join(new)  # the library's own sentences (English for now, as app errors)
            self.notifications.show_message(said, level="warning")  # untranslated: a level name
        self._problems_shown = list(library.problems)
        self.check_models()
        self.likeness.refresh()
        self.kokoro_form.show_voice(self.voices.current_name())

    @Slot()
    def check_models(self) -> None:
        """Say up front when a model is missing, with what to do (never blocks anything)."""
        notes: dict[ModelTask, UserError] = {}
        for task in (ModelTask.TTS, ModelTask.SPEAKER_ENCODER):
            try:
                self.voice_service.model_folder(task)
            except UserError as error:
                notes[task] = error
        self.speech.show_model_problem(notes.get(ModelTask.TTS))
        encoder = notes.get(ModelTask.SPEAKER_ENCODER)
        self.speech.encoder_missing = encoder is not None
        # With no voice, the empty list says first what a voice needs, with its one button:
        # the speaker encoder when it is missing (then not said twice below), else a clip.
        no_voices = not self.voice_service.library.voices()
        if isinstance(encoder, ModelMissingError):
            self.voices.empty.show_model(encoder)
        else:
            self.voices.empty.show_need(
                empty_text(),
                from_file_text(),
                "folder-open",
                tr("A clip of 5–30 s of one person speaking: wav, flac, ogg, mp3"),
            )
        self.new_voice.show_model_problem(None if no_voices else encoder)

    def event(self, event: QEvent) -> bool:
        """When shown: re-read voices and models (they may have changed), watch for close."""
        # event(), not showEvent(): see ui.chat.input_box.ChatInput.event (PySide6 6.12.0).
        if event.type() == QEvent.Type.Show:
            self._close_hook.attach()
            if not (self.new_voice.busy or self.speech.runner.busy or self.kokoro_form.busy):
                self.reload(self.voices.current_name())
        return super().event(event)

    @Slot()
    def shutdown(self) -> None:
        """The window closes: stop recording and every sound now."""
        self.new_voice.record.shutdown()
        self.speech.runner.stop()
        self.likeness.stop()
        self.kokoro_form.stop()
        self._stop_clip()

    @Slot(object)
    def _show_similarity_needed(self, problem: UserError) -> None:
        """Make for Kokoro needs the speaker-similarity model: its Download line."""
        self.likeness_needed.show_problem(problem)
        self.likeness_needed.setVisible(True)

    @Slot(bool)
    def _measure_when_idle(self, busy: bool) -> None:
        if not busy:
            self.likeness.refresh()

    # ----- the library -----------------------------------------------------------------

    @Slot(object)
    def _on_created(self, voice: Voice) -> None:
        self.reload(voice.name)

    @Slot(str, str)
    def _rename(self, name: str, new_name: str) -> None:
        try:
            voice = self.voice_service.library.rename(name, new_name)
        except UserError as error:
            self.voices.error.show_message(str(error))
            self.reload(name)  # shows the real name again
            return
        if self.signals.settings.voice.casefold() == name.casefold():
            change_settings(self.signals.store, self.notifications.warn, voice=voice.name)
        self.reload(voice.name)

    @Slot(str)
    def _delete(self, name: str) -> None:
        if not self._confirm_delete(
            tr("Delete the voice “{name}” and its reference clip? This cannot be undone.").format(
                name=name
            )
        ):
            return
        if self.clip_player is not None:
            self._stop_clip()
        try:
            self.voice_service.library.remove(name)
        except UserError as error:
            self.voices.error.show_message(str(error))
        self.reload()

    @Slot(str, str)
    def _delete_damaged(self, voice_id: str, label: str) -> None:
        if not self._confirm_delete(
            tr("Delete the damaged voice “{name}” and its files? This cannot be undone.").format(
                name=label
            )
        ):
            return
        try:
            self.voice_service.library.remove_damaged(voice_id)
        except UserError as error:
            self.voices.error.show_message(str(error))
        self.reload()

    def _confirm_delete(self, question: str) -> bool:
        answer = QMessageBox.question(self, tr("Delete voice"), question)
        return answer == QMessageBox.StandardButton.Yes

    # ----- playing a reference clip ----------------------------------------------------

    @Slot(str)
    def _play_reference(self, name: str) -> None:
        if self.clip_player is not None:
            self._stop_clip()
            return
        try:
            clip: Clip = self.voice_service.reference_clip(name)
        except UserError as error:
            self.errors.show(error, default_field="voice")
            return
        player = Player(self.speech.output_combo.device_index())
        try:
            player.start()
        except AudioDeviceError as error:
            self.voices.error.show_message(str(error))
            return
        player.put(clip.samples, label=name, rate=MODEL_RATE)
        player.end()
        self.clip_player = player
        self.voices.set_playing(True)
        self._clip_timer.start()

    @Slot()
    def _poll_clip(self) -> None:
        if self.clip_player is None or self.clip_player.done:
            self._stop_clip()

    def _stop_clip(self) -> None:
        self._clip_timer.stop()
        player, self.clip_player = self.clip_player, None
        if player is not None:
            player.stop()
        self.voices.set_playing(False)
