"""Images in the Chat panel, on the real tiny LLaVA: attach, drop, paste, remove, thumbnails,
the text-only refusal (draft and attachments kept) and the limit per message."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QColor, QGuiApplication, QImage
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from app.context import AppContext
from tests.ui.helpers import click, drop, load, local, shown, type_and_send
from ui.chat.panel import ChatPanel
from ui.shell.main_window import MainWindow

WAIT = 10_000


def _pictures(folder: Path, count: int, size: tuple[int, int] = (160, 120)) -> list[Path]:
    paths = []
    for index in range(count):
        path = folder / f"photo{index}.png"
        Image.new("RGB", size, (40 * index % 255, 90, 200)).save(path)
        paths.append(path)
    return paths


def _attached(qtbot: QtBot, chat_panel: ChatPanel, count: int) -> None:
    strip = chat_panel.attachments
    qtbot.waitUntil(lambda: len(strip.tiles) == count and not strip.busy, timeout=WAIT)


@pytest.fixture
def vision_panel(qtbot: QtBot, chat_panel: ChatPanel, vision_model_dir: Path) -> ChatPanel:
    """The Chat panel with the tiny LLaVA loaded."""
    load(qtbot, chat_panel, vision_model_dir)
    loaded = chat_panel.chat.loaded_model
    assert loaded is not None and loaded.vision
    return chat_panel


def test_attach_button_adds_thumbnails_and_the_answer_keeps_them(
    qtbot: QtBot,
    vision_panel: ChatPanel,
    ctx: AppContext,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    panel = vision_panel
    paths = _pictures(tmp_path, 2)
    names = ([str(path) for path in paths], "")
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: names)
    click(qtbot, panel.attachments.attach_button)
    _attached(qtbot, panel, 2)
    tile = panel.attachments.tiles[0]
    assert tile.picture.pixmap().width() == 72  # a thumbnail, not the picture
    assert tile.picture.toolTip() == "photo0.png (160×120)"
    with qtbot.waitSignal(panel.answerFinished, timeout=WAIT) as finished:
        type_and_send(qtbot, panel, "What is in these?")
    assert finished.args == [True]
    assert panel.attachments.tiles == [] and panel.input.toPlainText() == ""
    conversation = ctx.chat.get(panel.current_conversation_id())
    assert len(conversation.messages[0].images) == 2
    assert _images_in_view(panel) == 2  # thumbnails in the sent message
    assert "What is in these?" in shown(panel)
    # A reloaded conversation (switch away and back) shows them again.
    panel.new_conversation()
    assert _images_in_view(panel) == 0
    listing = panel.conversations.list
    listing.setCurrentRow(listing.titles().index("What is in these?"))
    assert _images_in_view(panel) == 2


def _images_in_view(chat_panel: ChatPanel) -> int:
    return chat_panel.view.thumbnail_count()


def test_dropped_images_attach_and_a_dropped_model_still_loads(
    qtbot: QtBot, vision_panel: ChatPanel, tmp_path: Path
) -> None:
    panel = vision_panel
    assert drop(panel, local(*_pictures(tmp_path, 3)))
    _attached(qtbot, panel, 3)
    assert panel.model_picker.error.text() == ""  # not taken for a model


def test_pasting_an_image_attaches_it(qtbot: QtBot, vision_panel: ChatPanel) -> None:
    panel = vision_panel
    image = QImage(300, 200, QImage.Format.Format_RGB32)
    image.fill(QColor("orange"))
    mime = QMimeData()
    mime.setImageData(image)
    QGuiApplication.clipboard().setMimeData(mime)
    panel.input.setFocus()
    qtbot.keyClick(panel.input, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    _attached(qtbot, panel, 1)
    assert panel.attachments.images()[0].label == "Pasted image"
    assert panel.attachments.images()[0].width == 300
    assert panel.input.toPlainText() == ""  # nothing pasted as text


def test_pasting_text_still_pastes_text(qtbot: QtBot, vision_panel: ChatPanel) -> None:
    panel = vision_panel
    QGuiApplication.clipboard().setText("plain words")
    panel.input.setFocus()
    qtbot.keyClick(panel.input, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert panel.input.toPlainText() == "plain words"
    assert panel.attachments.tiles == []


def test_remove_takes_one_attachment_away(
    qtbot: QtBot, vision_panel: ChatPanel, tmp_path: Path
) -> None:
    panel = vision_panel
    panel.attachments.add_paths(_pictures(tmp_path, 2))
    _attached(qtbot, panel, 2)
    click(qtbot, panel.attachments.tiles[0].remove_button)
    _attached(qtbot, panel, 1)
    assert panel.attachments.images()[0].label == "photo1.png"


def test_a_big_image_shows_its_note(qtbot: QtBot, vision_panel: ChatPanel, tmp_path: Path) -> None:
    panel = vision_panel
    panel.attachments.add_paths(_pictures(tmp_path, 1, size=(4000, 1000)))
    _attached(qtbot, panel, 1)
    note = panel.attachments.tiles[0].note
    assert note.isVisibleTo(panel) and note.text() == "Scaled down from 4000×1000."


def test_a_broken_file_is_one_sentence_next_to_the_attachments(
    qtbot: QtBot, vision_panel: ChatPanel, tmp_path: Path
) -> None:
    panel = vision_panel
    fake = tmp_path / "notes.png"
    fake.write_text("not a picture")
    panel.attachments.add_paths([fake])
    qtbot.waitUntil(lambda: panel.attachments.error.text() != "", timeout=WAIT)
    assert panel.attachments.error.text() == "notes.png is not an image this app can read."
    assert panel.attachments.tiles == []


def test_twenty_images_give_the_limit_sentence(
    qtbot: QtBot, vision_panel: ChatPanel, tmp_path: Path
) -> None:
    panel = vision_panel
    assert drop(panel, local(*_pictures(tmp_path, 20)))
    assert panel.attachments.error.text() == "At most 10 images per message."
    assert panel.attachments.tiles == [] and not panel.attachments.busy


def test_a_text_only_model_refuses_and_keeps_draft_and_attachments(
    qtbot: QtBot, window: MainWindow, model_folder: Path, tmp_path: Path
) -> None:
    panel = window.chat_panel
    load(qtbot, panel, model_folder)  # a text-only model (the fake pipeline)
    panel.attachments.add_paths(_pictures(tmp_path, 1))
    _attached(qtbot, panel, 1)
    type_and_send(qtbot, panel, "What is this?")
    message = panel.attachments.error.text()
    assert "reads text only" in message and "InternVL2 1B (int4)" in message
    assert panel.attachments.models_button.isVisibleTo(panel)
    assert panel.attachments.models_button.text() == "Vision models…"
    assert not panel.generating
    assert panel.input.toPlainText() == "What is this?" and len(panel.attachments.tiles) == 1
    assert window.ctx.chat.get(panel.current_conversation_id()).messages == []
    with qtbot.waitSignal(panel.modelsAtRequested) as opened:
        click(qtbot, panel.attachments.models_button)
    assert opened.args == ["vision-chat"]
    manager = window._models_window
    assert manager is not None and manager.task_filter.currentData() == "vision-chat"
    manager.close()
