"""*File → Transcribe…*: an audio file to text and subtitles.

Choose a file (wav, flac, ogg, mp3) and Whisper transcribes it on the task runner with progress and
Cancel; the transcript appears selectable, with Copy, *Save subtitles…* (.srt or .vtt, timed by
word) and *Save text…* (written by a :class:`~ui.speech.transcript_saver.TranscriptSaver`). A
multilingual Whisper gets a language choice (an English-only one has nothing to choose). Errors
appear next to the control that caused them; no Whisper installed is a sentence with a button to
the model manager's Whisper entries.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, Signal, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QWidget,
)

from app.core import ModelMissingError, UserError
from app.models import ModelTask
from app.speech import (
    AUDIO_SUFFIXES,
    SpeechInputService,
    Transcript,
    transcribe_audio_file,
)
from pipelines.core import Cancelled, Progress
from ui.a11y import announce, describe
from ui.chat.dictation_options import languages
from ui.i18n import tr
from ui.icons import set_icon
from ui.numbers import count, decimal
from ui.settings_signals import SettingsSignals
from ui.shell.error_router import ErrorRouter
from ui.shell.notifications import NotificationBar
from ui.speech.transcript_saver import TranscriptSaver
from ui.tasks import TaskRunner
from ui.widgets.file_dialogs import FileKind, open_file
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox, vbox
from ui.widgets.model_needed import ModelNeeded

JOB = "transcribe-file"


def audio_filter() -> str:
    """The open dialog's filter: the audio files Whisper reads."""
    return tr("Audio") + " ({})".format(" ".join(f"*{suffix}" for suffix in AUDIO_SUFFIXES))


def transcribe_languages() -> list[tuple[str, str]]:
    """(name shown, Whisper's code): the dictation's languages, "auto" worded for a file."""
    return [(tr("Detect the language"), "auto")] + [
        (name, code) for code, name in languages() if code != "auto"
    ]


def choose_first() -> str:
    """Transcribe without a file."""
    return tr("Choose an audio file first.")


def loading() -> str:
    """Whisper loads."""
    return tr("Loading the speech-to-text model…")


def stopped() -> str:
    """After Cancel."""
    return tr("Stopped: nothing was transcribed.")


def nothing_said() -> str:
    """A file without speech."""
    return tr("Nothing was said in this file.")


class TranscribeDialog(QDialog):
    """Transcribe one audio file at a time over the :class:`SpeechInputService`."""

    modelsRequested = Signal(str)  # "Get it in Models…": the ModelTask value to show

    def __init__(
        self,
        speech_input: SpeechInputService,
        signals: SettingsSignals,
        tasks: TaskRunner,
        notifications: NotificationBar,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.speech_input = speech_input
        self.signals = signals
        self.tasks = tasks
        self.setWindowTitle(tr("Transcribe"))
        self.resize(640, 520)
        self.transcript: Transcript | None = None
        self.saver = TranscriptSaver(tasks, self)
        """Writes the transcript's subtitles or text where the user chooses."""
        self.file_edit = QLineEdit()
        self.file_edit.setPlaceholderText(tr("An audio file: wav, flac, ogg or mp3"))
        describe(self.file_edit, tr("Audio file"), tr("The audio file to transcribe"))
        self.choose_button = QPushButton(tr("Choose…"))
        set_icon(self.choose_button, "folder-open")
        describe(
            self.choose_button,
            tr("Choose audio file"),
            tr("Pick an audio file, then transcribe it"),
        )
        self.file_error = InlineError()
        self.language_label = QLabel(tr("&Language"))
        self.language = QComboBox()
        for name, code in transcribe_languages():
            self.language.addItem(name, code)
        self.language_label.setBuddy(self.language)
        describe(self.language, tr("Language"), tr("The language spoken in the file"))
        self.language_error = InlineError()
        self.model_needed = ModelNeeded()
        self.transcribe_button = QPushButton(tr("Transcribe"))
        self.transcribe_button.setDefault(True)
        describe(self.transcribe_button, tr("Transcribe"), tr("Turn the file's speech into text"))
        self.cancel_button = QPushButton(tr("Cancel"))
        set_icon(self.cancel_button, "stop")
        describe(self.cancel_button, tr("Cancel"), tr("Stop transcribing (nothing is kept)"))
        self.progress_bar = QProgressBar()
        self.progress_bar.setTextVisible(False)
        self.progress_bar.setMaximumHeight(12)
        # Shown only while transcribing, but its room kept: the transcript does not jump.
        policy = self.progress_bar.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.progress_bar.setSizePolicy(policy)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.error = InlineError()
        self.view = QPlainTextEdit()
        self.view.setReadOnly(True)  # selectable and copyable, not editable
        self.view.setPlaceholderText(tr("The transcript appears here."))
        describe(self.view, tr("Transcript"), tr("The text heard in the file: select and copy it"))
        self.copy_button = QPushButton(tr("Copy"))
        set_icon(self.copy_button, "content-copy")
        describe(self.copy_button, tr("Copy"), tr("Copy the transcript (or the selected part)"))
        self.save_subtitles_button = QPushButton(tr("Save subtitles…"))
        set_icon(self.save_subtitles_button, "subtitles-outline")
        describe(
            self.save_subtitles_button,
            tr("Save subtitles"),
            tr("SubRip (.srt) or WebVTT (.vtt), timed by word"),
        )
        self.save_text_button = QPushButton(tr("Save text…"))
        set_icon(self.save_text_button, "content-save")
        describe(self.save_text_button, tr("Save text"), tr("Save the transcript as a text file"))
        self.close_button = QPushButton(tr("Close"))
        describe(self.close_button, tr("Close"), tr("Close this window"))
        self.output_error = InlineError()
        self.errors = ErrorRouter(
            notifications,
            {
                "file": self.file_error,
                "language": self.language_error,
                "output": self.output_error,
                "model": self.model_needed.note,
                "": self.error,
            },
        )
        self._layout()
        self._connect()
        self._set_busy(False)
        self.check_model()
        # Whisper chosen elsewhere (the model manager's Use): the missing-model line follows.
        signals.connect_model_choices((ModelTask.SPEECH_TO_TEXT,), self.check_model)

    def _layout(self) -> None:
        vbox(
            hbox(self._file_label(), (self.file_edit, 1), self.choose_button, margins=0),
            self.file_error,
            hbox(self.language_label, (self.language, 1), margins=0),
            self.language_error,
            self.model_needed,
            hbox(1, self.cancel_button, self.transcribe_button, margins=0),  # Transcribe stays put
            self.progress_bar,
            self.status,
            self.error,
            (self.view, 1),
            hbox(
                self.copy_button,
                self.save_subtitles_button,
                self.save_text_button,
                1,
                self.close_button,
                margins=0,
            ),
            self.output_error,
            parent=self,
        )

    def _file_label(self) -> QLabel:
        label = QLabel(tr("&File"))
        label.setBuddy(self.file_edit)
        # One column for both captions, whatever the language's words: the fields line up.
        width = max(label.sizeHint().width(), self.language_label.sizeHint().width())
        label.setMinimumWidth(width)
        self.language_label.setMinimumWidth(width)
        return label

    def _say(self, text: str) -> None:
        """A status change: shown, and said by screen readers."""
        self.status.setText(text)
        announce(self.status, text)

    def _connect(self) -> None:
        self.choose_button.clicked.connect(self.choose_file)
        self.transcribe_button.clicked.connect(self.transcribe)
        self.file_edit.returnPressed.connect(self.transcribe)
        self.cancel_button.clicked.connect(self.cancel)
        self.copy_button.clicked.connect(self.copy)
        self.save_subtitles_button.clicked.connect(self.save_subtitles)
        self.save_text_button.clicked.connect(self.save_text)
        self.close_button.clicked.connect(self.close)
        self.model_needed.openRequested.connect(self.modelsRequested)
        self.saver.saved.connect(self._on_saved)
        self.saver.failed.connect(self._on_save_failed)

    # ----- state -----------------------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether a file is being transcribed."""
        return self.tasks.running(JOB)

    @Slot()
    def check_model(self) -> None:
        """Say up front when no Whisper is installed; offer a language when it has a choice."""
        try:
            multilingual = self.speech_input.multilingual()
        except UserError as error:
            self.model_needed.show_problem(error)
            multilingual = False
        else:
            self.model_needed.show_problem(None)
        self.language_label.setVisible(multilingual)
        self.language.setVisible(multilingual)
        if multilingual and not self.running:
            index = self.language.findData(self.signals.settings.speech_language)
            self.language.setCurrentIndex(max(index, 0))

    def language_code(self) -> str | None:
        """The language asked for (None: the model has no choice, or the setting decides)."""
        return str(self.language.currentData()) if self.language.isVisible() else None

    # ----- transcribe ------------------------------------------------------------------

    @Slot()
    def choose_file(self) -> None:
        """Ask for an audio file, then transcribe it."""
        path = open_file(self, tr("Transcribe"), FileKind.AUDIO, audio_filter())
        if path is not None:
            self.file_edit.setText(str(path))
            self.transcribe()

    @Slot()
    def transcribe(self) -> None:
        """Transcribe the chosen file in a worker; the file name stays whatever happens."""
        if self.running:
            return
        for label in (self.file_error, self.language_error, self.error, self.output_error):
            label.clear()
        text = self.file_edit.text().strip()
        if not text:
            self.file_error.show_message(choose_first())
            return
        self.progress_bar.setRange(0, 0)  # busy until the first window is reached
        self.status.setText(loading())
        self._set_busy(True)
        self.tasks.start_with_progress(
            transcribe_audio_file,
            self.speech_input,
            Path(text).expanduser(),
            self.language_code(),
            kind=JOB,
            on_progress=self._on_progress,
            on_done=self._on_done,
            on_error=self._on_error,
        )

    @Slot()
    def cancel(self) -> None:
        """Stop transcribing (the transcript shown before stays)."""
        self.tasks.cancel(JOB)

    @Slot(object)
    def _on_progress(self, progress: Progress) -> None:
        if progress.total:
            self.progress_bar.setRange(0, progress.total)
            self.progress_bar.setValue(progress.done)
        done = count(progress.done)
        if progress.total:
            total = count(progress.total)
            text = tr("Transcribing… {done} of {total} s").format(done=done, total=total)
        else:
            text = tr("Transcribing… {done} s").format(done=done)
        self.status.setText(text)

    @Slot(object)
    def _on_done(self, transcript: Transcript) -> None:
        self.model_needed.show_problem(None)  # a model evidently works
        self.transcript = transcript
        self.view.setPlainText(transcript.text)
        if transcript.empty:
            self._say(nothing_said())
        else:
            self._say(
                tr("{audio} s of audio in {compute} s ({rtf}× real time).").format(
                    audio=decimal(transcript.audio_seconds, 0),
                    compute=decimal(transcript.compute_seconds, 1),
                    rtf=decimal(transcript.real_time_factor, 2),
                )
            )
        self._set_busy(False)

    @Slot(object)
    def _on_error(self, error: BaseException) -> None:
        self._set_busy(False)
        if isinstance(error, Cancelled):
            self._say(stopped())
        elif isinstance(error, ModelMissingError):
            self.status.clear()
            self.model_needed.show_problem(error)
        else:
            self.status.clear()
            self.errors.show(error, default_field="")

    # ----- results ---------------------------------------------------------------------

    @Slot()
    def copy(self) -> None:
        """Copy the transcript (the selection, when there is one)."""
        selected = self.view.textCursor().selectedText().replace("\u2029", "\n")
        QGuiApplication.clipboard().setText(selected or self.view.toPlainText())
        self._say(tr("Copied."))

    @Slot()
    def save_subtitles(self) -> None:
        """Ask where, then write the subtitles (SubRip or WebVTT by the name's ending)."""
        if self.transcript is not None:
            self.output_error.clear()
            self.saver.save_subtitles(self.transcript, self._audio_path())

    @Slot()
    def save_text(self) -> None:
        """Ask where, then write the transcript's text."""
        if self.transcript is not None:
            self.output_error.clear()
            self.saver.save_text(self.transcript, self._audio_path())

    def _audio_path(self) -> Path:
        """The audio file's path, whose name a saved file takes."""
        return Path(self.file_edit.text().strip() or "transcript")

    @Slot(object)
    def _on_saved(self, path: Path) -> None:
        self._say(tr("Saved {path}.").format(path=path))

    @Slot(object)
    def _on_save_failed(self, error: BaseException) -> None:
        self.errors.show(error, default_field="output")

    def _set_busy(self, busy: bool) -> None:
        done = self.transcript is not None and not self.transcript.empty
        for control in (self.file_edit, self.choose_button, self.language, self.transcribe_button):
            control.setEnabled(not busy)
        self.cancel_button.setVisible(busy)
        self.progress_bar.setVisible(busy)
        for button in (self.copy_button, self.save_subtitles_button, self.save_text_button):
            button.setEnabled(done and not busy)

    def event(self, event: QEvent) -> bool:
        """Closed while transcribing: the work stops (nothing else needs it)."""
        # event(), not closeEvent(): see ui.shell.singleton_guard (PySide6 6.12.0).
        if event.type() == QEvent.Type.Close:
            self.cancel()
        return super().event(event)
