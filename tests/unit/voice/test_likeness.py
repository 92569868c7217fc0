"""The likeness figure in a voice folder: stored with what made it, stale when the engine or
encoder changes, and a damaged file measured again instead of shown or fatal."""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from app.voice.likeness import (
    LIKENESS_FILE,
    LIKENESS_TEXT,
    Likeness,
    current_value,
    likeness_now,
    measure_likeness,
    read_likeness,
    write_likeness,
)
from pipelines.core import Cancelled, CancelToken

ENGINE, ENCODER = "speecht5:/models/speecht5", "ge2e:8f12eb2f1a9982d3"


def test_a_figure_is_stored_private_and_read_back(tmp_path: Path) -> None:
    write_likeness(tmp_path, likeness_now(0.8312345678, ENGINE, ENCODER))
    stored = read_likeness(tmp_path)
    assert stored is not None and stored.value == pytest.approx(0.831235, abs=1e-6)
    assert (stored.engine, stored.encoder) == (ENGINE, ENCODER) and stored.measured > 0
    assert stat.S_IMODE((tmp_path / LIKENESS_FILE).stat().st_mode) == 0o600
    assert current_value(tmp_path, ENGINE, ENCODER) == stored.value


@pytest.mark.parametrize(
    ("engine", "encoder"),
    [
        ("speecht5:/models/other-speecht5", ENCODER),
        ("kokoro:/models/kokoro", ENCODER),
        (ENGINE, "ge2e:0000000000000000"),
    ],
    ids=["another TTS model", "another engine", "another encoder"],
)
def test_a_figure_of_other_models_is_not_current(tmp_path: Path, engine: str, encoder: str) -> None:
    write_likeness(tmp_path, Likeness(0.8, ENGINE, ENCODER, 1.0))
    assert current_value(tmp_path, engine, encoder) is None
    assert current_value(tmp_path, ENGINE, ENCODER) == 0.8  # negative control


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"{not json",
        b"[0.8]",
        b'{"value": "0.8", "engine": "e", "encoder": "c"}',
        b'{"value": NaN, "engine": "e", "encoder": "c"}',
        b'{"value": 7, "engine": "e", "encoder": "c"}',
        b'{"value": true, "engine": "e", "encoder": "c"}',
        b'{"value": 0.8, "engine": 3, "encoder": "c"}',
        b'{"value": 0.8, "engine": "e"}',
        b'{"value": 0.8, "engine": "e", "encoder": "c", "pad": "' + b"x" * 10_000 + b'"}',
        b"\xff\xfe\x00garbage",
    ],
    ids=lambda content: content[:24].decode("latin-1"),
)
def test_a_damaged_file_reads_as_no_figure(tmp_path: Path, content: bytes) -> None:
    (tmp_path / LIKENESS_FILE).write_bytes(content)
    assert read_likeness(tmp_path) is None
    assert current_value(tmp_path, "e", "c") is None


def test_a_folder_in_the_files_place_is_no_figure(tmp_path: Path) -> None:
    (tmp_path / LIKENESS_FILE).mkdir()
    assert read_likeness(tmp_path) is None


def test_no_file_is_no_figure(tmp_path: Path) -> None:
    assert read_likeness(tmp_path) is None


class _Echo:
    """A stand-in measure: the embedding is the clip's first samples, normalised."""

    def __init__(self) -> None:
        self.embedded: list[int] = []

    def embed(self, samples: npt.NDArray[Any], rate: int = 16_000, *, trim: bool = True) -> Any:
        self.embedded.append(int(np.asarray(samples).size))
        head = np.asarray(samples, np.float32)[:4] + 1e-3
        return head / np.linalg.norm(head)

    def similarity(self, first: Any, second: Any) -> float:
        return float(first @ second)


def test_every_sentence_is_spoken_and_the_clips_compared() -> None:
    spoken: list[str] = []

    def speak(sentence: str, cancel: CancelToken) -> Iterator[npt.NDArray[np.float32]]:
        spoken.append(sentence)
        yield np.full(1000, 0.5, np.float32)

    echo = _Echo()
    value = measure_likeness(np.full(4000, 0.5, np.float32), 16_000, speak, 16_000, echo)
    assert spoken == list(LIKENESS_TEXT)
    assert echo.embedded == [4000, 1000 * len(LIKENESS_TEXT)]
    assert value == pytest.approx(1.0)


def test_cancel_stops_between_sentences() -> None:
    cancel = CancelToken()
    spoken: list[str] = []

    def speak(sentence: str, token: CancelToken) -> Iterator[npt.NDArray[np.float32]]:
        spoken.append(sentence)
        cancel.cancel()
        yield np.zeros(10, np.float32)

    with pytest.raises(Cancelled):
        measure_likeness(np.ones(10, np.float32), 16_000, speak, 16_000, _Echo(), cancel)
    assert spoken == [LIKENESS_TEXT[0]]


def test_the_sentences_take_several_seconds_to_say() -> None:
    words = sum(len(sentence.split()) for sentence in LIKENESS_TEXT)
    assert 18 <= words <= 28  # ~2.5-3.5 words a second: 6-8 s of speech
    letters = {ch for ch in " ".join(LIKENESS_TEXT).lower() if ch.isalpha()}
    assert len(letters) == 26
    json.dumps(LIKENESS_TEXT)  # plain text, stored nowhere but here
