"""Face + speech → a lip-synced mp4, frame-exact and without giving up on hard frames.

Stages: read the face (image or video) and the speech; find the face (once for a still image,
every frame of a video, boxes smoothed); cut one mel window per output frame; run the model
in batches through the asynchronous infer queue; paste each mouth back through a feathered
mask; encode H.264 + AAC. Work goes in rounds of a few batches so progress, cancel and memory
stay bounded, and encoding overlaps nothing it must wait for.

What the reference code does wrong and this does not: a frame without a face is kept as it is
and the run goes on (it aborted); the video has ``ceil(duration × fps)`` frames (it dropped the
last ones); audio longer than the video plays the video forwards then backwards (ping-pong)
instead of stopping; nothing is pasted outside a soft mask (it left a box).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from pipelines.core import Cancelled, CancelToken, InvalidInputError, MetricRecord, Progress
from pipelines.lipsync.compose import crop_face, model_input, paste_mouth
from pipelines.lipsync.faces import Box, FaceDetector, choose, padded, smooth
from pipelines.lipsync.media import (
    AUDIO_RATE,
    FaceSource,
    Mp4Writer,
    check_output,
    read_face,
    read_speech,
    temp_output,
)
from pipelines.lipsync.mel import frame_count, mel_windows
from pipelines.lipsync.model import BATCH, LipsyncModel

ROUND_FRAMES = 2 * BATCH
MIN_AUDIO_SECONDS = 0.1
Audio = Path | tuple[npt.NDArray[np.float32], int]


@dataclass(frozen=True)
class LipsyncResult:
    """A finished video."""

    path: Path
    frames: int
    fps: float
    achieved_fps: float
    duration: float
    device: str
    faceless_frames: int = 0
    stage_seconds: dict[str, float] = field(default_factory=dict)


class LipsyncPipeline:
    """A lip-sync model and a face detector on one device."""

    def __init__(self, model: Path, detector: Path, device: str = "CPU", *, jobs: int = 2) -> None:
        self.model = LipsyncModel(model, device, jobs=jobs)
        self.detector = FaceDetector(detector, device)
        self.device = device
        self.last: LipsyncResult | None = None

    def detect_faces(self, face: Path) -> list[Box]:
        """Faces in an image (or a video's first frame), largest first.

        Raises:
            InvalidInputError: the file cannot be read as an image or video.
        """
        source = read_face(face, max_frames=1)
        return self.detector.detect(source.frames[0])

    def run(
        self,
        face: Path,
        audio: Audio,
        output: Path,
        *,
        cancel: CancelToken | None = None,
        on_progress: Callable[[Progress], None] | None = None,
        face_index: int | None = None,
    ) -> LipsyncResult:
        """Write ``output`` (.mp4): ``face`` speaking ``audio`` (a file or 16 kHz samples).

        Raises:
            InvalidInputError: bad face, audio or output (``field`` says which).
            Cancelled: ``cancel`` was set; no file is left.
        """
        started = time.perf_counter()
        stages: dict[str, float] = {}
        check_output(output)
        samples = _speech(audio)
        fps_guess = 25.0
        source = read_face(face, max_frames=frame_count(samples.size, 60.0) + 1)
        fps = source.fps if not source.still else fps_guess
        total = frame_count(samples.size, fps)
        mark = time.perf_counter()
        boxes = self._boxes(source, face_index, face)
        stages["detect"] = time.perf_counter() - mark
        mark = time.perf_counter()
        windows = mel_windows(samples, fps)
        stages["mel"] = time.perf_counter() - mark
        order = _ping_pong(len(source.frames), total)
        faceless = sum(1 for index in order if boxes[index] is None)
        stages.update(infer=0.0, compose=0.0, encode=0.0)
        height, width = source.frames[0].shape[:2]
        with temp_output(output) as temp:
            writer = Mp4Writer(temp, fps, width, height)
            try:
                for begin in range(0, total, ROUND_FRAMES):
                    if cancel is not None and cancel.cancelled:
                        raise Cancelled()
                    end = min(total, begin + ROUND_FRAMES)
                    self._round(
                        source, boxes, order[begin:end], windows[begin:end], writer, stages, cancel
                    )
                    if on_progress is not None:
                        on_progress(_progress(end, total, started))
                mark = time.perf_counter()
                writer.finish(samples)
                stages["encode"] += time.perf_counter() - mark
            except BaseException:
                writer.abort()
                raise
        elapsed = time.perf_counter() - started
        self.last = LipsyncResult(
            path=output,
            frames=total,
            fps=fps,
            achieved_fps=total / elapsed if elapsed else 0.0,
            duration=samples.size / AUDIO_RATE,
            device=self.device,
            faceless_frames=faceless,
            stage_seconds={name: round(value, 4) for name, value in stages.items()},
        )
        return self.last

    def metrics(self) -> MetricRecord:
        """The last run as a metric record (fps and stage times in ms)."""
        last = self.last
        values: dict[str, float] = {}
        if last is not None:
            values = {"fps": last.achieved_fps, "frames": float(last.frames)}
            values.update({f"{k}_ms": 1000.0 * v for k, v in last.stage_seconds.items()})
        return MetricRecord("lipsync", self.device, values)

    def _boxes(self, source: FaceSource, face_index: int | None, face: Path) -> list[Box | None]:
        """The padded face box of every source frame (None where there is no face)."""
        frames = source.frames
        height, width = frames[0].shape[:2]
        if source.still:
            chosen = choose(self.detector.detect(frames[0]), face_index)
            if chosen is None:
                raise InvalidInputError(
                    f"No face was found in {face.name}. Use a photo where the face is clearly "
                    "visible and faces the camera.",
                    field="face",
                )
            return [padded(chosen, width, height)]
        found: list[Box | None] = []
        for frame in frames:
            box = choose(self.detector.detect(frame), face_index)
            found.append(padded(box, width, height) if box is not None else None)
        if all(box is None for box in found):
            raise InvalidInputError(f"No face was found in any frame of {face.name}.", field="face")
        return smooth(found)

    def _round(
        self,
        source: FaceSource,
        boxes: list[Box | None],
        order: list[int],
        windows: npt.NDArray[np.float32],
        writer: Mp4Writer,
        stages: dict[str, float],
        cancel: CancelToken | None,
    ) -> None:
        mark = time.perf_counter()
        faced = [i for i, index in enumerate(order) if boxes[index] is not None]
        crops = {i: crop_face(source.frames[order[i]], boxes[order[i]]) for i in faced}  # type: ignore[arg-type]
        inputs = np.stack([model_input(crops[i]) for i in faced]) if faced else None
        stages["compose"] += time.perf_counter() - mark
        mouths = None
        if inputs is not None:
            mark = time.perf_counter()
            mouths = self.model.infer(np.ascontiguousarray(windows[faced]), inputs, cancel=cancel)
            stages["infer"] += time.perf_counter() - mark
        slot = {i: n for n, i in enumerate(faced)}
        for i, index in enumerate(order):
            mark = time.perf_counter()
            frame = source.frames[index]
            box = boxes[index]
            if box is not None and mouths is not None:
                frame = paste_mouth(frame, box, mouths[slot[i]])
            stages["compose"] += time.perf_counter() - mark
            mark = time.perf_counter()
            writer.add_frame(frame)
            stages["encode"] += time.perf_counter() - mark


def _speech(audio: Audio) -> npt.NDArray[np.float32]:
    if isinstance(audio, Path):
        samples = read_speech(audio)
    else:
        data, rate = audio
        from pipelines.voice.audio import to_model_rate

        samples = to_model_rate(np.asarray(data, dtype=np.float32), rate)
    if samples.size < MIN_AUDIO_SECONDS * AUDIO_RATE:
        raise InvalidInputError(
            "The speech is empty (under a tenth of a second): there is nothing to lip-sync.",
            field="audio",
        )
    return samples


def _ping_pong(available: int, needed: int) -> list[int]:
    """Source frame for each output frame: forwards, then backwards, and so on."""
    if available == 1:
        return [0] * needed
    period = 2 * (available - 1)
    order = []
    for n in range(needed):
        phase = n % period
        order.append(phase if phase < available else period - phase)
    return order


def _progress(done: int, total: int, started: float) -> Progress:
    elapsed = time.perf_counter() - started
    rate = done / elapsed if elapsed else 0.0
    eta = (total - done) / rate if rate else 0.0
    return Progress(
        "lipsync", done, total, f"{done}/{total} frames, {rate:.0f} frames/s, {eta:.0f} s left"
    )
