"""Making a voice: a name, a clip (from a file or recorded), its check, then "Create voice".

Every step runs in a worker: reading and checking a clip (decode, resample), trimming, and
computing the speaker embedding. What the check finds is said next to the clip controls in
the words of :class:`~pipelines.voice.reference.ReferenceCheck`; a too-long clip offers "Trim
to 30 s". The name and the clip stay until a voice is made of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core import AudioDevice, Recording, UserError
from app.voice import MAX_SECONDS, MODEL_RATE, ReferenceCheck, Voice, VoiceService, trim_to
from ui.a11y import announce, describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.numbers import count, decimal
from ui.shell.error_router import ErrorRouter
from ui.shell.notifications import NotificationBar
from ui.tasks import TaskRunner
from ui.voice.recorder_box import RecordBox
from ui.voice.status_area import StatusArea
from ui.widgets.file_dialogs import FileKind, open_file
from ui.widgets.inline_error import InlineError
from ui.widgets.model_needed import ModelNeeded

STATUS_LINES = 4  # room kept under the buttons for the clip's check and any problem


def audio_filter() -> str:
    """The file dialog's filter for reference clips."""
    return tr("Audio") + " (*.wav *.flac *.ogg *.mp3);;" + tr("All files") + " (*)"


def choose_clip() -> str:
    """What to do before a voice can be made."""
    return tr("Pick a clip or record one first.")


def check_trimmed(service: VoiceService, check: ReferenceCheck) -> ReferenceCheck:
    """The first 30 s of a checked clip, checked again (worker thread)."""
    return service.check_recording(trim_to(check.samples), MODEL_RATE)


def check_summary(check: ReferenceCheck) -> str:
    """e.g. "✓ 8.2 s of speech · peak −6 dBFS · 35 dB above the background"."""
    return "✓ " + tr(
        "{seconds} s of speech · peak {peak} dBFS · {snr} dB above the background"
    ).format(
        seconds=decimal(check.seconds, 1),
        peak=decimal(check.peak_dbfs, 0),
        snr=decimal(check.snr_db, 0),
    )


class NewVoiceBox(QWidget):
    """Name, From file… / Record, the clip's check, Create voice with progress."""

    voiceCreated = Signal(object)  # Voice
    busyChanged = Signal(bool)
    cpuChosen = Signal()  # "Use CPU instead": the encoder runs on the speech device, CPU now

    def __init__(
        self,
        voice_service: VoiceService,
        tasks: TaskRunner,
        notifications: NotificationBar,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.voice_service = voice_service
        self.tasks = tasks
        self.check: ReferenceCheck | None = None
        self.source = ""
        self._jobs = 0
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText(tr("Name of the new voice"))
        describe(self.name_edit, tr("Voice name"), tr("Name of the new voice"))
        self.name_edit.setClearButtonEnabled(True)
        self.name_error = InlineError()
        self.file_button = QPushButton(tr("From file…"))
        set_icon(self.file_button, "folder-open")
        describe(
            self.file_button,
            tr("Reference clip from a file"),
            tr("A clip of 5–30 s of one person speaking: wav, flac, ogg, mp3"),
        )
        self.file_error = InlineError()
        self.record = RecordBox()
        self.clip_label = QLabel()
        self.clip_label.setWordWrap(True)
        self.clip_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problems = InlineError()
        seconds = count(round(MAX_SECONDS))
        self.trim_button = QPushButton(tr("Trim to {seconds} s").format(seconds=seconds))
        set_icon(self.trim_button, "content-cut")
        describe(
            self.trim_button,
            tr("Trim the clip"),
            tr("Use the first {seconds} s of the clip").format(seconds=seconds),
        )
        self.create_button = QPushButton(tr("Create voice"))
        set_icon(self.create_button, "account-voice")
        self.create_button.setAccessibleName(tr("Create voice"))
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(10)
        self.progress_label = QLabel()
        self.progress_label.setWordWrap(True)
        self.create_error = InlineError()
        self.model_needed = ModelNeeded()
        self.model_note = self.model_needed.note
        inline = {"name": self.name_error, "file": self.file_error, "reference": self.problems}
        inline.update(model=self.create_error, device=self.create_error, voice=self.create_error)
        self.errors = ErrorRouter(notifications, inline)
        self._layout()
        self.name_edit.textChanged.connect(self._on_name_changed)
        self.name_edit.returnPressed.connect(self.create_voice)
        self.file_button.clicked.connect(self.choose_file)
        self.record.recorded.connect(self._on_recorded)
        self.record.busyChanged.connect(self._on_record_busy)
        self.trim_button.clicked.connect(self.trim)
        self.create_button.clicked.connect(self.create_voice)
        self._show_check(None)

    def _layout(self) -> None:
        """Controls first, every line that comes and goes in a fixed area under them: the
        box sits at the bottom of its column, so a line appearing anywhere in it would move
        Record and Create voice (users clicked the wrong one)."""
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("<b>" + tr("New voice") + "</b>"))
        # Said on arrival, not after a click: above the controls, where it moves none of them.
        layout.addWidget(self.model_needed)
        layout.addWidget(self.name_edit)
        file_row = QHBoxLayout()
        file_row.addWidget(self.file_button)
        file_row.addWidget(QLabel(tr("or")))
        file_row.addStretch(1)
        layout.addLayout(file_row)
        layout.addWidget(self.record)
        create_row = QHBoxLayout()
        create_row.addWidget(self.create_button)
        create_row.addWidget(self.trim_button)  # after Create: showing it moves nothing
        create_row.addWidget(self.progress, 1)
        create_row.addStretch(0)  # keeps Create voice its own width while no progress shows
        layout.addLayout(create_row)
        self.status_area = StatusArea(
            [
                self.progress_label,
                self.clip_label,
                self.name_error,
                self.file_error,
                self.record.error,
                self.problems,
                self.create_error,
            ],
            lines=STATUS_LINES,
        )
        layout.addWidget(self.status_area)

    def set_inputs(self, devices: Sequence[AudioDevice]) -> None:
        """The microphones to offer (none: Record is disabled, files still work)."""
        self.record.set_inputs(devices)

    def show_model_problem(self, problem: Exception | None) -> None:
        """No speaker encoder installed: what to do, next to Create (None clears it)."""
        self.model_needed.show_problem(problem)

    @property
    def busy(self) -> bool:
        """A clip is being checked or a voice computed, or a recording runs."""
        return self._jobs > 0 or self.record.busy

    # ----- the clip --------------------------------------------------------------------

    @Slot()
    def choose_file(self) -> None:
        """Pick an audio file and check it."""
        path = open_file(self, tr("Reference clip"), FileKind.AUDIO, audio_filter())
        if path is not None:
            self.check_file(path)

    def check_file(self, path: Path) -> None:
        """Read and check ``path`` in a worker; the result is shown under the clip controls."""
        self.file_error.clear()
        self.source = path.name
        self._run(tr("Reading {name}…").format(name=path.name), self.voice_service.check_file, path)

    @Slot(object)
    def _on_recorded(self, recording: Recording) -> None:
        self.file_error.clear()
        self.source = tr("the recording")
        self._run(
            tr("Checking the recording…"),
            self.voice_service.check_recording,
            recording.samples,
            recording.rate,
        )

    @Slot()
    def trim(self) -> None:
        """Keep the first 30 s of the clip and check that again."""
        if self.check is not None and self.check.has("too_long"):
            self.source = tr("the first {seconds} s of {source}").format(
                seconds=count(round(MAX_SECONDS)), source=self.source
            )
            self._run(tr("Trimming…"), check_trimmed, self.voice_service, self.check)

    def _run(self, text: str, function: Callable[..., ReferenceCheck], *args: object) -> None:
        self.problems.clear()
        self._begin(text)
        self.tasks.start(
            function,
            *args,
            on_done=self._on_checked,
            on_error=self._on_check_failed,
        )

    @Slot(object)
    def _on_checked(self, check: ReferenceCheck) -> None:
        self._end()
        self._show_check(check)

    @Slot(object)
    def _on_check_failed(self, error: BaseException) -> None:
        self._end()
        self._show_check(None)
        self.errors.show(error, default_field="file")

    def _show_check(self, check: ReferenceCheck | None) -> None:
        self.check = check
        if check is None:
            self.clip_label.setText(choose_clip())
            self.problems.clear()
        elif check.ok:
            self.clip_label.setText(
                tr("{summary} — from {source}").format(
                    summary=check_summary(check), source=self.source
                )
            )
            self.problems.clear()
        else:
            self.clip_label.setText(
                tr("{seconds} s from {source}:").format(
                    seconds=decimal(check.seconds, 1), source=self.source
                )
            )
            self.problems.show_message("\n".join(p.message for p in check.problems))
            announce(self.problems, self.problems.text())
        self.trim_button.setVisible(check is not None and check.has("too_long"))
        self._update_buttons()

    # ----- the voice -------------------------------------------------------------------

    @Slot()
    def create_voice(self) -> None:
        """Compute the voice from the checked clip, in a worker."""
        check = self.check
        if self.busy:
            return
        if check is None:
            self.problems.show_message(choose_clip())
            return
        if not check.ok:
            return  # its problems are on screen
        self.name_error.clear()
        self.create_error.clear()
        name = self.name_edit.text()
        try:
            self.voice_service.library.check_name(
                name
            )  # at once: nothing is computed for a bad name
        except UserError as error:
            self.name_error.show_message(str(error))
            return
        self._begin(tr("Computing the voice of {source}…").format(source=self.source))
        self.tasks.start(
            self.voice_service.create_voice,
            name,
            check,
            on_done=self._on_created,
            on_error=self._on_create_failed,
        )

    @Slot(object)
    def _on_created(self, voice: Voice) -> None:
        self._end()
        self.name_edit.clear()
        self._show_check(None)
        self.record.status.clear()
        self.progress_label.setText(tr("Voice “{name}” created.").format(name=voice.name))
        announce(self.progress_label, self.progress_label.text())
        self.voiceCreated.emit(voice)

    @Slot(object)
    def _on_create_failed(self, error: BaseException) -> None:
        self._end()
        self.errors.show(error, default_field="model", use_cpu=self._create_on_cpu)

    def _create_on_cpu(self) -> None:
        """ "Use CPU instead" after the speaker encoder failed on its device."""
        self.cpuChosen.emit()  # the panel moves speech to the CPU before the voice is made
        self.create_voice()

    # ----- state -----------------------------------------------------------------------

    def _begin(self, text: str) -> None:
        self._jobs += 1
        self.progress.show()
        self.progress_label.setText(text)
        self._update_buttons()
        self.busyChanged.emit(True)

    def _end(self) -> None:
        self._jobs -= 1
        self.progress.hide()
        self.progress_label.clear()
        self._update_buttons()
        self.busyChanged.emit(self.busy)

    @Slot(str)
    def _on_name_changed(self, _: str) -> None:
        self.name_error.clear()
        self._update_buttons()

    @Slot(bool)
    def _on_record_busy(self, recording: bool) -> None:
        if recording:  # the clip shown before is not the one being recorded
            self._show_check(None)
            self.clip_label.clear()
        self._update_buttons()
        self.busyChanged.emit(self.busy)

    def _update_buttons(self) -> None:
        working = self._jobs > 0
        recording = self.record.busy
        self.progress.setVisible(working)
        self.file_button.setEnabled(not working and not recording)
        self.record.setEnabled(not working)
        self.trim_button.setEnabled(not working and not recording)
        ready = self.check is not None and self.check.ok
        self.create_button.setEnabled(ready and not working and not recording)
        why = (
            tr("Compute the voice from the clip (it needs a name)")
            if ready
            else tr("Pick or record a clip without problems first")
        )
        self.create_button.setToolTip(why)
        self.create_button.setAccessibleDescription(why)
