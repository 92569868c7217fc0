"""Services keep one model per (folder, device) and one job at a time: real models, real threads."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from app.core.devices import DeviceInfo
from app.core.errors import BusyError
from app.core.model_choices import Local, ModelChoice
from app.core.model_tasks import ModelTask
from app.voice.service import VoiceService
from tests.audio_samples import speech_like, write_clip

pytestmark = pytest.mark.integration

CPU = DeviceInfo("CPU", "Test CPU")


def _linked_copy(folder: Path, target: Path) -> Path:
    """The same model in another folder (hard links: no copy of the weights)."""
    shutil.copytree(folder, target, copy_function=os.link)
    return target


def test_same_folder_reuses_the_model_and_another_folder_reloads(
    voice_service: VoiceService, speaker_encoder_dir: Path, tmp_path: Path
) -> None:
    clip = write_clip(tmp_path / "alice.wav", speech_like(6.0, pitch=210.0, seed=3))
    voice_service.add_voice_from_file("Alice", clip)
    engines = voice_service._engines
    first = engines.current(ModelTask.SPEAKER_ENCODER.value)
    voice_service.add_voice_from_file("Bob", clip)
    assert first is not None and engines.current(ModelTask.SPEAKER_ENCODER.value) is first
    moved = _linked_copy(speaker_encoder_dir, tmp_path / "encoder-copy")
    voice_service._settings.models = voice_service._settings.models.with_folder(
        ModelTask.SPEAKER_ENCODER, moved
    )
    voice_service.add_voice_from_file("Carol", clip)
    switched = engines.current(ModelTask.SPEAKER_ENCODER.value)
    assert switched is not None and switched is not first
    on_cpu = Local(device="CPU")
    assert engines.loaded(
        ModelChoice(task=ModelTask.SPEAKER_ENCODER, folder=moved, placement=on_cpu)
    )


def test_a_second_voice_job_while_speaking_is_refused(
    voice_service: VoiceService, tmp_path: Path
) -> None:
    clip = write_clip(tmp_path / "alice.wav", speech_like(6.0, pitch=210.0, seed=3))
    voice_service.add_voice_from_file("Alice", clip)
    speaking = voice_service.speak("One. Two.", "Alice")
    next(speaking)  # the first sentence is out; the models stay held until the end
    refused: list[BaseException] = []

    def second_job() -> None:
        try:
            voice_service.add_voice_from_file("Bob", clip)
        except BusyError as error:
            refused.append(error)

    worker = threading.Thread(target=second_job)
    worker.start()
    worker.join(60)
    assert [str(error) for error in refused] == [
        "The voice models are busy; wait or stop before creating a voice."
    ]
    assert list(speaking)  # the first job goes on to the end
    assert not voice_service.busy
    assert voice_service.add_voice_from_file("Bob", clip).name == "Bob"
