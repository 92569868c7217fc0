"""Kokoro loaded once per session (converted once: tests/integration/conftest.py; the conversion
itself is tested in test_kokoro_convert)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.voice.kokoro import KokoroSynthesizer


@pytest.fixture(scope="session")
def kokoro(converted_kokoro: Path) -> KokoroSynthesizer:
    """The converted Kokoro, loaded once for the session's tests."""
    synthesizer = KokoroSynthesizer(converted_kokoro)
    synthesizer.load()
    return synthesizer
