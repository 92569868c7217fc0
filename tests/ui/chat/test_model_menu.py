"""The model button's menu (fake pipeline): everything the old model toolbar did — open a file
or a folder, the device, the remote endpoints, the model manager — and cancelling a load."""

from __future__ import annotations

import threading
from pathlib import Path

from pytestqt.qtbot import QtBot

from app.core.model_tasks import ModelTask
from tests.ui.fakes import Script
from tests.ui.helpers import load, trigger
from ui.chat.panel import ChatPanel
from ui.engines.remote_dialog import RemoteEndpointsDialog
from ui.shell.main_window import MainWindow


def texts(panel: ChatPanel) -> list[str]:
    """The menu's items as it opens (separators left out)."""
    menu = panel.model_picker.menu
    menu.fill()
    return [action.text() for action in menu.actions() if not action.isSeparator()]


def test_the_menu_holds_what_the_model_toolbar_did(chat_panel: ChatPanel) -> None:
    shown = texts(chat_panel)
    assert shown[-5:] == [
        "Open model file…",
        "Open model folder…",
        "Device",
        "Remote endpoints…",
        "Models…",
    ]
    menu = chat_panel.model_picker.menu
    assert menu.device_menu.menuAction() in menu.actions()
    assert menu.device_menu.devices() == ["CPU", "GPU", "NPU", "AUTO"]  # the machine's + AUTO
    assert not menu.device_menu.device_action("NPU").isEnabled()  # absent: listed, disabled


def test_the_device_submenu_saves_the_device_and_loads_the_model_there(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, script: Script
) -> None:
    load(qtbot, chat_panel, model_folder, "CPU")
    devices = chat_panel.model_picker.menu.device_menu
    assert devices.device_action("CPU").isChecked()
    with qtbot.waitSignal(chat_panel.modelLoaded, timeout=5000):
        trigger(devices.device_action("GPU"))
    assert script.loads == ["CPU", "GPU"]
    saved = chat_panel.signals.store.load().settings.model_choice(ModelTask.CHAT)
    assert saved.device == "GPU"  # as the drop-down saved it
    assert devices.device_action("GPU").isChecked() and not devices.device_action("CPU").isChecked()
    assert chat_panel.model_picker.button.place.text() == "GPU"


def test_models_and_remote_endpoints_open_their_windows(window: MainWindow) -> None:
    menu = window.chat_panel.model_picker.menu
    trigger(menu.models_action)
    manager = window._models_window
    assert manager is not None and manager.isVisible()
    manager.hide()
    trigger(menu.remote_action)
    dialog = window.chat_panel.model_picker.remote_dialog
    assert isinstance(dialog, RemoteEndpointsDialog) and dialog.isVisible()
    dialog.reject()


def test_a_model_loading_can_be_cancelled_from_the_menu(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script, tmp_path: Path
) -> None:
    panel = window.chat_panel
    assert "Cancel loading" not in texts(panel)
    script.load_gate = threading.Event()
    assert panel.load_model(model_folder, "CPU")
    assert texts(panel)[0] == "Cancel loading"
    assert panel.model_picker.button.name.text() == "Loading tiny-chat…"
    assert window.model_status.cancel_button.isVisible()  # and the status bar's, with the time
    trigger(panel.model_picker.menu.cancel_action)
    assert window.statusBar().currentMessage() == "Model load cancelled."
    assert panel.model_picker.button.name.text() == "Choose a model"
    script.load_gate.set()
    qtbot.waitUntil(lambda: not panel.loader.busy, timeout=5000)
    assert window.ctx.chat.loaded_model is None  # the cancelled load is dropped
