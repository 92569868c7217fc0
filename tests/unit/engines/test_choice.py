"""A model choice: which model does a task and where it runs, read from the settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.model_choices import ModelChoices, placement_of
from app.core.model_tasks import ModelTask
from app.core.settings import Settings
from app.engines import Local, ModelChoice, Remote


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
