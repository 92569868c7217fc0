"""Speaking a text with a face on the fixture voice models and the tiny Wav2Lip-contract model:
real clips, a real Stop."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.services.avatar import AvatarService
from app.services.speaking import Face, speak
from pipelines.core import Cancelled, CancelToken
from tests.audio_samples import speech_like, write_clip

pytestmark = pytest.mark.integration


def test_a_stop_after_the_first_clip_leaves_that_clip_alone_and_the_voice_free(
    avatar: AvatarService, media: Path, tmp_path: Path
) -> None:
    voice = avatar._voice
    voice.add_voice_from_file("Ada", write_clip(tmp_path / "ada.wav", speech_like(8.0, seed=7)))
    cancel = CancelToken()
    pieces = speak(
        voice,
        "Hello there. How are you? Fine.",
        "Ada",
        face=Face(avatar, media / "astronaut.png"),
        cancel=cancel,
    )
    first = next(pieces)
    assert first.clip is not None and first.clip.path.is_file()
    assert (first.index, first.total, first.text) == (0, 3, "Hello there.")
    assert first.lipsync_seconds is not None and first.synthesis_seconds > 0
    cancel.cancel()
    with pytest.raises(Cancelled):
        next(pieces)
    folder = first.clip.path.parent
    assert [p.name for p in folder.iterdir()] == ["001.mp4"]  # no second clip, no temp file
    assert not voice.busy and not avatar.busy
