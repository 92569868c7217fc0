"""The window loads a chat model with that model's stored performance settings."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from app.core.settings import ChatDefaults, PerformanceSettings, preset_key
from pipelines.engine_options import EngineOptions
from tests.ui.fakes import fake_model_folder
from tests.ui.helpers import load
from ui.shell.main_window import MainWindow


def _store_performance(window: MainWindow, model: Path, performance: PerformanceSettings) -> None:
    presets = dict(window.ctx.settings.chat_presets)
    presets[preset_key(model.resolve())] = ChatDefaults(performance=performance)
    window.ctx.settings_store.update(chat_presets=presets)


def test_a_model_loads_with_its_performance_settings(
    qtbot: QtBot, window: MainWindow, model_folder: Path, tmp_path: Path
) -> None:
    _store_performance(window, model_folder, PerformanceSettings(kv_cache_precision="u8"))
    load(qtbot, window, model_folder)
    loaded = window.ctx.chat.loaded_model
    assert loaded is not None and loaded.engine == EngineOptions(kv_cache_precision="u8")

    other = fake_model_folder(tmp_path / "b", "other-chat")
    load(qtbot, window, other)  # no preset of its own: the defaults
    loaded = window.ctx.chat.loaded_model
    assert loaded is not None and loaded.engine == EngineOptions()


def test_refused_settings_are_said_and_the_model_in_use_stays(
    qtbot: QtBot, window: MainWindow, model_folder: Path, tmp_path: Path
) -> None:
    load(qtbot, window, model_folder)
    before = window.ctx.chat.loaded_model
    other = fake_model_folder(tmp_path / "b", "other-chat")
    _store_performance(window, other, PerformanceSettings(cache_eviction=True))
    picker = window.chat_panel.model_picker
    window.chat_panel.load_model(other, "CPU")
    qtbot.waitUntil(lambda: picker.error.isVisible(), timeout=5000)
    assert "Cache eviction cannot be combined with prefix caching" in picker.error.text()
    assert window.ctx.chat.loaded_model is before
