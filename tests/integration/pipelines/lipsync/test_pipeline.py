"""The lip-sync pipeline end to end: the tiny Wav2Lip-contract model, the real BlazeFace
detector, real files in and a real mp4 out (read back with PyAV)."""

from __future__ import annotations

import math
from pathlib import Path

import av
import cv2
import numpy as np
import openvino as ov
import pytest
from skimage import data

from pipelines.core import (
    Cancelled,
    CancelToken,
    DeviceError,
    InvalidInputError,
    ModelLoadError,
    Progress,
)
from pipelines.lipsync.media import read_face, read_speech
from pipelines.lipsync.pipeline import LipsyncPipeline
from tests.audio_samples import speech_like, write_clip
from tests.video_samples import read_mp4, write_frames

pytestmark = pytest.mark.integration

Frame = np.ndarray


@pytest.fixture(scope="module")
def pipeline(lipsync_model_dir: Path, face_detector_path: Path) -> LipsyncPipeline:
    return LipsyncPipeline(lipsync_model_dir, face_detector_path)


def _astronaut() -> Frame:
    return np.ascontiguousarray(data.astronaut()[:, :, ::-1])


def _decoded(path: Path) -> list[Frame]:
    with av.open(str(path)) as container:
        return [f.to_ndarray(format="bgr24") for f in container.decode(video=0)]


def _diff(a: Frame, b: Frame) -> Frame:
    return np.abs(a.astype(int) - b.astype(int))


# -- finding the face ---------------------------------------------------------------------


def test_one_face_is_found_on_the_astronaut_where_her_face_is(
    pipeline: LipsyncPipeline, media: Path
) -> None:
    [face] = pipeline.detect_faces(media / "astronaut.png")
    # Her face (forehead to chin, ear to ear) spans about x 180–270, y 80–175 of 512×512.
    assert 165 <= face.x <= 195 and 65 <= face.y <= 95
    assert 75 <= face.w <= 115 and 75 <= face.h <= 115
    assert face.score > 0.8


def test_boxes_of_a_large_image_are_in_its_own_pixels(
    pipeline: LipsyncPipeline, media: Path
) -> None:
    small = pipeline.detect_faces(media / "astronaut.png")[0]
    big = cv2.resize(_astronaut(), (2560, 2560), interpolation=cv2.INTER_CUBIC)
    cv2.imwrite(str(media / "big.jpg"), big)  # read at 1920, reported at 2560
    [face] = pipeline.detect_faces(media / "big.jpg")
    assert face.x == pytest.approx(5 * small.x, abs=25) and face.w == pytest.approx(
        5 * small.w, abs=40
    )


def test_the_face_to_animate_can_be_chosen(
    pipeline: LipsyncPipeline, media: Path, out_dir: Path
) -> None:
    astronaut = _astronaut()
    pair = np.full((512, 1024, 3), 255, np.uint8)  # her, and a smaller copy on the right
    pair[:, :512] = astronaut
    pair[128:, 640:] = cv2.resize(astronaut, (384, 384))
    cv2.imwrite(str(media / "two.png"), pair)
    faces = pipeline.detect_faces(media / "two.png")
    assert len(faces) == 2 and faces[0].area > faces[1].area and faces[1].x > 640
    big, small = faces
    mouths = [np.s_[f.y + f.h // 2 : f.y + f.h, f.x : f.x + f.w] for f in (big, small)]

    def changed(output: Path) -> list[float]:
        frame = read_mp4(output)[0][5]
        return [float(_diff(frame[m], pair[m]).mean()) for m in mouths]

    for number, choice in enumerate(({"face_index": 1}, {"face_point": small.centre})):
        output = out_dir / f"chosen-{number}.mp4"
        pipeline.run(media / "two.png", media / "speech.wav", output, **choice)  # type: ignore[arg-type]
        big_mouth, small_mouth = changed(output)
        assert big_mouth < 4 and small_mouth > 10  # only the chosen face speaks
    pipeline.run(media / "two.png", media / "speech.wav", out_dir / "default.mp4")
    big_mouth, small_mouth = changed(out_dir / "default.mp4")
    assert big_mouth > 10 and small_mouth < 4  # by default the largest face speaks


@pytest.mark.parametrize("index", [2, -1])
def test_a_face_number_that_was_not_found_is_refused(
    pipeline: LipsyncPipeline, media: Path, out_dir: Path, index: int
) -> None:
    astronaut = _astronaut()
    pair = np.full((512, 1024, 3), 255, np.uint8)
    pair[:, :512] = astronaut
    pair[128:, 640:] = cv2.resize(astronaut, (384, 384))
    cv2.imwrite(str(media / "two.png"), pair)
    write_frames(media / "two.mp4", [pair] * 5)
    for face in (media / "two.png", media / "two.mp4"):
        with pytest.raises(InvalidInputError) as caught:
            pipeline.run(face, media / "speech.wav", out_dir / "x.mp4", face_index=index)
        assert str(caught.value) == (
            f"There is no face number {index} in {face.name}: 2 faces were found, numbered 0 "
            "(the largest) to 1."
        )
        assert caught.value.field == "face" and list(out_dir.iterdir()) == []


# -- end to end ---------------------------------------------------------------------------


def test_a_still_image_and_speech_make_a_frame_exact_mp4(
    pipeline: LipsyncPipeline, media: Path, out_dir: Path
) -> None:
    progress: list[Progress] = []
    result = pipeline.run(
        media / "astronaut.png",
        media / "speech.wav",
        out_dir / "talk.mp4",
        on_progress=progress.append,
    )
    frames, fps, audio_seconds = read_mp4(out_dir / "talk.mp4")
    assert len(frames) == result.frames == 58  # ceil(2.3 × 25)
    assert fps == result.fps == 25.0
    assert audio_seconds == pytest.approx(2.3, abs=0.07)  # AAC pads to whole 1024-sample frames
    assert result.duration == pytest.approx(2.3) and result.path == out_dir / "talk.mp4"
    assert result.faceless_frames == 0 and result.device == "CPU" and result.achieved_fps > 0
    assert result.detector_device == "CPU"
    assert set(result.stage_seconds) == {"detect", "mel", "infer", "compose", "encode"}
    assert [p.done for p in progress] == sorted(p.done for p in progress)
    assert progress[-1].done == progress[-1].total == 58
    assert "frames/s" in progress[-1].message and "left" in progress[-1].message
    source = _astronaut()
    # Above the mouth nothing but compression noise; the mouth itself was regenerated.
    assert _diff(frames[10][:110], source[:110]).mean() < 4
    assert _diff(frames[10][150:175, 205:245], source[150:175, 205:245]).mean() > 10
    assert [p.name for p in out_dir.iterdir()] == ["talk.mp4"]
    assert pipeline.metrics().values["fps"] > 0 and "infer_ms" in pipeline.metrics().values


@pytest.mark.parametrize(("rate", "muxed"), [(44_100, 44_100), (24_000, 24_000), (22_000, 16_000)])
def test_speech_as_samples_at_another_rate(
    pipeline: LipsyncPipeline, media: Path, out_dir: Path, rate: int, muxed: int
) -> None:
    """The model hears 16 kHz; the clip keeps the voice's own rate where AAC has it, so a
    10 kHz overtone (above 16 kHz's 8 kHz limit) is still in a 24 kHz voice's clip."""
    seconds = np.arange(rate) / rate
    overtone = 0.05 * np.sin(2 * np.pi * 10_000 * seconds) if rate > 20_000 else 0.0
    stereo = np.stack([speech_like(1.0, rate=rate) + overtone] * 2, axis=1).astype(np.float32)
    result = pipeline.run(media / "astronaut.png", (stereo, rate), out_dir / "rate.mp4")
    assert result.frames == 25 and result.duration == pytest.approx(1.0, abs=1e-3)
    with av.open(str(out_dir / "rate.mp4")) as container:
        stream = container.streams.audio[0]
        assert stream.rate == muxed
        sound = np.concatenate([f.to_ndarray().reshape(-1) for f in container.decode(stream)])
    spectrum = np.abs(np.fft.rfft(sound[: muxed // 2]))
    frequencies = np.fft.rfftfreq(muxed // 2, 1 / muxed)
    high = spectrum[(frequencies > 9_900) & (frequencies < 10_100)].max(initial=0.0)
    kept = high > 10 * np.median(spectrum)
    assert kept == (muxed > 20_000)


def test_speech_from_an_m4a_file(pipeline: LipsyncPipeline, media: Path, out_dir: Path) -> None:
    with av.open(str(media / "speech.m4a"), "w", format="mp4") as container:
        stream = container.add_stream("aac", rate=16_000, layout="mono")
        samples = speech_like(1.2, seed=8)
        frame = av.AudioFrame.from_ndarray(samples[np.newaxis], format="fltp", layout="mono")
        frame.sample_rate, frame.pts = 16_000, 0
        for packet in [*stream.encode(frame), *stream.encode(None)]:
            container.mux(packet)
    result = pipeline.run(media / "astronaut.png", media / "speech.m4a", out_dir / "m4a.mp4")
    assert result.duration == pytest.approx(1.2, abs=0.01)


# -- every input format the app offers ----------------------------------------------------


def _shades(count: int, step: int = 12) -> list[Frame]:
    """320×240 frames of the astronaut (scaled by 0.625, the bottom cut off), ``step`` brighter
    in each frame: the sky tells them apart. Not square, so width and height cannot swap."""
    astronaut = cv2.resize(_astronaut(), (320, 320), interpolation=cv2.INTER_AREA)[:240]
    return [
        np.clip(astronaut.astype(int) + step * i, 0, 255).astype(np.uint8) for i in range(count)
    ]


@pytest.mark.parametrize("suffix", [".mov", ".webm"])
def test_face_videos_in_mov_and_webm_are_read_frame_by_frame(
    pipeline: LipsyncPipeline, media: Path, suffix: str
) -> None:
    written = _shades(7)
    clip = write_frames(media / f"face{suffix}", written)
    source = read_face(clip)
    assert (source.width, source.height, source.fps, source.still) == (320, 240, 25.0, False)
    frames = list(source.frames())
    assert len(frames) == 7 and all(f.shape == (240, 320, 3) for f in frames)
    for frame, original in zip(frames, written, strict=True):  # in order, none repeated
        assert _diff(frame[:40], original[:40]).mean() < 3
    [face] = pipeline.detect_faces(clip)
    [full] = pipeline.detect_faces(media / "astronaut.png")
    assert face.x == pytest.approx(0.625 * full.x, abs=6)  # where her face is in the png
    assert face.y == pytest.approx(0.625 * full.y, abs=6)


def test_a_webp_face_is_read(pipeline: LipsyncPipeline, media: Path) -> None:
    assert cv2.imwrite(str(media / "face.webp"), _astronaut(), [cv2.IMWRITE_WEBP_QUALITY, 101])
    source = read_face(media / "face.webp")
    assert (source.width, source.height, source.fps, source.still) == (512, 512, 25.0, True)
    assert source.image is not None and np.array_equal(source.image, _astronaut())  # lossless
    assert pipeline.detect_faces(media / "face.webp") == pipeline.detect_faces(
        media / "astronaut.png"
    )


@pytest.mark.parametrize("rate", [16_000, 44_100])
@pytest.mark.parametrize("suffix", [".flac", ".mp3"])
def test_speech_in_flac_and_mp3_is_read_at_its_length(media: Path, suffix: str, rate: int) -> None:
    stereo = np.stack([speech_like(1.7, rate=rate, seed=9)] * 2, axis=1)
    samples = read_speech(write_clip(media / f"speech{suffix}", stereo, rate))
    assert samples.dtype == np.float32 and samples.ndim == 1
    # mp3 encoders pad to whole frames; the reader trims by the encoder's gapless header.
    assert samples.size / 16_000 == pytest.approx(1.7, abs=0.01)
    assert 0.1 < float(np.abs(samples).max()) < 0.5  # speech, not silence or noise


@pytest.mark.parametrize(("face", "speech"), [(".webm", ".mp3"), (".mov", ".flac")])
def test_a_video_face_and_compressed_speech_make_a_frame_exact_mp4(
    pipeline: LipsyncPipeline, media: Path, out_dir: Path, face: str, speech: str
) -> None:
    clip = write_frames(media / f"face{face}", _shades(30, step=2))
    audio = write_clip(media / f"speech{speech}", speech_like(0.9, seed=10))
    result = pipeline.run(clip, audio, out_dir / "talk.mp4")
    frames, fps, seconds = read_mp4(out_dir / "talk.mp4")
    assert len(frames) == result.frames == math.ceil(0.9 * 25) and fps == 25.0
    assert frames[0].shape == (240, 320, 3) and seconds == pytest.approx(0.9, abs=0.07)
    assert result.faceless_frames == 0


def test_frames_without_a_face_pass_through_unchanged(
    pipeline: LipsyncPipeline, media: Path, out_dir: Path
) -> None:
    astronaut = _astronaut()
    plain = np.full_like(astronaut, 90)
    clip = write_frames(media / "mixed.mp4", [astronaut] * 10 + [plain] * 10 + [astronaut] * 10)
    write_clip(media / "speech.wav", speech_like(1.2, seed=2))
    result = pipeline.run(clip, media / "speech.wav", out_dir / "mixed.mp4")
    assert result.frames == 30 and result.faceless_frames == 10
    out, fps, _ = read_mp4(out_dir / "mixed.mp4")
    source = _decoded(clip)
    assert len(out) == 30 and fps == 25.0
    for index in range(10, 20):
        # Passed through: only the BGR→YUV→BGR trip of the encoder shifts a flat grey a little.
        assert _diff(out[index], source[index]).max() <= 6
    assert _diff(out[5], source[5]).max() > 20  # a mouth was made where there is a face


def test_a_video_longer_than_the_speech_is_cut_at_its_fps(
    pipeline: LipsyncPipeline, media: Path, out_dir: Path
) -> None:
    clip = write_frames(media / "thirty.mp4", [_astronaut()] * 40, fps=30)
    write_clip(media / "short.wav", speech_like(0.5, seed=3))
    result = pipeline.run(clip, media / "short.wav", out_dir / "cut.mp4")
    frames, fps, _ = read_mp4(out_dir / "cut.mp4")
    assert fps == result.fps == 30.0 and result.frames == len(frames) == 15


def test_speech_longer_than_the_video_plays_it_back_and_forth(
    pipeline: LipsyncPipeline, media: Path, out_dir: Path
) -> None:
    astronaut = _astronaut()
    frames = [np.clip(astronaut.astype(int) + 12 * i, 0, 255).astype(np.uint8) for i in range(5)]
    clip = write_frames(media / "short.mp4", frames)
    write_clip(media / "long.wav", speech_like(0.8, seed=4))  # 20 frames from a 5-frame video
    result = pipeline.run(clip, media / "long.wav", out_dir / "loop.mp4")
    out, _, seconds = read_mp4(out_dir / "loop.mp4")
    assert result.frames == len(out) == 20 and seconds == pytest.approx(0.8, abs=0.07)
    # The sky (no mouth there) shows which source frame was used: 0 1 2 3 4 3 2 1 0 1 2 …
    brightness = [float(frame[:40].mean()) for frame in out]
    used = [int(np.argmin([abs(b - float(f[:40].mean())) for f in frames])) for b in brightness]
    assert used == [0, 1, 2, 3, 4, 3, 2, 1, 0, 1, 2, 3, 4, 3, 2, 1, 0, 1, 2, 3]


def test_silent_speech_makes_a_video_of_its_length(
    pipeline: LipsyncPipeline, media: Path, out_dir: Path
) -> None:
    write_clip(media / "silence.wav", np.zeros(16_000, np.float32))
    result = pipeline.run(media / "astronaut.png", media / "silence.wav", out_dir / "quiet.mp4")
    frames, _, seconds = read_mp4(out_dir / "quiet.mp4")
    assert result.frames == len(frames) == 25 and seconds == pytest.approx(1.0, abs=0.07)


def test_a_huge_image_is_scaled_down_not_refused(
    pipeline: LipsyncPipeline, media: Path, out_dir: Path
) -> None:
    huge = cv2.resize(_astronaut(), (8000, 8000), interpolation=cv2.INTER_NEAREST)
    cv2.imwrite(str(media / "huge.jpg"), huge, [cv2.IMWRITE_JPEG_QUALITY, 70])
    write_clip(media / "short.wav", speech_like(0.4, seed=6))
    pipeline.run(media / "huge.jpg", media / "short.wav", out_dir / "huge.mp4")
    frames, _, _ = read_mp4(out_dir / "huge.mp4")
    assert len(frames) == 10 and frames[0].shape[:2] == (1920, 1920)


def test_cancel_mid_run_leaves_no_file(
    pipeline: LipsyncPipeline, media: Path, out_dir: Path
) -> None:
    write_clip(media / "long.wav", speech_like(8.0, seed=5))  # 200 frames, 7 batches
    cancel = CancelToken()
    seen: list[int] = []

    def cancel_after_the_first_batch(progress: Progress) -> None:
        seen.append(progress.done)
        if progress.done > 0:
            cancel.cancel()

    with pytest.raises(Cancelled):
        pipeline.run(
            media / "astronaut.png",
            media / "long.wav",
            out_dir / "never.mp4",
            cancel=cancel,
            on_progress=cancel_after_the_first_batch,
        )
    assert 0 < seen[-1] < 200
    assert list(out_dir.iterdir()) == []
    # The pipeline is usable again after a cancel.
    result = pipeline.run(media / "astronaut.png", media / "speech.wav", out_dir / "after.mp4")
    assert result.frames == 58


def test_a_new_video_replaces_the_old_one_only_when_complete(
    pipeline: LipsyncPipeline, media: Path, out_dir: Path
) -> None:
    target = out_dir / "talk.mp4"
    target.write_bytes(b"the previous video")
    cancel = CancelToken()
    with pytest.raises(Cancelled):
        pipeline.run(
            media / "astronaut.png",
            media / "speech.wav",
            target,
            cancel=cancel,
            on_progress=lambda p: cancel.cancel() if p.done else None,
        )
    assert target.read_bytes() == b"the previous video" and len(list(out_dir.iterdir())) == 1
    pipeline.run(media / "astronaut.png", media / "speech.wav", target)
    assert len(read_mp4(target)[0]) == 58


# -- bad input: a clear message, the right field, nothing written --------------------------


def _no_video_stream(path: Path) -> Path:
    with av.open(str(path), "w") as container:  # an mp4 holding only sound
        stream = container.add_stream("aac", rate=16_000, layout="mono")
        frame = av.AudioFrame.from_ndarray(
            speech_like(0.5)[np.newaxis], format="fltp", layout="mono"
        )
        frame.sample_rate = 16_000
        for packet in [*stream.encode(frame), *stream.encode(None)]:
            container.mux(packet)
    return path


def _bad_input(media: Path, case: str) -> tuple[Path, Path, str, str]:
    """(face, audio, field, message) for one kind of bad input."""
    face, speech = media / "astronaut.png", media / "speech.wav"
    if case == "image without a face":
        cv2.imwrite(str(media / "wall.png"), np.full((300, 300, 3), 200, np.uint8))
        return media / "wall.png", speech, "face", "No face was found in wall.png"
    if case == "32x32 image":
        cv2.imwrite(str(media / "tiny.png"), cv2.resize(_astronaut(), (32, 32)))
        return media / "tiny.png", speech, "face", "only 32×32 pixels"
    if case == "corrupt image":
        (media / "corrupt.jpg").write_bytes(b"\xff\xd8\xff\xe0 this is not really a jpeg")
        return media / "corrupt.jpg", speech, "face", "not a readable image"
    if case == "corrupt video":
        (media / "corrupt.mp4").write_bytes(b"\x00\x00\x00\x18ftypmp42 garbage" * 10)
        return media / "corrupt.mp4", speech, "face", "not a readable video"
    if case == "video without a video stream":
        return _no_video_stream(media / "voice.mp4"), speech, "face", "has no video in it"
    if case == "video without any face":
        clip = write_frames(media / "wall.mp4", [np.full((128, 128, 3), 40, np.uint8)] * 5)
        return clip, speech, "face", "No face was found in any frame"
    if case == "unsupported face format":
        (media / "face.gif").write_bytes(b"GIF89a")
        return media / "face.gif", speech, "face", "not supported"
    if case == "missing face":
        return media / "nobody.png", speech, "face", "does not exist"
    if case == "empty audio":
        write_clip(media / "empty.wav", np.zeros(0, np.float32))
        return face, media / "empty.wav", "audio", "no audio in it"
    if case == "too short audio":
        write_clip(media / "blip.wav", speech_like(0.05))
        return face, media / "blip.wav", "audio", "shorter than a tenth of a second"
    if case == "not audio":
        return face, face, "audio", "not an audio file"
    raise AssertionError(case)


BAD_INPUTS = [
    "image without a face",
    "32x32 image",
    "corrupt image",
    "corrupt video",
    "video without a video stream",
    "video without any face",
    "unsupported face format",
    "missing face",
    "empty audio",
    "too short audio",
    "not audio",
]


@pytest.mark.parametrize("case", BAD_INPUTS)
def test_bad_input_is_named_and_nothing_is_written(
    pipeline: LipsyncPipeline, media: Path, out_dir: Path, case: str
) -> None:
    face, audio, field, message = _bad_input(media, case)
    with pytest.raises(InvalidInputError, match=message) as caught:
        pipeline.run(face, audio, out_dir / "out.mp4")
    assert caught.value.field == field
    assert "Traceback" not in str(caught.value) and len(str(caught.value)) < 300
    assert list(out_dir.iterdir()) == []


def test_empty_speech_samples_are_refused(
    pipeline: LipsyncPipeline, media: Path, out_dir: Path
) -> None:
    with pytest.raises(InvalidInputError, match="empty") as caught:
        pipeline.run(media / "astronaut.png", (np.zeros(0, np.float32), 16_000), out_dir / "x.mp4")
    assert caught.value.field == "audio" and list(out_dir.iterdir()) == []


def test_an_output_that_cannot_be_written_is_named(
    pipeline: LipsyncPipeline, media: Path, tmp_path: Path, unwritable_folder: Path
) -> None:
    cases = [
        (tmp_path / "missing" / "out.mp4", "does not exist"),
        (tmp_path / "out.avi", r"saved as \.mp4"),
        (media, r"saved as \.mp4"),
        (unwritable_folder / "out.mp4", "Cannot write in"),
    ]
    (tmp_path / "folder.mp4").mkdir()
    cases.append((tmp_path / "folder.mp4", "is a folder"))
    for output, message in cases:
        with pytest.raises(InvalidInputError, match=message) as caught:
            pipeline.run(media / "astronaut.png", media / "speech.wav", output)
        assert caught.value.field == "output"
    assert not (tmp_path / "out.avi").exists() and not (tmp_path / "missing").exists()


# -- the model contract -------------------------------------------------------------------


def test_a_model_without_the_contract_is_refused_on_load(
    face_detector_path: Path, tmp_path: Path
) -> None:
    import openvino.opset13 as ops

    image = ops.parameter([-1, 3, 96, 96], np.float32, name="image")
    ov.save_model(
        ov.Model([ops.sigmoid(image)], [image], "other"), str(tmp_path / "openvino_model.xml")
    )
    with pytest.raises(ModelLoadError, match=r"not a lip-sync model.*\[-1,3,96,96\]"):
        LipsyncPipeline(tmp_path, face_detector_path).load()
    with pytest.raises(ModelLoadError, match=r"openvino_model\.xml is missing"):
        LipsyncPipeline(tmp_path / "nothing", face_detector_path).load()


def test_the_face_detector_runs_on_the_device_asked_for(
    lipsync_model_dir: Path, face_detector_path: Path
) -> None:
    pipeline = LipsyncPipeline(lipsync_model_dir, face_detector_path, detector_device="CPU")
    assert pipeline.detector.device == "CPU" and pipeline.detector_device == "CPU"
    pipeline.load()
    with pytest.raises(
        DeviceError, match="NOSUCH is not available for the face detector"
    ) as caught:
        LipsyncPipeline(lipsync_model_dir, face_detector_path, detector_device="NOSUCH").load()
    assert caught.value.device == "NOSUCH" and caught.value.field == "detector_device"
    # The sentence OpenVINO puts after its "Exception from src/…cpp" lines.
    assert 'Device with "NOSUCH" name is not registered' in str(caught.value)
    assert "Exception from" not in str(caught.value)


def test_sync_and_async_runs_give_the_same_mouths(lipsync_model_dir: Path) -> None:
    from pipelines.lipsync.model import LipsyncModel

    rng = np.random.default_rng(0)
    audio = rng.uniform(-4, 4, (70, 1, 80, 16)).astype(np.float32)
    faces = rng.uniform(0, 1, (70, 6, 96, 96)).astype(np.float32)
    precise = {"INFERENCE_PRECISION_HINT": "f32"}
    sync = LipsyncModel(lipsync_model_dir, jobs=1, batch=16, properties=precise)
    queued = LipsyncModel(lipsync_model_dir, jobs=2, batch=16, properties=precise)
    one, other = sync.infer(audio, faces), queued.infer(audio, faces)
    assert one.shape == (70, 3, 96, 96)
    np.testing.assert_allclose(one, other, atol=1e-5)  # same order, same values
    np.testing.assert_allclose(one[:16], sync.infer(audio[:16], faces[:16]), atol=1e-5)


# -- the converter's checkpoint loading (torch: the conversion extra) ------------------------


def test_wav2lip_checkpoints_load_in_their_published_layouts(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from app.models.wav2lip_torch import CheckpointError, Wav2Lip, load_checkpoint

    torch.manual_seed(0)
    original = Wav2Lip().eval()
    assert sum(p.numel() for p in original.parameters()) == 36_298_035
    # DataParallel's "module." prefix, training extras beside the weights, no BN counters.
    state = {
        f"module.{key}": value
        for key, value in original.state_dict().items()
        if not key.endswith("num_batches_tracked")
    }
    torch.save({"state_dict": state, "global_step": 1, "global_epoch": 2}, tmp_path / "w.pth")
    loaded = load_checkpoint(tmp_path / "w.pth")
    audio, face = torch.randn(2, 1, 80, 16), torch.rand(2, 6, 96, 96)
    with torch.no_grad():
        assert torch.equal(loaded(audio, face), original(audio, face))
        assert loaded(audio, face).shape == (2, 3, 96, 96)

    torch.save({"conv.weight": torch.zeros(3)}, tmp_path / "other.pth")
    with pytest.raises(
        CheckpointError, match=r"302 missing .*1 unexpected \(e\.g\. conv\.weight\)"
    ):
        load_checkpoint(tmp_path / "other.pth")
    (tmp_path / "junk.pth").write_bytes(b"not a checkpoint")
    with pytest.raises(CheckpointError, match=r"junk\.pth is not a torch checkpoint"):
        load_checkpoint(tmp_path / "junk.pth")


def test_the_queue_keeps_order_across_empty_batches(lipsync_model_dir: Path) -> None:
    from pipelines.lipsync.model import LipsyncModel

    rng = np.random.default_rng(1)
    model = LipsyncModel(lipsync_model_dir, jobs=2, batch=4)
    sizes = [4, 0, 3, 0, 0, 4, 1]
    batches = [
        (
            rng.uniform(-4, 4, (n, 1, 80, 16)).astype(np.float32),
            rng.uniform(0, 1, (n, 6, 96, 96)).astype(np.float32),
        )
        for n in sizes
    ]
    outputs = list(model.stream(iter(batches)))
    assert [len(out) for out in outputs] == sizes
    for (audio, faces), out in zip(batches, outputs, strict=True):
        if len(audio):
            np.testing.assert_allclose(out, model.infer(audio, faces), atol=1e-6)


def test_a_looped_video_keeps_only_the_frames_it_shows_again(media: Path) -> None:
    from pipelines.lipsync.media import read_face
    from pipelines.lipsync.render import OrderedFrames, ping_pong

    rng = np.random.default_rng(3)
    frames = [rng.integers(0, 256, (96, 128, 3), dtype=np.uint8) for _ in range(6)]
    clip = write_frames(media / "six.mp4", frames)
    decoded = _decoded(clip)
    order = ping_pong(6, 14)  # 0 1 2 3 4 5 4 3 2 1 0 1 2 3
    source = read_face(clip, seconds=14 / 25)
    with OrderedFrames(source, order, memory_budget=2 * frames[0].nbytes) as ordered:
        shown = list(ordered)
        assert ordered._store.on_disk == 3  # frames 0–4 shown again: 2 in memory, 3 on disk
        spill = ordered._store._folder
        assert spill is not None and spill.is_dir()
    assert not spill.exists()
    assert len(shown) == 14
    for frame, index in zip(shown, order, strict=True):
        assert np.array_equal(frame, decoded[index])


def test_a_loop_too_large_for_temporary_space_is_refused(
    pipeline: LipsyncPipeline, media: Path, out_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pipelines.lipsync.pipeline as module

    clip = write_frames(media / "short.mp4", [_astronaut()] * 10)
    monkeypatch.setattr(module, "MAX_LOOP_BYTES", 5 * _astronaut().nbytes)
    with pytest.raises(InvalidInputError, match="played back and forth") as caught:
        pipeline.run(clip, media / "speech.wav", out_dir / "loop.mp4")  # 58 frames from 10
    assert caught.value.field == "face" and list(out_dir.iterdir()) == []
