"""Collections in chat: the popup lists every collection, picking one turns knowledge on, a
deleted collection leaves the list; the chat panel's input area is labelled for screen
readers."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.ui.chat.test_chat_presets import own_unlabelled
from tests.ui.chat.test_knowledge_picker import FakeKnowledge, guide, knowledge, kwindow
from tests.ui.helpers import load
from ui.shell.main_window import MainWindow

__all__ = ["guide", "knowledge", "kwindow"]  # the fixtures, shared with test_chat_knowledge

MANY = [f"Collection {i}" for i in range(12)]


@pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing")  # offscreen
def test_the_popup_shows_every_collection_without_scrolling(
    qtbot: QtBot, kwindow: MainWindow, knowledge: FakeKnowledge
) -> None:
    knowledge.names = list(MANY)
    knowledge.gate.clear()  # the list arrives after the popup opened on "Loading…"
    picker = kwindow.chat_panel.knowledge
    picker.choice.showPopup()
    view = picker.choice.view()
    qtbot.waitUntil(view.isVisible)
    knowledge.gate.set()
    qtbot.waitUntil(lambda: picker.choice.count() == len(MANY))
    qtbot.waitUntil(lambda: view.isVisible() and view.height() >= view.sizeHintForRow(0) * 12)
    assert view.verticalScrollBar().maximum() == 0  # every row shows: nothing to scroll
    picker.choice.hidePopup()


def test_choosing_a_collection_ticks_use_knowledge(
    qtbot: QtBot, kwindow: MainWindow, model_folder: Path
) -> None:
    panel = kwindow.chat_panel
    load(qtbot, kwindow, model_folder)
    picker = panel.knowledge
    picker.refresh()
    qtbot.waitUntil(lambda: picker.choice.count() == 2)
    assert not picker.toggle.isChecked()
    picker.choice.setCurrentIndex(1)
    picker.choice.activated.emit(1)  # as a pick in the popup
    assert picker.toggle.isChecked()
    conversation_id = panel.current_conversation_id()
    qtbot.waitUntil(lambda: kwindow.ctx.chat.get(conversation_id).knowledge == "Travel")


def test_a_deleted_collection_leaves_the_list_and_the_chat(
    qtbot: QtBot, kwindow: MainWindow, model_folder: Path, knowledge: FakeKnowledge
) -> None:
    panel = kwindow.chat_panel
    load(qtbot, kwindow, model_folder)
    qtbot.mouseClick(panel.knowledge.toggle, Qt.MouseButton.LeftButton)
    conversation_id = panel.current_conversation_id()
    qtbot.waitUntil(lambda: kwindow.ctx.chat.get(conversation_id).knowledge == "Kitchen")
    knowledge.names.remove("Kitchen")
    kwindow.panels["Knowledge"].collectionsChanged.emit()  # deleted in the Knowledge panel
    picker = panel.knowledge
    qtbot.waitUntil(lambda: kwindow.ctx.chat.get(conversation_id).knowledge == "")
    items = [picker.choice.itemText(i) for i in range(picker.choice.count())]
    assert items == ["Travel"]
    assert not picker.toggle.isChecked()
    assert "“Kitchen” was deleted" in picker.error.text()


def test_the_input_area_is_labelled(qtbot: QtBot, kwindow: MainWindow, model_folder: Path) -> None:
    panel = kwindow.chat_panel
    load(qtbot, kwindow, model_folder)
    panel.system_prompt.set_expanded(True)
    panel.settings_button.click()
    mine = [
        panel.input,
        panel.send_button,
        panel.attachments,
        panel.knowledge,
        panel.system_prompt,
        panel.system_prompt.body,
        panel.settings_button,
        panel.generation,
    ]
    for widget in mine:
        assert own_unlabelled(widget) == [], type(widget).__name__
