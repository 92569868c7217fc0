"""The buttons in a message's header: versions, Copy and Speak, Edit, Regenerate, Delete."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QHBoxLayout, QToolButton

from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon

if TYPE_CHECKING:
    from ui.chat.message_widget import MessageWidget


def add_header_buttons(widget: MessageWidget, header: QHBoxLayout) -> None:
    """Add ``widget``'s action buttons to ``header`` (a question's and an answer's differ);
    each calls the widget's ``_on_<key>`` and is kept in ``widget.buttons[key]``."""
    if not widget.is_user:
        _button(
            widget,
            "previous",
            "chevron-left",
            tr("Previous version"),
            tr("Show the previous version of this answer"),
            header,
        )
        header.addWidget(widget.version_label)
        _button(
            widget,
            "next",
            "chevron-right",
            tr("Next version"),
            tr("Show the next version of this answer"),
            header,
        )
    _button(widget, "copy", "content-copy", tr("Copy"), tr("Copy the whole message"), header)
    if widget.is_user:
        _button(
            widget, "edit", "pencil", tr("Edit"), tr("Edit this question and send it again"), header
        )
        _button(
            widget,
            "delete",
            "delete-outline",
            tr("Delete"),
            tr("Delete this question and its answer"),
            header,
        )
    else:
        _button(widget, "speak", "volume-high", tr("Speak"), tr("Read this answer aloud"), header)
        _button(
            widget,
            "regenerate",
            "refresh",
            tr("Regenerate"),
            tr("Write a new answer; this one is kept as a version"),
            header,
        )
        _button(
            widget,
            "delete",
            "delete-outline",
            tr("Delete"),
            tr("Delete this answer (only the version shown)"),
            header,
        )


def _button(
    widget: MessageWidget, key: str, icon: str, name: str, description: str, row: QHBoxLayout
) -> QToolButton:
    button = QToolButton()
    button.setAutoRaise(True)
    set_icon(button, icon)
    describe(button, name, description)
    button.clicked.connect(getattr(widget, f"_on_{key}"))
    row.addWidget(button)
    widget.buttons[key] = button
    return button
