"""The Avatar panel's "Write subtitles (.srt)" option (remembered) and what became of them."""

from __future__ import annotations

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QCheckBox, QWidget

from app.core import SettingsStore
from app.speech import VideoSubtitles
from ui.a11y import describe
from ui.i18n import tr
from ui.shell.settings_changes import Report, change_settings
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import vbox


class SubtitlesOption(QWidget):
    """A checkbox saved in ``avatar_subtitles``, and a line saying why a video has none."""

    def __init__(self, store: SettingsStore, report: Report, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._store = store
        self._report = report
        self.checkbox = QCheckBox(tr("Write subtitles (.srt)"))
        describe(
            self.checkbox,
            tr("Write subtitles"),
            tr(
                "Put <video>.srt next to each video: the typed text timed sentence by sentence, "
                "or an audio file transcribed by Whisper"
            ),
        )
        self.checkbox.setChecked(store.settings.avatar_subtitles)
        self.note = InlineError(warning=True)
        vbox(self.checkbox, parent=self, margins=0)  # self.note: placed by the owner
        self.checkbox.toggled.connect(self._on_toggled)

    @property
    def wanted(self) -> bool:
        """Whether the next video gets subtitles."""
        return self.checkbox.isChecked()

    def show_outcome(self, subtitles: VideoSubtitles | None) -> None:
        """After a video: say why it has no subtitles (nothing when it has them)."""
        self.note.show_message(subtitles.note if subtitles is not None else "")

    @Slot(bool)
    def _on_toggled(self, checked: bool) -> None:
        self.note.clear()
        change_settings(self._store, self._report, avatar_subtitles=checked)
