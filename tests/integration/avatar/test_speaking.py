"""Speaking a text with a face on the fixture voice models and the tiny Wav2Lip-contract model:
real clips, in order, and a real Stop."""

from __future__ import annotations

import stat
from pathlib import Path

import numpy as np
import pytest

from app.avatar.service import AvatarClip, AvatarService
from app.avatar.speaking import Face, hand_over_clips, speak
from app.voice.service import VoiceService
from pipelines.core import Cancelled, CancelToken
from tests.audio_samples import speech_like, write_clip
from tests.video_samples import read_mp4

pytestmark = pytest.mark.integration


@pytest.fixture
def voice(voice_service: VoiceService, tmp_path: Path) -> VoiceService:
    """The fixture voice models with the voice "Ada"."""
    voice_service.add_voice_from_file(
        "Ada", write_clip(tmp_path / "ada.wav", speech_like(8.0, seed=7))
    )
    return voice_service


def test_each_sentence_becomes_a_clip_in_order(
    voice: VoiceService, avatar: AvatarService, media: Path
) -> None:
    arrived: list[AvatarClip] = []
    pieces = speak(
        voice, "Hello there. How are you? Fine.", "Ada", face=Face(avatar, media / "astronaut.png")
    )
    clips = hand_over_clips(pieces, arrived.append)
    assert [c.text for c in clips] == ["Hello there.", "How are you?", "Fine."]
    assert arrived == clips
    for clip in clips:
        frames, _, seconds = read_mp4(clip.path)
        assert len(frames) == int(np.ceil(clip.seconds * 25 - 1e-9))
        assert seconds == pytest.approx(clip.seconds, abs=0.07)
    assert [c.path.name for c in clips] == ["001.mp4", "002.mp4", "003.mp4"]
    for folder in (avatar.results_dir, clips[0].path.parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_a_stop_after_the_first_clip_leaves_that_clip_alone_and_the_voice_free(
    voice: VoiceService, avatar: AvatarService, media: Path
) -> None:
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
