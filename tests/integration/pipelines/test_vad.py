"""Voice activity detection with the real silero-vad on OpenVINO, on espeak-ng speech."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipelines.core import InvalidInputError
from pipelines.vad import CHUNK, Endpointer, SileroVad, VadEvent, speech_spans
from tests.speech import RATE, SENTENCES, have_espeak, spoken, with_pause, with_silence

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed"),
]
TOLERANCE = 0.1


def _sounding(clip: np.ndarray, offset: float) -> tuple[float, float]:
    """Where ``clip`` (placed at ``offset`` s) is audible: first and last |x| > 0.01."""
    loud = np.nonzero(np.abs(clip) > 0.01)[0]
    return offset + loud[0] / RATE, offset + loud[-1] / RATE


@pytest.fixture(scope="module")
def vad(vad_model_path: Path) -> SileroVad:
    detector = SileroVad(vad_model_path)
    detector.load()
    return detector


@pytest.mark.parametrize("lead", [0.5, 1.0, 1.3])
def test_starts_and_ends_are_within_100_ms(vad: SileroVad, lead: float) -> None:
    first, second = spoken(SENTENCES[1]), spoken(SENTENCES[2])
    audio = with_silence(lead, first, 1.5, second, 1.0)
    truth = [_sounding(first, lead), _sounding(second, lead + first.size / RATE + 1.5)]
    vad.reset()
    endpointer = Endpointer(end_silence_ms=700)
    events: list[VadEvent] = []
    for start in range(0, audio.size, 1000):  # fed as a microphone would: odd block sizes
        events += endpointer.feed_all(vad.probabilities(audio[start : start + 1000]))
    assert [event.kind for event in events] == ["speech_started", "speech_ended"] * 2
    for (start, end), (began, ended) in zip(
        truth, zip(events[::2], events[1::2], strict=True), strict=True
    ):
        assert began.time == pytest.approx(start, abs=TOLERANCE)
        assert ended.time == pytest.approx(end, abs=TOLERANCE)


def test_a_comma_pause_does_not_end_a_turn(vad: SileroVad) -> None:
    audio = with_silence(0.5, spoken("Hello, what is the weather like in Paris today?"), 1.0)
    assert len(speech_spans(vad, audio, end_silence_ms=700)) == 1


def test_a_pause_shorter_than_the_end_is_reported_and_the_speech_resumes(
    vad: SileroVad,
) -> None:
    audio = with_silence(0.5, with_pause("What is the weather like", 0.4, "in Paris today?"), 1.0)
    vad.reset()
    endpointer = Endpointer(end_silence_ms=700, pause_ms=250)
    kinds = [event.kind for event in endpointer.feed_all(vad.probabilities(audio))]
    assert kinds == [
        "speech_started",
        "speech_paused",
        "speech_resumed",
        "speech_paused",
        "speech_ended",
    ]
    vad.reset()
    plain = Endpointer(end_silence_ms=700)  # no pause_ms: the events of a turn as before
    kinds = [event.kind for event in plain.feed_all(vad.probabilities(audio))]
    assert kinds == ["speech_started", "speech_ended"]


def test_silence_and_quiet_noise_give_no_event(vad: SileroVad) -> None:
    assert speech_spans(vad, with_silence(3.0)) == []
    assert speech_spans(vad, np.zeros(2 * RATE, np.float32)) == []


def test_speech_running_at_the_end_is_closed_by_finish(vad: SileroVad) -> None:
    clip = spoken(SENTENCES[3])
    clip = clip[: int(_sounding(clip, 0.0)[1] * RATE) + 1]  # no silence after the last word
    spans = speech_spans(vad, with_silence(0.5, clip))
    assert len(spans) == 1
    assert spans[0][1] == pytest.approx(_sounding(clip, 0.5)[1], abs=TOLERANCE)


def test_a_chunk_of_the_wrong_size_is_refused(vad: SileroVad) -> None:
    with pytest.raises(InvalidInputError, match=f"{CHUNK} samples"):
        vad.probability(np.zeros(100, np.float32))


def test_a_missing_model_file_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="does not exist"):
        SileroVad(tmp_path / "vad.onnx").load()
