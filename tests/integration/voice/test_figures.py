"""Speech figures are computed in one place."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration


# ``audio_seconds`` alone is not a sign: a Whisper transcript has a field of that name too.
RAW_SPEECH_TIMINGS = re.compile(r"\b(synth_seconds|SpeechStats|synthesizer\.last)\b")


def test_speech_figures_are_computed_in_one_place() -> None:
    """Only the synthesisers and the figures' module read the raw timings (the service hands
    its synthesiser's running stats over): jobs, CLI and UI show :class:`SpeechFigures`."""
    root = Path(__file__).resolve().parents[3]
    readers = sorted(
        str(path.relative_to(root))
        for folder in ("app", "ui", "pipelines")
        for path in (root / folder).rglob("*.py")
        if RAW_SPEECH_TIMINGS.search(path.read_text(encoding="utf-8"))
    )
    assert readers == [
        "app/voice/figures.py",
        "app/voice/service.py",
        "pipelines/voice/kokoro.py",
        "pipelines/voice/tts.py",
    ]
