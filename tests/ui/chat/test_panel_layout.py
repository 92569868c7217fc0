"""The Chat panel's layout: a centred column of readable width, the composer at its foot with
the model button, no toolbar above, the modes and the generation settings in the ⋯ menu."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QFrame, QWidget
from pytestqt.qtbot import QtBot

from tests.ui.helpers import trigger
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
        chat_panel.model_picker.button,
        chat_panel.hands_free_mode.toggle,
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


def test_no_toolbar_sits_above_the_conversations_and_the_chat(chat_panel: ChatPanel) -> None:
    layout = chat_panel.layout()
    assert layout is not None and layout.count() == 1
    assert layout.itemAt(0).widget() is chat_panel.splitter  # the columns, from the top
    picker = chat_panel.model_picker
    composer = chat_panel.findChild(QFrame, COMPOSER)
    assert composer is not None
    column = composer.parentWidget().layout()
    assert column is not None
    # The model's error, offer and notes: right above the composer, by the model button.
    assert column.indexOf(picker) == column.indexOf(composer) - 1


def test_the_options_menu_switches_the_modes_the_composer_shows(
    qtbot: QtBot, chat_panel: ChatPanel
) -> None:
    menu = chat_panel.options_button.menu()
    assert menu is not None
    actions = [a for a in menu.actions() if not a.isSeparator()]
    hands_free, avatar = chat_panel.hands_free_mode, chat_panel.avatar_mode
    generation = chat_panel.generation.show_action
    assert actions == [hands_free.action, avatar.action, generation]  # the modes' own switches
    assert all(action.isCheckable() for action in actions)
    assert chat_panel.options_button.accessibleName() == "Chat options"

    trigger(avatar.action)  # as the menu item does
    assert avatar.enabled and avatar.isVisible()
    trigger(avatar.action)
    assert not avatar.enabled and not avatar.isVisible()

    trigger(generation)
    assert chat_panel.generation.isVisible() and generation.isChecked()
    trigger(generation)
    assert not chat_panel.generation.isVisible()

    trigger(hands_free.action)  # no model: it says what is missing and stays off
    assert hands_free.isVisible() and hands_free.problem_label.text()
    assert not hands_free.action.isChecked() and not hands_free.toggle.isChecked()
    qtbot.mouseClick(hands_free.toggle, Qt.MouseButton.LeftButton)  # the composer's button
    assert not hands_free.action.isChecked()  # the same switch: still off, still saying why
