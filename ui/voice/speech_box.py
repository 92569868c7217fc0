"""The right side of the Voice panel: text in, speech out (played as it is made, saved as wav,
or handed to the Avatar panel to lip-sync a face to). The speech is made and played by a
:class:`~ui.voice.speech_runner.SpeechRunner`, and written to files by a
:class:`~ui.voice.speech_keeper.SpeechKeeper`.

Errors appear next to what caused them: text problems under the text (which is never
cleared), an unknown voice under the voice list, a missing model or a device problem next to
Speak, a bad file name (or a folder that cannot be written) next to Save and Use in Avatar.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core import AudioDevice, DeviceInfo
from app.voice import SpeechFigures, VoiceService
from ui.a11y import announce, describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.numbers import count, decimal
from ui.settings_signals import SettingsSignals
from ui.shell.error_router import ErrorRouter
from ui.shell.notifications import NotificationBar
from ui.shell.settings_changes import Report
from ui.tasks import TaskRunner
from ui.voice.audio_widgets import AudioDeviceCombo, no_audio_device, no_output_hint
from ui.voice.speech_keeper import SpeechKeeper
from ui.voice.speech_runner import SpeechOutcome, SpeechRunner
from ui.voice.speech_texts import metrics_text, no_voice, outcome_text
from ui.voice.status_area import StatusArea
from ui.voice.voice_picker import PickerRow, VoicePicker
from ui.widgets.device_picker import DevicePicker
from ui.widgets.flow_layout import flow_row
from ui.widgets.inline_error import InlineError
from ui.widgets.model_needed import ModelNeeded


class SpeechBox(QWidget):
    """Text, voice, device, Speak / Stop / Save as wav…, progress and metrics."""

    voiceChosen = Signal(str)
    busyChanged = Signal(bool)
    speechHandedOff = Signal(object)  # SpokenClip: the speech to make a video of

    def __init__(
        self,
        voice_service: VoiceService,
        devices: list[DeviceInfo],
        spoken_dir: Path,
        signals: SettingsSignals,
        tasks: TaskRunner,
        notifications: NotificationBar,
        report_settings: Report,
        parent: QWidget | None = None,
    ) -> None:
        """Args:
        voice_service: Speaks.
        devices: What the speech model may run on.
        spoken_dir: Where a speech handed to the Avatar panel is written.
        signals: The settings (the voice and the speech device are remembered there).
        tasks: Runs the speech and the writing of files.
        notifications: Where what belongs to no control is said.
        report_settings: Where a refused settings change is said.
        """
        super().__init__(parent)
        self.voice_service = voice_service
        self._devices = devices
        self.signals = signals
        self.tasks = tasks
        self._report_settings = report_settings
        self.outcome: SpeechOutcome | None = None
        self.keeper = SpeechKeeper(tasks, spoken_dir, self)
        """Writes the speech to a file: Save as wav…, Use in Avatar."""
        self._make_inputs()
        self._make_actions()
        self._make_feedback(notifications)
        self.runner = SpeechRunner(tasks, self)
        self._layout()
        self._connect()
        self._update_buttons()

    def _make_inputs(self) -> None:
        """The text, the voice, the device and the output to play on."""
        self.text = QPlainTextEdit()
        self.text.setTabChangesFocus(True)  # Tab moves on to Speak: keyboard users get out
        self.text.setPlaceholderText(tr("Type what the voice should say…"))
        describe(self.text, tr("Text to speak"), tr("Type what the voice should say…"))
        self.picker = VoicePicker(self.signals, self._report_settings, self)
        self.voice_combo = self.picker.voice_combo
        """The voices by name (a Kokoro model's second voice and speed are in the picker)."""
        self.device_picker = DevicePicker(
            self._devices, "tts", settings=self.signals.store, report=self._report_settings
        )
        self.device_picker.setToolTip(tr("Device for the voice model"))
        self.output_combo = AudioDeviceCombo("output")
        self.no_output = QLabel(no_audio_device())

    def _make_actions(self) -> None:
        """Speak, Stop, Save as wav…, Use in Avatar."""
        self.speak_button = QPushButton(tr("Speak"))
        set_icon(self.speak_button, "account-voice")
        self.speak_button.setDefault(True)
        describe(self.speak_button, tr("Speak"), tr("Speak the text in the chosen voice"))
        self.stop_button = QPushButton(tr("Stop"))
        set_icon(self.stop_button, "stop")
        describe(self.stop_button, tr("Stop speaking"), tr("Stop speaking now"))
        self.save_button = QPushButton(tr("Save as wav…"))
        set_icon(self.save_button, "content-save")
        describe(self.save_button, tr("Save as wav"), tr("Save what was spoken last as a wav file"))
        self.avatar_button = QPushButton(tr("Use in Avatar"))
        set_icon(self.avatar_button, "movie-open-play")
        describe(
            self.avatar_button,
            tr("Use in Avatar"),
            tr("Hand what was spoken last to the Avatar panel, for a face to say it"),
        )

    def _make_feedback(self, notifications: NotificationBar) -> None:
        """Progress, metrics, and where each kind of error is said."""
        self.progress = QProgressBar()
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(10)
        self.progress_label = QLabel()
        self.metrics_label = QLabel()
        self.metrics_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text_error = InlineError()
        self.voice_error = InlineError()
        self.speak_error = InlineError()
        self.model_needed = ModelNeeded()
        self.encoder_missing = False
        """No speaker encoder is installed, so no voice can be made (the panel checks)."""
        self.model_note = self.model_needed.note
        self.playback_note = InlineError(warning=True)
        self.save_error = InlineError()
        inline = {"text": self.text_error, "voice": self.voice_error, "output": self.save_error}
        inline.update(model=self.speak_error, device=self.speak_error, audio=self.speak_error)
        self.errors = ErrorRouter(notifications, inline)

    def _connect(self) -> None:
        self.speak_button.clicked.connect(self.speak)
        self.stop_button.clicked.connect(self.stop)
        self.save_button.clicked.connect(self.save)
        self.avatar_button.clicked.connect(self.use_in_avatar)
        self.picker.voiceChosen.connect(self._on_voice_chosen)
        self.runner.progressed.connect(self._on_progress)
        self.runner.synthesised.connect(self._on_synthesised)
        self.runner.failed.connect(self._on_failed)
        self.runner.playbackFailed.connect(self.playback_note.show_message)
        self.runner.finished.connect(self._on_finished)
        self.runner.ticked.connect(self._show_position)
        self.keeper.saved.connect(self._on_saved)
        self.keeper.failed.connect(self._on_save_failed)
        self.keeper.handedOff.connect(self.speechHandedOff)
        self.keeper.writingChanged.connect(self._update_buttons)

    def _layout(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("<b>" + tr("Speak") + "</b>"))
        # Said on arrival, not after a click: above the controls, where it moves none of them.
        layout.addWidget(self.model_needed)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.text_error)
        grid = QGridLayout()
        grid.setColumnStretch(1, 1)
        device_row = PickerRow(tr("D&evice:"), self.device_picker, self.device_picker, False)
        rows = [*self.picker.rows, device_row]
        self.preset_rows: list[QWidget] = []
        """The blend and speed rows with their captions: shown for a Kokoro model only."""
        for row, picked in enumerate(rows):
            caption = QLabel(picked.caption)
            caption.setBuddy(picked.buddy)
            grid.addWidget(caption, row, 0)
            grid.addWidget(picked.widget, row, 1, Qt.AlignmentFlag.AlignLeft)
            if picked.presets_only:
                self.preset_rows += [caption, picked.widget]
        caption = QLabel(tr("&Play on:"))
        caption.setBuddy(self.output_combo)
        output_row = QHBoxLayout()
        output_row.addWidget(self.output_combo)
        output_row.addWidget(self.no_output)
        output_row.addStretch(1)
        grid.addWidget(caption, len(rows), 0)
        grid.addLayout(output_row, len(rows), 1)
        for widget in self.preset_rows:
            widget.hide()
        layout.addLayout(grid)
        layout.addWidget(self.voice_error)
        # A row that wraps in a narrow window; the progress ("Sentence 2/3") comes last.
        buttons = (self.speak_button, self.stop_button, self.save_button, self.avatar_button)
        layout.addWidget(flow_row(*buttons, self.progress_label))
        layout.addWidget(self.progress)
        # The box's bottom is its column's: lines coming and going under the buttons would
        # move them, so they share a fixed area.
        self.status_area = StatusArea(
            [
                self.speak_error,
                self.playback_note,
                self.save_error,
                self.metrics_label,
            ],
            lines=3,
        )
        layout.addWidget(self.status_area)

    # ----- what is shown ---------------------------------------------------------------

    def set_voices(self, names: Sequence[str], presets: Sequence[str] = ()) -> None:
        """List ``names``; select the remembered voice (``settings.voice``) or the first.
        ``presets``: a Kokoro model's own voices, which blend and change pace."""
        self.picker.set_voices(names, presets)
        for widget in self.preset_rows:
            widget.setVisible(self.picker.has_presets)
        if names:
            self.voice_error.clear()
        self._update_buttons()

    def set_outputs(self, devices: Sequence[AudioDevice]) -> None:
        """The speakers to play on; none: "No audio device" (speech is still made)."""
        self.output_combo.set_devices(devices)
        self.output_combo.setVisible(bool(devices))
        self.no_output.setVisible(not devices)
        self.no_output.setToolTip(no_output_hint())

    def show_model_problem(self, problem: Exception | None) -> None:
        """No speech model installed: what to do, next to Speak (None clears it)."""
        self.model_needed.show_problem(problem)

    @Slot(str)
    def _on_voice_chosen(self, name: str) -> None:
        self.voice_error.clear()
        self.voiceChosen.emit(name)

    # ----- speaking --------------------------------------------------------------------

    @Slot()
    def speak(self) -> None:
        """Speak the text in the chosen voice; the text stays in the box whatever happens."""
        if self.runner.busy:
            return
        for area in (self.text_error, self.voice_error, self.speak_error, self.save_error):
            area.clear()
        self.playback_note.clear()
        voice = self.picker.chosen_voice()
        if not voice:
            self.voice_error.show_message(no_voice(self.encoder_missing))
            return
        self.outcome = None
        self.keeper.forget()  # its samples need not outlive it
        self.progress.setRange(0, 0)
        self.progress_label.setText(tr("Preparing…"))
        self.metrics_label.clear()
        if not self.output_combo.available:
            self.playback_note.show_message(no_output_hint())
        self.runner.start(
            self.voice_service,
            self.text.toPlainText(),
            voice,
            self.device_picker.device(),
            self.output_combo.device_index(),
        )
        self._update_buttons()
        self.busyChanged.emit(True)

    @Slot()
    def stop(self) -> None:
        """Stop making and playing speech now."""
        self.runner.stop()

    @Slot(object)
    def _on_progress(self, progress: SpeechFigures) -> None:
        self.progress.setRange(0, max(progress.total, 1))
        self.progress.setValue(progress.done)
        self.progress_label.setText(
            tr("Sentence {done}/{total}").format(
                done=count(progress.done), total=count(progress.total)
            )
        )
        self.metrics_label.setText(metrics_text(progress, self.device_picker.device()))

    @Slot(object)
    def _on_synthesised(self, outcome: SpeechOutcome) -> None:
        self.outcome = outcome
        self.progress.setRange(0, max(outcome.total, 1))
        self.progress.setValue(len(outcome.pieces))
        self.progress_label.setText(outcome_text(outcome))
        announce(self.progress_label, outcome_text(outcome))
        self.metrics_label.setText(metrics_text(outcome.figures, self.device_picker.device()))
        self._update_buttons()

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress_label.clear()
        self.errors.show(error, default_field="model", use_cpu=self._speak_on_cpu)
        self._update_buttons()

    def _speak_on_cpu(self) -> None:
        """ "Use CPU instead" after the speech model failed on its device."""
        self.use_cpu()
        self.speak()

    @Slot()
    def use_cpu(self) -> None:
        """Choose the CPU for speech (persisted): the speaker encoder follows this device too."""
        self.device_picker.choose("CPU")

    @Slot()
    def _show_position(self) -> None:
        if self.outcome is None or self.runner.synthesising or not self.runner.playing:
            return  # nothing made yet (or a failed speech), or the sound has ended
        played, total = self.runner.playback_position()
        self.progress_label.setText(
            tr("Playing {played} / {total} s").format(
                played=decimal(played, 1), total=decimal(total, 1)
            )
        )

    @Slot()
    def _on_finished(self) -> None:
        if self.outcome is None:
            self.progress_label.clear()
        elif not self.outcome.stopped:  # "Playing …" becomes the summary again
            self.progress_label.setText(outcome_text(self.outcome))
        self._update_buttons()
        self.busyChanged.emit(False)

    # ----- keeping it ----------------------------------------------------------------

    @Slot()
    def save(self) -> None:
        """Ask where, then write the whole speech as a wav (temp name, then renamed)."""
        outcome = self.outcome
        if outcome is None or not outcome.complete:
            return
        self.save_error.clear()
        self.keeper.save(outcome)

    @Slot()
    def use_in_avatar(self) -> None:
        """Keep the whole speech as a file and hand it over (``speechHandedOff``)."""
        outcome = self.outcome
        if outcome is None or not outcome.complete or self.keeper.writing:
            return
        self.save_error.clear()
        self.keeper.hand_off(outcome)

    @Slot(object)
    def _on_saved(self, path: Path) -> None:
        self.progress_label.setText(tr("Saved {name}").format(name=path.name))
        announce(self.progress_label, self.progress_label.text())

    @Slot(object)
    def _on_save_failed(self, error: BaseException) -> None:
        self.errors.show(error, default_field="output")

    @Slot()
    def _update_buttons(self) -> None:
        busy = self.runner.busy
        self.speak_button.setEnabled(not busy)
        self.stop_button.setEnabled(busy)
        complete = self.outcome is not None and self.outcome.complete
        ready = complete and not self.runner.synthesising and not self.keeper.writing
        self.save_button.setEnabled(ready)
        self.avatar_button.setEnabled(ready)
        self.save_button.setToolTip(
            tr("Save the whole text's audio as a wav file")
            if complete
            else tr("Speak the whole text first (what was stopped is not saved)")
        )
        self.avatar_button.setToolTip(
            tr("Open the Avatar panel with this audio, to make a lip-synced video of it")
            if complete
            else tr("Speak the whole text first, then make a video of it in the Avatar panel")
        )
