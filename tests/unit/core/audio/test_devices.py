"""Sound devices through PortAudio: listed, found by name, and said in words when they cannot be
opened, against a real (virtual) sound card (``sound_card``, ``tests/audio_device.py``)."""

from __future__ import annotations

import pytest
import sounddevice

from app.core.audio import devices as audio_devices
from app.core.audio.devices import AudioDeviceError
from app.core.audio.playback import Player
from app.core.audio.recording import Recorder
from tests.audio_device import VirtualSoundCard, sound_card

__all__ = ["sound_card"]  # the fixture, imported for the tests below


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


# ----- the virtual sound card ----------------------------------------------------------


def test_the_virtual_card_is_listed_for_input_and_output(sound_card: VirtualSoundCard) -> None:
    inputs, outputs = audio_devices.input_devices(), audio_devices.output_devices()
    assert sound_card.input() in inputs and sound_card.output() in outputs
    assert inputs[0].is_default and outputs[0].is_default  # the default comes first
    assert inputs[0].label in ("System default", f"{inputs[0].name} (default)")
    assert all(device.channels > 0 and device.default_rate > 0 for device in inputs)


def test_inputs_are_found_by_name(sound_card: VirtualSoundCard) -> None:
    pulse = sound_card.input()
    assert audio_devices.input_named(pulse.name) == pulse.index
    assert audio_devices.input_named("") is None  # the system's default input
    with pytest.raises(AudioDeviceError, match="The microphone “Gone” is not connected"):
        audio_devices.input_named("Gone")
