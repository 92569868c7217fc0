"""The model button in the composer: what it says, how it is named for a screen reader, and
Ctrl+L opening its menu."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.ui.helpers import load
from ui.chat.panel import ChatPanel


def test_the_button_names_the_model_and_where_it_runs(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path
) -> None:
    button = chat_panel.model_picker.button
    assert button.name.text() == "Choose a model" and not button.place.isVisibleTo(button)
    assert button.accessibleName() == "Chat model: Choose a model"
    assert "(Ctrl+L)" in button.toolTip()
    load(qtbot, chat_panel, model_folder, "GPU")
    assert (button.name.text(), button.place.text()) == ("tiny-chat", "GPU")
    assert button.place.isVisibleTo(button)
    assert button.accessibleName() == "Chat model: tiny-chat, on GPU"
    assert str(model_folder.resolve()) in button.toolTip() and "(Ctrl+L)" in button.toolTip()


@pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing")  # offscreen
def test_ctrl_l_opens_the_model_menu(qtbot: QtBot, chat_panel: ChatPanel) -> None:
    chat_panel.window().activateWindow()  # a window shortcut needs the active window
    qtbot.waitUntil(chat_panel.window().isActiveWindow, timeout=2000)
    chat_panel.input.setFocus()
    menu = chat_panel.model_picker.menu
    qtbot.keyClick(chat_panel.input, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(menu.isVisible, timeout=2000)
    assert menu.actions()  # filled as it opened
    menu.close()


def test_the_button_is_not_usable_while_an_answer_is_written(chat_panel: ChatPanel) -> None:
    picker = chat_panel.model_picker
    picker.set_usable(False)
    assert not picker.button.isEnabled()
    picker.button.open_menu()  # Ctrl+L then does nothing
    assert not picker.menu.isVisible()
    picker.set_usable(True)
    assert picker.button.isEnabled()
