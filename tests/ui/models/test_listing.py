"""Models opened by folder are listed (from the settings) and removable without their folder
being touched; a folder that is gone is listed as missing."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from app.core.model_tasks import ModelTask
from tests.ui.fakes import fake_model_folder
from ui.models.listing import Origin
from ui.models.tables import INSTALLED_COLUMNS
from ui.shell.main_window import MainWindow

SOURCE = INSTALLED_COLUMNS.index("Source")


def test_a_folder_opened_in_the_chat_is_listed_and_forgotten_not_deleted(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = fake_model_folder(tmp_path, "my-chat")
    with qtbot.waitSignal(window.chat_panel.modelLoaded, timeout=5000):
        assert window.chat_panel.load_model(folder)
    manager = window.open_models()
    rows = manager.installed_view.rows
    [row] = [r for r in rows if r.origin is Origin.FOLDER]
    assert row.model.id == "my-chat" and set(row.fields) == {"models.chat", "recent_models"}
    index = rows.index(row)
    assert manager.installed.item(index, SOURCE).text() == "folder you opened"
    manager.installed.selectRow(index)
    assert manager.remove_button.isEnabled() and "stays on disk" in manager.remove_button.toolTip()
    asked: list[str] = []

    def question(_parent: object, _title: str, text: str) -> QMessageBox.StandardButton:
        asked.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", question)
    manager.remove_selected()
    assert "stays on disk" in asked[0]
    settings = window.ctx.settings
    assert (
        settings.model_choice(ModelTask.CHAT).folder is None
        and folder.resolve() not in settings.recent_models
    )
    assert all(r.origin is not Origin.FOLDER for r in manager.installed_view.rows)
    assert (folder / "openvino_model.xml").is_file()  # the user's folder is untouched


def test_a_gone_folder_is_listed_as_missing(window: MainWindow, tmp_path: Path) -> None:
    store = window.ctx.settings_store
    store.update(models=store.settings.models.with_folder(ModelTask.TTS, tmp_path / "gone-tts"))
    manager = window.open_models()
    [row] = [r for r in manager.installed_view.rows if r.origin is Origin.FOLDER]
    assert row.model.problems and "gone" in row.model.problems[0]
    manager.installed.selectRow(manager.installed_view.rows.index(row))
    assert not manager.use_button.isEnabled() and manager.remove_button.isEnabled()
