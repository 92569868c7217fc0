"""Recording and playback through PortAudio, against a real (virtual) sound card.

``sound_card`` starts a private PulseAudio null sink (``tests/audio_device.py``): what the
player plays into it can be recorded back from its monitor, so these tests hear the result.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import pytest
import sounddevice

from app.core.audio import devices as audio_devices
from app.core.audio.devices import AudioDeviceError
from app.core.audio.playback import Player
from app.core.audio.recording import Level, Recorder
from tests.audio_device import VirtualSoundCard, dominant_frequency, sound_card, tone

__all__ = ["sound_card"]  # the fixture, imported for the tests below


def wait_for(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """Poll ``condition`` (PortAudio's thread changes what it reads) until true or fail."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def loud_part(samples: np.ndarray, threshold: float = 0.1) -> np.ndarray:
    """``samples`` from the first to the last sample above ``threshold``."""
    loud = np.flatnonzero(np.abs(samples) > threshold)
    assert loud.size, "nothing audible was recorded"
    return samples[loud[0] : loud[-1] + 1]


# ----- no sound card -------------------------------------------------------------------


def test_no_devices_means_empty_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sounddevice, "query_devices", lambda *a, **k: [])
    assert audio_devices.input_devices() == []
    assert audio_devices.output_devices() == []


def test_a_device_that_cannot_be_opened_is_said_in_words() -> None:
    with pytest.raises(AudioDeviceError, match=r"microphone device 999 could not be opened") as e:
        Recorder(999).start()
    assert e.value.field == "audio"
    assert "Choose another input" in str(e.value)
    player = Player(999)
    with pytest.raises(AudioDeviceError, match=r"speaker device 999 could not be opened"):
        player.start()
    assert player.done  # nothing will ever play: nobody waits for it


def test_level_meter_scale() -> None:
    assert Level(-100.0, 0.0).fraction() == 0.0
    assert Level(-30.0, 0.1).fraction() == pytest.approx(0.5)
    assert Level(0.0, 1.0).fraction() == 1.0


# ----- the virtual sound card ----------------------------------------------------------


def test_the_virtual_card_is_listed_for_input_and_output(sound_card: VirtualSoundCard) -> None:
    inputs, outputs = audio_devices.input_devices(), audio_devices.output_devices()
    assert sound_card.input() in inputs and sound_card.output() in outputs
    assert inputs[0].is_default and outputs[0].is_default  # the default comes first
    assert inputs[0].label in ("System default", f"{inputs[0].name} (default)")
    assert all(device.channels > 0 and device.default_rate > 0 for device in inputs)


def test_recording_hears_a_tone_and_the_level_moves(sound_card: VirtualSoundCard) -> None:
    recorder = Recorder(sound_card.input().index)
    recorder.start()
    try:
        wait_for(lambda: recorder.elapsed > 0.1)
        quiet = recorder.level()
        assert quiet.rms_dbfs < -60  # nothing is playing yet
        pacat = sound_card.play(tone(1.0, 440.0), 16_000)
        levels: list[float] = []

        def heard() -> bool:
            levels.append(recorder.level().rms_dbfs)
            return levels[-1] > -20

        wait_for(heard)
        assert pacat.wait(timeout=10) == 0
    finally:
        recording = recorder.stop()
    assert recording.rate == sound_card.input().default_rate
    assert recording.samples.dtype == np.float32 and recording.samples.ndim == 1
    assert max(levels) > -20 > quiet.rms_dbfs  # the meter went up with the tone
    assert dominant_frequency(loud_part(recording.samples), recording.rate) == pytest.approx(
        440.0, abs=3
    )


def test_recording_stops_by_itself_at_the_limit(sound_card: VirtualSoundCard) -> None:
    recorder = Recorder(sound_card.input().index, max_seconds=0.5)
    recorder.start()
    wait_for(lambda: not recorder.recording)
    assert recorder.reached_limit
    recording = recorder.stop()
    assert recording.samples.size == int(0.5 * recording.rate)  # exactly the limit
    assert recording.seconds == pytest.approx(0.5)


def test_recording_can_stop_early(sound_card: VirtualSoundCard) -> None:
    recorder = Recorder(sound_card.input().index)
    recorder.start()
    wait_for(lambda: recorder.elapsed > 0.3)
    recording = recorder.stop()
    assert not recorder.reached_limit and not recorder.recording
    assert 0.3 <= recording.seconds < 5.0
    assert recorder.stop().samples.size == recording.samples.size  # stopping twice is harmless


def test_player_streams_chunks_in_order_as_they_come(sound_card: VirtualSoundCard) -> None:
    recorder = Recorder(sound_card.input().index)
    recorder.start()
    player = Player(sound_card.output().index)
    player.start()
    try:
        player.put(tone(0.6, 440.0), label=0)
        # The first chunk plays while the second is still being "synthesised".
        wait_for(lambda: player.played == [0] and player.position > 0.1)
        assert not player.done
        player.put(tone(0.6, 880.0), label=1)
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
    player.put(tone(5.0, 440.0), label="long")
    player.put(tone(1.0, 880.0), label="never")
    wait_for(lambda: player.position > 0.2)
    started = time.monotonic()
    player.stop()
    assert time.monotonic() - started < 0.5
    assert player.done and player.stopped
    assert player.played == ["long"]
    assert player.position < 2.0
    player.put(tone(1.0, 440.0))  # after a stop: ignored, never an error
    player.stop()


def test_player_resamples_for_a_device_without_16_khz(
    sound_card: VirtualSoundCard, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_16k(*_: object, samplerate: float = 0, **__: object) -> None:
        if samplerate == 16_000:
            raise sounddevice.PortAudioError("Invalid sample rate")

    monkeypatch.setattr(sounddevice, "check_output_settings", no_16k)
    recorder = Recorder(sound_card.input().index)
    recorder.start()
    player = Player(sound_card.output().index)
    player.start()
    try:
        assert player.rate == sound_card.output().default_rate
        player.put(tone(0.5, 440.0))
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


def test_inputs_are_found_by_name(sound_card: VirtualSoundCard) -> None:
    pulse = sound_card.input()
    assert audio_devices.input_named(pulse.name) == pulse.index
    assert audio_devices.input_named("") is None  # the system's default input
    with pytest.raises(AudioDeviceError, match="The microphone “Gone” is not connected"):
        audio_devices.input_named("Gone")
