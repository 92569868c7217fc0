"""The avatar service, the spoken-answer loop and the lipsync command, on the tiny
Wav2Lip-contract model and the real BlazeFace detector (the pipeline itself:
test_lipsync_pipeline.py)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import av
import cv2
import numpy as np
import pytest

from app.devices import DeviceInfo
from app.errors import UserError
from app.metrics import MetricsBus
from app.models.registry import ModelRegistry
from app.paths import AppPaths
from app.services.avatar import AvatarService
from app.services.voice import VoiceService
from app.settings import Settings
from tests.audio_samples import speech_like, write_clip

pytestmark = pytest.mark.integration
CPU = DeviceInfo("CPU", "Test CPU")


def _video(path: Path) -> tuple[list[np.ndarray], float, float]:
    """Decoded frames, fps and the audio stream's duration in seconds."""
    with av.open(str(path)) as container:
        video = container.streams.video[0]
        audio = container.streams.audio[0]
        assert audio.codec_context.name == "aac" and video.codec_context.name == "h264"
        fps = float(video.average_rate)
        frames = [f.to_ndarray(format="bgr24") for f in container.decode(video=0)]
        container.seek(0)
        samples = sum(f.samples for f in container.decode(audio=0))
        return frames, fps, samples / audio.rate


# -- the service, the loop and the command line -------------------------------------------


@pytest.fixture
def avatar(
    app_home: AppPaths,
    lipsync_model_dir: Path,
    tts_model_dir: Path,
    speaker_encoder_dir: Path,
) -> AvatarService:
    settings = Settings(
        lipsync_model=lipsync_model_dir,
        tts_model=tts_model_dir,
        speaker_encoder=speaker_encoder_dir,
    )
    registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
    metrics = MetricsBus()
    voice = VoiceService(app_home.voices_dir, settings, metrics, [CPU], registry)
    return AvatarService(app_home.avatar_dir, settings, metrics, [CPU], registry, voice)


def test_service_writes_into_the_gallery_and_reports_metrics(
    avatar: AvatarService, media: Path
) -> None:
    first = avatar.lipsync(media / "astronaut.png", media / "speech.wav")
    second = avatar.lipsync(media / "astronaut.png", media / "speech.wav")
    assert first.path != second.path
    assert avatar.recent() == [second.path, first.path]
    assert stat.S_IMODE(avatar.results_dir.stat().st_mode) == 0o700  # the cloned voice speaks
    assert avatar.faces(media / "astronaut.png")[0][2] > 50
    record = avatar._metrics.latest("lipsync")
    assert record is not None and record.values["fps"] > 0 and "infer_ms" in record.values


def test_service_errors_name_the_field(avatar: AvatarService, media: Path, tmp_path: Path) -> None:
    with pytest.raises(UserError, match="No face") as caught:
        cv2.imwrite(str(media / "wall.png"), np.full((200, 200, 3), 50, np.uint8))
        avatar.lipsync(media / "wall.png", media / "speech.wav", tmp_path / "x.mp4")
    assert caught.value.field == "face"


def test_the_face_detector_runs_on_its_own_device(
    app_home: AppPaths, lipsync_model_dir: Path, media: Path, out_dir: Path
) -> None:
    # A GPU this machine lacks passes the device check and fails to compile: what a broken
    # driver does.
    devices = [CPU, DeviceInfo("GPU", "Test GPU")]
    settings = Settings(lipsync_model=lipsync_model_dir, face_detector_device="GPU")
    registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
    metrics = MetricsBus()
    voice = VoiceService(app_home.voices_dir, settings, metrics, devices, registry)
    avatar = AvatarService(app_home.avatar_dir, settings, metrics, devices, registry, voice)
    face, speech = media / "astronaut.png", media / "speech.wav"
    with pytest.raises(UserError, match="face detector could not be compiled for GPU") as caught:
        avatar.lipsync(face, speech, out_dir / "gpu.mp4", device="CPU")  # the setting's GPU
    assert caught.value.field == "detector_device" and "Choose CPU" in str(caught.value)
    with pytest.raises(UserError, match="Face detector: Device 'TPU' is not available") as bad:
        avatar.lipsync(face, speech, out_dir / "tpu.mp4", device="CPU", detector_device="TPU")
    assert bad.value.field == "detector_device" and list(out_dir.iterdir()) == []
    result = avatar.lipsync(face, speech, out_dir / "cpu.mp4", device="CPU", detector_device="cpu")
    assert (result.device, result.detector_device, result.frames) == ("CPU", "CPU", 58)


def test_no_lipsync_model_explains_the_licence(app_home: AppPaths) -> None:
    registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
    metrics = MetricsBus()
    voice = VoiceService(app_home.voices_dir, Settings(), metrics, [CPU], registry)
    bare = AvatarService(app_home.avatar_dir, Settings(), metrics, [CPU], registry, voice)
    with pytest.raises(UserError, match="non-commercial") as caught:
        bare.model_folder()
    assert caught.value.field == "model" and "--task lipsync" in str(caught.value)


def test_spoken_answer_makes_one_clip_per_sentence_in_order(
    avatar: AvatarService, media: Path, tmp_path: Path
) -> None:
    voice_clip = write_clip(tmp_path / "voice.wav", speech_like(8.0, seed=7))
    avatar._voice.add_voice_from_file("Ada", voice_clip)
    arrived = []
    clips = avatar.speak_and_lipsync(
        "Hello there. How are you? Fine.", "Ada", media / "astronaut.png", on_clip=arrived.append
    )
    assert [c.text for c in clips] == ["Hello there.", "How are you?", "Fine."]
    assert arrived == clips
    for clip in clips:
        frames, _, seconds = _video(clip.path)
        assert len(frames) == int(np.ceil(clip.seconds * 25 - 1e-9))
        assert seconds == pytest.approx(clip.seconds, abs=0.07)
    assert [c.path.name for c in clips] == ["001.mp4", "002.mp4", "003.mp4"]
    for folder in (avatar.results_dir, clips[0].path.parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_cli_lipsync(
    app_home: AppPaths,
    lipsync_model_dir: Path,
    media: Path,
    out_dir: Path,
) -> None:
    env = {
        **os.environ,
        "OV_STUDIO_HOME": str(app_home.config.parent),
        "OV_STUDIO_LIPSYNC_MODEL": str(lipsync_model_dir),
    }
    args = ["--face", str(media / "astronaut.png"), "--audio", str(media / "speech.wav")]
    run = [sys.executable, "-m", "app", "lipsync", *args]

    def lipsync(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*run, *extra], capture_output=True, text=True, env=env, timeout=300, check=False
        )

    done = lipsync("-o", str(out_dir / "cli.mp4"), "--detector-device", "cpu", "--json")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["frames"] == 58 and payload["duration"] == pytest.approx(2.3)
    assert payload["fps_achieved"] > 0 and Path(payload["path"]).is_file()
    assert payload["device"] == payload["detector_device"] == "CPU"
    bad = lipsync("-o", str(out_dir / "no" / "x.mp4"))
    assert bad.returncode == 2
    assert "does not exist" in bad.stderr and "Traceback" not in bad.stderr
    unknown = lipsync("-o", str(out_dir / "tpu.mp4"), "--detector-device", "TPU")
    assert unknown.returncode == 2
    assert unknown.stderr.startswith("error: Face detector: Device 'TPU' is not available")
    assert unknown.stderr.count("\n") == 1 and not (out_dir / "tpu.mp4").exists()
