"""The database line at the bottom of the Knowledge panel, and Retry when it failed to start."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from app.knowledge import DatabaseInfo
from ui.i18n import tr
from ui.icons import set_icon
from ui.knowledge.formatting import database_text
from ui.theme import muted_color
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox, over_message

STARTING = "Starting the knowledge database…"
NOT_STARTED = "The knowledge database starts when this panel is first opened."


class DatabaseStatus(QWidget):
    """``Built-in database · running · 48.2 MB · /path``, or an error with a Retry button."""

    retryRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel(tr("The knowledge database starts when this panel is first opened."))
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setWordWrap(True)
        self.error = InlineError()
        self.retry_button = QPushButton(tr("Retry"))
        self.retry_button.setToolTip(tr("Try to start (or reach) the knowledge database again"))
        self.retry_button.hide()
        set_icon(self.retry_button, "refresh")
        row = hbox((self.error, 1), (self.retry_button, 0, Qt.AlignmentFlag.AlignTop), margins=0)
        over_message(self, row, self.label)
        self.retry_button.clicked.connect(self.retryRequested)
        self._mute()

    def event(self, event: QEvent) -> bool:
        """Re-pick the muted colour when the palette flips between light and dark."""
        # The label's own palette keeps the colour it was given: picked on the light palette
        # it stayed dark grey on the dark window. event(): see ui.chat.input_box.ChatInput.
        handled = super().event(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._mute()
        return handled

    def _mute(self) -> None:
        color = muted_color(self.palette())
        palette = self.label.palette()
        if palette.color(self.label.foregroundRole()) != color:
            palette.setColor(self.label.foregroundRole(), color)
            self.label.setPalette(palette)

    def show_starting(self) -> None:
        """The database is being started (or reached); any earlier failure is cleared."""
        self.error.clear()
        self.retry_button.hide()
        self.label.setText(tr("Starting the knowledge database…"))

    def show_info(self, info: DatabaseInfo) -> None:
        """Where the data lives, whether the server runs, and its size."""
        self.error.clear()
        self.retry_button.hide()
        self.label.setText(database_text(info))
        self.label.setToolTip(info.location)

    def show_error(self, message: str) -> None:
        """The database could not be started or reached: say why, offer Retry."""
        self.error.show_message(message)
        self.retry_button.show()
        self.label.setText(tr("The knowledge database is not available."))
