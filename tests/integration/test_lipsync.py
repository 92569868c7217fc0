"""Lip-sync end to end on the tiny Wav2Lip-contract model and the real BlazeFace detector."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import av
import cv2
import numpy as np
import pytest
from skimage import data

from app.devices import DeviceInfo
from app.errors import UserError
from app.metrics import MetricsBus
from app.models.registry import ModelRegistry
from app.paths import AppPaths
from app.services.avatar import AvatarService
from app.services.voice import VoiceService
from app.settings import Settings
from pipelines.core import Cancelled, CancelToken, InvalidInputError
from pipelines.lipsync.pipeline import LipsyncPipeline
from tests.audio_samples import speech_like, write_clip

pytestmark = pytest.mark.integration
CPU = DeviceInfo("CPU", "Test CPU")


@pytest.fixture(scope="module")
def pipeline(lipsync_model_dir: Path, face_detector_path: Path) -> LipsyncPipeline:
    return LipsyncPipeline(lipsync_model_dir, face_detector_path)


@pytest.fixture
def media(tmp_path: Path) -> Path:
    folder = tmp_path / "media"
    folder.mkdir()
    cv2.imwrite(str(folder / "astronaut.png"), data.astronaut()[:, :, ::-1])
    write_clip(folder / "speech.wav", speech_like(2.3, seed=1))
    return folder


@pytest.fixture
def out_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "out"
    folder.mkdir()
    return folder


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


def _write_video(path: Path, frames: list[np.ndarray], fps: int = 25) -> Path:
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=fps)
        stream.width, stream.height = frames[0].shape[1], frames[0].shape[0]
        stream.pix_fmt = "yuv420p"
        stream.options = {"crf": "0"}
        for frame in frames:
            for packet in stream.encode(av.VideoFrame.from_ndarray(frame, "bgr24")):
                container.mux(packet)
        for packet in stream.encode(None):
            container.mux(packet)
    return path


def test_face_is_found_on_the_astronaut(pipeline: LipsyncPipeline, media: Path) -> None:
    [face] = pipeline.detect_faces(media / "astronaut.png")
    # Her face spans about x 180–270, y 80–175 in the 512×512 image.
    assert 160 < face.x < 200 and 60 < face.y < 100
    assert 70 < face.w < 120 and 70 < face.h < 120
    assert face.score > 0.8


def test_still_image_and_speech_make_a_frame_exact_mp4(
    pipeline: LipsyncPipeline, media: Path, out_dir: Path
) -> None:
    progress = []
    result = pipeline.run(
        media / "astronaut.png",
        media / "speech.wav",
        out_dir / "talk.mp4",
        on_progress=progress.append,
    )
    frames, fps, audio_seconds = _video(out_dir / "talk.mp4")
    assert len(frames) == result.frames == 58  # ceil(2.3 × 25)
    assert fps == 25.0
    assert audio_seconds == pytest.approx(2.3, abs=0.07)  # AAC pads to whole 1024-sample frames
    assert result.duration == pytest.approx(2.3)
    assert progress[-1].done == progress[-1].total == 58
    assert "frames/s" in progress[-1].message
    assert set(result.stage_seconds) == {"detect", "mel", "infer", "compose", "encode"}
    # The mouth changed; the top of the image did not (beyond compression noise).
    source = data.astronaut()[:, :, ::-1].astype(int)
    assert np.abs(frames[10][:60].astype(int) - source[:60]).mean() < 3
    assert np.abs(frames[10][150:175, 205:245].astype(int) - source[150:175, 205:245]).mean() > 10
    assert [p.name for p in out_dir.iterdir()] == ["talk.mp4"]
    assert pipeline.metrics().values["fps"] > 0


def test_frames_without_a_face_pass_through(
    pipeline: LipsyncPipeline, media: Path, out_dir: Path
) -> None:
    astronaut = np.ascontiguousarray(data.astronaut()[:, :, ::-1])
    plain = np.full_like(astronaut, 90)
    frames = [astronaut] * 10 + [plain] * 10 + [astronaut] * 10
    clip = _write_video(media / "mixed.mp4", frames)
    write_clip(media / "one-second.wav", speech_like(1.2, seed=2))
    result = pipeline.run(clip, media / "one-second.wav", out_dir / "mixed.mp4")
    assert result.frames == 30 and result.faceless_frames == 10
    out, fps, _ = _video(out_dir / "mixed.mp4")
    assert len(out) == 30 and fps == 25.0
    with av.open(str(clip)) as container:
        source = [f.to_ndarray(format="bgr24") for f in container.decode(video=0)]
    # The plain frames are passed through; each BGR→YUV→BGR trip through libswscale shifts a
    # flat grey by a few levels, which is all that differs.
    for index in range(10, 20):
        assert np.abs(out[index].astype(int) - source[index].astype(int)).max() <= 6
    assert np.abs(out[5].astype(int) - source[5].astype(int)).max() > 20  # a mouth was made


def test_audio_longer_than_the_video_plays_it_back_and_forth(
    pipeline: LipsyncPipeline, media: Path, out_dir: Path
) -> None:
    astronaut = np.ascontiguousarray(data.astronaut()[:, :, ::-1])
    frames = [np.clip(astronaut.astype(int) + 12 * i, 0, 255).astype(np.uint8) for i in range(5)]
    clip = _write_video(media / "short.mp4", frames)
    write_clip(media / "long.wav", speech_like(0.8, seed=4))  # 20 frames for a 5-frame video
    result = pipeline.run(clip, media / "long.wav", out_dir / "loop.mp4")
    out, _, _ = _video(out_dir / "loop.mp4")
    assert result.frames == len(out) == 20
    brightness = [int(frame[:40].mean()) for frame in out]  # the sky area: no mouth there
    # 0 1 2 3 4 3 2 1 0 1 …: brightness rises, falls, rises.
    assert brightness[0] < brightness[4] > brightness[8] < brightness[12]


def test_cancel_leaves_no_file(pipeline: LipsyncPipeline, media: Path, out_dir: Path) -> None:
    write_clip(media / "long.wav", speech_like(8.0, seed=5))
    cancel = CancelToken()

    def stop_after_first_round(progress: object) -> None:
        cancel.cancel()

    with pytest.raises(Cancelled):
        pipeline.run(
            media / "astronaut.png",
            media / "long.wav",
            out_dir / "never.mp4",
            cancel=cancel,
            on_progress=stop_after_first_round,
        )
    assert list(out_dir.iterdir()) == []


def _bad_inputs(media: Path) -> dict[str, tuple[Path, Path, str, str]]:
    speech = media / "speech.wav"
    cv2.imwrite(str(media / "wall.png"), np.full((300, 300, 3), 200, np.uint8))
    cv2.imwrite(str(media / "tiny.png"), cv2.resize(data.astronaut(), (32, 32)))
    (media / "corrupt.jpg").write_bytes(b"\xff\xd8\xff\xe0 this is not really a jpeg")
    (media / "corrupt.mp4").write_bytes(b"\x00\x00\x00\x18ftypmp42 garbage" * 10)
    (media / "face.gif").write_bytes(b"GIF89a")
    with av.open(str(media / "voice-only.mp4"), "w") as container:  # an mp4 with no video
        stream = container.add_stream("aac", rate=16000, layout="mono")
        samples = speech_like(0.5)
        frame = av.AudioFrame.from_ndarray(samples[np.newaxis], format="fltp", layout="mono")
        frame.sample_rate = 16000
        for packet in [*stream.encode(frame), *stream.encode(None)]:
            container.mux(packet)
    write_clip(media / "empty.wav", np.zeros(0, np.float32))
    astronaut = media / "astronaut.png"
    return {
        "no face": (media / "wall.png", speech, "face", "No face was found"),
        "32x32": (media / "tiny.png", speech, "face", "only 32×32 pixels"),
        "corrupt image": (media / "corrupt.jpg", speech, "face", "not a readable image"),
        "corrupt video": (media / "corrupt.mp4", speech, "face", "not a readable video"),
        "no video stream": (media / "voice-only.mp4", speech, "face", "has no video"),
        "unsupported": (media / "face.gif", speech, "face", "not supported"),
        "empty audio": (astronaut, media / "empty.wav", "audio", "no audio in it"),
        "not audio": (astronaut, media / "wall.png", "audio", "not an audio file"),
    }


@pytest.mark.parametrize(
    "case",
    [
        "no face",
        "32x32",
        "corrupt image",
        "corrupt video",
        "no video stream",
        "unsupported",
        "empty audio",
        "not audio",
    ],
)
def test_bad_input_is_named_and_nothing_is_written(
    pipeline: LipsyncPipeline, media: Path, out_dir: Path, case: str
) -> None:
    face, audio, field, message = _bad_inputs(media)[case]
    with pytest.raises(InvalidInputError, match=message) as caught:
        pipeline.run(face, audio, out_dir / "out.mp4")
    assert caught.value.field == field
    assert list(out_dir.iterdir()) == []


def test_silent_speech_still_makes_a_video(
    pipeline: LipsyncPipeline, media: Path, out_dir: Path
) -> None:
    write_clip(media / "silence.wav", np.zeros(16000, np.float32))
    result = pipeline.run(media / "astronaut.png", media / "silence.wav", out_dir / "quiet.mp4")
    assert result.frames == 25


def test_huge_image_is_scaled_down(pipeline: LipsyncPipeline, media: Path, out_dir: Path) -> None:
    huge = cv2.resize(data.astronaut()[:, :, ::-1], (8000, 8000), interpolation=cv2.INTER_LINEAR)
    cv2.imwrite(str(media / "huge.jpg"), huge)
    write_clip(media / "short.wav", speech_like(0.4, seed=6))
    pipeline.run(media / "huge.jpg", media / "short.wav", out_dir / "huge.mp4")
    frames, _, _ = _video(out_dir / "huge.mp4")
    assert frames[0].shape[:2] == (1920, 1920)


def test_output_that_cannot_be_written(
    pipeline: LipsyncPipeline, media: Path, tmp_path: Path
) -> None:
    for output, message in (
        (tmp_path / "missing" / "out.mp4", "does not exist"),
        (tmp_path / "out.avi", r"saved as \.mp4"),
    ):
        with pytest.raises(InvalidInputError, match=message) as caught:
            pipeline.run(media / "astronaut.png", media / "speech.wav", output)
        assert caught.value.field == "output"
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        with pytest.raises(InvalidInputError, match="Cannot write"):
            pipeline.run(media / "astronaut.png", media / "speech.wav", locked / "out.mp4")


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
    assert avatar.faces(media / "astronaut.png")[0][2] > 50
    record = avatar._metrics.latest("lipsync")
    assert record is not None and record.values["fps"] > 0 and "infer_ms" in record.values


def test_service_errors_name_the_field(avatar: AvatarService, media: Path, tmp_path: Path) -> None:
    with pytest.raises(UserError, match="No face") as caught:
        cv2.imwrite(str(media / "wall.png"), np.full((200, 200, 3), 50, np.uint8))
        avatar.lipsync(media / "wall.png", media / "speech.wav", tmp_path / "x.mp4")
    assert caught.value.field == "face"


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
    done = subprocess.run(
        [*run, "-o", str(out_dir / "cli.mp4"), "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["frames"] == 58 and payload["duration"] == pytest.approx(2.3)
    assert payload["fps_achieved"] > 0 and Path(payload["path"]).is_file()
    bad = subprocess.run(
        [*run, "-o", str(out_dir / "no" / "x.mp4")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert bad.returncode == 2
    assert "does not exist" in bad.stderr and "Traceback" not in bad.stderr
