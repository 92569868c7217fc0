"""Settings: defaults, atomic round trip, repair of broken files, read-only folders."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from app.core.errors import StorageError
from app.core.model_choices import Local
from app.core.model_tasks import ModelTask
from app.core.settings import Settings, environment_problems
from app.core.settings_store import SettingsStore


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


def test_environment_overrides_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OV_STUDIO_OVERLAY_VISIBLE", "true")
    assert Settings().overlay_visible is True


# -- damaged files (issue 12, items 4 and 8) ---------------------------------------------------

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


@pytest.mark.parametrize(
    "text",
    [
        "postgresql://ana:SECRET@db/k",
        "postgres://ana:SEC%40RET@db:5432/k?sslmode=require",
        "host=db user=ana password=SECRET dbname=k",
        "host=db password='SEC RET' dbname=k",
        "postgresql://db/k?user=ana&password=SECRET&sslmode=require",
        '{"database_url": "postgresql://ana:SEC\\"RET@db/k", "chat": ',
        '{"api_token": "SECRET", "db_password": "SECRET"',
    ],
)
def test_passwords_are_masked_in_every_form(text: str) -> None:
    from app.core.storage.redaction import redact_text

    masked = redact_text(text)
    assert "SEC" not in masked and "REDACTED" in masked
    assert "db" in masked  # the rest stays readable


# -- environment variables (issue 12) ----------------------------------------------------------

BAD_ENVIRONMENT = {
    "OV_STUDIO_CHUNK_TOKENS": ("abc", "a valid integer"),
    "OV_STUDIO_MODELS": ("{", "not valid JSON"),
    "OV_STUDIO_RECENT_MODELS": ("[1, 2", "not valid JSON"),
    "OV_STUDIO_CHAT__TEMPERATURE": ("9", "less than or equal to 2"),
    "OV_STUDIO_CHAT": ('{"top_k": "many"}', "valid integer"),
    "OV_STUDIO_OVERLAY_VISIBLE": ("maybe", "valid boolean"),
    "OV_STUDIO_MODELS__CHAT__FOLDER": ("/models/\x01\x02", ""),  # odd but valid: a path is a path
}


@pytest.mark.parametrize("name", list(BAD_ENVIRONMENT))
def test_an_invalid_environment_variable_is_ignored_and_named_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    value, reason = BAD_ENVIRONMENT[name]
    monkeypatch.setenv(name, value)
    monkeypatch.setenv("OV_STUDIO_VOICE", "Ana")  # a valid one still applies
    settings = Settings()  # pydantic-settings raised here before
    assert settings.voice == "Ana"
    problems = environment_problems()
    if not reason:
        assert problems == []
        return
    assert settings.chunk_tokens == 128
    assert settings.model_choice(ModelTask.TTS).device == "AUTO"
    assert settings.chat.temperature == 0.7 and settings.chat.top_k == 50
    assert settings.recent_models == [] and settings.overlay_visible is False
    [problem] = problems
    assert problem.startswith(f"The environment variable {name} is ignored (")
    assert reason in problem and value not in problem  # a value may be a secret
    assert problem.count(".") == 1 and "\n" not in problem  # one sentence
    # The file's value is used for that key, and the file is not called damaged.
    store = SettingsStore(tmp_path / "settings.json")
    models = Settings().models.with_placement(ModelTask.TTS, Local(device="CPU"))
    store.save(Settings(chunk_tokens=256, models=models, overlay_visible=True))
    loaded = store.load()
    assert loaded.notice == ""
    assert loaded.settings.chunk_tokens == 256
    assert loaded.settings.model_choice(ModelTask.TTS).device == "CPU"
    assert loaded.settings.overlay_visible is True
    assert list(tmp_path.glob("settings.json.broken-*")) == []


def test_environment_variables_are_checked_together(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each alone is fine for pydantic, together the nested one lands on a JSON string.
    monkeypatch.setenv("OV_STUDIO_CHAT", '"text"')
    monkeypatch.setenv("OV_STUDIO_CHAT__TOP_K", "5")
    monkeypatch.setenv("OV_STUDIO_CHUNK_OVERLAP", "8")
    settings = Settings()
    assert settings.chunk_overlap == 8
    assert [p.split(" is ignored")[0] for p in environment_problems()] == [
        "The environment variable OV_STUDIO_CHAT"
    ]
    assert settings.chat.top_k == 5


def test_other_variables_of_the_app_are_not_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OV_STUDIO_SECRETS", "file")
    monkeypatch.setenv("OV_STUDIO_NOT_A_SETTING", "{")
    assert environment_problems() == []
    assert environment_problems({"OV_STUDIO_CHUNK_TOKENS": "x", "PATH": "{"})[0].startswith(
        "The environment variable OV_STUDIO_CHUNK_TOKENS is ignored"
    )
