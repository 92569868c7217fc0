"""What the face says: a speech file (wav, flac, mp3), a speech made in the Voice panel, or a
text spoken in a stored voice."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from app.avatar import SPEECH_SUFFIXES
from app.voice import SpokenClip
from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.numbers import decimal
from ui.widgets.elided_label import ElidedLabel
from ui.widgets.file_dialogs import FileKind, open_file
from ui.widgets.inline_error import InlineError


def speech_filter() -> str:
    """The file dialog's filter for speech files."""
    return tr("Audio") + " (" + " ".join(f"*{s}" for s in SPEECH_SUFFIXES) + ")"


def no_file_yet() -> str:
    """The speech file line before one is chosen."""
    return tr("No file chosen")


def no_spoken_yet() -> str:
    """The Voice panel line before a speech is handed over."""
    return tr("none yet: speak a text there, then click “Use in Avatar”")


SNIPPET_CHARS = 28


def spoken_label(clip: SpokenClip) -> str:
    """e.g. "“Hello there, my friend…” (3.2 s, Alice)"."""
    return tr("“{text}” ({seconds} s, {voice})").format(
        text=snippet(clip.text), seconds=decimal(clip.seconds, 1), voice=clip.voice
    )


def snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    """The start of ``text`` on one line, cut at a word with "…" when longer than ``limit``."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit].rsplit(" ", 1)[0] if " " in flat[:limit] else flat[:limit]
    return cut.rstrip(" ,;:.-") + "…"


class SpeechSource(QGroupBox):
    """A file, the Voice panel's speech, or a voice and a text; the inputs stay as they are
    until the user changes them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(tr("What the face says"), parent)
        self.audio_path: Path | None = None
        self.spoken: SpokenClip | None = None
        """The speech the Voice panel handed over (kept until another one comes)."""
        self._has_voices = False
        self.file_radio = QRadioButton(tr("Audio file"))
        describe(self.file_radio, tr("Audio file"), tr("The face says what an audio file says"))
        self.spoken_radio = QRadioButton(tr("Voice panel:"))
        describe(
            self.spoken_radio,
            tr("The Voice panel's audio"),
            tr("The face says what the Voice panel spoke last"),
        )
        self.spoken_radio.setEnabled(False)
        self.voice_radio = QRadioButton(tr("A voice saying:"))
        describe(
            self.voice_radio,
            tr("A voice and a text"),
            tr("A stored voice speaks the text below first, then the face says it"),
        )
        self.modes = QButtonGroup(self)
        self.modes.addButton(self.file_radio)
        self.modes.addButton(self.spoken_radio)
        self.modes.addButton(self.voice_radio)
        self.file_radio.setChecked(True)
        self.file_button = QPushButton(tr("Choose…"))
        set_icon(self.file_button, "folder-open")
        describe(
            self.file_button,
            tr("Choose audio file"),
            tr("A wav, flac or mp3 file of someone speaking"),
        )
        self.file_label = ElidedLabel(no_file_yet())  # a long file name never widens the panel
        self.spoken_label = QLabel(no_spoken_yet())
        self.spoken_label.setWordWrap(True)
        self.spoken_label.setEnabled(False)  # greyed until a speech arrives
        self.voice_combo = QComboBox()
        self.voice_combo.setMinimumContentsLength(12)
        describe(
            self.voice_combo,
            tr("Voice"),
            tr("The voices of the speech model (chosen in the Voice panel)"),
        )
        self.text_edit = QPlainTextEdit()
        self.text_edit.setTabChangesFocus(True)  # Tab moves on: keyboard users get out
        self.text_edit.setPlaceholderText(tr("Type what the face should say…"))
        describe(self.text_edit, tr("Text to say"), tr("Type what the face should say…"))
        self.text_edit.setMaximumHeight(90)
        self.error = InlineError()
        file_row = QHBoxLayout()
        file_row.addWidget(self.file_radio)
        file_row.addWidget(self.file_button)
        file_row.addWidget(self.file_label, 1)
        spoken_row = QHBoxLayout()
        spoken_row.addWidget(self.spoken_radio)
        spoken_row.addWidget(self.spoken_label, 1)
        voice_row = QHBoxLayout()
        voice_row.addWidget(self.voice_radio)
        voice_row.addWidget(self.voice_combo, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(file_row)
        layout.addLayout(spoken_row)
        layout.addLayout(voice_row)
        layout.addWidget(self.text_edit)
        # self.error is placed by the owner, in the space it keeps under Generate.
        self.file_button.clicked.connect(self.choose_file)
        self.voice_combo.activated.connect(self._use_voice)
        self.text_edit.textChanged.connect(self._on_text)

    @property
    def uses_file(self) -> bool:
        """Whether the speech is the chosen file (else the voice and text)."""
        return self.file_radio.isChecked()

    @property
    def uses_spoken(self) -> bool:
        """Whether the speech is the one the Voice panel handed over."""
        return self.spoken_radio.isChecked() and self.spoken is not None

    def voice(self) -> str:
        """The chosen voice's name ("" when there is none)."""
        return self.voice_combo.currentText() if self._has_voices else ""

    def text(self) -> str:
        """The typed text."""
        return self.text_edit.toPlainText()

    @Slot()
    def choose_file(self) -> None:
        """Ask for a speech file."""
        path = open_file(self, tr("Choose audio"), FileKind.AUDIO, speech_filter())
        if path is not None:
            self.set_file(path)

    def set_file(self, path: Path) -> None:
        """Use ``path`` as the speech (checked when Generate is clicked)."""
        self.error.clear()
        self.audio_path = path
        self.file_label.setText(path.name)
        self.file_label.setToolTip(str(path))
        self.file_radio.setChecked(True)

    def set_spoken(self, clip: SpokenClip) -> None:
        """Use the Voice panel's speech ``clip`` (it replaces one handed over before)."""
        self.error.clear()
        self.spoken = clip
        self.spoken_label.setText(spoken_label(clip))
        self.spoken_label.setToolTip(f"{clip.text}\n\n{clip.path}")
        self.spoken_label.setEnabled(True)
        self.spoken_radio.setEnabled(self.file_radio.isEnabled())  # still locked while busy
        self.spoken_radio.setChecked(True)

    def set_voices(self, names: Sequence[str], preferred: str = "") -> None:
        """The voices to offer, keeping the current one (else ``preferred``)."""
        keep = self.voice_combo.currentText() or preferred
        self.voice_combo.clear()
        self.voice_combo.addItems(list(names) or [tr("No voices yet")])
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
            self.spoken_radio,
            self.voice_radio,
            self.file_button,
            self.voice_combo,
            self.text_edit,
        ):
            widget.setEnabled(not busy)
        if not busy:
            self.voice_combo.setEnabled(self._has_voices)
            self.spoken_radio.setEnabled(self.spoken is not None)
