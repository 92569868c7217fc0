"""What the face says: a speech file (wav, flac, mp3), or a text spoken in a stored voice."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from app.avatar_media import SPEECH_SUFFIXES
from ui.inline_error import InlineError

SPEECH_FILTER = "Speech (" + " ".join(f"*{s}" for s in SPEECH_SUFFIXES) + ")"
NO_FILE_YET = "No file chosen"
NO_VOICES = "No voices yet"


class SpeechSource(QGroupBox):
    """A file, or a voice and a text; the inputs stay as they are until the user changes them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Speech", parent)
        self.audio_path: Path | None = None
        self._has_voices = False
        self._last_folder = Path.home()
        self.file_radio = QRadioButton("Speech file")
        self.voice_radio = QRadioButton("A voice saying:")
        self.modes = QButtonGroup(self)
        self.modes.addButton(self.file_radio)
        self.modes.addButton(self.voice_radio)
        self.file_radio.setChecked(True)
        self.file_button = QPushButton("Choose…")
        self.file_button.setToolTip("A wav, flac or mp3 file of speech")
        self.file_label = QLabel(NO_FILE_YET)
        self.voice_combo = QComboBox()
        self.voice_combo.setMinimumContentsLength(12)
        self.voice_combo.setToolTip("Voices made in the Voice panel")
        self.text_edit = QPlainTextEdit()
        self.text_edit.setPlaceholderText("Type what the face should say…")
        self.text_edit.setMaximumHeight(90)
        self.error = InlineError()
        file_row = QHBoxLayout()
        file_row.addWidget(self.file_radio)
        file_row.addWidget(self.file_button)
        file_row.addWidget(self.file_label, 1)
        voice_row = QHBoxLayout()
        voice_row.addWidget(self.voice_radio)
        voice_row.addWidget(self.voice_combo, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(file_row)
        layout.addLayout(voice_row)
        layout.addWidget(self.text_edit)
        layout.addWidget(self.error)
        self.file_button.clicked.connect(self.choose_file)
        self.voice_combo.activated.connect(self._use_voice)
        self.text_edit.textChanged.connect(self._on_text)

    @property
    def uses_file(self) -> bool:
        """Whether the speech is the chosen file (else the voice and text)."""
        return self.file_radio.isChecked()

    def voice(self) -> str:
        """The chosen voice's name ("" when there is none)."""
        return self.voice_combo.currentText() if self._has_voices else ""

    def text(self) -> str:
        """The typed text."""
        return self.text_edit.toPlainText()

    @Slot()
    def choose_file(self) -> None:
        """Ask for a speech file."""
        start = str(self._last_folder)
        name, _ = QFileDialog.getOpenFileName(self, "Choose speech", start, SPEECH_FILTER)
        if name:
            self.set_file(Path(name))

    def set_file(self, path: Path) -> None:
        """Use ``path`` as the speech (checked when Generate is clicked)."""
        self.error.clear()
        self.audio_path = path
        self._last_folder = path.parent
        self.file_label.setText(path.name)
        self.file_label.setToolTip(str(path))
        self.file_radio.setChecked(True)

    def set_voices(self, names: Sequence[str], preferred: str = "") -> None:
        """The voices to offer, keeping the current one (else ``preferred``)."""
        keep = self.voice_combo.currentText() or preferred
        self.voice_combo.clear()
        self.voice_combo.addItems(list(names) or [NO_VOICES])
        self._has_voices = bool(names)
        self.voice_combo.setEnabled(self._has_voices)
        index = self.voice_combo.findText(keep)
        self.voice_combo.setCurrentIndex(max(0, index))

    @Slot(int)
    def _use_voice(self, _: int) -> None:
        self.voice_radio.setChecked(True)

    @Slot()
    def _on_text(self) -> None:
        if self.text_edit.hasFocus():  # typing a text means "say this"
            self.voice_radio.setChecked(True)

    def set_busy(self, busy: bool) -> None:
        """Locked while a video is being made."""
        for widget in (
            self.file_radio,
            self.voice_radio,
            self.file_button,
            self.voice_combo,
            self.text_edit,
        ):
            widget.setEnabled(not busy)
        if not busy:
            self.voice_combo.setEnabled(self._has_voices)
