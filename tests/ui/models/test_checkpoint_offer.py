"""A Hugging Face checkpoint opened as a chat model offers to convert it; an ordinary wrong folder
still says why."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.ui.fakes import fake_model_folder
from ui.a11y import unlabelled_widgets
from ui.shell.main_window import MainWindow


def _checkpoint(root: Path) -> Path:
    folder = root / "TinyLlama-hf"
    folder.mkdir()
    config = {"architectures": ["LlamaForCausalLM"], "model_type": "llama"}
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    (folder / "model.safetensors").write_bytes(b"\0" * 16)
    return folder


def test_opening_a_checkpoint_offers_to_convert_it(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    folder = _checkpoint(tmp_path)
    picker = window.chat_panel.model_picker
    assert not window.chat_panel.load_model(folder)
    assert picker.error.isHidden()  # no error: an offer
    assert picker.offer.isVisible()
    assert picker.offer.note.text().startswith("TinyLlama-hf is a Hugging Face checkpoint")
    assert unlabelled_widgets(picker) == []
    qtbot.mouseClick(picker.offer.button, Qt.MouseButton.LeftButton)
    manager = window._models_window
    assert manager is not None and manager.isVisible()
    view = manager.convert_view
    assert manager.tabs.currentWidget() is view
    assert view.source.text() == str(folder.resolve())
    assert view.choice.task is not None and view.choice.task.value == "chat"
    picker.open_folder(fake_model_folder(tmp_path))  # another choice withdraws the offer
    assert picker.offer.isHidden()


def test_an_ordinary_wrong_folder_still_says_why(window: MainWindow, tmp_path: Path) -> None:
    picker = window.chat_panel.model_picker
    assert not window.chat_panel.load_model(tmp_path)
    assert picker.error.isVisible() and picker.offer.isHidden()
