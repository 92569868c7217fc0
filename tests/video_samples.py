"""Small real videos for tests: H.264 + AAC mp4 files written with PyAV.

A solid colour (or a picture) in every frame, so a test that plays one can tell which video
and which part it is seeing; silent AAC audio of the same length, as the lip-sync results have.
"""

from __future__ import annotations

import fractions
import os
from pathlib import Path

import numpy as np
import numpy.typing as npt

FPS = 25
SIZE = 64
AUDIO_RATE = 16_000

Color = tuple[int, int, int]


def write_clip(
    path: Path,
    picture: Color | npt.NDArray[np.uint8],
    frames: int = FPS,
    size: int = SIZE,
) -> Path:
    """An mp4 of ``frames`` identical frames (a colour or an RGB picture) with silent AAC."""
    import av

    if isinstance(picture, tuple):
        image = np.empty((size, size, 3), np.uint8)
        image[:] = picture
    else:
        image = np.ascontiguousarray(picture[:, :, :3], dtype=np.uint8)
    height, width = image.shape[:2]
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.part")
    with av.open(str(temp), "w", format="mp4") as container:
        video = container.add_stream("libx264", rate=FPS)
        video.width, video.height, video.pix_fmt = width, height, "yuv420p"
        audio = container.add_stream("aac", rate=AUDIO_RATE)
        audio.layout = "mono"
        for _ in range(frames):
            for packet in video.encode(av.VideoFrame.from_ndarray(image, format="rgb24")):
                container.mux(packet)
        for packet in video.encode():
            container.mux(packet)
        samples = AUDIO_RATE * frames // FPS
        for start in range(0, samples, 1024):
            count = min(1024, samples - start)
            chunk = av.AudioFrame.from_ndarray(
                np.zeros((1, count), np.float32), format="fltp", layout="mono"
            )
            chunk.sample_rate, chunk.pts = AUDIO_RATE, start
            chunk.time_base = fractions.Fraction(1, AUDIO_RATE)
            for packet in audio.encode(chunk):
                container.mux(packet)
        for packet in audio.encode():
            container.mux(packet)
    os.replace(temp, path)
    return path


def write_frames(path: Path, frames: list[npt.NDArray[np.uint8]], fps: int = FPS) -> Path:
    """A silent video of BGR ``frames`` in the container its suffix names (.mp4, .mov: H.264;
    .webm: VP9), losslessly, so a test can compare what is read back with what was written."""
    import av

    webm = path.suffix.lower() == ".webm"
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libvpx-vp9" if webm else "libx264", rate=fps)
        stream.width, stream.height = frames[0].shape[1], frames[0].shape[0]
        stream.pix_fmt = "yuv420p"
        stream.options = {"lossless": "1"} if webm else {"crf": "0"}
        for frame in frames:
            for packet in stream.encode(av.VideoFrame.from_ndarray(frame, format="bgr24")):
                container.mux(packet)
        for packet in stream.encode(None):
            container.mux(packet)
    return path


def read_mp4(path: Path) -> tuple[list[npt.NDArray[np.uint8]], float, float]:
    """Decoded BGR frames, the video's fps and the audio's duration in seconds.

    Asserts the codecs the app writes: H.264 video and AAC audio.
    """
    import av

    with av.open(str(path)) as container:
        video, audio = container.streams.video[0], container.streams.audio[0]
        assert video.codec_context.name == "h264" and audio.codec_context.name == "aac"
        fps = float(video.average_rate)
        frames = [f.to_ndarray(format="bgr24") for f in container.decode(video=0)]
        container.seek(0)
        samples = sum(f.samples for f in container.decode(audio=0))
        return frames, fps, samples / audio.rate
