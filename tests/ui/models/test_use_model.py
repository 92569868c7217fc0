"""The model manager's Use button and double-click load a model where it is used."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.model_choices import Local
from app.core.model_tasks import ModelTask
from ui.models.listing import Origin
from ui.models.manager import ModelManager
from ui.shell.main_window import MainWindow


def _row_of(manager: ModelManager, folder: Path) -> int:
    rows = manager.installed_view.rows
    return next(i for i, row in enumerate(rows) if row.model.folder == folder.resolve())


def _current_panel(window: MainWindow) -> str:
    return list(window.panels)[window.stack.currentIndex()]


def test_use_loads_a_chat_model_in_the_chat(
    qtbot: QtBot, window: MainWindow, chat_model_dir: Path
) -> None:
    window.ctx.models.add_folder(chat_model_dir)
    window.show_panel("Voice")
    manager = window.open_models()
    manager.installed.selectRow(_row_of(manager, chat_model_dir))
    assert manager.use_button.isEnabled()
    with qtbot.waitSignal(window.chat_panel.modelLoaded, timeout=10_000):
        qtbot.mouseClick(manager.use_button, Qt.MouseButton.LeftButton)
    assert window.ctx.chat.loaded_model is not None
    assert window.ctx.chat.loaded_model.model_path == chat_model_dir.resolve()
    assert _current_panel(window) == "Chat"
    assert not manager.isVisible()  # it steps aside for the panel


def test_double_click_uses_a_text_to_speech_model_in_voice(
    qtbot: QtBot, window: MainWindow, tts_model_dir: Path
) -> None:
    window.ctx.models.add_folder(tts_model_dir, ModelTask.TTS)
    manager = window.open_models()
    row = _row_of(manager, tts_model_dir)
    index = manager.installed.model().index(row, 0)
    manager.installed.doubleClicked.emit(index)
    assert window.ctx.settings.model_choice(ModelTask.TTS).folder == tts_model_dir.resolve()
    assert _current_panel(window) == "Voice"


def test_use_chooses_an_image_model_for_create(
    qtbot: QtBot, window: MainWindow, diffusion_model_dir: Path
) -> None:
    window.ctx.models.add_folder(diffusion_model_dir, ModelTask.IMAGE_GENERATION)
    manager = window.open_models()
    manager.installed.selectRow(_row_of(manager, diffusion_model_dir))
    qtbot.mouseClick(manager.use_button, Qt.MouseButton.LeftButton)
    chosen = window.ctx.settings.model_choice(ModelTask.IMAGE_GENERATION).folder
    assert chosen == diffusion_model_dir.resolve()
    assert _current_panel(window) == "Create"
    panel = window.create_panel
    qtbot.waitUntil(lambda: panel.model_needed.text() == "", timeout=5000)
    assert diffusion_model_dir.name in panel.form.size_note.text()


def test_double_click_uses_an_embedder_in_knowledge(
    qtbot: QtBot, window: MainWindow, embedding_model_dir: Path
) -> None:
    # The GPU here is a fake.
    models = window.ctx.settings.models.with_placement(ModelTask.EMBEDDING, Local(device="CPU"))
    window.ctx.settings_store.update(models=models)
    window.ctx.models.add_folder(embedding_model_dir, ModelTask.EMBEDDING)
    manager = window.open_models()
    index = manager.installed.model().index(_row_of(manager, embedding_model_dir), 0)
    manager.installed.doubleClicked.emit(index)
    assert _current_panel(window) == "Knowledge"
    qtbot.waitUntil(
        lambda: (
            window.ctx.settings.model_choice(ModelTask.EMBEDDING).folder
            == embedding_model_dir.resolve()
        ),
        timeout=30_000,
    )
    row = window.knowledge_panel.model_row
    qtbot.waitUntil(row.change_button.isEnabled, timeout=10_000)  # the load ended


def test_the_bundled_embedder_is_listed_and_kept(window: MainWindow) -> None:
    manager = window.open_models()
    [bundled] = [r for r in manager.installed_view.rows if r.origin is Origin.BUNDLED]
    assert bundled.model.id == "all-MiniLM-L6-v2" and bundled.model.task is ModelTask.EMBEDDING
    index = manager.installed_view.rows.index(bundled)
    manager.installed.selectRow(index)
    source = manager.installed.item(index, 7).text()
    assert source == "bundled with OV Studio"
    assert manager.use_button.isEnabled()  # Use sets it up in Knowledge when it is not yet
    assert not manager.remove_button.isEnabled()
