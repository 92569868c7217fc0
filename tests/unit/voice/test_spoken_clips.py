"""Speech kept for the Avatar panel is private."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from tests.unit.voice.test_library import _mode


def test_speech_kept_for_the_avatar_panel_is_private(tmp_path: Path) -> None:
    from app.voice.spoken_clips import keep_spoken
    from pipelines.voice.audio import write_wav_atomic

    spoken = keep_spoken(tmp_path / "spoken", np.zeros(1600, np.float32), "Hi.", "Ana", rate=16_000)
    assert _mode(tmp_path / "spoken") == 0o700 and _mode(spoken.path) == 0o600
    # A wav the user saves to share keeps the usual mode (umask 022 here: 0644).
    old_mask = os.umask(0o022)
    try:
        write_wav_atomic(tmp_path / "shared.wav", np.zeros(1600, np.float32))
    finally:
        os.umask(old_mask)
    assert _mode(tmp_path / "shared.wav") == 0o644
