"""Recording through PortAudio, against a real (virtual) sound card, and the level meter.

``sound_card`` starts a private PulseAudio null sink (``tests/audio_device.py``): a tone played
into it is what the recorder hears."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import pytest

from app.core.audio.recording import Level, Recorder
from tests.audio_device import VirtualSoundCard, dominant_frequency, sound_card, tone

__all__ = ["sound_card"]  # fixtures, imported for the tests below


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


def test_level_meter_scale() -> None:
    assert Level(-100.0, 0.0).fraction() == 0.0
    assert Level(-30.0, 0.1).fraction() == pytest.approx(0.5)
    assert Level(0.0, 1.0).fraction() == 1.0


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
