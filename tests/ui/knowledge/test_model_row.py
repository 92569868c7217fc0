"""Changing the embedding model from the Knowledge panel (real service, real MiniLM)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pytestqt.qtbot import QtBot

from app.core.devices import DeviceInfo
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from tests.ui.fakes import CPU, fake_model_folder
from ui.knowledge.embedder_setup import STOPPED
from ui.shell.main_window import MainWindow


def test_a_chat_model_is_refused_next_to_the_button(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    row = window.knowledge_panel.model_row
    assert "all-MiniLM-L6-v2" in row.name.text() and row.bundled_button.isHidden()
    row.use(fake_model_folder(tmp_path))
    qtbot.waitUntil(lambda: "is a chat model, not an OpenVINO embedding" in row.error.text())
    assert (
        window.ctx.settings.model_choice(ModelTask.EMBEDDING).folder is None
    )  # the bundled model stays
    assert "all-MiniLM-L6-v2" in row.name.text() and row.change_button.isEnabled()


def test_another_embedding_model_is_loaded_and_saved(
    qtbot: QtBot,
    make_window: Callable[[list[DeviceInfo]], MainWindow],
    embedding_model_dir: Path,
    app_home: AppPaths,
) -> None:
    window = make_window([CPU])  # the real model loads: only the real device will do
    row = window.knowledge_panel.model_row
    with qtbot.waitSignal(row.modelChanged, timeout=30_000):
        row.use(embedding_model_dir)
    assert (
        window.ctx.settings.model_choice(ModelTask.EMBEDDING).folder
        == embedding_model_dir.resolve()
    )
    assert embedding_model_dir.name in row.name.text() and not row.bundled_button.isHidden()
    assert str(embedding_model_dir.resolve()) in app_home.settings_file.read_text()
    setup = window.knowledge_panel.setup
    row.use_bundled()  # not set up in this test home: it is set up first
    assert setup.running and not setup.cancel_button.isHidden()
    with qtbot.waitSignal(setup.finished, timeout=30_000) as ended:
        setup.cancel()  # stopped: the choice stays
    assert ended.args == [False] and setup.label.text() == STOPPED
    assert (
        window.ctx.settings.model_choice(ModelTask.EMBEDDING).folder
        == embedding_model_dir.resolve()
    )
    assert row.change_button.isEnabled() and embedding_model_dir.name in row.name.text()


def test_installed_embedding_models_are_offered(
    qtbot: QtBot,
    make_window: Callable[[list[DeviceInfo]], MainWindow],
    embedding_model_dir: Path,
) -> None:
    window = make_window([CPU])
    window.ctx.models.add_folder(embedding_model_dir)
    row = window.knowledge_panel.model_row
    row.fill_menu()
    texts = [a.text() for a in row.change_menu.actions() if not a.isSeparator()]
    assert texts == ["embedding  (int8)", "Other folder…"]
    with qtbot.waitSignal(row.modelChanged, timeout=30_000):
        row.change_menu.actions()[0].trigger()
    assert (
        window.ctx.settings.model_choice(ModelTask.EMBEDDING).folder
        == embedding_model_dir.resolve()
    )
