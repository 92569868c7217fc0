"""The voice service on the real Kokoro-82M: its presets are the voices, blends of two speak,
the sentences keep Kokoro's 24 kHz and Whisper hears the words; what Kokoro cannot speak
(a voice made from a clip, an unknown preset, a bad blend) is one sentence."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app.core.errors import UserError
from app.voice.engines import TtsEngine
from app.voice.service import VoiceService
from pipelines.speech_to_text import SpeechRecognizer
from pipelines.voice.kokoro import KOKORO_RATE
from pipelines.voice.sample_rates import resample
from tests.speech import word_error_rate

pytestmark = pytest.mark.integration

PRESETS = ["jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo"]


@pytest.fixture(scope="module")
def recognizer(whisper_model_dir: Path) -> SpeechRecognizer:
    return SpeechRecognizer(whisper_model_dir, "CPU")


def heard(recognizer: SpeechRecognizer, audio: np.ndarray) -> str:
    """What Whisper (16 kHz) hears in Kokoro's 24 kHz ``audio``, lower case."""
    return recognizer.transcribe(resample(audio, KOKORO_RATE, 16_000)).text.lower()


def spoken(service: VoiceService, text: str, voice: str) -> np.ndarray:
    chunks = list(service.speak(text, voice))
    assert {chunk.rate for chunk in chunks} == {KOKORO_RATE}  # its own, never cut to 16 kHz
    return np.concatenate([chunk.samples for chunk in chunks])


def test_the_presets_are_the_voices_and_whisper_hears_them(
    kokoro_voice_service: VoiceService, recognizer: SpeechRecognizer
) -> None:
    service = kokoro_voice_service
    assert service.engine() is TtsEngine.KOKORO
    assert service.presets() == PRESETS
    assert service.voice_names() == PRESETS

    audio = spoken(service, "The bakery on the corner sells fresh bread.", "JM_KUMO")
    assert 1.5 < audio.size / KOKORO_RATE < 6.0
    words = heard(recognizer, audio)
    assert "bakery" in words and "bread" in words
    figures = service.speak("Hello there.", "jm_kumo").figures
    assert figures.device == "CPU"


def test_a_blend_of_two_presets_speaks_between_them(kokoro_voice_service: VoiceService) -> None:
    service = kokoro_voice_service
    text = "Good morning, everyone."
    first, second = spoken(service, text, "jf_alpha"), spoken(service, text, "jm_kumo")
    blend = spoken(service, text, "jf_alpha+jm_kumo@0.50")
    assert blend.size and not np.array_equal(blend, first) and not np.array_equal(blend, second)
    same_as_first = spoken(service, text, "jf_alpha+jm_kumo@0")
    assert same_as_first.size == first.size  # a share of 0 is the first voice alone


@pytest.mark.parametrize(
    ("voice", "expected"),
    [
        ("Alice", "The Kokoro voice model speaks its own voices (jf_alpha, "),
        ("jf_alpha+nobody@0.5", "“jf_alpha+nobody@0.5” is not a blend of two of this model's"),
        ("jf_alpha+jm_kumo@1.5", "“jf_alpha+jm_kumo@1.5” is not a blend of two of this model's"),
        ("jf_alpha+jm_kumo@x", "“jf_alpha+jm_kumo@x” is not a blend of two of this model's"),
    ],
)
def test_what_kokoro_cannot_speak_is_one_sentence(
    kokoro_voice_service: VoiceService, voice: str, expected: str
) -> None:
    with pytest.raises(UserError) as error:
        kokoro_voice_service.speak("Hello.", voice)
    assert str(error.value).startswith(expected) and error.value.field == "voice"
    with pytest.raises(UserError):
        kokoro_voice_service.check_voice(voice)


def test_a_voice_made_from_a_clip_is_not_spoken_by_kokoro(
    kokoro_voice_service: VoiceService,
) -> None:
    embedding = np.full(512, 1 / np.sqrt(512), np.float32)
    with pytest.raises(UserError) as error:
        kokoro_voice_service.speak_with(embedding, "Hello.")
    assert "not a voice made from a clip" in str(error.value)


def test_text_in_another_script_is_refused_before_anything_is_spoken(
    kokoro_voice_service: VoiceService,
) -> None:
    with pytest.raises(UserError) as error:
        kokoro_voice_service.speak("你好，世界。", "jm_kumo")
    assert error.value.field == "text"


def test_speed_changes_the_pace_and_the_setting_is_the_default(
    kokoro_voice_service: VoiceService, recognizer: SpeechRecognizer
) -> None:
    service = kokoro_voice_service
    text = "The train to the airport leaves every quarter of an hour."
    own_pace = spoken(service, text, "jm_kumo").size
    fastest = np.concatenate([c.samples for c in service.speak(text, "jm_kumo", speed=2.0)])
    assert 0.35 < fastest.size / own_pace < 0.7  # Kokoro's durations, halved
    faster = np.concatenate([c.samples for c in service.speak(text, "jm_kumo", speed=1.25)])
    assert 0.65 < faster.size / own_pace < 0.95
    # Still words at a brisk pace (Whisper tiny mishears some beyond 1.4×; random sound scores
    # about 1).
    assert word_error_rate([text], [heard(recognizer, faster)]) <= 0.3

    service._settings.voice_speed = 0.5  # as the Voice panel's slider stores it
    slow = spoken(service, text, "jm_kumo").size
    assert 1.4 < slow / own_pace < 2.6


@pytest.mark.parametrize("speed", [0.2, 2.5, float("nan")])
def test_a_speed_kokoro_cannot_take_is_one_sentence(
    kokoro_voice_service: VoiceService, speed: float
) -> None:
    with pytest.raises(UserError) as error:
        kokoro_voice_service.speak("Hello.", "jm_kumo", speed=speed)
    assert error.value.field == "speed" and "0.5 to 2" in str(error.value)


def test_the_chosen_voice_falls_back_to_the_models_first(
    kokoro_voice_service: VoiceService,
) -> None:
    service = kokoro_voice_service
    assert service.chosen_voice("JM_KUMO") == "jm_kumo"
    assert service.chosen_voice("jf_alpha+jm_kumo@0.25") == "jf_alpha+jm_kumo@0.25"
    assert service.chosen_voice("Alice") == "jf_alpha"  # a clone's name: not this model's
    assert service.chosen_voice("") == "jf_alpha"
