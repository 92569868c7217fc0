"""Conversations: new, select, rename (F2, double-click, menu), delete with undo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QLineEdit
from pytestqt.qtbot import QtBot

from tests.ui.fakes import Script
from tests.ui.helpers import ask, load, shown, type_and_send
from tests.ui.panels import host_of
from ui.chat.conversation_list import ConversationList
from ui.chat.panel import ChatPanel
from ui.shell.main_window import MainWindow


def two_chats(qtbot: QtBot, chat_panel: ChatPanel, folder: Path) -> None:
    """Load the model and hold two conversations: "Trip ideas" (older) and "Soup recipes"."""
    load(qtbot, chat_panel, folder)
    for question in ("Trip ideas", "Soup recipes"):
        chat_panel.new_conversation()  # what Chat → New chat does
        ask(qtbot, chat_panel, question)


def rename_in_editor(qtbot: QtBot, listing: ConversationList, title: str) -> None:
    """Type ``title`` into the open in-place editor and press Enter."""
    qtbot.waitUntil(lambda: listing.findChild(QLineEdit) is not None, timeout=2000)
    editor = listing.findChild(QLineEdit)
    assert isinstance(editor, QLineEdit)
    editor.selectAll()
    qtbot.keyClicks(editor, title)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    # The delegate commits and closes the editor on the next turn of the event loop.
    qtbot.waitUntil(lambda: listing.findChild(QLineEdit) is None, timeout=2000)


def stored_titles(chat_panel: ChatPanel) -> set[str]:
    folder = host_of(chat_panel).ctx.paths.conversations_dir
    return {json.loads(p.read_text(encoding="utf-8"))["title"] for p in folder.glob("*.json")}


def test_new_chat_starts_an_empty_conversation(
    qtbot: QtBot, window: MainWindow, model_folder: Path
) -> None:
    panel = window.chat_panel
    listing = panel.conversations.list
    assert listing.titles() == ["New chat"]
    window.menus.new_action.trigger()
    assert listing.count() == 1  # an empty chat is reused, not duplicated
    two_chats(qtbot, panel, model_folder)
    assert listing.titles() == ["Soup recipes", "Trip ideas"]
    qtbot.mouseClick(panel.conversations.new_button, Qt.MouseButton.LeftButton)
    assert listing.titles()[0] == "New chat"
    assert "Soup recipes" not in shown(panel)


def test_selecting_a_conversation_shows_it(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path
) -> None:
    two_chats(qtbot, chat_panel, model_folder)
    listing = chat_panel.conversations.list
    rect = listing.visualItemRect(listing.item(1))
    qtbot.mouseClick(listing.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert "Trip ideas" in shown(chat_panel)
    assert "Soup recipes" not in shown(chat_panel)


def test_rename_with_f2_and_typing(qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path) -> None:
    two_chats(qtbot, chat_panel, model_folder)
    listing = chat_panel.conversations.list
    listing.setFocus()
    qtbot.keyClick(listing, Qt.Key.Key_F2)
    rename_in_editor(qtbot, listing, "  Dinner   plans ")
    assert listing.titles()[0] == "Dinner plans"  # normalised as the service stores it
    assert stored_titles(chat_panel) == {"Dinner plans", "Trip ideas"}


def test_rename_with_a_double_click(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path
) -> None:
    two_chats(qtbot, chat_panel, model_folder)
    listing = chat_panel.conversations.list
    rect = listing.visualItemRect(listing.item(1))
    # A real double-click is press, release, then the double-click event (QTest sends only
    # the last one).
    qtbot.mouseClick(listing.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(listing.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    rename_in_editor(qtbot, listing, "Lisbon")
    assert listing.titles() == ["Soup recipes", "Lisbon"]


def test_rename_from_the_context_menu(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path
) -> None:
    two_chats(qtbot, chat_panel, model_folder)
    listing = chat_panel.conversations.list
    menu = listing.menu_for(listing.item(0))
    assert [a.text() for a in menu.actions()] == ["Rename", "Pin to top", "Export as", "", "Delete"]
    menu.actions()[0].trigger()
    rename_in_editor(qtbot, listing, "Soups")
    assert listing.titles()[0] == "Soups"


def test_an_empty_name_is_refused_inline(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path
) -> None:
    two_chats(qtbot, chat_panel, model_folder)
    pane = chat_panel.conversations
    pane.list.setFocus()
    qtbot.keyClick(pane.list, Qt.Key.Key_F2)
    rename_in_editor(qtbot, pane.list, "   ")
    assert pane.error.isVisible()
    assert pane.error.text() == "A conversation needs a name."
    assert pane.list.titles()[0] == "Soup recipes"  # the old name is back
    qtbot.keyClick(pane.list, Qt.Key.Key_F2)
    rename_in_editor(qtbot, pane.list, "Soups")
    assert not pane.error.isVisible()  # cleared on the next try


def test_delete_from_the_context_menu_offers_undo(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path
) -> None:
    two_chats(qtbot, chat_panel, model_folder)
    pane = chat_panel.conversations
    listing = pane.list
    listing.menu_for(listing.item(0)).actions()[-1].trigger()  # no confirmation box: Undo
    assert listing.titles() == ["Trip ideas"]
    assert stored_titles(chat_panel) == {"Trip ideas"}
    assert "Trip ideas" in shown(chat_panel)  # the next conversation is shown
    assert pane.undo.isVisible()


def test_delete_key_deletes_the_selected_conversation(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path
) -> None:
    two_chats(qtbot, chat_panel, model_folder)
    listing = chat_panel.conversations.list
    listing.setFocus()
    qtbot.keyClick(listing, Qt.Key.Key_Delete)
    assert listing.titles() == ["Trip ideas"]


def test_switching_is_blocked_while_answering(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script
) -> None:
    panel = window.chat_panel
    two_chats(qtbot, panel, model_folder)
    script.hold_after = 1
    type_and_send(qtbot, panel, "More soup")
    qtbot.waitUntil(lambda: panel.generating, timeout=5000)
    assert not panel.conversations.isEnabled()
    assert not window.menus.new_action.isEnabled()
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        script.release.set()
    assert panel.conversations.isEnabled()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_list_sits_on_the_panel_surface_without_a_box(
    qtbot: QtBot, window: MainWindow, theme: str
) -> None:
    window.menus.view.theme_actions[theme].trigger()
    listing = window.chat_panel.conversations.list
    qtbot.waitUntil(listing.isVisible, timeout=2000)
    QApplication.sendPostedEvents()
    surface = window.palette().color(QPalette.ColorRole.Window).rgb()
    corner = listing.mapTo(window, QPoint(0, 0))
    image = window.grab().toImage()
    below_rows = corner.y() + listing.height() - 6  # under the one row: the list's own ground
    edges = [corner.x(), corner.x() + listing.width() // 2, corner.x() + listing.width() - 1]
    assert [image.pixel(x, below_rows) for x in edges] == [surface] * 3  # no box, no border
