"""Opening a model folder: validation next to the control, progress, cancel, devices, CPU offer;
the model loaded with its stored performance settings."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.model_tasks import ModelTask
from app.core.settings import ChatDefaults, PerformanceSettings, preset_key
from pipelines.core import DeviceError
from pipelines.engine_options import EngineOptions
from tests.ui.fakes import CPU, Script, embedding_model_folder, fake_gguf_file, fake_model_folder
from tests.ui.helpers import ask, load, shown
from tests.ui.panels import host_of
from ui.chat.panel import ChatPanel
from ui.shell.main_window import MainWindow


def no_tokenizer(root: Path) -> Path:
    folder = fake_model_folder(root, "half-export")
    (folder / "openvino_detokenizer.xml").unlink()
    return folder


def empty(root: Path) -> Path:
    folder = root / "photos"
    folder.mkdir()
    return folder


@pytest.mark.parametrize(
    ("make_folder", "message"),
    [
        (lambda root: root / "missing", "Model folder not found:"),
        (empty, "photos is not an OpenVINO model folder (no openvino_model.xml)."),
        (embedding_model_folder, "bge-small holds an embedding model, not a chat model."),
        (no_tokenizer, "half-export lacks its converted tokenizer (openvino_detokenizer.xml)."),
    ],
    ids=["missing", "no-model", "embedding", "no-tokenizer"],
)
def test_bad_model_folder_gets_an_inline_error(
    window: MainWindow,
    tmp_path: Path,
    script: Script,
    make_folder: Callable[[Path], Path],
    message: str,
) -> None:
    picker = window.chat_panel.model_picker
    assert not window.chat_panel.load_model(make_folder(tmp_path))
    assert picker.error.isVisible()
    assert message in picker.error.text()
    assert script.loads == []  # refused before any loading started
    assert window.model_status.label.text() == "No model loaded"
    assert not window.notifications.isVisible()  # inline, not a box or a banner


def test_the_folder_dialog_validates_too_and_a_good_folder_clears_the_error(
    qtbot: QtBot,
    window: MainWindow,
    tmp_path: Path,
    model_folder: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    picker = window.chat_panel.model_picker
    chosen = [str(embedding_model_folder(tmp_path)), str(model_folder)]
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *_: chosen.pop(0))
    picker.menu.open_folder_action.trigger()  # the model menu's Open model folder…
    assert "holds an embedding model" in picker.error.text()
    with qtbot.waitSignal(window.chat_panel.modelLoaded, timeout=5000):
        window.menus.open_folder_action.trigger()  # Ctrl+Shift+O
    assert not picker.error.isVisible()


def test_the_file_dialog_opens_a_gguf_file_or_the_folder_of_an_openvino_model_file(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    picker = window.chat_panel.model_picker
    gguf, model_folder = fake_gguf_file(tmp_path), fake_model_folder(tmp_path)
    chosen = [str(tmp_path / "notes.txt"), str(gguf), str(model_folder / "openvino_model.xml")]
    (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
    filters: list[str] = []

    def answer(_parent: object, _title: str, _dir: str, wanted: str) -> tuple[str, str]:
        filters.append(wanted)
        return chosen.pop(0), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", answer)
    picker.menu.open_file_action.trigger()  # the model menu's Open model file…
    assert picker.error.text() == (
        "notes.txt is not a chat model: choose an OpenVINO model folder or a .gguf file."
    )
    with qtbot.waitSignal(window.chat_panel.modelLoaded, timeout=5000) as loaded:
        window.menus.open_action.trigger()  # Ctrl+O
    assert loaded.args[0].model_path == gguf.resolve()
    assert not picker.error.isVisible()
    with qtbot.waitSignal(window.chat_panel.modelLoaded, timeout=5000) as loaded:
        window.menus.open_action.trigger()
    assert loaded.args[0].model_path == model_folder.resolve()  # the file stood for its folder
    assert filters[0].startswith("Chat models (*.gguf openvino_model.xml)")


def test_a_loaded_model_shows_in_the_status_bar_and_settings(
    qtbot: QtBot, window: MainWindow, model_folder: Path
) -> None:
    load(qtbot, window.chat_panel, model_folder, "AUTO")
    assert window.model_status.label.text() == "tiny-chat · AUTO → GPU"
    button = window.chat_panel.model_picker.button
    assert (button.name.text(), button.place.text()) == ("tiny-chat", "AUTO → GPU")
    saved = window.ctx.settings_store.load().settings
    assert saved.model_choice(ModelTask.CHAT).folder == model_folder.resolve()
    assert saved.recent_models == [model_folder.resolve()]


def test_loading_shows_progress_and_cancel_keeps_the_previous_model(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script, tmp_path: Path
) -> None:
    load(qtbot, window.chat_panel, model_folder)
    status = window.model_status
    assert not status.progress.isVisible()
    script.load_gate = threading.Event()
    other = fake_model_folder(tmp_path, "bigger-chat")
    assert window.chat_panel.load_model(other, "CPU")
    assert status.progress.isVisible() and status.cancel_button.isVisible()
    assert status.label.text() == "Loading bigger-chat…"
    assert not window.chat_panel.send_button.isEnabled()
    qtbot.mouseClick(status.cancel_button, Qt.MouseButton.LeftButton)
    assert not status.progress.isVisible()
    assert status.label.text() == "tiny-chat · CPU"
    script.load_gate.set()  # the compile finishes after the cancel: its result is dropped
    qtbot.waitUntil(lambda: not window.chat_panel.loader.busy, timeout=5000)
    assert window.ctx.chat.loaded_model is not None
    assert window.ctx.chat.loaded_model.model_path.name == "tiny-chat"
    assert status.label.text() == "tiny-chat · CPU"


def test_the_newest_load_request_wins(
    qtbot: QtBot, window: MainWindow, script: Script, tmp_path: Path
) -> None:
    script.load_gate = threading.Event()
    first = fake_model_folder(tmp_path, "first")
    second = fake_model_folder(tmp_path, "second")
    assert window.chat_panel.load_model(first, "CPU")
    assert window.chat_panel.load_model(second, "CPU")
    assert window.model_status.label.text() == "Loading second…"
    with qtbot.waitSignal(window.chat_panel.modelLoaded, timeout=5000) as loaded:
        script.load_gate.set()
    assert loaded.args[0].model_path.name == "second"
    assert window.model_status.label.text() == "second · CPU"


def test_sending_while_a_model_loads_says_so(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, script: Script
) -> None:
    panel = chat_panel
    script.load_gate = threading.Event()
    assert panel.load_model(model_folder, "CPU")
    qtbot.keyClicks(panel.input, "Too early")
    assert not panel.send_button.isEnabled()
    qtbot.keyClick(panel.input, Qt.Key.Key_Return)
    assert panel.input_error.text() == "The model is still loading; send again when it is ready."
    assert panel.input.toPlainText() == "Too early"
    with qtbot.waitSignal(panel.modelLoaded, timeout=5000):
        script.load_gate.set()
    assert panel.send_button.isEnabled()
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
    assert not panel.input_error.isVisible()


def test_device_failure_offers_cpu(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script
) -> None:
    script.failing_devices = ("GPU",)
    panel = window.chat_panel
    assert panel.load_model(model_folder, "GPU")
    bar = window.notifications
    qtbot.waitUntil(bar.isVisible, timeout=5000)
    assert "Could not compile the model on GPU: out of memory" in bar.message.text()
    assert bar.action_button.text() == "Use CPU instead"
    assert bar.action_button.isVisible()
    with qtbot.waitSignal(panel.modelLoaded, timeout=5000):
        qtbot.mouseClick(bar.action_button, Qt.MouseButton.LeftButton)
    assert script.loads == ["GPU", "CPU"]
    assert window.model_status.label.text() == "tiny-chat · CPU"
    assert panel.model_picker.devices.device() == "CPU"
    assert panel.model_picker.menu.device_menu.device_action("CPU").isChecked()
    assert window.ctx.settings_store.load().settings.model_choice(ModelTask.CHAT).device == "CPU"
    assert not bar.isVisible()


def test_changing_the_device_reloads_the_model_there(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script
) -> None:
    load(qtbot, window.chat_panel, model_folder, "CPU")
    devices = window.chat_panel.model_picker.menu.device_menu
    with qtbot.waitSignal(window.chat_panel.modelLoaded, timeout=5000):
        devices.device_action("GPU").trigger()
    assert script.loads == ["CPU", "GPU"]
    assert window.model_status.label.text() == "tiny-chat · GPU"


def test_an_absent_device_from_the_command_line_is_reported_inline(
    qtbot: QtBot, make_window: Callable[[list[DeviceInfo]], MainWindow], model_folder: Path
) -> None:
    window = make_window([CPU])
    picker = window.chat_panel.model_picker
    assert window.chat_panel.load_model(model_folder, "NPU")
    qtbot.waitUntil(picker.error.isVisible, timeout=5000)
    assert "Device 'NPU' is not available on this computer" in picker.error.text()
    assert window.model_status.label.text() == "No model loaded"


def test_answer_error_on_a_gpu_offers_cpu(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, script: Script
) -> None:
    panel = chat_panel
    load(qtbot, panel, model_folder, "GPU")
    script.fail_with = DeviceError("Generation failed on GPU: device lost", device="GPU")
    ask(qtbot, panel, "Hello?")
    bar = host_of(panel).notifications
    assert bar.isVisible() and bar.action_button.text() == "Use CPU instead"
    assert panel.input.toPlainText() == "Hello?"
    script.fail_with = None
    with qtbot.waitSignal(panel.modelLoaded, timeout=5000):
        qtbot.mouseClick(bar.action_button, Qt.MouseButton.LeftButton)
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
    assert "3 tokens · 42.0 tok/s · TTFT 7 ms · CPU" in shown(panel)


def _store_performance(
    chat_panel: ChatPanel, model: Path, performance: PerformanceSettings
) -> None:
    presets = dict(chat_panel.signals.settings.chat_presets)
    presets[preset_key(model.resolve())] = ChatDefaults(performance=performance)
    chat_panel.signals.store.update(chat_presets=presets)


def test_a_model_loads_with_its_performance_settings(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext, model_folder: Path, tmp_path: Path
) -> None:
    _store_performance(chat_panel, model_folder, PerformanceSettings(kv_cache_precision="u8"))
    load(qtbot, chat_panel, model_folder)
    loaded = ctx.chat.loaded_model
    assert loaded is not None and loaded.engine == EngineOptions(kv_cache_precision="u8")

    other = fake_model_folder(tmp_path / "b", "other-chat")
    load(qtbot, chat_panel, other)  # no preset of its own: the defaults
    loaded = ctx.chat.loaded_model
    assert loaded is not None and loaded.engine == EngineOptions()


def test_refused_settings_are_said_and_the_model_in_use_stays(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext, model_folder: Path, tmp_path: Path
) -> None:
    load(qtbot, chat_panel, model_folder)
    before = ctx.chat.loaded_model
    other = fake_model_folder(tmp_path / "b", "other-chat")
    _store_performance(chat_panel, other, PerformanceSettings(cache_eviction=True))
    picker = chat_panel.model_picker
    chat_panel.load_model(other, "CPU")
    qtbot.waitUntil(lambda: picker.error.isVisible(), timeout=5000)
    assert "Cache eviction cannot be combined with prefix caching" in picker.error.text()
    assert ctx.chat.loaded_model is before
