"""An answer spoken while it streams, on the real SmolLM2, the fixture voice models, the tiny
Wav2Lip-contract model and the virtual sound card (what is played is recorded back from the
null sink's monitor)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from app.avatar.service import AvatarClip, AvatarService
from app.chat.results import Answer
from app.chat.service import ChatService
from app.chat.storage import ConversationStore
from app.core.audio.recording import Recorder
from app.core.devices import DeviceInfo
from app.core.errors import UserError
from app.core.model_choices import ModelChoices
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from app.core.settings import Settings
from app.hands_free.sentence_stream import SentenceStream
from app.hands_free.spoken_answer import SpokenAnswer
from app.models.registry import ModelRegistry
from app.voice.service import VoiceService
from pipelines.core import CancelToken
from pipelines.generation import GenerationSettings
from tests.audio_device import VirtualSoundCard, sound_card
from tests.audio_samples import speech_like, write_clip

pytestmark = pytest.mark.integration
__all__ = ["sound_card"]  # the fixture, imported for the tests below
CPU = DeviceInfo("CPU", "Test CPU")
STORY = "Tell me a long story about a cat who lives in Paris."
LOUD = 0.01
"""A recorded block louder than this (RMS) is speech; the null sink's silence is 0."""
BLOCK_SECONDS = 0.01


@dataclass
class Services:
    metrics: MetricsBus
    voice: VoiceService
    avatar: AvatarService
    chat: ChatService


@pytest.fixture
def services(
    voice_service: VoiceService,
    avatar: AvatarService,
    metrics: MetricsBus,
    app_home: AppPaths,
    tmp_path: Path,
    real_chat_model: Path,
) -> Services:
    voice = voice_service
    voice.add_voice_from_file("Ada", write_clip(tmp_path / "ada.wav", speech_like(8.0, seed=7)))
    chat = ChatService(ConversationStore(app_home.conversations_dir), metrics, [CPU])
    chat.load_model(real_chat_model, "CPU")
    return Services(metrics, voice, avatar, chat)


def played_aloud(
    services: Services, card: VirtualSoundCard, generation: CancelToken, **options: Any
) -> SpokenAnswer:
    """An audio-only answer in the voice "Ada" on the virtual sound card."""
    device = card.output().index
    return SpokenAnswer(
        services.voice,
        "Ada",
        services.metrics,
        output_device=device,
        generation=generation,
        **options,
    )


def lip_synced(
    services: Services, face: Path, clips: list[AvatarClip], **options: Any
) -> SpokenAnswer:
    """An answer in the voice "Ada" by ``face``, its clips collected in ``clips``."""
    return SpokenAnswer(
        services.voice,
        "Ada",
        services.metrics,
        avatar=services.avatar,
        face=face,
        on_clip=clips.append,
        **options,
    )


class Monitor:
    """Records the null sink's monitor; times a recorded sample by when recording began."""

    def __init__(self, card: VirtualSoundCard) -> None:
        self.recorder = Recorder(card.input().index, max_seconds=120)
        self.began = 0.0
        self.samples: npt.NDArray[np.float32] = np.zeros(0, np.float32)

    def __enter__(self) -> Monitor:
        self.recorder.start()
        self.began = time.perf_counter()
        return self

    def __exit__(self, *_: object) -> None:
        recording = self.recorder.stop()
        self.samples, self.rate = recording.samples, recording.rate

    def record_until(self, moment: float) -> None:
        """Keep recording until ``moment`` (a perf_counter time) is in the recording."""
        deadline = time.monotonic() + 10
        while self.began + self.recorder.elapsed < moment + 0.05:
            assert time.monotonic() < deadline, "the recording stalled"
            threading.Event().wait(0.02)

    def loud_times(self) -> list[float]:
        """perf_counter times of the recorded blocks that hold sound."""
        block = int(BLOCK_SECONDS * self.rate)
        count = self.samples.size // block
        blocks = self.samples[: count * block].reshape(count, block)
        rms = np.sqrt(np.mean(blocks.astype(np.float64) ** 2, axis=1))
        return [self.began + index * BLOCK_SECONDS for index in np.flatnonzero(rms > LOUD)]


def sentences_of(text: str) -> list[str]:
    stream = SentenceStream()
    return stream.feed(text) + stream.finish()


def words(pieces: list[str]) -> list[str]:
    return " ".join(pieces).split()


def test_the_answer_is_heard_sentence_by_sentence_before_generation_ends(
    services: Services, sound_card: VirtualSoundCard
) -> None:
    conversation = services.chat.new_conversation("")
    generation = CancelToken()
    settings = GenerationSettings(max_new_tokens=300, temperature=0.0)
    with Monitor(sound_card) as monitor:
        sent = time.perf_counter()
        answer = played_aloud(services, sound_card, generation, speech_ended_at=sent)
        answer.start()
        try:
            result = services.chat.ask(conversation.id, STORY, settings, generation, answer.feed)
            generated = time.perf_counter()
            answer.finish()
            assert answer.wait(120)
        finally:
            answer.close()
        monitor.record_until(time.perf_counter())
    expected = sentences_of(result.message.content)
    assert len(expected) >= 4, result.message.content
    assert words(answer.spoken) == words(expected)  # every sentence, in order, once
    figures = answer.figures
    assert figures.first_audio_ms is not None and figures.first_audio_at is not None
    assert figures.first_audio_at < generated  # speaking began while the model was writing
    heard = monitor.loud_times()
    assert heard and heard[0] < generated, "nothing was heard before the answer was complete"
    assert heard[0] >= figures.first_audio_at - 0.05  # the device had it before it was heard
    record = services.metrics.latest("conversation")
    assert record is not None and record.device == "CPU"
    assert record.values["first_audio_ms"] == pytest.approx(figures.first_audio_ms)
    assert 0 < record.values["llm_first_sentence_ms"] < record.values["first_audio_ms"]
    assert record.values["tts_ms"] > 0 and "first_frame_ms" not in record.values


def test_barge_in_silences_within_300_ms_and_keeps_the_partial_answer(
    services: Services, sound_card: VirtualSoundCard
) -> None:
    conversation = services.chat.new_conversation("")
    generation = CancelToken()
    settings = GenerationSettings(max_new_tokens=2000, temperature=0.0, ignore_eos=True)
    answer = played_aloud(services, sound_card, generation)
    outcome: list[Answer] = []
    asking = threading.Thread(
        target=lambda: outcome.append(
            services.chat.ask(conversation.id, STORY, settings, generation, answer.feed)
        )
    )
    with Monitor(sound_card) as monitor:
        answer.start()
        asking.start()
        try:
            deadline = time.monotonic() + 60
            while len(answer.spoken) < 2:  # the second piece is playing: mid-answer
                assert time.monotonic() < deadline, "nothing was played"
                threading.Event().wait(0.01)
            interrupted = time.perf_counter()
            answer.interrupt()
            returned = time.perf_counter()
            asking.join(30)
            assert not asking.is_alive(), "generation went on after the barge-in"
            monitor.record_until(interrupted + 1.0)
        finally:
            answer.close()
            asking.join()
    assert returned - interrupted < 0.1  # interrupt() does not wait for the worker
    heard = monitor.loud_times()
    assert any(at < interrupted for at in heard), "the answer was not heard before"
    after = [at for at in heard if at >= interrupted]
    assert not after or after[-1] - interrupted < 0.3, f"heard until {after[-1] - interrupted}s"
    saved = outcome[0].message
    assert saved.stopped and outcome[0].saved
    assert saved.metrics["output_tokens"] < 2000
    spoken = words(answer.spoken)
    assert spoken and spoken == words(sentences_of(saved.content))[: len(spoken)]
    assert answer.interrupted
    stored = services.chat.get(conversation.id).messages[-1]
    assert stored.content == saved.content and stored.stopped


def test_with_a_face_each_sentence_becomes_a_clip_in_order(services: Services, media: Path) -> None:
    clips: list[AvatarClip] = []
    answer = lip_synced(services, media / "astronaut.png", clips)
    answer.start()
    try:
        for chunk in ["Hello", " there. How", " are you", "? I am fine", ", thank you. Bye", "."]:
            answer.feed(chunk)
        answer.finish()
        assert answer.wait(120)
    finally:
        answer.close()
    assert [clip.text for clip in clips] == [
        "Hello there.",
        "How are you?",
        "I am fine, thank you.",
        "Bye.",
    ]
    assert [clip.index for clip in clips] == [0, 1, 2, 3]
    assert [clip.path.name for clip in clips] == ["001.mp4", "002.mp4", "003.mp4", "004.mp4"]
    assert all(clip.path.stat().st_size > 0 for clip in clips)
    assert answer.spoken_text == "Hello there. How are you? I am fine, thank you. Bye."
    record = services.metrics.latest("conversation")
    assert record is not None
    assert record.values["first_frame_ms"] > record.values["lipsync_ms"] > 0
    assert record.values["first_audio_ms"] == record.values["first_frame_ms"]


def test_problems_are_one_sentence_before_any_audio(
    services: Services, app_home: AppPaths, media: Path, tmp_path: Path
) -> None:
    with pytest.raises(UserError, match="Bob"):
        SpokenAnswer(services.voice, "Bob", services.metrics).start()
    registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
    no_tts = VoiceService(
        app_home.voices_dir,
        Settings(models=ModelChoices().with_folder(ModelTask.TTS, tmp_path / "gone")),
        MetricsBus(),
        [CPU],
        registry,
    )
    with pytest.raises(UserError, match="gone is missing"):
        SpokenAnswer(no_tts, "Ada", services.metrics).start()
    with pytest.raises(UserError, match="face") as missing_face:
        SpokenAnswer(
            services.voice,
            "Ada",
            services.metrics,
            avatar=services.avatar,
            face=tmp_path / "nobody.png",
        ).start()
    assert missing_face.value.field == "face"
    assert services.metrics.latest("conversation") is None  # nothing started


def test_a_failing_lipsync_stops_the_answer_and_its_generation(
    services: Services, media: Path
) -> None:
    wall = media / "wall.png"
    cv2.imwrite(str(wall), np.full((200, 200, 3), 50, np.uint8))  # no face in it
    generation = CancelToken()
    clips: list[AvatarClip] = []
    answer = lip_synced(services, wall, clips, generation=generation)
    answer.start()
    try:
        answer.feed("Hello there. And more")
        with pytest.raises(UserError, match="No face") as caught:
            deadline = time.monotonic() + 60
            while not answer.wait(0.05):
                assert time.monotonic() < deadline, "the failure was not reported"
        assert caught.value.field == "face"
        assert generation.cancelled and answer.interrupted
        answer.feed(" words. Never spoken.")  # the chat's last chunks are ignored
        answer.finish()
    finally:
        answer.close()
    assert clips == [] and answer.spoken == []


def test_every_answer_gets_its_own_clip_folder(services: Services) -> None:
    first = services.avatar.answer_folder()
    first.mkdir(parents=True)
    second = services.avatar.answer_folder()
    assert second != first and second.name.startswith(first.name)
