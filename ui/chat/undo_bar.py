"""A line under the conversation list after a delete: what was deleted, and Undo for a while."""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from ui.a11y import announce, describe
from ui.i18n import tr
from ui.icons import set_icon

UNDO_MS = 8000
"""How long Undo stays offered (and the deleted file waits in the trash)."""


class UndoBar(QWidget):
    """Shows "Deleted “title”" with an Undo button for :data:`UNDO_MS`.

    ``undoRequested`` when Undo is clicked; ``expired`` when the time is up (the owner then
    deletes for good). Hidden in both cases.
    """

    undoRequested = Signal()
    expired = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.undo_button = QPushButton(tr("Undo"))
        set_icon(self.undo_button, "undo")
        describe(self.undo_button, tr("Undo delete"), tr("Bring the deleted chat back"))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.undo_button)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(UNDO_MS)
        self.timer.timeout.connect(self._on_timeout)
        self.undo_button.clicked.connect(self._on_undo)
        self.hide()

    def offer(self, title: str) -> None:
        """Show the bar for a chat just deleted (restarting the time)."""
        short = title if len(title) <= 40 else title[:39].rstrip() + "…"
        self.label.setText(tr("Deleted “{title}”.").format(title=short))
        self.label.setToolTip(title)
        self.show()
        self.timer.start()
        announce(self, self.label.text())

    @property
    def pending(self) -> bool:
        """Whether Undo is still offered."""
        return self.timer.isActive()

    def dismiss(self) -> None:
        """Hide without a signal (the owner ends the pending delete itself)."""
        self.timer.stop()
        self.hide()

    @Slot()
    def _on_timeout(self) -> None:
        self.hide()
        self.expired.emit()

    @Slot()
    def _on_undo(self) -> None:
        self.dismiss()
        self.undoRequested.emit()
