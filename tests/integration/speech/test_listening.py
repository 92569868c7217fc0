"""Listening through the virtual sound card: espeak-ng speech played into the null sink (its
monitor is the microphone) → VAD events → an utterance the real Whisper transcribes; a
microphone lost mid-sentence (lost_device_listening.py, in a process of its own)."""

from __future__ import annotations

import queue
import time
from pathlib import Path

import numpy as np
import pytest

from app.core.audio.devices import AudioDeviceError
from app.speech.listening import Listener, ListenEvent, ListenState
from pipelines.speech_to_text import SpeechRecognizer
from tests.audio_device import VirtualSoundCard, sound_card
from tests.own_process import run_module_alone
from tests.speech import RATE, SENTENCES, have_espeak, spoken, with_silence, word_error_rate
from tests.waiting import wait_until

__all__ = ["sound_card"]  # the fixture, imported for the tests below
pytestmark = [pytest.mark.integration]


def _next_event(listener: Listener, timeout: float = 20.0) -> ListenEvent:
    try:
        return listener.events.get(timeout=timeout)
    except queue.Empty:
        raise AssertionError(f"no listener event within {timeout:.0f} s") from None


@pytest.fixture(scope="module")
def recognizer(whisper_model_dir: Path) -> SpeechRecognizer:
    return SpeechRecognizer(whisper_model_dir)


@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_dictation_hears_one_turn_and_whisper_transcribes_it(
    sound_card: VirtualSoundCard, vad_model_path: Path, recognizer: SpeechRecognizer
) -> None:
    listener = Listener(vad_model_path, sound_card.input().index, end_silence_ms=500)
    listener.start()
    try:
        assert listener.rate == RATE  # PulseAudio records at 16 kHz: nothing is resampled
        wait_until(lambda: listener.level().rms_dbfs < -60, "a quiet input")
        assert listener.state is ListenState.WAITING
        pacat = sound_card.play(with_silence(0.3, spoken(SENTENCES[1]), 1.0), RATE)
        levels: list[float] = []

        def loud() -> bool:
            levels.append(listener.level().rms_dbfs)
            return levels[-1] > -30

        wait_until(loud, "the level meter to rise")
        started = _next_event(listener)
        assert started.kind == "speech_started"
        ended = _next_event(listener)
        assert ended.kind == "speech_ended" and ended.time > started.time + 1.0
        assert ended.at <= time.monotonic()
        assert listener.seconds_listened >= ended.time  # the clock the events' times are on
        assert _next_event(listener).kind == "stopped"
        assert listener.state is ListenState.ENDED
        assert pacat.wait(timeout=10) == 0
    finally:
        kept = listener.stop()
    utterance = listener.utterance()
    assert utterance is not None and np.array_equal(kept, utterance)
    assert 1.5 < utterance.size / RATE < 5.0
    heard = recognizer.transcribe(utterance).text
    assert word_error_rate([SENTENCES[1]], [heard]) <= 0.2, heard


@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_hands_free_mode_keeps_listening_turn_after_turn(
    sound_card: VirtualSoundCard, vad_model_path: Path, recognizer: SpeechRecognizer
) -> None:
    heard: list[ListenEvent] = []
    listener = Listener(
        vad_model_path,
        sound_card.input().index,
        end_silence_ms=500,
        continuous=True,
        on_event=heard.append,
    )
    listener.start()
    try:
        audio = with_silence(0.3, spoken(SENTENCES[2]), 1.2, spoken(SENTENCES[3]), 1.0)
        pacat = sound_card.play(audio, RATE)
        turns: list[ListenEvent] = []
        while len(turns) < 2:
            event = _next_event(listener)
            if event.kind == "speech_ended":
                turns.append(event)
        assert pacat.wait(timeout=10) == 0
        assert listener.state is ListenState.WAITING
    finally:
        listener.stop()
    assert [event.kind for event in heard][:4] == ["speech_started", "speech_ended"] * 2
    texts = [
        recognizer.transcribe(turn.utterance).text for turn in turns if turn.utterance is not None
    ]
    assert word_error_rate(SENTENCES[2:], texts) <= 0.2, texts


@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_stop_while_speaking_keeps_what_was_said(
    sound_card: VirtualSoundCard, vad_model_path: Path
) -> None:
    listener = Listener(vad_model_path, sound_card.input().index)
    listener.start()
    pacat = sound_card.play(with_silence(0.2, spoken(SENTENCES[0])), RATE)
    try:
        assert _next_event(listener).kind == "speech_started"
        wait_until(lambda: listener.level().rms_dbfs > -30, "speech")
    finally:
        kept = listener.stop()
        pacat.terminate()
        pacat.wait(timeout=10)
    assert kept.size > 0.2 * RATE
    kinds = []
    while not listener.events.empty():
        kinds.append(listener.events.get().kind)
    assert kinds == ["speech_ended", "stopped"]


@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_a_missing_device_is_one_sentence(
    sound_card: VirtualSoundCard, vad_model_path: Path
) -> None:
    listener = Listener(vad_model_path, 9999)
    with pytest.raises(AudioDeviceError, match="could not be opened") as error:
        listener.start()
    assert error.value.field == "audio"
    assert listener.stop().size == 0


def test_a_lost_microphone_in_its_own_process() -> None:
    run_module_alone(Path(__file__).with_name("lost_device_listening.py"))
