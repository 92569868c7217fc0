"""Settings: environment variables checked together and named when invalid, and a model's
recommended sampling until it has a preset of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.model_choices import Local
from app.core.model_tasks import ModelTask
from app.core.settings import ChatDefaults, Settings, environment_problems, preset_key
from app.core.settings_store import SettingsStore
from pipelines.model_sampling import ModelSampling


def test_environment_overrides_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OV_STUDIO_OVERLAY_VISIBLE", "true")
    assert Settings().overlay_visible is True


# -- damaged files (issue 12, items 4 and 8) ---------------------------------------------------


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


def test_the_recommendation_replaces_the_global_defaults_until_the_model_has_a_preset() -> None:
    settings = Settings()
    settings.chat.temperature = 0.9
    recommended = ModelSampling(temperature=0.6, top_k=20)
    model = Path("/models/qwen3")
    chosen = settings.chat_for(model, recommended)
    assert (chosen.temperature, chosen.top_k, chosen.top_p) == (0.6, 20, settings.chat.top_p)
    assert settings.chat.temperature == 0.9  # the global defaults are not changed
    assert settings.chat_for(None, recommended) is settings.chat  # no model: no recommendation
    # The user's own settings for the model win over what it recommends.
    settings.chat_presets[preset_key(model)] = ChatDefaults(temperature=1.2)
    assert settings.chat_for(model, recommended).temperature == 1.2
