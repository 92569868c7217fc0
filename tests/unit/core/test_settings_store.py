"""Settings changes through the store: validated, saved whole or not at all, announced."""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from app.core import settings_store
from app.core.errors import StorageError, UserError
from app.core.model_choices import Local
from app.core.model_tasks import ModelTask
from app.core.settings import ChatDefaults, Settings
from app.core.settings_migration import DEFAULTS_VERSION
from app.core.settings_store import SettingsStore


@pytest.fixture
def store(tmp_path: Path) -> SettingsStore:
    opened, notice = SettingsStore.open(tmp_path / "config" / "settings.json")
    assert notice == ""
    return opened


def _saved(store: SettingsStore) -> dict[str, Any]:
    data = json.loads(store.path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_update_saves_applies_and_returns_what_changed(store: SettingsStore) -> None:
    live = store.settings
    changed = store.update(overlay_visible=True, voice="Alice", chunk_tokens=128)
    assert changed == {"overlay_visible": True, "voice": "Alice"}  # 128 is the default already
    assert store.settings is live and live.overlay_visible and live.voice == "Alice"
    assert _saved(store)["overlay_visible"] is True and _saved(store)["voice"] == "Alice"
    assert SettingsStore.open(store.path)[0].settings.voice == "Alice"


def test_values_are_checked_as_the_file_is(store: SettingsStore, tmp_path: Path) -> None:
    models = store.settings.models.model_dump()
    models["chat"]["placement"]["device"] = "CPU"  # plain values, as from the file
    store.update(face_image=str(tmp_path / "face.png"), models=models)
    assert store.settings.face_image == tmp_path / "face.png"  # a str becomes a Path
    chat = store.settings.chat.model_copy(update={"temperature": 0.2})
    store.update(chat=chat)
    assert isinstance(store.settings.chat, ChatDefaults) and store.settings.chat.temperature == 0.2


@pytest.mark.parametrize(
    ("changes", "field", "sentence"),
    [
        ({"no_such_thing": 1}, "no_such_thing", "There is no setting named “no_such_thing”."),
        ({"overlay_visible": "maybe"}, "overlay_visible", "The setting overlay_visible cannot"),
        ({"chunk_tokens": 5}, "chunk_tokens", "The setting chunk_tokens cannot take that value"),
        ({"voice": "x" * 61}, "voice", "The setting voice cannot take that value"),
    ],
)
def test_an_invalid_change_is_one_sentence_and_nothing_is_saved(
    store: SettingsStore, changes: dict[str, Any], field: str, sentence: str
) -> None:
    store.update(voice="Alice")
    before = store.path.read_bytes()
    heard: list[Mapping[str, Any]] = []
    store.subscribe(heard.append)
    with pytest.raises(UserError) as caught:
        store.update(**{"overlay_visible": True, **changes})
    message = str(caught.value)
    assert message.startswith(sentence) and message.endswith(".") and "\n" not in message
    assert caught.value.field == field
    assert store.path.read_bytes() == before
    assert not store.settings.overlay_visible and store.settings.voice == "Alice"
    assert heard == []


def test_a_nested_copy_with_a_bad_value_is_refused(store: SettingsStore) -> None:
    bad = store.settings.chat.model_copy(update={"temperature": 9.0})  # not validated by pydantic
    with pytest.raises(UserError, match=r"chat\.temperature"):
        store.update(chat=bad)
    assert store.settings.chat.temperature == 0.7


def test_a_failing_disk_leaves_the_old_file_and_the_live_settings(
    store: SettingsStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.update(voice="Alice")
    before = store.path.read_bytes()
    heard: list[Mapping[str, Any]] = []
    store.subscribe(heard.append)

    def full_disk(path: Path, text: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    # Root ignores permissions, so the disk is made to fail where the store writes.
    monkeypatch.setattr(settings_store, "write_text_atomic", full_disk)
    with pytest.raises(StorageError, match="No space left on device"):
        store.update(voice="Bob", overlay_visible=True)
    assert store.path.read_bytes() == before
    assert store.settings.voice == "Alice" and not store.settings.overlay_visible
    assert heard == []


def test_a_blocked_folder_is_refused_without_changing_anything(tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the config folder should be", encoding="utf-8")
    store = SettingsStore(blocker / "settings.json")
    with pytest.raises(StorageError, match="Could not save settings"):
        store.update(voice="Bob")
    assert store.settings.voice == ""


def test_subscribers_hear_each_saved_change_once(store: SettingsStore) -> None:
    heard: list[Mapping[str, Any]] = []
    unsubscribe = store.subscribe(heard.append)
    models = store.settings.models.with_placement(ModelTask.TTS, Local(device="CPU"))
    store.update(voice="Alice", models=models)
    store.update(voice="Alice")  # nothing differs: nothing saved, nobody told
    assert heard == [{"voice": "Alice", "models": models}]
    unsubscribe()
    store.update(voice="Bob")
    assert len(heard) == 1


def test_a_path_whose_name_is_not_utf8_is_refused_in_words(
    store: SettingsStore, tmp_path: Path
) -> None:
    store.update(voice="Alice")
    before = store.path.read_bytes()
    odd = tmp_path / os.fsdecode(b"model-\xff.gguf")
    odd.write_bytes(b"GGUF")
    with pytest.raises(StorageError, match="is not valid UTF-8"):
        store.update(
            models=store.settings.models.with_folder(ModelTask.CHAT, odd), recent_models=[odd]
        )
    assert store.path.read_bytes() == before  # nothing half-written
    assert store.settings.model_choice(ModelTask.CHAT).folder is None
    assert store.settings.voice == "Alice"


def _written_by_version_1(path: Path, penalties: Mapping[str, float]) -> None:
    """A settings file as version 1 saved it: whole, without ``defaults_version``, with the
    chat defaults' penalty ``penalties["chat"]`` and a preset per other key."""
    presets = {name: {"repetition_penalty": value} for name, value in penalties.items()}
    chat = presets.pop("chat")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"chat": chat, "chat_presets": presets}), encoding="utf-8")


def test_the_old_default_repetition_penalty_becomes_the_new_one_once(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    _written_by_version_1(path, {"chat": 1.1, "/m/smol.gguf": 1.1, "/m/qwen": 1.15})
    settings = SettingsStore.open(path)[0].settings
    # 1.1 was saved whether or not it was chosen (the file is saved whole): taken as the old
    # default, it becomes 1.0; 1.15 was chosen, and stays.
    assert settings.chat.repetition_penalty == 1.0
    assert settings.chat_presets["/m/smol.gguf"].repetition_penalty == 1.0
    assert settings.chat_presets["/m/qwen"].repetition_penalty == 1.15
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["defaults_version"] == DEFAULTS_VERSION
    assert saved["chat"]["repetition_penalty"] == 1.0


def test_a_penalty_of_1_1_chosen_under_the_new_defaults_is_kept(store: SettingsStore) -> None:
    store.update(chat=store.settings.chat.model_copy(update={"repetition_penalty": 1.1}))
    assert SettingsStore.open(store.path)[0].settings.chat.repetition_penalty == 1.1


def test_fresh_settings_use_penalty_1_and_the_current_defaults_version() -> None:
    fresh = ChatDefaults()
    assert (fresh.repetition_penalty, fresh.generation().repetition_penalty) == (1.0, 1.0)
    assert Settings().defaults_version == DEFAULTS_VERSION
