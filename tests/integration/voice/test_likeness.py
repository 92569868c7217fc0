"""A voice's likeness with the real GE2E encoder: meaningful on real recorded speech, and
measured, stored and invalidated through the voice service on the fixture TTS.

The fixture TTS has random weights, so its figure is a meaningless number: those tests check
the plumbing. What the number means is checked with a stand-in "engine" that speaks real
recorded clips of the fixture's five speakers.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from app.core.errors import ModelMissingError
from app.core.model_choices import ModelChoices
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from app.core.settings import Settings
from app.models.registry import ModelRegistry
from app.voice.likeness import LIKENESS_FILE, LIKENESS_TEXT, measure_likeness, read_likeness
from app.voice.service import VoiceService
from pipelines.core import Cancelled, CancelToken
from pipelines.voice.audio import read_clip
from pipelines.voice.speaker_similarity import SpeakerSimilarity
from tests.audio_samples import write_clip
from tests.integration.voice.test_service import CPU

pytestmark = pytest.mark.integration
RATE = 16_000
SPEAKERS = ("espeak-us-m", "espeak-us-f3", "espeak-us-f4", "espeak-rp-klatt", "piper-joe")
Speak = Callable[[str, CancelToken], Iterator[npt.NDArray[np.float32]]]


@pytest.fixture(scope="module")
def measure(speaker_similarity_dir: Path) -> Iterator[SpeakerSimilarity]:
    with SpeakerSimilarity(speaker_similarity_dir) as encoder:
        yield encoder


@pytest.fixture(scope="module")
def clips(speaker_similarity_dir: Path) -> dict[str, list[npt.NDArray[np.float32]]]:
    folder = speaker_similarity_dir / "clips"
    return {s: [read_clip(folder / f"{s}-{i}.wav").samples for i in range(3)] for s in SPEAKERS}


def _recorded(clips: list[npt.NDArray[np.float32]]) -> Speak:
    """An "engine" that says each sentence with another recording of one speaker (never the
    reference clip itself)."""

    def speak(sentence: str, cancel: CancelToken) -> Iterator[npt.NDArray[np.float32]]:
        yield clips[1 + LIKENESS_TEXT.index(sentence) % 2]

    return speak


def test_a_voice_sounds_most_like_its_own_speaker_on_real_speech(
    measure: SpeakerSimilarity, clips: dict[str, list[npt.NDArray[np.float32]]]
) -> None:
    for speaker in SPEAKERS:
        reference = clips[speaker][0]
        scores = {
            other: measure_likeness(reference, RATE, _recorded(clips[other]), RATE, measure)
            for other in SPEAKERS
        }
        own = scores.pop(speaker)
        # Measured: own 0.92-0.95; the closest other speaker 0.86 (two espeak women).
        assert own > 0.9, (speaker, own)
        assert own > max(scores.values()) + 0.05, (speaker, own, scores)


@pytest.fixture
def similarity_home(
    app_home: AppPaths,
    tts_model_dir: Path,
    speaker_encoder_dir: Path,
    speaker_similarity_dir: Path,
    metrics: MetricsBus,
) -> Callable[[Path | None], VoiceService]:
    """A voice service on the fixture models and, when given, a speaker-similarity model."""

    def make(similarity: Path | None, tts: Path = tts_model_dir) -> VoiceService:
        folders = {
            ModelTask.TTS: tts,
            ModelTask.SPEAKER_ENCODER: speaker_encoder_dir,
            ModelTask.SPEAKER_SIMILARITY: similarity,
        }
        settings = Settings(models=ModelChoices().with_folders(folders))
        registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
        return VoiceService(app_home.voices_dir, settings, metrics, [CPU], registry)

    return make


@pytest.fixture
def joe_clip(tmp_path: Path, clips: dict[str, list[npt.NDArray[np.float32]]]) -> Path:
    return write_clip(tmp_path / "joe.wav", np.concatenate(clips["piper-joe"]))


def test_a_new_voice_is_measured_stored_and_remeasured_for_another_engine(
    similarity_home: Callable[..., VoiceService],
    speaker_similarity_dir: Path,
    tts_model_dir: Path,
    joe_clip: Path,
    tmp_path: Path,
) -> None:
    service = similarity_home(speaker_similarity_dir)
    voice = service.add_voice_from_file("Joe", joe_clip)
    assert service.likeness.figures([voice]) == {voice.id: None}
    assert [v.id for v in service.likeness.pending()] == [voice.id]

    seen: list[tuple[str, float]] = []
    assert service.likeness.measure_pending(on_progress=seen.append) == 1
    stored = read_likeness(voice.folder)
    assert stored is not None and 0.0 <= stored.value <= 1.0  # random TTS: any number
    assert seen == [(voice.id, stored.value)]
    assert stored.engine == f"speecht5:{tts_model_dir}" and stored.encoder.startswith("ge2e:")
    assert service.likeness.figures([voice]) == {voice.id: stored.value}
    assert service.likeness.pending() == []

    other_tts = tmp_path / "other-speecht5"
    shutil.copytree(tts_model_dir, other_tts)
    elsewhere = similarity_home(speaker_similarity_dir, other_tts)
    assert elsewhere.likeness.figures([voice]) == {voice.id: None}
    assert elsewhere.likeness.measure_pending() == 1
    assert elsewhere.likeness.figures([voice])[voice.id] is not None
    assert service.likeness.figures([voice]) == {voice.id: None}  # the old engine's is gone


def test_a_damaged_figure_is_measured_again_not_fatal(
    similarity_home: Callable[..., VoiceService], speaker_similarity_dir: Path, joe_clip: Path
) -> None:
    service = similarity_home(speaker_similarity_dir)
    voice = service.add_voice_from_file("Joe", joe_clip)
    (voice.folder / LIKENESS_FILE).write_text('{"value": "lots"', encoding="utf-8")
    assert service.likeness.figures([voice]) == {voice.id: None}
    assert [v.name for v in service.library.voices()] == ["Joe"]  # the voice is fine
    assert service.likeness.measure_pending() == 1
    assert read_likeness(voice.folder) is not None


def test_without_the_model_there_is_no_figure_and_the_problem_names_the_task(
    similarity_home: Callable[..., VoiceService], joe_clip: Path
) -> None:
    service = similarity_home(None)
    voice = service.add_voice_from_file("Joe", joe_clip)
    problem = service.likeness.problem()
    assert isinstance(problem, ModelMissingError)
    assert problem.task == ModelTask.SPEAKER_SIMILARITY.value
    assert service.likeness.figures([voice]) == {voice.id: None}
    assert service.likeness.pending() == [] and service.likeness.measure_pending() == 0
    assert not (voice.folder / LIKENESS_FILE).exists()


def test_measuring_is_cancelled_between_sentences_and_writes_nothing(
    similarity_home: Callable[..., VoiceService], speaker_similarity_dir: Path, joe_clip: Path
) -> None:
    service = similarity_home(speaker_similarity_dir)
    voice = service.add_voice_from_file("Joe", joe_clip)
    cancel = CancelToken()
    cancel.cancel()
    with pytest.raises(Cancelled):
        service.likeness.measure_pending(cancel)
    assert not (voice.folder / LIKENESS_FILE).exists()
    assert not service.busy


def test_the_users_speech_is_never_refused_for_a_measurement(
    similarity_home: Callable[..., VoiceService],
    speaker_similarity_dir: Path,
    joe_clip: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A measurement holding the voice models when the user speaks is cancelled and lets go
    after its sentence; the user's speech waits for that, it is not refused as busy."""
    service = similarity_home(speaker_similarity_dir)
    service.add_voice_from_file("Joe", joe_clip)
    holding, release = threading.Event(), threading.Event()
    speak, yield_to_user = service.speak, service.likeness.yield_to_user

    def held_speech(*args: Any, **kwargs: Any) -> Iterator[Any]:
        for chunk in speak(*args, **kwargs):
            holding.set()
            release.wait(60)  # the models stay held until the user asks for them
            yield chunk

    def yielding() -> bool:
        gave_way = yield_to_user()
        if gave_way:
            release.set()
        return gave_way

    monkeypatch.setattr(service, "speak", held_speech)
    monkeypatch.setattr(service.likeness, "yield_to_user", yielding)
    outcome: list[BaseException | int] = []

    def background() -> None:
        try:
            outcome.append(service.likeness.measure_pending())
        except BaseException as error:  # noqa: BLE001 - the test reads what ended it
            outcome.append(error)

    thread = threading.Thread(target=background)
    thread.start()
    assert holding.wait(60)
    chunks = list(service.speak("Hello there.", "Joe"))  # no BusyError
    thread.join(60)
    assert chunks and isinstance(outcome[0], Cancelled)
    assert not (service.library.get("Joe").folder / LIKENESS_FILE).exists()


def test_with_kokoro_a_voice_without_its_kokoro_form_shows_no_figure(
    similarity_home: Callable[..., VoiceService],
    speaker_similarity_dir: Path,
    joe_clip: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Kokoro speaks a voice made from a clip only in its Kokoro form: until that is made, no
    figure of SpeechT5's is shown as Kokoro's, and nothing is measured."""
    from app.voice.engines import TtsEngine

    service = similarity_home(speaker_similarity_dir)
    voice = service.add_voice_from_file("Joe", joe_clip)
    assert service.likeness.measure_pending() == 1
    monkeypatch.setattr(service, "engine", lambda: TtsEngine.KOKORO)
    monkeypatch.setattr(service, "voice_names", lambda: ["jf_alpha"])  # Joe has no form
    assert service.likeness.figures([voice]) == {voice.id: None}
    assert service.likeness.pending() == [] and service.likeness.measure_pending() == 0
    assert read_likeness(voice.folder) is not None  # SpeechT5's figure stays for its return
