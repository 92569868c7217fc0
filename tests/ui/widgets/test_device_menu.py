"""The *Device* submenu lists what the drop-down lists and saves a choice the same way: both
are views of one :class:`DeviceSetting`."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from app.core.model_tasks import ModelTask
from app.core.remote_endpoints import RemoteEndpoint
from app.core.settings_store import SettingsStore
from tests.ui.fakes import CPU, GPU0
from tests.ui.widgets.test_device_picker import entries
from ui.widgets.device_menu import DeviceMenu
from ui.widgets.device_picker import DevicePicker

OVMS = RemoteEndpoint(name="Team OVMS", base_url="http://ovms.lan:8000/v3", model="qwen3-8b")


def items(menu: DeviceMenu) -> dict[str, tuple[str, bool, str]]:
    """device → (label, enabled, tooltip), as the menu shows them."""
    result: dict[str, tuple[str, bool, str]] = {}
    for action in menu.actions():
        tip = action.toolTip() if action.toolTip() != action.text() else ""  # the default
        result[str(action.data())] = (action.text(), action.isEnabled(), tip)
    return result


def test_the_menu_lists_what_the_picker_lists(qtbot: QtBot) -> None:
    picker = DevicePicker([CPU], "chat", remotes=[OVMS])
    qtbot.addWidget(picker)
    menu = DeviceMenu("Device", picker.setting)
    assert items(menu) == entries(picker)  # absent GPU and NPU disabled, with the reason
    assert menu.devices() == ["CPU", "GPU", "NPU", "AUTO", "REMOTE:Team OVMS"]
    [checked] = [a for a in menu.actions() if a.isChecked()]
    assert checked.data() == "AUTO"


def test_a_choice_in_the_menu_is_saved_and_shown_by_the_picker(
    qtbot: QtBot, tmp_path: Path
) -> None:
    store = SettingsStore(tmp_path / "settings.json")
    picker = DevicePicker([CPU, GPU0], "chat", settings=store)
    qtbot.addWidget(picker)
    menu = DeviceMenu("Device", picker.setting)
    with qtbot.waitSignal(picker.setting.deviceChanged) as chosen:
        menu.device_action("CPU").trigger()
    assert chosen.args == ["CPU"]
    assert store.load().settings.model_choice(ModelTask.CHAT).device == "CPU"  # saved
    assert picker.currentText().startswith("CPU") and menu.device_action("CPU").isChecked()
    picker.setCurrentIndex(picker.findText(entries(picker)["GPU.0"][0]))  # and back
    assert menu.device_action("GPU.0").isChecked() and not menu.device_action("CPU").isChecked()


def test_a_choice_that_cannot_be_saved_is_unchecked_and_said(qtbot: QtBot, tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the config folder should be", encoding="utf-8")
    store = SettingsStore(blocker / "settings.json")
    said: list[str] = []
    picker = DevicePicker([CPU, GPU0], "chat", settings=store, report=said.append)
    qtbot.addWidget(picker)
    menu = DeviceMenu("Device", picker.setting)
    with qtbot.assertNotEmitted(picker.setting.deviceChanged):
        menu.device_action("CPU").trigger()
    assert menu.device_action("AUTO").isChecked() and not menu.device_action("CPU").isChecked()
    assert picker.device() == "AUTO"
    assert len(said) == 1 and said[0].startswith("Could not save settings")


def test_edited_endpoints_are_listed_again_keeping_the_choice(qtbot: QtBot) -> None:
    picker = DevicePicker([CPU], "chat")
    qtbot.addWidget(picker)
    menu = DeviceMenu("Device", picker.setting)
    menu.device_action("CPU").trigger()
    picker.set_remotes([OVMS])
    assert menu.devices()[-1] == "REMOTE:Team OVMS" and menu.device_action("CPU").isChecked()
