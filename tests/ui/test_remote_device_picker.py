"""The chat device picker offers the configured remote endpoints as “Remote: name”."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from app.core.model_choices import device_value_of, placement_of
from app.core.model_tasks import ModelTask
from app.core.remote_endpoints import RemoteEndpoint
from app.core.settings_store import SettingsStore
from tests.ui.fakes import CPU
from tests.ui.widgets.test_device_picker import entries
from ui.widgets.device_picker import DevicePicker

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
