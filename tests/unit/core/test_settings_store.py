"""Settings through the store: loaded (defaults, repair of broken files), changed (validated, saved
whole or not at all, announced), read-only folders."""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

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


@pytest.mark.parametrize("value", ["everything", "SOCKETS", 2, None, ""])
def test_a_hostile_split_of_the_model_is_one_sentence_and_nothing_is_saved(
    store: SettingsStore, value: object
) -> None:
    before = store.path.read_bytes() if store.path.exists() else b""
    chat = store.settings.chat.model_dump()
    chat["performance"]["parallelism"] = value
    with pytest.raises(UserError) as caught:
        store.update(chat=chat)
    message = str(caught.value)
    assert message.startswith("The setting chat.performance.parallelism cannot take that value")
    assert message.endswith(".") and "\n" not in message and caught.value.field == "chat"
    assert store.settings.chat.performance.parallelism == "off"
    assert (store.path.read_bytes() if store.path.exists() else b"") == before


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


def test_missing_file_gives_defaults_without_notice(tmp_path: Path) -> None:
    loaded = SettingsStore(tmp_path / "settings.json").load()
    assert loaded.notice == ""
    assert loaded.settings.chat.max_new_tokens == 512
    assert loaded.settings.model_choice(ModelTask.CHAT).device == "AUTO"


def test_the_face_detector_runs_on_cpu_unless_chosen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings()
    assert settings.model_choice(ModelTask.FACE_DETECTOR).device == "CPU"
    # The lip-sync model's choice is separate.
    assert settings.model_choice(ModelTask.LIPSYNC).device == "AUTO"
    assert "CPU" in (Settings.model_fields["models"].description or "")
    monkeypatch.setenv(
        "OV_STUDIO_MODELS__FACE_DETECTOR__PLACEMENT", '{"kind": "local", "device": "GPU"}'
    )
    assert Settings().model_choice(ModelTask.FACE_DETECTOR).device == "GPU"
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"face_detector_device": ""}), encoding="utf-8")
    monkeypatch.delenv("OV_STUDIO_MODELS__FACE_DETECTOR__PLACEMENT")
    loaded = SettingsStore(path).load()
    assert loaded.settings.model_choice(ModelTask.FACE_DETECTOR).device == "CPU"
    assert "models.face_detector" in loaded.notice


def test_round_trip_keeps_values(tmp_path: Path) -> None:
    store = SettingsStore(tmp_path / "settings.json")
    settings = Settings()
    settings.chat.temperature = 0.2
    settings.models = settings.models.with_folder(ModelTask.CHAT, tmp_path / "model")
    settings.models = settings.models.with_placement(ModelTask.CHAT, Local(device="CPU"))
    store.save(settings)
    loaded = store.load()
    assert loaded.notice == ""
    assert loaded.settings.chat.temperature == 0.2
    assert loaded.settings.model_choice(ModelTask.CHAT).device == "CPU"
    assert loaded.settings.model_choice(ModelTask.CHAT).folder == tmp_path / "model"
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
    assert loaded.settings.model_choice(ModelTask.CHAT).device == "CPU"  # kept
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


SECRET_URL = "postgresql://ana:SECRET-pw@db.example:5432/knowledge"


DAMAGED = {
    "invalid UTF-8": b'{"chat": {"temperature": 0.5}, "voice": "\xff\xfe\xfa"}',
    "UTF-16 with BOM": json.dumps({"overlay_visible": True}).encode("utf-16"),
    "nested beyond the recursion limit": b'{"chat": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "nested 70 deep": b'{"devices": ' + b'{"a": ' * 70 + b"1" + b"}" * 70 + b"}",
    "a number too large for a float": b'{"chat": {"temperature": 1e999}}',
    "a 30-digit number": b'{"chunk_tokens": 123456789012345678901234567890}',
    "NaN": b'{"chat": {"temperature": NaN}}',
    "not an object": b'"settings"',
    "empty": b"",
}


@pytest.mark.parametrize("content", DAMAGED.values(), ids=DAMAGED.keys())
def test_any_damage_starts_with_defaults_and_tells_once(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(content)
    loaded = SettingsStore(path).load()  # never raises, whatever the bytes
    assert loaded.settings == Settings()
    assert "damaged" in loaded.notice and "has been reset" in loaded.notice
    [backup] = tmp_path.glob("settings.json.broken-*")
    assert str(backup) in loaded.notice
    # The defaults were saved: the next start is clean and says nothing.
    again = SettingsStore(path).load()
    assert again.notice == "" and again.settings == Settings()
    assert len(list(tmp_path.glob("settings.json.broken-*"))) == 1


@pytest.mark.parametrize(
    "content",
    [
        json.dumps({"database_url": SECRET_URL, "chat": {"temperature": "hot"}}).encode(),
        ('{"database_url": "' + SECRET_URL + '", "chat": ').encode(),
        json.dumps({"database_url": SECRET_URL, "voice": "x"}).encode("utf-16"),
        b'{"database_url": "host=db.example password=SECRET-pw", "chat": \xff}',
        ('{"database_url": "' + SECRET_URL + '", "chat": NaN}').encode(),
    ],
    ids=["invalid key", "not JSON", "UTF-16", "keyword form, invalid UTF-8", "NaN"],
)
def test_the_backup_keeps_no_password_and_is_private(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(content)
    path.chmod(0o644)
    loaded = SettingsStore(path).load()
    [backup] = tmp_path.glob("settings.json.broken-*")
    kept = backup.read_text(encoding="utf-8")
    assert "SECRET" not in kept
    assert "db.example" in kept  # the rest of the connection string is still there
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # the repaired file too
    assert loaded.notice


def test_the_repaired_file_keeps_the_valid_connection_string(tmp_path: Path) -> None:
    # Only the backup loses the password: the repaired settings keep it for the app, which
    # moves it to the secret store at start (see app.context).
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"database_url": SECRET_URL, "voice": 5}), encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.settings.database_url == SECRET_URL and "voice" in loaded.notice


def test_loader_arguments_in_the_file_are_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pydantic-settings takes _env_file, _cli_parse_args … as arguments: from a file they
    # would read another file as settings or parse the command line.
    env_file = tmp_path / "other.env"
    env_file.write_text("OV_STUDIO_OVERLAY_VISIBLE=true\n", encoding="utf-8")
    monkeypatch.setattr("sys.argv", ["ov-studio", "voices", "list"])
    path = tmp_path / "settings.json"
    path.write_text(
        json.dumps({"_env_file": str(env_file), "_cli_parse_args": True, "voice": "Ana"}),
        encoding="utf-8",
    )
    loaded = SettingsStore(path).load()
    assert loaded.settings.overlay_visible is False and loaded.settings.voice == "Ana"


def test_a_path_with_a_nul_is_reset(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"chat_model": "/models/a\u0000b"}), encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.settings.model_choice(ModelTask.CHAT).folder is None
    assert "models.chat" in loaded.notice


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


_settings_like = st.dictionaries(
    st.sampled_from([*Settings.model_fields, "_env_file", "unknown"]), _json, max_size=6
)


@hypothesis_settings(max_examples=150, deadline=None)
@given(data=_settings_like | st.dictionaries(st.sampled_from(["chat"]), _settings_like))
def test_any_json_object_loads(data: dict[str, object]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "settings.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        loaded = SettingsStore(path).load()
        assert isinstance(loaded.settings, Settings)
        assert SettingsStore(path).load().notice == ""  # repaired once, clean after
