"""The message box: Enter sends, Shift+Enter starts a new line."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QPlainTextEdit, QWidget


class ChatInput(QPlainTextEdit):
    """Plain-text input that emits ``submitted`` on Enter (not Shift+Enter)."""

    submitted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setPlaceholderText("Ask anything…  (Enter to send, Shift+Enter for a new line)")
        self.setTabChangesFocus(True)
        self.setMaximumHeight(120)

    def has_text(self) -> bool:
        """Whether there is something other than white space to send."""
        return bool(self.toPlainText().strip())

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Send on Enter; keep Qt's behaviour (a new line) for Shift+Enter."""
        is_enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if is_enter and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.submitted.emit()
            return
        super().keyPressEvent(event)
