"""Device pickers list every device kind; what this machine lacks is shown but disabled; the chat
picker offers the configured remote endpoints as “Remote: name”."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QStandardItemModel
from pytestqt.qtbot import QtBot

from app.core.model_choices import Local, ModelChoices, device_value_of, placement_of
from app.core.model_tasks import ModelTask
from app.core.remote_endpoints import RemoteEndpoint
from app.core.settings import Settings
from app.core.settings_store import SettingsStore
from tests.ui.fakes import CPU, GPU0
from ui.widgets.device_picker import DEVICE_ROLE, DevicePicker


def entries(picker: DevicePicker) -> dict[str, tuple[str, bool, str]]:
    """device → (label, enabled, tooltip), as the drop-down shows them."""
    model = picker.model()
    assert isinstance(model, QStandardItemModel)
    result: dict[str, tuple[str, bool, str]] = {}
    for row in range(model.rowCount()):
        item = model.item(row)
        result[str(item.data(DEVICE_ROLE))] = (item.text(), item.isEnabled(), item.toolTip())
    return result


def test_cpu_only_machine_disables_gpu_and_npu(qtbot: QtBot) -> None:
    picker = DevicePicker([CPU], "chat")
    qtbot.addWidget(picker)
    shown = entries(picker)
    assert list(shown) == ["CPU", "GPU", "NPU", "AUTO"]
    assert shown["CPU"] == ("CPU — Test CPU", True, "")
    assert shown["GPU"] == ("GPU (not found)", False, "No GPU on this computer.")
    assert shown["NPU"][1] is False
    assert shown["AUTO"][:2] == ("AUTO (uses CPU)", True)
    assert picker.device() == "AUTO"


def test_present_gpu_is_enabled_and_choosable(qtbot: QtBot) -> None:
    picker = DevicePicker([CPU, GPU0], "chat")
    qtbot.addWidget(picker)
    shown = entries(picker)
    assert shown["GPU.0"] == ("GPU.0 — Test Arc dGPU", True, "")
    assert shown["AUTO"][0] == "AUTO (uses GPU.0)"
    assert not shown["NPU"][1]
    with qtbot.waitSignal(picker.deviceChanged) as changed:
        picker.setCurrentIndex(picker.findData("GPU.0", DEVICE_ROLE))
    assert changed.args == ["GPU.0"]


def test_saved_absent_device_falls_back_to_auto(qtbot: QtBot, tmp_path: Path) -> None:
    models = ModelChoices().with_placement(ModelTask.CHAT, Local(device="NPU"))
    store = SettingsStore(tmp_path / "settings.json", Settings(models=models))
    picker = DevicePicker([CPU], "chat", settings=store)
    qtbot.addWidget(picker)
    assert picker.device() == "AUTO"


def test_choice_is_written_to_the_settings(qtbot: QtBot, tmp_path: Path) -> None:
    store = SettingsStore(tmp_path / "settings.json")
    picker = DevicePicker([CPU, GPU0], "chat", settings=store)
    qtbot.addWidget(picker)
    picker.setCurrentIndex(picker.findData("CPU", DEVICE_ROLE))
    assert store.settings.model_choice(ModelTask.CHAT).device == "CPU"
    assert store.load().settings.model_choice(ModelTask.CHAT).device == "CPU"  # saved
    picker.choose("GPU.0")  # e.g. a programmatic choice persists the same way
    assert store.load().settings.model_choice(ModelTask.CHAT).device == "GPU.0"


def test_a_choice_that_cannot_be_saved_is_undone_and_said(qtbot: QtBot, tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the config folder should be", encoding="utf-8")
    store = SettingsStore(blocker / "settings.json")
    said: list[str] = []
    picker = DevicePicker([CPU, GPU0], "chat", settings=store, report=said.append)
    qtbot.addWidget(picker)
    picker.setCurrentIndex(picker.findData("CPU", DEVICE_ROLE))
    assert (
        picker.device() == "AUTO" and store.settings.model_choice(ModelTask.CHAT).device == "AUTO"
    )
    assert len(said) == 1 and said[0].startswith("Could not save settings")


OVMS = RemoteEndpoint(name="Team OVMS", base_url="http://ovms.lan:8000/v3", model="qwen3-8b")


BARE = RemoteEndpoint(name="bare", base_url="http://10.0.0.2:8000/v1")


def test_remote_endpoints_follow_the_local_devices(qtbot: QtBot) -> None:
    picker = DevicePicker([CPU], "chat", remotes=[OVMS, BARE])
    qtbot.addWidget(picker)
    shown = entries(picker)
    assert list(shown) == ["CPU", "GPU", "NPU", "AUTO", "REMOTE:Team OVMS", "REMOTE:bare"]
    assert shown["REMOTE:Team OVMS"] == (
        "Remote: Team OVMS",
        True,
        "Runs qwen3-8b on http://ovms.lan:8000/v3",
    )
    # Without a chosen model there is nothing to run there: listed, disabled, saying why.
    assert shown["REMOTE:bare"][:2] == ("Remote: bare", False)
    assert "Choose the model bare should run" in shown["REMOTE:bare"][2]


def test_a_saved_remote_choice_is_selected_and_persisted(qtbot: QtBot, tmp_path: Path) -> None:
    store, _ = SettingsStore.open(tmp_path / "settings.json")
    models = store.settings.models.with_placement(ModelTask.CHAT, placement_of("REMOTE:team ovms"))
    assert store.update(remote_endpoints=[OVMS], models=models)
    picker = DevicePicker([CPU], "chat", settings=store, remotes=store.settings.remote_endpoints)
    qtbot.addWidget(picker)
    assert picker.device() == "REMOTE:Team OVMS"  # the names compare case-blind
    picker.choose("CPU")
    assert device_value_of(store.settings.model_choice(ModelTask.CHAT)) == "CPU"
    with qtbot.waitSignal(picker.deviceChanged) as changed:
        picker.setCurrentIndex(picker.findText("Remote: Team OVMS"))
    assert changed.args == ["REMOTE:Team OVMS"]
    reopened, _ = SettingsStore.open(tmp_path / "settings.json")
    assert device_value_of(reopened.settings.model_choice(ModelTask.CHAT)) == "REMOTE:Team OVMS"
    assert reopened.settings.remote_endpoints == [OVMS]
    assert "api_key" not in (tmp_path / "settings.json").read_text(encoding="utf-8")
