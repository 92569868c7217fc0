"""Kokoro converted once per session (the conversion itself is tested in test_kokoro_convert)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.voice.kokoro import KokoroSynthesizer
from pipelines.voice.kokoro_convert import KokoroSource, convert_kokoro


@pytest.fixture(scope="session")
def converted_kokoro(kokoro_model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real Kokoro-82M converted by the app's own conversion (≈ 10 s)."""
    target = tmp_path_factory.mktemp("kokoro") / "converted"
    for _progress in convert_kokoro(KokoroSource.in_folder(kokoro_model_dir), target):
        pass
    return target


@pytest.fixture(scope="session")
def kokoro(converted_kokoro: Path) -> KokoroSynthesizer:
    """The converted Kokoro, loaded once for the session's tests."""
    synthesizer = KokoroSynthesizer(converted_kokoro)
    synthesizer.load()
    return synthesizer
