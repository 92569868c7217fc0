"""Model choices in the settings: one per task, and files of older releases moved into them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.core.model_choices import (
    Local,
    ModelChoice,
    ModelChoices,
    Remote,
    device_value_of,
    placement_of,
)
from app.core.model_tasks import ModelTask
from app.core.settings import Settings
from app.core.settings_migration import DEFAULTS_VERSION
from app.core.settings_store import SettingsStore

TASKS = [task for task in ModelTask if task is not ModelTask.UNKNOWN]
AUTO = Local(device="AUTO")
ENDPOINT = {"name": "ovms", "base_url": "http://127.0.0.1:8000/v3", "model": "qwen"}

# Settings files as older releases saved them (whole: every field of the time, defaults
# included), with the choice each task had. The releases are those of the history of
# app/core/settings.py:
# the foundation (chat only), knowledge, the reranker, voice and avatar, speech to text, the
# face detector's own device, then defaults version 2 (repetition penalty 1.0).
FOUNDATION = {"chat_model": "/m/smol", "devices": {"chat": "CPU"}, "chat": {"temperature": 0.3}}
KNOWLEDGE = {
    "chat_model": None,
    "embedding_model": "/m/e5",
    "devices": {"chat": "AUTO", "knowledge": "GPU"},
}
RERANKER = {
    **KNOWLEDGE,
    "reranker_model": "/m/bge",
    "devices": {"chat": "AUTO", "knowledge": "NPU"},
}
VOICE = {
    **RERANKER,
    "tts_model": "/m/speecht5",
    "speaker_encoder": "/m/xvector",
    "lipsync_model": "/m/wav2lip",
    "devices": {"chat": "GPU.1", "knowledge": "AUTO", "tts": "CPU", "lipsync": "GPU"},
}
SPEECH = {
    **VOICE,
    "speech_to_text_model": "/m/whisper",
    "devices": {**VOICE["devices"], "speech-to-text": "NPU"},
}
DETECTOR = {**SPEECH, "face_detector_device": "GPU"}
VERSION_2 = {
    **DETECTOR,
    "chat_model": "/m/qwen.gguf",
    "devices": {**SPEECH["devices"], "chat": "REMOTE:ovms", "knowledge": "remote: ovms "},
    "remote_endpoints": [ENDPOINT],
    "defaults_version": 2,
}


def _local(task: ModelTask, folder: str | None, device: str = "AUTO") -> ModelChoice:
    return ModelChoice(
        task=task, folder=Path(folder) if folder else None, placement=Local(device=device)
    )


def _expected(**choices: ModelChoice) -> dict[ModelTask, ModelChoice]:
    """Every task's choice: the defaults, except ``choices`` (keyed by field name)."""
    defaults = {task: _local(task, None) for task in TASKS}
    defaults[ModelTask.FACE_DETECTOR] = _local(ModelTask.FACE_DETECTOR, None, "CPU")
    defaults[ModelTask.SPEAKER_SIMILARITY] = _local(ModelTask.SPEAKER_SIMILARITY, None, "CPU")
    for name, choice in choices.items():
        defaults[choice.task] = choice
        if name == "chat":
            defaults[ModelTask.VISION_CHAT] = choice.model_copy(
                update={"task": ModelTask.VISION_CHAT}
            )
    return defaults


OLD_FILES: dict[str, tuple[dict[str, Any], dict[ModelTask, ModelChoice]]] = {
    "foundation": (FOUNDATION, _expected(chat=_local(ModelTask.CHAT, "/m/smol", "CPU"))),
    "knowledge": (
        KNOWLEDGE,
        _expected(
            embedding=_local(ModelTask.EMBEDDING, "/m/e5", "GPU"),
            rerank=_local(ModelTask.RERANK, None, "GPU"),  # the knowledge panel's device
        ),
    ),
    "reranker": (
        RERANKER,
        _expected(
            embedding=_local(ModelTask.EMBEDDING, "/m/e5", "NPU"),
            rerank=_local(ModelTask.RERANK, "/m/bge", "NPU"),
        ),
    ),
    "voice and avatar": (
        VOICE,
        _expected(
            chat=_local(ModelTask.CHAT, None, "GPU.1"),
            embedding=_local(ModelTask.EMBEDDING, "/m/e5"),
            rerank=_local(ModelTask.RERANK, "/m/bge"),
            tts=_local(ModelTask.TTS, "/m/speecht5", "CPU"),
            speaker_encoder=_local(ModelTask.SPEAKER_ENCODER, "/m/xvector", "CPU"),
            lipsync=_local(ModelTask.LIPSYNC, "/m/wav2lip", "GPU"),
        ),
    ),
    "speech to text": (
        SPEECH,
        _expected(
            chat=_local(ModelTask.CHAT, None, "GPU.1"),
            embedding=_local(ModelTask.EMBEDDING, "/m/e5"),
            rerank=_local(ModelTask.RERANK, "/m/bge"),
            tts=_local(ModelTask.TTS, "/m/speecht5", "CPU"),
            speaker_encoder=_local(ModelTask.SPEAKER_ENCODER, "/m/xvector", "CPU"),
            lipsync=_local(ModelTask.LIPSYNC, "/m/wav2lip", "GPU"),
            speech_to_text=_local(ModelTask.SPEECH_TO_TEXT, "/m/whisper", "NPU"),
        ),
    ),
    "face detector device": (
        DETECTOR,
        _expected(
            chat=_local(ModelTask.CHAT, None, "GPU.1"),
            embedding=_local(ModelTask.EMBEDDING, "/m/e5"),
            rerank=_local(ModelTask.RERANK, "/m/bge"),
            tts=_local(ModelTask.TTS, "/m/speecht5", "CPU"),
            speaker_encoder=_local(ModelTask.SPEAKER_ENCODER, "/m/xvector", "CPU"),
            lipsync=_local(ModelTask.LIPSYNC, "/m/wav2lip", "GPU"),
            face_detector=_local(ModelTask.FACE_DETECTOR, None, "GPU"),
            speech_to_text=_local(ModelTask.SPEECH_TO_TEXT, "/m/whisper", "NPU"),
        ),
    ),
    "defaults version 2, remote endpoints": (
        VERSION_2,
        _expected(
            chat=ModelChoice(
                task=ModelTask.CHAT,
                folder=Path("/m/qwen.gguf"),
                placement=Remote(endpoint="ovms"),
            ),
            embedding=ModelChoice(
                task=ModelTask.EMBEDDING, folder=Path("/m/e5"), placement=Remote(endpoint="ovms")
            ),
            rerank=ModelChoice(
                task=ModelTask.RERANK, folder=Path("/m/bge"), placement=Remote(endpoint="ovms")
            ),
            tts=_local(ModelTask.TTS, "/m/speecht5", "CPU"),
            speaker_encoder=_local(ModelTask.SPEAKER_ENCODER, "/m/xvector", "CPU"),
            lipsync=_local(ModelTask.LIPSYNC, "/m/wav2lip", "GPU"),
            face_detector=_local(ModelTask.FACE_DETECTOR, None, "GPU"),
            speech_to_text=_local(ModelTask.SPEECH_TO_TEXT, "/m/whisper", "NPU"),
        ),
    ),
    "saved again by an older release (its shape under version 3)": (
        {**VOICE, "defaults_version": DEFAULTS_VERSION},
        _expected(
            chat=_local(ModelTask.CHAT, None, "GPU.1"),
            embedding=_local(ModelTask.EMBEDDING, "/m/e5"),
            rerank=_local(ModelTask.RERANK, "/m/bge"),
            tts=_local(ModelTask.TTS, "/m/speecht5", "CPU"),
            speaker_encoder=_local(ModelTask.SPEAKER_ENCODER, "/m/xvector", "CPU"),
            lipsync=_local(ModelTask.LIPSYNC, "/m/wav2lip", "GPU"),
        ),
    ),
    "missing keys": ({"voice": "Ana"}, _expected()),
    "a devices map missing pipelines and with unknown ones": (
        {"tts_model": "/m/t", "devices": {"tts": "CPU", "image": "GPU"}},
        _expected(
            tts=_local(ModelTask.TTS, "/m/t", "CPU"),
            speaker_encoder=_local(ModelTask.SPEAKER_ENCODER, None, "CPU"),
        ),
    ),
}


def _write(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize("data, expected", OLD_FILES.values(), ids=OLD_FILES.keys())
def test_a_file_an_older_release_wrote_loads_with_the_same_choices(
    tmp_path: Path, data: dict[str, Any], expected: dict[ModelTask, ModelChoice]
) -> None:
    path = tmp_path / "settings.json"
    _write(path, data)

    loaded = SettingsStore(path).load()

    assert loaded.notice == ""
    assert {task: loaded.settings.model_choice(task) for task in TASKS} == expected
    # Written back once in the new form, which loads with the same choices and no notice.
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["defaults_version"] == DEFAULTS_VERSION and "models" in saved
    old = {"chat_model", "embedding_model", "tts_model", "devices", "face_detector_device"}
    assert not old & saved.keys()
    again = SettingsStore(path).load()
    assert again.notice == "" and again.settings == loaded.settings
    assert list(tmp_path.glob("settings.json.broken-*")) == []


def test_the_old_chat_defaults_are_kept_while_the_models_move(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    _write(path, {**FOUNDATION, "chat": {"temperature": 0.3, "repetition_penalty": 1.1}})

    settings = SettingsStore(path).load().settings

    assert settings.chat.temperature == 0.3 and settings.chat.repetition_penalty == 1.0


def test_a_version_2_penalty_of_1_1_stays_when_its_models_move(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    _write(path, {**VERSION_2, "chat": {"repetition_penalty": 1.1}})

    assert SettingsStore(path).load().settings.chat.repetition_penalty == 1.1


def test_choices_survive_a_round_trip(tmp_path: Path) -> None:
    store = SettingsStore(tmp_path / "settings.json")
    models = (
        ModelChoices()
        .with_folders({ModelTask.CHAT: tmp_path / "chat", ModelTask.LIPSYNC: tmp_path / "lip"})
        .with_placement(ModelTask.CHAT, Remote(endpoint="ovms"))
        .with_placement(ModelTask.FACE_DETECTOR, Local(device="GPU.0"))
    )
    store.save(Settings(models=models, remote_endpoints=[ENDPOINT]))

    loaded = store.load()

    assert loaded.notice == "" and loaded.settings.models == models
    assert loaded.settings.model_choice(ModelTask.VISION_CHAT).placement == Remote(endpoint="ovms")


HOSTILE: dict[str, tuple[dict[str, Any], list[str]]] = {
    "a folder that is a number": ({"chat_model": 42}, ["models.chat"]),
    "a device that is a list": (
        {"devices": {"tts": ["GPU"]}},
        ["models.tts", "models.speaker_encoder"],
    ),
    "a devices map that is a string": ({"devices": "GPU"}, ["devices"]),
    "a remote value naming no endpoint": ({"devices": {"chat": "REMOTE:gone"}}, ["models.chat"]),
    "a remote value naming nothing": ({"devices": {"chat": "REMOTE: "}}, ["models.chat"]),
    "an empty face detector device": ({"face_detector_device": ""}, ["models.face_detector"]),
    "a path with a NUL": ({"speech_to_text_model": "/m/a\u0000b"}, ["models.speech_to_text"]),
    "new form: an unknown task and a wrong kind": (
        {
            "defaults_version": DEFAULTS_VERSION,
            "models": {"image": {"folder": "/m/sd"}, "tts": {"placement": {"kind": "cloud"}}},
        },
        ["models.tts"],
    ),
    "new form: models that are not an object": (
        {"defaults_version": DEFAULTS_VERSION, "models": [1, 2]},
        ["models"],
    ),
    "new form: a remote endpoint that was deleted": (
        {
            "defaults_version": DEFAULTS_VERSION,
            "models": {"embedding": {"placement": {"kind": "remote", "endpoint": "ovms"}}},
        },
        ["models.embedding"],
    ),
}


@pytest.mark.parametrize("data, reset", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_file_loads_repaired_and_says_which_choices_were_reset(
    tmp_path: Path, data: dict[str, Any], reset: list[str]
) -> None:
    path = tmp_path / "settings.json"
    _write(path, {**data, "voice": "Ana", "lipsync_model": "/m/wav2lip"})

    loaded = SettingsStore(path).load()

    assert loaded.notice.startswith(
        f"Some settings were invalid and have been reset ({', '.join(reset)})."
    )
    assert loaded.settings.voice == "Ana"  # the rest is kept
    defaults = Settings()
    for name in reset:
        if name.startswith("models."):
            task = getattr(defaults.models, name.removeprefix("models.")).task
            assert loaded.settings.model_choice(task) == defaults.model_choice(task)
    assert len(list(tmp_path.glob("settings.json.broken-*"))) == 1
    assert SettingsStore(path).load().notice == ""  # repaired once


def test_a_remote_endpoint_matches_case_blind(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    _write(path, {"devices": {"chat": "REMOTE:OVMS"}, "remote_endpoints": [ENDPOINT]})

    loaded = SettingsStore(path).load()

    assert loaded.notice == ""
    assert loaded.settings.model_choice(ModelTask.CHAT).placement == Remote(endpoint="OVMS")


def test_each_choice_is_for_its_own_task_whatever_the_file_says() -> None:
    models = ModelChoices.model_validate({"tts": {"task": "chat", "folder": "/m/t"}})

    assert models.for_task(ModelTask.TTS) == _local(ModelTask.TTS, "/m/t")


def test_a_task_the_settings_do_not_choose_is_refused() -> None:
    with pytest.raises(ValueError, match="no model for the task unknown"):
        ModelChoices().for_task(ModelTask.UNKNOWN)


def test_a_device_picker_places_the_models_it_runs_together() -> None:
    models = ModelChoices().with_placement(ModelTask.EMBEDDING, placement_of("REMOTE: ovms"))

    assert models.rerank.placement == Remote(endpoint="ovms")
    assert models.chat.placement == AUTO
    assert device_value_of(models.embedding) == "REMOTE:ovms"
    moved = models.with_placement(ModelTask.SPEAKER_ENCODER, placement_of("CPU"))
    assert moved.tts.placement == moved.speaker_encoder.placement == Local(device="CPU")
    detector = moved.with_placement(ModelTask.FACE_DETECTOR, placement_of("GPU"))
    assert detector.lipsync.placement == AUTO  # the detector has its own device


def test_an_environment_variable_sets_one_task(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OV_STUDIO_MODELS__TTS__FOLDER", "/m/t")

    settings = Settings()

    assert settings.model_choice(ModelTask.TTS) == _local(ModelTask.TTS, "/m/t")
    assert settings.model_choice(ModelTask.FACE_DETECTOR).device == "CPU"


def test_a_remote_device_value_becomes_a_remote_placement(tmp_path: Path) -> None:
    models = ModelChoices().with_folder(ModelTask.CHAT, tmp_path)
    settings = Settings(models=models.with_placement(ModelTask.CHAT, placement_of("REMOTE: ovms ")))

    choice = settings.model_choice(ModelTask.CHAT)

    assert choice == ModelChoice(
        task=ModelTask.CHAT, folder=tmp_path, placement=Remote(endpoint="ovms")
    )
    assert choice.is_remote and choice.device == ""


def test_each_task_reads_its_own_folder_and_device(tmp_path: Path) -> None:
    models = (
        ModelChoices()
        .with_folder(ModelTask.RERANK, tmp_path)
        .with_placement(ModelTask.RERANK, Local(device="CPU"))
        .with_placement(ModelTask.FACE_DETECTOR, Local(device="GPU"))
    )
    settings = Settings(models=models)

    assert settings.model_choice(ModelTask.RERANK).folder == tmp_path
    assert settings.model_choice(ModelTask.RERANK).placement == Local(device="CPU")
    assert settings.model_choice(ModelTask.EMBEDDING).folder is None
    assert settings.model_choice(ModelTask.FACE_DETECTOR).device == "GPU"
    assert settings.model_choice(ModelTask.TTS).device == "AUTO"


def test_equal_choices_are_one_key() -> None:
    first = Settings().model_choice(ModelTask.TTS)

    assert {first: 1}[Settings().model_choice(ModelTask.TTS)] == 1


def test_a_task_without_a_setting_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown"):
        Settings().model_choice(ModelTask.UNKNOWN)
