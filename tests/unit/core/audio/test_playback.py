"""Playback through PortAudio, against a real (virtual) sound card.

``sound_card`` starts a private PulseAudio null sink (``tests/audio_device.py``): what the
player plays into it is recorded back from its monitor, so these tests hear the result."""

from __future__ import annotations

import pytest
import sounddevice

from app.core.audio.devices import PLAYBACK_RATE
from app.core.audio.playback import Player
from app.core.audio.recording import Recorder
from tests.audio_device import VirtualSoundCard, dominant_frequency, sound_card, tone
from tests.unit.core.audio.test_recording import loud_part, wait_for

__all__ = ["sound_card"]  # fixtures, imported for the tests below


def test_player_streams_chunks_in_order_as_they_come(sound_card: VirtualSoundCard) -> None:
    recorder = Recorder(sound_card.input().index)
    recorder.start()
    player = Player(sound_card.output().index)
    player.start()
    try:
        player.put(tone(0.6, 440.0), label=0, rate=16_000)
        # The first chunk plays while the second is still being "synthesised".
        wait_for(lambda: player.played == [0] and player.position > 0.1)
        assert not player.done
        player.put(tone(0.6, 880.0), label=1, rate=16_000)
        player.end()
        assert player.wait(timeout=10)
    finally:
        player.close()
        recording = recorder.stop()
    assert player.played == [0, 1]
    assert player.position == pytest.approx(1.2)
    heard = loud_part(recording.samples)
    half = int(0.4 * recording.rate)
    assert dominant_frequency(heard[:half], recording.rate) == pytest.approx(440.0, abs=3)
    assert dominant_frequency(heard[-half:], recording.rate) == pytest.approx(880.0, abs=3)


def test_player_stops_at_once_and_drops_the_rest(sound_card: VirtualSoundCard) -> None:
    player = Player(sound_card.output().index)
    player.start()
    player.put(tone(5.0, 440.0), label="long", rate=16_000)
    player.put(tone(1.0, 880.0), label="never", rate=16_000)
    wait_for(lambda: player.position > 0.2)
    player.stop()
    assert player.done and player.stopped
    assert player.played == ["long"]
    assert player.position < 2.0  # waiting for the rest would have played it: 5 s (no clock)
    player.put(tone(1.0, 440.0), rate=16_000)  # after a stop: ignored, never an error
    player.stop()


def test_player_resamples_for_a_device_without_its_rate(
    sound_card: VirtualSoundCard, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_24k(*_: object, samplerate: float = 0, **__: object) -> None:
        if samplerate == PLAYBACK_RATE:
            raise sounddevice.PortAudioError("Invalid sample rate")

    monkeypatch.setattr(sounddevice, "check_output_settings", no_24k)
    recorder = Recorder(sound_card.input().index)
    recorder.start()
    player = Player(sound_card.output().index)
    player.start()
    try:
        assert player.rate == sound_card.output().default_rate
        player.put(tone(0.5, 440.0), rate=16_000)
        player.end()
        assert player.wait(timeout=10)
    finally:
        player.close()
        recording = recorder.stop()
    assert player.position == pytest.approx(0.5, abs=0.01)
    assert dominant_frequency(loud_part(recording.samples), recording.rate) == pytest.approx(
        440.0, abs=3
    )


def test_ending_without_chunks_finishes_at_once(sound_card: VirtualSoundCard) -> None:
    player = Player(sound_card.output().index)
    player.start()
    player.end()
    assert player.wait(timeout=5)
    player.close()
    assert player.played == [] and player.position == 0.0


def test_each_chunk_plays_at_its_own_rate(sound_card: VirtualSoundCard) -> None:
    recorder = Recorder(sound_card.input().index)
    recorder.start()
    player = Player(sound_card.output().index)
    player.start()
    try:
        assert player.rate == PLAYBACK_RATE  # Kokoro's 24 kHz, played as it is
        player.put(tone(0.6, 440.0, rate=24_000), label="kokoro", rate=24_000)
        player.put(tone(0.6, 880.0, rate=16_000), label="speecht5", rate=16_000)
        player.end()
        assert player.wait(timeout=10)
    finally:
        player.close()
        recording = recorder.stop()
    assert player.position == pytest.approx(1.2, abs=0.01)
    heard = loud_part(recording.samples)
    half = int(0.4 * recording.rate)
    assert dominant_frequency(heard[:half], recording.rate) == pytest.approx(440.0, abs=3)
    assert dominant_frequency(heard[-half:], recording.rate) == pytest.approx(880.0, abs=3)
