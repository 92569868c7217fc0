"""The UI tests' lip-sync engine and voice (tests/ui/avatar_fakes.py) offer what the real ones
do: the engine is a pipeline (pipelines/contract.py) whose ``detect_faces`` and ``run`` take
what ``LipsyncPipeline``'s take, and the voice speaks as ``TextToSpeech`` says."""

from __future__ import annotations

from pathlib import Path

from app.avatar.speaking import TextToSpeech
from pipelines.contract import Pipeline
from pipelines.lipsync.pipeline import LipsyncPipeline
from tests.protocols import gaps, signature_gaps
from tests.ui.avatar_fakes import AvatarScript, FakeLipsync, fake_speak


def test_the_fake_lipsync_engine_is_a_pipeline_called_as_the_real_one() -> None:
    engine = FakeLipsync(Path("wav2lip"), Path("blazeface.tflite"), script=AvatarScript())
    assert gaps(engine, Pipeline) == []
    assert gaps(FakeLipsync, LipsyncPipeline, ["detect_faces", "run"]) == []


def test_the_fake_voice_speaks_as_text_to_speech_does() -> None:
    assert signature_gaps(fake_speak(AvatarScript()), TextToSpeech.speak) == []
