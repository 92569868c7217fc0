"""The conversations column: search, pin, rename limits, delete with Undo, one empty chat,
elided titles, export/import, and accessible names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from app.chat.storage import TRASH_FOLDER, ChatMessage, Conversation, ConversationStore
from app.context import AppContext
from tests.ui.helpers import shown
from ui.a11y import unlabelled_widgets
from ui.chat import chat_files
from ui.chat.conversations_pane import ConversationsPane
from ui.chat.panel import ChatPanel
from ui.shell.main_window import MainWindow


def seed(chat_panel: ChatPanel, *chats: tuple[str, str]) -> list[Conversation]:
    """Store conversations (title, one message each), oldest first, and show them."""
    made = []
    for number, (title, text) in enumerate(chats):
        conversation = Conversation(
            id=ConversationStore.new_id(), title=title, system_prompt="", updated=number + 1.0
        )
        conversation.messages = [ChatMessage("user", text), ChatMessage("assistant", "Sure.")]
        made.append(chat_panel.chat.add_imported(conversation))
        made[-1].updated = number + 1.0
    chat_panel.conversations.refresh()
    return made


def pane_of(chat_panel: ChatPanel) -> ConversationsPane:
    return chat_panel.conversations


def search_for(qtbot: QtBot, pane: ConversationsPane, text: str) -> None:
    with qtbot.waitSignal(pane.searchFinished, timeout=5000):
        pane.search.setFocus()
        pane.search.selectAll()
        qtbot.keyClicks(pane.search, text)


def test_search_filters_titles_and_text_with_a_snippet(qtbot: QtBot, chat_panel: ChatPanel) -> None:
    seed(chat_panel, ("Soup recipes", "A LEEK and potato soup"), ("Trip ideas", "Lisbon in May"))
    pane = pane_of(chat_panel)
    search_for(qtbot, pane, "leek")
    assert pane.list.titles() == ["Soup recipes"]
    assert "LEEK and potato" in pane.list.snippets()[0]
    search_for(qtbot, pane, "TRIP")
    assert pane.list.titles() == ["Trip ideas"]
    search_for(qtbot, pane, "nowhere at all")
    assert pane.list.titles() == []
    assert pane.no_match.isVisible()
    assert "nowhere at all" in pane.no_match.text()
    with qtbot.waitSignal(pane.searchFinished, timeout=5000):
        qtbot.keyClick(pane.search, Qt.Key.Key_Escape)  # Esc clears
    assert pane.search.text() == ""
    assert "Soup recipes" in pane.list.titles() and "Trip ideas" in pane.list.titles()
    assert not pane.no_match.isVisible()
    assert pane.list.snippets() == ["", "", ""]


def test_pinned_chats_come_first_and_stay_pinned(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext
) -> None:
    seed(chat_panel, ("Older", "a"), ("Newer", "b"))
    pane = pane_of(chat_panel)
    older = pane.list.titles().index("Older")
    menu = pane.list.menu_for(pane.list.item(older))
    [pin] = [a for a in menu.actions() if a.text() == "Pin to top"]
    pin.trigger()
    assert pane.list.titles()[0] == "Older"
    stored = [
        json.loads(p.read_text(encoding="utf-8"))
        for p in ctx.paths.conversations_dir.glob("*.json")
    ]
    assert {s["title"]: s["pinned"] for s in stored} == {"Older": True, "Newer": False}
    unpin = [a for a in pane.list.menu_for(pane.list.item(0)).actions() if a.text() == "Unpin"]
    assert unpin


def test_an_overlong_name_is_refused_with_one_sentence(qtbot: QtBot, chat_panel: ChatPanel) -> None:
    seed(chat_panel, ("Soup", "leek"))
    pane = pane_of(chat_panel)
    row = pane.list.titles().index("Soup")
    pane.list.setCurrentRow(row)
    pane.list.editItem(pane.list.item(row))
    qtbot.waitUntil(lambda: pane.list.findChild(QLineEdit) is not None, timeout=2000)
    editor = pane.list.findChild(QLineEdit)
    assert isinstance(editor, QLineEdit)
    editor.setText("x" * 81)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: pane.error.isVisible(), timeout=2000)
    assert pane.error.text() == "A conversation name can have at most 80 characters."
    assert pane.list.titles()[row] == "Soup"


def test_delete_is_immediate_with_undo(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext
) -> None:
    [soup, _] = seed(chat_panel, ("Soup", "leek"), ("Trip", "Lisbon"))
    pane = pane_of(chat_panel)
    folder = ctx.paths.conversations_dir
    pane.list.menu_for(pane.list.item(pane.list.titles().index("Soup"))).actions()[-1].trigger()
    assert "Soup" not in pane.list.titles()
    assert pane.undo.isVisible() and "Soup" in pane.undo.label.text()
    assert not (folder / f"{soup.id}.json").exists()
    assert (folder / TRASH_FOLDER / f"{soup.id}.json").exists()  # waiting, not gone
    qtbot.mouseClick(pane.undo.undo_button, Qt.MouseButton.LeftButton)
    assert "Soup" in pane.list.titles()
    assert pane.current_id == soup.id and "leek" in shown(chat_panel)
    assert (folder / f"{soup.id}.json").exists()
    assert not pane.undo.isVisible()


def test_the_file_goes_when_undo_expires(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    [soup] = seed(chat_panel, ("Soup", "leek"))
    pane = pane_of(chat_panel)
    pane.undo.timer.setInterval(50)
    pane.list.menu_for(pane.list.item(pane.list.titles().index("Soup"))).actions()[-1].trigger()
    qtbot.waitUntil(lambda: not pane.undo.isVisible(), timeout=5000)
    trashed = ctx.paths.conversations_dir / TRASH_FOLDER / f"{soup.id}.json"
    assert not trashed.exists()


def test_closing_the_window_makes_a_pending_delete_final(qtbot: QtBot, window: MainWindow) -> None:
    [soup] = seed(window.chat_panel, ("Soup", "leek"))
    pane = pane_of(window.chat_panel)
    pane.list.menu_for(pane.list.item(pane.list.titles().index("Soup"))).actions()[-1].trigger()
    window.close()
    folder = window.ctx.paths.conversations_dir
    assert not (folder / TRASH_FOLDER / f"{soup.id}.json").exists()
    assert not (folder / f"{soup.id}.json").exists()


def test_at_most_one_empty_new_chat(qtbot: QtBot, chat_panel: ChatPanel) -> None:
    seed(chat_panel, ("Soup", "leek"))
    pane = pane_of(chat_panel)
    empty_id = pane.current_id  # the window starts on an empty chat
    soup_row = pane.list.titles().index("Soup")
    pane.list.setCurrentRow(soup_row)
    assert pane.current_id != empty_id
    qtbot.mouseClick(pane.new_button, Qt.MouseButton.LeftButton)
    assert pane.current_id == empty_id  # selected, not a second one
    assert pane.list.titles().count("New chat") == 1


def test_long_titles_are_elided_without_a_horizontal_scroll_bar(
    qtbot: QtBot, window: MainWindow
) -> None:
    seed(window.chat_panel, ("A very long title " * 4, "text"))
    window.resize(1024, 700)
    pane = pane_of(window.chat_panel)
    qtbot.waitUntil(lambda: pane.list.viewport().width() > 0, timeout=2000)
    listing = pane.list
    assert not listing.horizontalScrollBar().isVisible()
    rect = listing.visualItemRect(listing.item(0))
    assert rect.width() <= listing.viewport().width()


def test_export_and_import_from_the_pane(
    qtbot: QtBot, chat_panel: ChatPanel, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    [soup] = seed(chat_panel, ("Soup", "<b>leek</b>"))
    pane = pane_of(chat_panel)
    target = tmp_path / "soup.html"
    monkeypatch.setattr(chat_files, "ask_export_path", lambda *_: target)
    menu = pane.list.menu_for(pane.list.item(pane.list.titles().index("Soup")))
    [export] = [a for a in menu.actions() if a.text() == "Export as"]
    export_menu = export.menu()
    assert [a.text() for a in export_menu.actions()] == [
        "Markdown…",
        "HTML page…",
        "JSON (can be imported)…",
    ]
    export_menu.actions()[1].trigger()
    assert "&lt;b&gt;leek&lt;/b&gt;" in target.read_text(encoding="utf-8")

    exported = tmp_path / "soup.json"
    monkeypatch.setattr(chat_files, "ask_export_path", lambda *_: exported)
    assert pane.export(soup.id, "json") == exported
    monkeypatch.setattr(chat_files, "ask_import_path", lambda *_: exported)
    pane.import_chat()
    assert pane.list.titles().count("Soup") == 2
    assert pane.current_id != soup.id and "leek" in shown(chat_panel)

    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2", encoding="utf-8")
    monkeypatch.setattr(chat_files, "ask_import_path", lambda *_: bad)
    pane.import_chat()
    assert pane.error.isVisible() and pane.error.text().startswith("bad.json is not a chat export")
    assert pane.list.titles().count("Soup") == 2


def test_every_control_has_a_name_and_description(qtbot: QtBot, chat_panel: ChatPanel) -> None:
    seed(chat_panel, ("Soup", "leek"))
    pane = pane_of(chat_panel)
    assert unlabelled_widgets(pane) == []
    pane.list.menu_for(pane.list.item(0)).actions()[-1].trigger()  # the Undo bar shows
    assert unlabelled_widgets(pane) == []
    search_for(qtbot, pane, "zzz")
    assert unlabelled_widgets(pane) == []
