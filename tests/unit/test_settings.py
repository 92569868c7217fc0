"""Settings: defaults, atomic round trip, repair of broken files, read-only folders."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from app.errors import StorageError
from app.settings import Settings, SettingsStore


def test_missing_file_gives_defaults_without_notice(tmp_path: Path) -> None:
    loaded = SettingsStore(tmp_path / "settings.json").load()
    assert loaded.notice == ""
    assert loaded.settings.chat.max_new_tokens == 512
    assert loaded.settings.device_for("chat") == "AUTO"


def test_the_face_detector_runs_on_cpu_unless_chosen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings()
    assert settings.face_detector_device == "CPU"
    assert settings.device_for("lipsync") == "AUTO"  # the lip-sync model's choice is separate
    assert "CPU" in (Settings.model_fields["face_detector_device"].description or "")
    monkeypatch.setenv("OV_STUDIO_FACE_DETECTOR_DEVICE", "GPU")
    assert Settings().face_detector_device == "GPU"
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"face_detector_device": ""}), encoding="utf-8")
    monkeypatch.delenv("OV_STUDIO_FACE_DETECTOR_DEVICE")
    loaded = SettingsStore(path).load()
    assert loaded.settings.face_detector_device == "CPU" and "face_detector_device" in loaded.notice


def test_round_trip_keeps_values(tmp_path: Path) -> None:
    store = SettingsStore(tmp_path / "settings.json")
    settings = Settings()
    settings.chat.temperature = 0.2
    settings.devices["chat"] = "CPU"
    settings.chat_model = tmp_path / "model"
    store.save(settings)
    loaded = store.load()
    assert loaded.notice == ""
    assert loaded.settings.chat.temperature == 0.2
    assert loaded.settings.device_for("chat") == "CPU"
    assert loaded.settings.chat_model == tmp_path / "model"
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]  # no temp files left


def test_unparseable_file_is_backed_up_and_reset(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("{not json", encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert "damaged" in loaded.notice
    assert loaded.settings == Settings()
    backups = list(tmp_path.glob("settings.json.broken-*"))
    assert len(backups) == 1
    assert backups[0].read_text(encoding="utf-8") == "{not json"


def test_only_invalid_keys_are_reset(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    data = {
        "chat": {"temperature": 9.5, "max_new_tokens": 77},
        "devices": {"chat": "CPU"},
        "overlay_visible": "not a bool",
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert "chat.temperature" in loaded.notice
    assert "overlay_visible" in loaded.notice
    assert loaded.settings.chat.temperature == 0.7  # reset to default
    assert loaded.settings.chat.max_new_tokens == 77  # kept
    assert loaded.settings.device_for("chat") == "CPU"  # kept
    # The repaired file is saved, so the notice is shown once.
    assert SettingsStore(path).load().notice == ""


def test_json_that_is_not_an_object_is_reset(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("[1, 2, 3]", encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.settings == Settings()
    assert loaded.notice


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file permissions")
def test_read_only_folder_raises_storage_error_and_keeps_file(tmp_path: Path) -> None:
    folder = tmp_path / "config"
    folder.mkdir()
    store = SettingsStore(folder / "settings.json")
    store.save(Settings())
    folder.chmod(0o500)
    try:
        with pytest.raises(StorageError, match="Could not save settings"):
            store.save(Settings(overlay_visible=True))
    finally:
        folder.chmod(0o700)
    assert store.load().settings.overlay_visible is False


def test_unwritable_target_raises_storage_error(tmp_path: Path) -> None:
    # Works as root too: a path under a regular file can never be created.
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(StorageError):
        SettingsStore(blocker / "settings.json").save(Settings())


def test_environment_overrides_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OV_STUDIO_OVERLAY_VISIBLE", "true")
    assert Settings().overlay_visible is True
