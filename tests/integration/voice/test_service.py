"""Voices and speech end to end: the real speaker encoder and SpeechT5 on the fixture models;
one model per (folder, device) and one job at a time."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import numpy as np
import pytest
import soundfile

from app.core.devices import DeviceInfo
from app.core.errors import BusyError, ModelMissingError, UserError
from app.core.model_choices import Local, ModelChoice, ModelChoices
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from app.core.settings import Settings
from app.models.registry import ModelRegistry
from app.voice.service import VoiceService
from app.voice.speech_files import PAUSE_SECONDS
from pipelines.core import Cancelled, CancelToken, DeviceError
from pipelines.voice.audio import MODEL_RATE
from pipelines.voice.tts import SpeechChunk
from tests.audio_samples import speech_like, write_clip

pytestmark = pytest.mark.integration

CPU = DeviceInfo("CPU", "Test CPU")


@pytest.fixture
def alice_clip(tmp_path: Path) -> Path:
    return write_clip(tmp_path / "alice.wav", speech_like(8.0, pitch=210.0, seed=11))


@pytest.fixture
def bob_clip(tmp_path: Path) -> Path:
    return write_clip(tmp_path / "bob.flac", speech_like(9.0, pitch=95.0, seed=12))


def test_voice_is_made_stored_and_unit_length(
    voice_service: VoiceService, alice_clip: Path
) -> None:
    voice = voice_service.add_voice_from_file("Alice", alice_clip)
    assert voice.name == "Alice"
    assert 7.5 < voice.reference_seconds <= 8.0
    vector = voice.embedding()
    assert vector.shape == (512,)
    assert np.linalg.norm(vector) == pytest.approx(1.0, abs=1e-5)
    stored, rate = soundfile.read(voice.reference)
    assert rate == MODEL_RATE and stored.ndim == 1
    assert [v.name for v in voice_service.library.voices()] == ["Alice"]


def test_different_voices_give_different_embeddings_and_audio(
    voice_service: VoiceService, alice_clip: Path, bob_clip: Path
) -> None:
    alice = voice_service.add_voice_from_file("Alice", alice_clip)
    bob = voice_service.add_voice_from_file("Bob", bob_clip)
    similarity = float(alice.embedding() @ bob.embedding())
    assert similarity < 0.999
    same = voice_service.add_voice_from_file("Alice again", alice_clip)
    assert float(alice.embedding() @ same.embedding()) > 0.9999  # deterministic
    text = "Good morning."
    audio_a = np.concatenate([c.samples for c in voice_service.speak(text, "Alice")])
    audio_b = np.concatenate([c.samples for c in voice_service.speak(text, "Bob")])
    assert audio_a.size > MODEL_RATE // 4 and audio_b.size > MODEL_RATE // 4
    n = min(audio_a.size, audio_b.size)
    assert np.abs(audio_a[:n] - audio_b[:n]).max() > 1e-3


def test_speech_streams_sentence_by_sentence_in_order(
    voice_service: VoiceService, alice_clip: Path
) -> None:
    voice_service.add_voice_from_file("Alice", alice_clip)
    metrics = voice_service._metrics
    chunks = list(voice_service.speak("One. Two two. Three three three!", "alice"))
    assert [c.text for c in chunks] == ["One.", "Two two.", "Three three three!"]
    assert [c.index for c in chunks] == [0, 1, 2]
    assert all(c.total == 3 for c in chunks)
    # The fixture's minimum length ratio makes longer sentences longer audio.
    assert chunks[0].samples.size < chunks[1].samples.size < chunks[2].samples.size
    record = metrics.latest("tts")
    assert record is not None and record.device == "CPU"
    assert record.values["rtf"] > 0 and record.values["first_audio_ms"] > 0
    assert record.values["sentences"] == 3


def test_stop_between_sentences(voice_service: VoiceService, alice_clip: Path) -> None:
    voice_service.add_voice_from_file("Alice", alice_clip)
    cancel = CancelToken()
    seen = []
    with pytest.raises(Cancelled):
        for chunk in voice_service.speak("One. Two. Three. Four.", "Alice", cancel=cancel):
            seen.append(chunk.text)
            cancel.cancel()
    assert seen == ["One."]
    assert not voice_service.busy  # the next request may start at once


def test_say_to_file_writes_the_whole_result(
    voice_service: VoiceService, alice_clip: Path, out_dir: Path
) -> None:
    voice_service.add_voice_from_file("Alice", alice_clip)
    out = out_dir / "speech.wav"
    result = voice_service.say_to_file("Hello there. This is a test.", "Alice", out)
    audio, rate = soundfile.read(out, dtype="float32")
    assert rate == MODEL_RATE
    assert audio.size / MODEL_RATE == pytest.approx(result.seconds, abs=1e-3)
    figures = result.figures
    assert figures.done == 2 and figures.real_time_factor is not None
    assert figures.real_time_factor > 0
    assert figures.first_audio_seconds is not None and figures.first_audio_seconds > 0
    assert figures.device == "CPU"
    assert [p.name for p in out_dir.iterdir()] == ["speech.wav"]  # no temp file left


def test_speech_figures_are_the_request_s_and_leave_the_pauses_out(
    voice_service: VoiceService, alice_clip: Path, out_dir: Path
) -> None:
    voice_service.add_voice_from_file("Alice", alice_clip)  # loads the encoder, not the synthesiser
    chunks: list[SpeechChunk] = []
    out = out_dir / "speech.wav"
    result = voice_service.say_to_file("One. Two two. Three!", "Alice", out, on_chunk=chunks.append)
    figures = result.figures
    # The first request loaded the model: a user waits for the load and the first sentence.
    assert figures.load_seconds > 0
    assert figures.first_audio_seconds is not None
    assert figures.first_audio_seconds > figures.load_seconds + chunks[0].synth_seconds
    # RTF: synthesis time per second of speech; the 0.25 s pauses in the file are not speech.
    speech = sum(chunk.seconds for chunk in chunks)
    assert figures.speech_seconds == pytest.approx(speech)
    assert result.seconds == pytest.approx(speech + 2 * PAUSE_SECONDS, abs=1e-3)
    synthesis = sum(chunk.synth_seconds for chunk in chunks)
    assert figures.real_time_factor == pytest.approx(synthesis / speech)
    published = voice_service._metrics.latest("tts")  # what the overlay shows
    assert published is not None and published.values == figures.record().values

    again = voice_service.speak("Once more.", "Alice")  # the model is kept: nothing to load
    assert list(again) and again.figures.load_seconds == 0.0
    assert again.figures.first_audio_seconds is not None
    assert 0 < again.figures.first_audio_seconds < figures.first_audio_seconds


def test_cancelled_save_writes_nothing(
    voice_service: VoiceService, alice_clip: Path, out_dir: Path
) -> None:
    voice_service.add_voice_from_file("Alice", alice_clip)
    out = out_dir / "speech.wav"
    cancel = CancelToken()
    with pytest.raises(Cancelled):
        voice_service.say_to_file(
            "One. Two. Three.", "Alice", out, cancel=cancel, on_chunk=lambda _: cancel.cancel()
        )
    assert list(out_dir.iterdir()) == []


def test_unwritable_output_folder_is_refused_before_synthesis(
    voice_service: VoiceService, alice_clip: Path, unwritable_folder: Path
) -> None:
    voice_service.add_voice_from_file("Alice", alice_clip)
    before = sorted(unwritable_folder.iterdir())
    with pytest.raises(UserError) as caught:
        voice_service.say_to_file("Hello.", "Alice", unwritable_folder / "out.wav")
    assert str(caught.value).startswith(f"Cannot write in {unwritable_folder}: ")
    assert caught.value.field == "output" and len(str(caught.value).splitlines()) == 1
    assert sorted(unwritable_folder.iterdir()) == before  # no wav, no temp file
    # Nothing ran: no figures, no model loaded.
    assert (
        voice_service._metrics.latest("tts") is None
        and voice_service._engines.current("tts") is None
    )


def test_output_that_is_not_a_wav_or_in_a_missing_folder(
    voice_service: VoiceService, alice_clip: Path, tmp_path: Path
) -> None:
    voice_service.add_voice_from_file("Alice", alice_clip)
    with pytest.raises(UserError, match=r"saved as \.wav") as caught:
        voice_service.say_to_file("Hello.", "Alice", tmp_path / "out.mp3")
    assert caught.value.field == "output"
    with pytest.raises(UserError, match="does not exist"):
        voice_service.say_to_file("Hello.", "Alice", tmp_path / "no" / "out.wav")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Type something"),
        ("   ", "Type something"),
        ("😀🎉", "nothing in this text"),
        ("Long. " * 3400, "20,400 characters"),
    ],
)
def test_bad_text_is_refused_before_anything_runs(
    voice_service: VoiceService, alice_clip: Path, text: str, message: str
) -> None:
    voice_service.add_voice_from_file("Alice", alice_clip)
    with pytest.raises(UserError, match=message) as caught:
        voice_service.speak(text, "Alice")
    assert caught.value.field == "text"


def test_emoji_and_unknown_characters_are_skipped(
    voice_service: VoiceService, alice_clip: Path
) -> None:
    voice_service.add_voice_from_file("Alice", alice_clip)
    chunks = list(voice_service.speak("Hello 😀 wörld ☃ — ça va? 你好", "Alice"))
    assert [c.text for c in chunks] == ["Hello world — ca va?"]
    assert chunks[0].samples.size > 0


def test_unknown_voice(voice_service: VoiceService) -> None:
    with pytest.raises(UserError, match="no voice named “Nobody”") as caught:
        voice_service.speak("Hello.", "Nobody")
    assert caught.value.field == "voice"


@pytest.mark.parametrize(
    "stored",
    [np.ones((1, 512)), np.arange(512), np.full(512, np.nan, np.float32), "text"],
    ids=["float64 [1,512]", "int", "NaN", "a text file"],
)
def test_a_damaged_voice_is_refused_in_one_sentence(
    voice_service: VoiceService, alice_clip: Path, tmp_path: Path, stored: np.ndarray | str
) -> None:
    voice = voice_service.add_voice_from_file("Alice", alice_clip)
    embedding = voice.folder / "embedding.npy"
    if isinstance(stored, str):
        embedding.write_text("0.1 0.2 0.3", encoding="utf-8")
    else:
        np.save(embedding, stored)
    out = tmp_path / "out.wav"
    damaged = r"^The voice “Alice” is damaged \(embedding\.npy"
    with pytest.raises(UserError, match=damaged) as caught:
        voice_service.say_to_file("Hello.", "Alice", out)
    assert caught.value.field == "voice" and "\n" not in str(caught.value)
    assert not out.exists()
    with pytest.raises(UserError, match="is damaged"):
        voice_service.speak_with(voice.embedding(), "Hello.")  # a Voice held since before
    voice_service.library.remove("Alice")
    assert voice_service.library.voices() == [] and voice_service.library.damaged == []


def test_voice_whose_reference_was_deleted_still_speaks(
    voice_service: VoiceService, alice_clip: Path
) -> None:
    voice = voice_service.add_voice_from_file("Alice", alice_clip)
    voice.reference.unlink()
    assert [c.text for c in voice_service.speak("Still here.", "Alice")] == ["Still here."]
    with pytest.raises(UserError, match="reference clip of “Alice” is missing"):
        voice_service.reference_clip("Alice")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: write_clip(d / "short.wav", speech_like(1.0)), "at least 5 s"),
        (lambda d: write_clip(d / "long.wav", speech_like(600.0)), "trim it to its first 30 s"),
        (lambda d: write_clip(d / "silent.wav", np.zeros(8 * MODEL_RATE)), "silent"),
        (
            lambda d: write_clip(d / "loud.wav", np.clip(speech_like(8.0) * 8, -1, 1)),
            "distorted",
        ),
        (lambda d: _text_file(d / "fake.wav"), "not an audio file"),
    ],
)
def test_failed_creation_leaves_existing_voices_alone(
    voice_service: VoiceService, alice_clip: Path, tmp_path: Path, make, message: str
) -> None:
    alice = voice_service.add_voice_from_file("Alice", alice_clip)
    before = sorted(
        p.relative_to(voice_service.library.folder) for p in voice_service.library.folder.rglob("*")
    )
    with pytest.raises(UserError, match=message):
        voice_service.add_voice_from_file("Bad", make(tmp_path))
    assert _tree(voice_service.library.folder) == before
    assert np.array_equal(voice_service.library.get("Alice").embedding(), alice.embedding())


def test_long_clip_is_trimmed_on_request(voice_service: VoiceService, tmp_path: Path) -> None:
    clip = write_clip(tmp_path / "long.wav", speech_like(45.0, seed=3))
    voice = voice_service.add_voice_from_file("Long", clip, trim=True)
    assert 29.0 < voice.reference_seconds <= 30.0


def test_taken_name_is_refused_before_computing(
    voice_service: VoiceService, alice_clip: Path, tmp_path: Path
) -> None:
    voice_service.add_voice_from_file("Alice", alice_clip)
    with pytest.raises(UserError, match="already a voice named") as caught:
        voice_service.add_voice_from_file(" alice ", tmp_path / "does-not-even-exist.wav")
    assert caught.value.field == "name"


def test_missing_models_say_what_to_do(app_home: AppPaths, alice_clip: Path) -> None:
    registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
    bare = VoiceService(app_home.voices_dir, Settings(), MetricsBus(), [CPU], registry)
    with pytest.raises(UserError, match="No speaker encoder is installed") as caught:
        bare.add_voice_from_file("Alice", alice_clip)
    assert caught.value.field == "model"
    assert isinstance(caught.value, ModelMissingError) and caught.value.task == "speaker-encoder"
    assert "Models… → Convert" in str(caught.value) and "--" not in str(caught.value)
    assert not bare.library.voices()


def _tree(folder: Path) -> list[Path]:
    return sorted(path.relative_to(folder) for path in folder.rglob("*"))


def _text_file(path: Path) -> Path:
    path.write_text("not audio at all")
    return path


# -- the command line ----------------------------------------------------------------------


def test_a_device_that_fails_gives_a_device_error_as_chat_does(
    app_home: AppPaths, tts_model_dir: Path, speaker_encoder_dir: Path, alice_clip: Path
) -> None:
    # A GPU this machine lacks passes the device check and fails to compile (a broken driver):
    # the DeviceError itself arrives, with its device, so the panel can offer the CPU.
    folders = {ModelTask.TTS: tts_model_dir, ModelTask.SPEAKER_ENCODER: speaker_encoder_dir}
    settings = Settings(models=ModelChoices().with_folders(folders))
    registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
    devices = [CPU, DeviceInfo("GPU", "Test GPU")]
    gpu = VoiceService(app_home.voices_dir, settings, MetricsBus(), devices, registry)
    with pytest.raises(DeviceError) as encoder_failed:
        gpu.add_voice_from_file("Alice", alice_clip, device="GPU")
    assert encoder_failed.value.device == "GPU" and "Exception from" not in str(
        encoder_failed.value
    )
    gpu.add_voice_from_file("Alice", alice_clip, device="CPU")
    with pytest.raises(DeviceError) as speech_failed:
        list(gpu.speak("Hello there.", "Alice", device="GPU"))
    assert speech_failed.value.device == "GPU" and speech_failed.value.field == "device"


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
