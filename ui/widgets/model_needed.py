"""A panel's "this model is missing" line: one sentence, and a button to where it is got.

The services say which task's model is missing (:class:`~app.core.errors.ModelMissingError`); the
button asks the main window to open the model manager at that task's catalog or Convert
entry, so nobody needs a terminal to get it.
"""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QPushButton, QWidget

from app.core import ModelMissingError
from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox

OPEN_MODELS = "Get it in Models…"


class ModelNeeded(QWidget):
    """The warning line (``note``) with "Get it in Models…" when a task's model is missing."""

    openRequested = Signal(str)  # the ModelTask value whose entry to show

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.note = InlineError(warning=True)
        self.button = QPushButton(tr("Get it in Models…"))
        set_icon(self.button, "download")
        describe(
            self.button,
            tr("Get the model"),
            tr("Open the model manager where this model is downloaded or converted"),
        )
        self.button.hide()
        self._task = ""
        row = hbox((self.note, 1), self.button, margins=0)
        self.setLayout(row)
        self.button.clicked.connect(self._on_clicked)

    def show_problem(self, error: Exception | None) -> None:
        """Say what is missing (None clears); the button shows for a missing model's task."""
        self._task = error.task if isinstance(error, ModelMissingError) else ""
        self.note.show_message(str(error) if error is not None else "")
        self.button.setVisible(bool(self._task))

    def text(self) -> str:
        """The sentence shown ("" when none)."""
        return self.note.text()

    @Slot()
    def _on_clicked(self) -> None:
        self.openRequested.emit(self._task)
