"""The chat model picker lists installed chat models (and recent folders) to load in a click."""

from __future__ import annotations

import shutil
from pathlib import Path

from pytestqt.qtbot import QtBot

from app.core.model_tasks import ModelTask
from tests.ui.fakes import embedding_model_folder, fake_model_folder
from ui.chat.model_picker import NO_INSTALLED
from ui.shell.main_window import MainWindow


def _entries(window: MainWindow) -> list[str]:
    picker = window.chat_panel.model_picker
    picker.fill_installed_menu()
    return [a.text() for a in picker.installed_menu.actions() if not a.isSeparator()]


def test_nothing_installed_says_how(window: MainWindow) -> None:
    assert _entries(window) == [NO_INSTALLED]


def test_installed_chat_models_load_from_the_menu(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    chat = fake_model_folder(tmp_path / "a", "qwen-chat")
    gone = fake_model_folder(tmp_path / "b", "deleted-chat")
    embedder = embedding_model_folder(tmp_path / "c")
    (embedder / "openvino_tokenizer.xml").write_text("<net/>")
    window.ctx.models.add_folder(chat)
    window.ctx.models.add_folder(gone)
    window.ctx.models.add_folder(embedder, ModelTask.EMBEDDING)
    shutil.rmtree(gone)
    assert _entries(window) == ["qwen-chat  (unknown)"]  # usable chat models only
    picker = window.chat_panel.model_picker
    [action] = [a for a in picker.installed_menu.actions() if a.data()]
    with qtbot.waitSignal(window.chat_panel.modelLoaded, timeout=5000):
        action.trigger()
    assert window.ctx.chat.loaded_model is not None
    assert window.ctx.chat.loaded_model.model_path == chat.resolve()
    assert "Recent folders" not in _entries(window)  # it is installed, listed once
