"""A microphone that disappears mid-sentence: its own virtual sound card, stopped under the
listener (the module's own, so no other test loses its card).

Run in a pytest of its own by test_listening.py (tests/own_process.py says why)."""

from __future__ import annotations

import queue
from pathlib import Path

import pytest

from app.speech.listening import DEVICE_LOST, Listener, ListenState
from tests.audio_device import VirtualSoundCard, lost_card
from tests.speech import RATE, SENTENCES, have_espeak, spoken, with_silence

__all__ = ["lost_card"]  # the fixture, imported for the test below
pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed"),
]


def test_a_lost_device_ends_the_turn_with_one_sentence_and_keeps_the_audio(
    lost_card: VirtualSoundCard, vad_model_path: Path
) -> None:
    listener = Listener(vad_model_path, lost_card.input().index)
    listener.start()
    pacat = lost_card.play(with_silence(0.2, spoken(SENTENCES[0])), RATE)
    try:
        assert listener.events.get(timeout=20).kind == "speech_started"
        lost_card.stop()  # the sound server (and with it the microphone) is gone
        pacat.wait(timeout=10)
        ended = listener.events.get(timeout=10)
        stopped = listener.events.get(timeout=10)
    except queue.Empty:
        raise AssertionError("the listener did not notice the lost device") from None
    finally:
        kept = listener.stop()
    assert ended.kind == "speech_ended" and ended.utterance is not None
    assert ended.utterance.size > 0.2 * RATE
    assert stopped.kind == "stopped" and stopped.error == DEVICE_LOST == listener.error
    assert listener.state is ListenState.ENDED
    assert kept.size == ended.utterance.size
