"""Editing a question in place: its text in an editor, Send and Cancel under it.

A question's :class:`~ui.chat.message_widget.MessageWidget` opens its
:class:`QuestionEditor` on Edit (the question's text hidden meanwhile). Send emits
``submitted`` with the new text (an empty one is not sent); Cancel emits ``cancelled`` and the
question shows as it was.
"""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon


class QuestionEditor(QWidget):
    """The editor of a question being changed, with Send and Cancel (hidden until opened)."""

    submitted = Signal(str)
    """The edited question, not empty."""
    cancelled = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.editor = QPlainTextEdit()
        describe(self.editor, tr("Edit message"), tr("Change the question, then send it again"))
        self.send_button = QPushButton(tr("Send"))
        set_icon(self.send_button, "send")
        describe(
            self.send_button,
            tr("Send"),
            tr("Send the edited question; the answers after it are replaced"),
        )
        self.cancel_button = QPushButton(tr("Cancel"))
        describe(self.cancel_button, tr("Cancel"), tr("Keep the question as it was"))
        self.send_button.clicked.connect(self._submit)
        self.cancel_button.clicked.connect(self.cancelled)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.send_button)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.editor)
        column.addLayout(buttons)
        self.hide()

    def edit(self, text: str) -> None:
        """Show the editor holding ``text``, focused."""
        self.editor.setPlainText(text)
        self.show()
        self.editor.setFocus()

    @Slot()
    def _submit(self) -> None:
        text = self.editor.toPlainText()
        if text.strip():
            self.submitted.emit(text)
