"""A message's header: who wrote it, the answer's versions, and the message's action buttons.

A question has Copy, Edit and Delete; an answer has its versions (‹ 2/3 ›), Copy, Speak,
Regenerate and Delete. The header emits ``triggered(key)`` when one is clicked; the
:class:`~ui.chat.message_widget.MessageWidget` that owns it turns that into its own signals
(what each does is :mod:`ui.chat.message_actions`).
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from app.chat import ChatMessage
from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon

#: Buttons that change the conversation: off while an answer streams.
CHANGING = ("edit", "delete", "regenerate", "previous", "next")


class MessageHeader(QWidget):
    """The name of who wrote the message, and the buttons that act on it."""

    triggered = Signal(str)
    """The key of the button clicked: copy, speak, edit, regenerate, delete, previous, next."""

    def __init__(self, is_user: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.is_user = is_user
        self.name = QLabel()
        bold = QFont(self.name.font())
        bold.setBold(True)
        self.name.setFont(bold)
        self.version_label = QLabel()
        self.buttons: dict[str, QToolButton] = {}
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(2)
        row.addWidget(self.name)
        row.addStretch(1)
        self._add_buttons(row)

    def _add_buttons(self, row: QHBoxLayout) -> None:
        if not self.is_user:
            self._button(
                "previous",
                "chevron-left",
                tr("Previous version"),
                tr("Show the previous version of this answer"),
                row,
            )
            row.addWidget(self.version_label)
            self._button(
                "next",
                "chevron-right",
                tr("Next version"),
                tr("Show the next version of this answer"),
                row,
            )
        self._button("copy", "content-copy", tr("Copy"), tr("Copy the whole message"), row)
        if self.is_user:
            self._button(
                "edit", "pencil", tr("Edit"), tr("Edit this question and send it again"), row
            )
            self._button(
                "delete",
                "delete-outline",
                tr("Delete"),
                tr("Delete this question and its answer"),
                row,
            )
        else:
            self._button("speak", "volume-high", tr("Speak"), tr("Read this answer aloud"), row)
            self._button(
                "regenerate",
                "refresh",
                tr("Regenerate"),
                tr("Write a new answer; this one is kept as a version"),
                row,
            )
            self._button(
                "delete",
                "delete-outline",
                tr("Delete"),
                tr("Delete this answer (only the version shown)"),
                row,
            )

    def _button(
        self, key: str, icon: str, name: str, description: str, row: QHBoxLayout
    ) -> QToolButton:
        button = QToolButton()
        button.setAutoRaise(True)
        set_icon(button, icon)
        describe(button, name, description)
        button.clicked.connect(partial(self._on_clicked, key))
        row.addWidget(button)
        self.buttons[key] = button
        return button

    def _on_clicked(self, key: str, _checked: bool = False) -> None:
        self.triggered.emit(key)

    def show_for(self, message: ChatMessage, *, stored: bool, is_last_answer: bool) -> None:
        """The buttons ``message`` has: none before it is stored, Regenerate on the last
        answer only, the version switches when the answer has versions."""
        for key, button in self.buttons.items():
            button.setVisible(stored and (key != "regenerate" or is_last_answer))
        if self.is_user:
            return
        count = len(message.versions) + 1
        shown = stored and count > 1
        position = min(max(message.version, 0), count - 1)
        self.version_label.setText(f"{position + 1}/{count}")
        self.version_label.setAccessibleName(
            tr("Version {shown} of {count}").format(shown=position + 1, count=count)
        )
        self.version_label.setVisible(shown)
        self.buttons["previous"].setVisible(shown)
        self.buttons["next"].setVisible(shown)
        self.buttons["previous"].setEnabled(position > 0)
        self.buttons["next"].setEnabled(position < count - 1)

    def set_actions_enabled(self, enabled: bool, message: ChatMessage) -> None:
        """Turn the buttons that change the conversation on or off (a version switch stays
        off at either end of ``message``'s versions)."""
        for key in CHANGING:
            if key in self.buttons:
                self.buttons[key].setEnabled(enabled and _allowed(key, message))


def _allowed(key: str, message: ChatMessage) -> bool:
    count = len(message.versions) + 1
    if key == "previous":
        return message.version > 0
    if key == "next":
        return message.version < count - 1
    return True
