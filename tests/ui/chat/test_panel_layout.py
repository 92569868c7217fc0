"""The Chat panel's layout: a centred column of readable width, the composer at its foot."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QFrame, QWidget
from pytestqt.qtbot import QtBot

from ui.app_style import COMPOSER, READABLE_WIDTH
from ui.chat.panel import ChatPanel


def in_panel(panel: ChatPanel, widget: QWidget) -> QRect:
    return QRect(widget.mapTo(panel, QPoint(0, 0)), widget.size())


def test_the_chat_is_a_centred_column_of_readable_width(
    qtbot: QtBot, chat_panel: ChatPanel
) -> None:
    composer = chat_panel.findChild(QFrame, COMPOSER)
    assert composer is not None
    column = composer.parentWidget()
    room = column.parentWidget()
    host = chat_panel.window()
    host.resize(1800, 900)
    qtbot.waitUntil(lambda: room.width() > READABLE_WIDTH + 100, timeout=2000)
    assert column.width() == READABLE_WIDTH  # no wider, however wide the window
    left = column.x()
    right = room.width() - column.x() - column.width()
    assert abs(left - right) <= 1  # centred in the room beside the conversations
    host.resize(1000, 600)
    qtbot.waitUntil(lambda: room.width() < READABLE_WIDTH, timeout=2000)
    assert column.width() == room.width()  # narrower: all the room


def test_the_composer_holds_the_input_its_actions_and_the_context_meter(
    chat_panel: ChatPanel,
) -> None:
    composer = chat_panel.findChild(QFrame, COMPOSER)
    assert composer is not None
    for widget in (
        chat_panel.input,
        chat_panel.send_button,
        chat_panel.attachments.attach_button,
        chat_panel.dictation.button,
        chat_panel.tools.button,
        chat_panel.context_label,
    ):
        assert composer.isAncestorOf(widget)
    input_box = in_panel(chat_panel, chat_panel.input)
    send = in_panel(chat_panel, chat_panel.send_button)
    assert send.top() >= input_box.bottom()  # the actions under the input
    assert send.right() == max(
        in_panel(chat_panel, w).right()
        for w in (chat_panel.tools.button, chat_panel.dictation.button, chat_panel.send_button)
    )  # Send last, on the right
    assert chat_panel.send_button.property("primary")  # the accent button
