"""The speech-input service: the model from the settings or the registry, the VAD gate,
files, metrics, and the sentences a person sees."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.errors import ModelMissingError, UserError
from app.core.model_choices import ModelChoices
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from app.core.settings import Settings
from app.models.registry import ModelRegistry
from app.speech.service import SpeechInputService
from pipelines.subtitles import write_srt
from tests.audio_samples import write_clip
from tests.speech import RATE, SENTENCES, have_espeak, spoken, with_silence, word_error_rate

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed"),
]
CPU = DeviceInfo("CPU", "Test CPU")


def clip_seconds(path: Path) -> float:
    import soundfile

    return float(soundfile.info(str(path)).duration)


def _service(home: AppPaths, settings: Settings, vad: Path | None) -> SpeechInputService:
    registry = ModelRegistry(home.model_registry, home.models_dir)
    return SpeechInputService(settings, MetricsBus(), [CPU], registry, vad_model=vad)


def _whisper(folder: Path, **values: Any) -> Settings:
    """Settings with ``folder`` as the speech-to-text model, and ``values``."""
    return Settings(models=ModelChoices().with_folder(ModelTask.SPEECH_TO_TEXT, folder), **values)


def test_no_model_is_the_model_missing_sentence(app_home: AppPaths, tmp_path: Path) -> None:
    service = _service(app_home, Settings(), None)
    with pytest.raises(ModelMissingError, match="No speech-to-text model is installed") as error:
        service.transcribe(np.zeros(RATE, np.float32), RATE)
    assert error.value.task == ModelTask.SPEECH_TO_TEXT.value
    gone = _service(app_home, _whisper(tmp_path / "gone"), None)
    with pytest.raises(UserError, match=r"folder .* is missing"):
        gone.model_folder()


def test_the_first_installed_model_transcribes_at_any_rate_and_publishes_metrics(
    app_home: AppPaths, whisper_model_dir: Path, vad_model_path: Path
) -> None:
    service = _service(app_home, Settings(), vad_model_path)
    ModelRegistry(app_home.model_registry, app_home.models_dir).add_folder(whisper_model_dir)
    assert service.model_folder() == whisper_model_dir.resolve()
    from scipy.signal import resample_poly

    at_48k = resample_poly(spoken(SENTENCES[2]), 3, 1).astype(np.float32)
    transcript = service.transcribe(np.stack([at_48k, at_48k], axis=1), 48_000)
    assert word_error_rate([SENTENCES[2]], [transcript.text]) <= 0.2, transcript.text
    record = service._metrics.latest("speech-to-text")
    assert record is not None
    assert record.values["audio_s"] == pytest.approx(transcript.audio_seconds)
    assert record.values["compute_ms"] > 0 and record.values["rtf"] < 1.0


def test_silence_and_noise_never_reach_whisper(
    app_home: AppPaths, whisper_model_dir: Path, vad_model_path: Path
) -> None:
    service = _service(app_home, _whisper(whisper_model_dir), vad_model_path)
    rng = np.random.default_rng(1)
    noise = (0.05 * rng.standard_normal(3 * RATE)).astype(np.float32)  # loud enough for energy
    for audio in (with_silence(3.0), noise):
        assert service.transcribe(audio, RATE).text == ""
    assert service._metrics.latest("speech-to-text") is None  # Whisper never ran


def test_a_file_with_word_timestamps_and_hostile_files(
    app_home: AppPaths, whisper_model_dir: Path, vad_model_path: Path, tmp_path: Path
) -> None:
    service = _service(app_home, _whisper(whisper_model_dir), vad_model_path)
    clip = write_clip(tmp_path / "question.flac", with_silence(0.5, spoken(SENTENCES[3]), 0.5))
    transcript = service.transcribe_file(clip, word_timestamps=True)
    assert word_error_rate([SENTENCES[3]], [transcript.text]) <= 0.2
    # Leading silence is cut before Whisper (which times its first word from 0) and added back.
    assert transcript.words[0].start == pytest.approx(0.5, abs=0.25)
    assert transcript.audio_seconds == pytest.approx(clip_seconds(clip), abs=0.01)
    assert transcript.segments
    srt = write_srt(tmp_path / "question.srt", transcript).read_text(encoding="utf-8")
    assert srt.startswith("1\n00:00:00,") and "paragraph" in srt
    (tmp_path / "fake.wav").write_bytes(b"this is not audio at all" * 50)
    for bad, words in (
        (tmp_path / "fake.wav", "not an audio file"),
        (tmp_path / "no.wav", "does not exist"),
    ):
        with pytest.raises(UserError, match=words) as error:
            service.transcribe_file(bad)
        assert error.value.field == "file" and "\n" not in str(error.value)


def test_languages_follow_the_setting_and_an_explicit_one_is_checked(
    app_home: AppPaths, whisper_model_dir: Path, vad_model_path: Path
) -> None:
    settings = _whisper(whisper_model_dir, speech_language="de")
    service = _service(app_home, settings, vad_model_path)
    clip = spoken(SENTENCES[1])
    # The setting is for multilingual models: an English-only one hears English anyway.
    assert word_error_rate([SENTENCES[1]], [service.transcribe(clip, RATE).text]) <= 0.2
    with pytest.raises(UserError, match="understands English only") as error:
        service.transcribe(clip, RATE, language="fr")
    assert error.value.field == "language"


def test_settings_bounds_and_the_context_wires_the_service(app_home: AppPaths) -> None:
    assert Settings().end_of_turn_ms == 700 and Settings().speech_language == "auto"
    for bad in ({"end_of_turn_ms": 100}, {"end_of_turn_ms": 5000}, {"speech_language": "x y"}):
        with pytest.raises(ValueError):
            Settings(**bad)  # type: ignore[arg-type]
    assert Settings().model_choice(ModelTask.SPEECH_TO_TEXT).device == "AUTO"
    with AppContext.create(app_home, devices=[CPU]) as context:
        assert isinstance(context.speech_input, SpeechInputService)
        assert context.speech_input.device() == "CPU"


def test_listeners_end_turns_after_the_setting(
    app_home: AppPaths, vad_model_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = _service(app_home, Settings(end_of_turn_ms=1200), vad_model_path)
    listener = service.listener(continuous=True)
    assert listener.end_silence_ms == 1200 and listener.continuous
    monkeypatch.setattr("app.speech.service.packaged_vad_model", lambda: None)
    monkeypatch.setattr("app.speech.vad_model.packaged_vad_model", lambda: None)
    without = _service(app_home, Settings(), None)
    with pytest.raises(UserError, match="Voice activity detection is not installed") as error:
        without.listener()
    assert error.value.field == "audio"
