"""Speech to text with the real Whisper tiny.en (from PyPI) on espeak-ng speech."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipelines.core import Cancelled, CancelToken, InvalidInputError, ModelLoadError
from pipelines.speech_to_text import SAMPLE_RATE, SpeechRecognizer, split_windows
from tests.speech import SENTENCES, have_espeak, spoken, with_silence, word_error_rate

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed"),
]


@pytest.fixture(scope="module")
def recognizer(whisper_model_dir: Path) -> SpeechRecognizer:
    return SpeechRecognizer(whisper_model_dir, "CPU", word_timestamps=True)


def test_the_pinned_sentences_are_heard(recognizer: SpeechRecognizer) -> None:
    heard = [recognizer.transcribe(spoken(sentence)).text for sentence in SENTENCES]
    assert word_error_rate(SENTENCES, heard) <= 0.2, heard
    record = recognizer.metrics()
    assert record.values["audio_s"] > 1.0
    assert 0 < record.values["rtf"] < 1.0


def test_word_timestamps_are_in_order_and_inside_the_clip(recognizer: SpeechRecognizer) -> None:
    clip = spoken(SENTENCES[0])
    transcript = recognizer.transcribe(clip, timestamps=True)
    seconds = clip.size / SAMPLE_RATE
    assert len(transcript.words) >= len(SENTENCES[0].split()) - 2
    starts = [word.start for word in transcript.words]
    assert starts == sorted(starts)
    assert all(word.start <= word.end <= seconds + 0.5 for word in transcript.words)
    assert transcript.segments and transcript.segments[-1].end <= seconds + 0.5


def test_long_audio_goes_window_by_window_with_progress(recognizer: SpeechRecognizer) -> None:
    parts: list[float | np.ndarray] = []
    for sentence in SENTENCES * 2:
        parts += [spoken(sentence), 0.8]
    audio = with_silence(*parts)
    assert audio.size / SAMPLE_RATE > 30.0
    steps: list[int] = []
    transcript = recognizer.transcribe(
        audio, timestamps=True, on_progress=lambda progress: steps.append(progress.done)
    )
    assert len(steps) == len(split_windows(audio)) >= 2
    assert word_error_rate([" ".join(SENTENCES * 2)], [transcript.text]) <= 0.2
    assert transcript.segments[-1].end > 30.0
    ends = [segment.end for segment in transcript.segments]
    assert ends == sorted(ends)


def test_silence_is_an_empty_transcript_not_you(recognizer: SpeechRecognizer) -> None:
    for audio in (
        np.zeros(3 * SAMPLE_RATE, np.float32),
        with_silence(3.0),
        np.zeros(0, np.float32),
    ):
        transcript = recognizer.transcribe(audio)
        assert transcript.empty and transcript.text == ""


def test_a_language_on_an_english_only_model_is_one_sentence(
    recognizer: SpeechRecognizer,
) -> None:
    assert not recognizer.multilingual
    with pytest.raises(InvalidInputError, match="understands English only") as error:
        recognizer.transcribe(spoken(SENTENCES[1]), language="de")
    assert error.value.field == "language"
    english = recognizer.transcribe(spoken(SENTENCES[1]), language="en")
    assert word_error_rate([SENTENCES[1]], [english.text]) <= 0.2


def test_cancel_stops_while_decoding(whisper_model_dir: Path) -> None:
    recognizer = SpeechRecognizer(whisper_model_dir)
    cancel = CancelToken()
    pieces: list[str] = []

    def heard(piece: str) -> None:
        pieces.append(piece)
        cancel.cancel()

    with pytest.raises(Cancelled):
        recognizer.transcribe(spoken(SENTENCES[0]), cancel=cancel, on_text=heard)
    assert 1 <= len(pieces) < len(SENTENCES[0].split())
    done = recognizer.transcribe(spoken(SENTENCES[1]))  # the next call starts clean
    assert word_error_rate([SENTENCES[1]], [done.text]) <= 0.2


def test_stereo_samples_and_a_wrong_folder_are_refused(tmp_path: Path) -> None:
    recognizer = SpeechRecognizer(tmp_path)
    with pytest.raises(InvalidInputError, match="mono"):
        recognizer.transcribe(np.zeros((100, 2), np.float32))
    with pytest.raises(ModelLoadError, match="not an OpenVINO Whisper"):
        recognizer.load()
