"""Face + speech → a lip-synced mp4, frame-exact and without giving up on hard frames.

Stages: read the face (image or video) and the speech; find the face (once for a still image,
in every frame of a video, following the chosen face, boxes smoothed); one mel window per
output frame; the model in batches through the asynchronous infer queue, pasting and
encoding each batch while the next ones are inferred; the speech muxed as AAC at the end.

What the reference code does wrong and this does not: a frame without a face is kept as it is
and the run goes on (it aborted); the video has ``ceil(duration × fps)`` frames (it dropped the
last ones); audio longer than the video plays the video forwards then backwards (ping-pong)
instead of cutting the speech; nothing is pasted outside a soft mask (it left a box).

Choices for inputs a person might give: silent speech still makes a video (the face with a
closed mouth, as long as the audio) — a "video of nobody talking" is what silence asks for;
an empty (shorter than 0.1 s) speech is refused; an image without a face is refused, but in
a video the frames without one pass through unchanged (a video with no face at all is
refused); images are scaled down to 1920 px and videos to 1280 px (see media.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pipelines.contract import ModelPipeline
from pipelines.core import CancelToken, DeviceError, InvalidInputError, MetricRecord, Progress
from pipelines.files import replacing
from pipelines.lipsync.boxes import Box, choose, follow, padded, smooth
from pipelines.lipsync.faces import FaceDetector
from pipelines.lipsync.media import (
    AUDIO_RATE,
    MAX_AUDIO_SECONDS,
    FaceSource,
    read_face,
    read_speech,
)
from pipelines.lipsync.mel import frame_count, mel_spectrogram, padded_mel, window_starts
from pipelines.lipsync.model import BATCH, JOBS, LipsyncModel
from pipelines.lipsync.mp4 import MUXED_RATES, check_output
from pipelines.lipsync.render import OrderedFrames, Render, forward_run, ping_pong, report

MIN_AUDIO_SECONDS = 0.1
STAGES = ("detect", "mel", "infer", "compose", "encode")
RESCAN_FRAMES = 25  # while no face has been seen, a video frame is searched thoroughly this often
MAX_LOOP_BYTES = 8 * 1024**3  # frames kept to play a video backwards (RAM, then temp disk)

Audio = Path | tuple[npt.NDArray[np.floating], int]
Float32Array = npt.NDArray[np.float32]
Image = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class LipsyncResult:
    """A finished video and how it was made."""

    path: Path
    frames: int
    fps: float
    """Frame rate of the video (25 for a still image, the source's for a video)."""
    achieved_fps: float
    """Frames made per second of wall time, the whole run included."""
    duration: float
    """Seconds of speech (= the video's length)."""
    device: str
    """Where the lip-sync model ran."""
    faceless_frames: int = 0
    """Output frames passed through unchanged because their source frame had no face."""
    stage_seconds: dict[str, float] = field(default_factory=dict)
    """Wall time of each stage on the calling thread: ``detect`` (decoding the face input and
    finding the face), ``mel``, ``infer`` (waiting for the model: inference overlaps compose
    and encode), ``compose`` (crops and pasting) and ``encode``."""
    detector_device: str = "CPU"
    """Where the face detector ran."""


class LipsyncPipeline(ModelPipeline):
    """A lip-sync model and a face detector, loaded by :meth:`load`; one run at a time.

    Each has its own device. The detector's default is CPU: it takes ~1 ms per frame there,
    and a 128×128 input is not worth a round trip to an accelerator (or a failed compile on
    one); ``detector_device`` moves it, e.g. to keep the CPU free for other work.

    REPL use (the shape of every pipeline: :class:`pipelines.contract.Pipeline`)::

        with LipsyncPipeline(Path("models/wav2lip"), packaged_detector()) as lipsync:
            lipsync.load()
            lipsync.run(Path("face.png"), Path("speech.wav"), Path("out.mp4"))
    """

    name = "lipsync"

    def __init__(
        self,
        model: Path,
        detector: Path,
        device: str = "CPU",
        *,
        detector_device: str = "CPU",
        jobs: int = JOBS,
        batch: int = BATCH,
        properties: dict[str, Any] | None = None,
        cache_dir: Path | None = None,
        detector_cache_dir: Path | None = None,
    ) -> None:
        super().__init__(device, cache_dir)
        self.model = LipsyncModel(
            model, device, jobs=jobs, batch=batch, properties=properties, cache_dir=cache_dir
        )
        self.detector = FaceDetector(detector, detector_device, cache_dir=detector_cache_dir)
        self.detector_device = detector_device
        self.last: LipsyncResult | None = None

    def _load(self) -> Any:
        """Compile both models.

        Raises:
            ModelLoadError: a model is missing or does not have the expected inputs and outputs.
            DeviceError: ``device`` could not compile the lip-sync model, or ``detector_device``
                the face detector (the message says which).
        """
        self.model.load()
        try:
            self.detector.load()
        except DeviceError as error:
            if self.detector_device != self.device:  # the field tells the two devices apart
                error.field = "detector_device"
            raise
        return (self.model, self.detector)

    def close(self) -> None:
        """Drop both compiled models."""
        self.model.close()
        self.detector.close()
        super().close()

    def detect_faces(self, face: Path) -> list[Box]:
        """Faces in an image (or a video's first frame), largest first, in the pixels of the
        original file — the order ``face_index`` refers to.

        Raises:
            InvalidInputError: the file cannot be read as an image or a video.
        """
        self._loaded_model()
        source = read_face(face, limit=1)
        frame = next(source.frames())
        return [box.scaled(source.scale) for box in self.detector.detect(frame)]

    def run(
        self,
        face: Path,
        audio: Audio,
        output: Path,
        *,
        cancel: CancelToken | None = None,
        on_progress: Callable[[Progress], None] | None = None,
        face_index: int | None = None,
        face_point: tuple[float, float] | None = None,
        scratch_dir: Path | None = None,
    ) -> LipsyncResult:
        """Write ``output`` (.mp4): ``face`` speaking ``audio`` (a file, or samples and their
        rate), as long as the audio.

        Args:
            face: an image (png, jpg, webp) or a video (mp4, mov, webm).
            audio: a speech file, or ``(samples, rate)``.
            output: the mp4 to write; replaced only when the new one is complete.
            cancel: checked between batches; a cancelled run leaves no file.
            on_progress: told frames done/total with rate and time left.
            face_index: which face (see :meth:`detect_faces`); default the largest.
            face_point: a point on the wanted face, in the original's pixels (a click).
            scratch_dir: where the video is written until it is complete (when it shares
                ``output``'s file system) and frames kept for a loop spill to; default beside
                ``output`` and the system's temp folder.

        Raises:
            InvalidInputError: bad face, audio or output; ``field`` says which.
            Cancelled: ``cancel`` was set; nothing is left behind.
            DeviceError: the device failed while running the model.
        """
        self._loaded_model()
        started = time.perf_counter()
        stages = dict.fromkeys(STAGES, 0.0)
        check_output(output)
        samples, sound = _speech(audio)
        seconds = samples.size / AUDIO_RATE
        mark = time.perf_counter()
        source = read_face(face, seconds=seconds)
        point = (face_point[0] / source.scale, face_point[1] / source.scale) if face_point else None
        boxes = self._boxes(source, face, face_index, point, cancel, on_progress)
        stages["detect"] = time.perf_counter() - mark
        mark = time.perf_counter()
        mel = padded_mel(mel_spectrogram(samples))
        total = frame_count(samples.size, source.fps)
        starts = window_starts(total, source.fps, mel.shape[1])
        stages["mel"] = time.perf_counter() - mark
        order = ping_pong(len(boxes), total)
        _check_loop_space(source, order, seconds)
        render = Render(self.model, source.still, boxes, order, mel, starts, stages)
        self._render(render, source, order, sound, output, cancel, on_progress, scratch_dir)
        elapsed = time.perf_counter() - started
        self.last = LipsyncResult(
            path=output,
            frames=total,
            fps=source.fps,
            achieved_fps=total / elapsed if elapsed > 0 else 0.0,
            duration=seconds,
            device=self.device,
            detector_device=self.detector_device,
            faceless_frames=sum(1 for index in order if boxes[index] is None),
            stage_seconds={name: round(value, 4) for name, value in stages.items()},
        )
        return self.last

    def _render(
        self,
        render: Render,
        source: FaceSource,
        order: list[int],
        sound: tuple[Float32Array, int],
        output: Path,
        cancel: CancelToken | None,
        on_progress: Callable[[Progress], None] | None,
        scratch_dir: Path | None,
    ) -> None:
        """Infer, paste and encode every output frame into ``output``, replaced when done."""
        size = (source.width, source.height, source.fps)
        with OrderedFrames(source, order, cancel, scratch=scratch_dir) as frames:
            report(on_progress, 0, len(order), time.perf_counter())
            try:
                with replacing(output, scratch_dir) as temp:
                    render.write(temp, frames, size, sound, cancel, on_progress)
            except OSError as error:
                raise InvalidInputError(
                    f"Could not write {output.name}: {error.strerror or error}.", field="output"
                ) from error

    def metrics(self) -> MetricRecord:
        """The last run as a metric record: fps, frames, stage times in ms, load time."""
        values: dict[str, float] = {"load_ms": self.load_ms}
        last = self.last
        if last is not None:
            values.update(fps=last.achieved_fps, frames=float(last.frames))
            values["video_fps"] = last.fps
            values.update({f"{k}_ms": 1000.0 * v for k, v in last.stage_seconds.items()})
        return MetricRecord(self.name, self.device, values)

    def _boxes(
        self,
        source: FaceSource,
        face: Path,
        index: int | None,
        point: tuple[float, float] | None,
        cancel: CancelToken | None,
        on_progress: Callable[[Progress], None] | None,
    ) -> list[Box | None]:
        """The padded face box of every source frame (None where there is no face); as many
        boxes as the video has frames (up to the speech's length)."""
        width, height = source.width, source.height
        if source.still:
            assert source.image is not None
            faces = self.detector.detect(source.image)
            if not faces:
                raise InvalidInputError(
                    f"No face was found in {face.name}. Use a picture where the face is clearly "
                    "visible, facing the camera, and not too small.",
                    field="face",
                )
            _check_face_index(index, faces, face)
            chosen = choose(faces, index, point)
            assert chosen is not None
            return [padded(chosen, width, height)]
        found: list[Box | None] = []
        last: Box | None = None
        expected = source.limit or 0
        for number, frame in enumerate(source.frames(cancel)):
            thorough = number == 0 or (last is None and number % RESCAN_FRAMES == 0)
            faces = self.detector.detect(frame, near=last, thorough=thorough)
            if last is None and faces:  # the first pick: the index must name one of these
                _check_face_index(index, faces, face)
            # The chosen face is followed; if it vanished, the choice is made again.
            box = (follow(last, faces) if last is not None else None) or choose(faces, index, point)
            found.append(padded(box, width, height) if box is not None else None)
            last = box or last
            if on_progress is not None and number % 10 == 9:
                done = number + 1
                total = max(expected, done)
                message = f"Finding the face: frame {done}/{total}"
                on_progress(Progress("detect", done, total, message))
        if on_progress is not None:
            done = len(found)
            on_progress(Progress("detect", done, done, f"Finding the face: frame {done}/{done}"))
        if all(box is None for box in found):
            raise InvalidInputError(f"No face was found in any frame of {face.name}.", field="face")
        return smooth(found)


def _check_face_index(index: int | None, faces: list[Box], face: Path) -> None:
    """Refuse a face number that is not one of ``faces`` (numbered from 0, largest first)."""
    if index is None or 0 <= index < len(faces):
        return
    if len(faces) == 1:
        found = "only 1 face was found (number 0)"
    else:
        found = f"{len(faces)} faces were found, numbered 0 (the largest) to {len(faces) - 1}"
    raise InvalidInputError(
        f"There is no face number {index} in {face.name}: {found}.", field="face"
    )


def _check_loop_space(source: FaceSource, order: list[int], seconds: float) -> None:
    """Refuse a loop whose kept frames would fill the disk (a long video, longer speech)."""
    kept = len(set(order[forward_run(order) :]))
    needed = kept * source.width * source.height * 3
    if not source.still and needed > MAX_LOOP_BYTES:
        video = (max(order) + 1) / source.fps
        raise InvalidInputError(
            f"The speech ({seconds:.0f} s) is longer than the video ({video:.0f} s), so the video "
            f"would be played back and forth, which needs {needed / 1e9:.0f} GB of temporary "
            "space at this size. Use a shorter clip (a few seconds loop well) or shorter speech.",
            field="face",
        )


def _speech(audio: Audio) -> tuple[Float32Array, tuple[Float32Array, int]]:
    """The speech at the model's 16 kHz, and the sound to mux into the video: samples given at
    one of :data:`~pipelines.lipsync.mp4.MUXED_RATES` are muxed as they are (mono), so a 24 kHz
    voice keeps its top octave; a file, or another rate, is muxed at 16 kHz."""
    sound: tuple[Float32Array, int] | None = None
    if isinstance(audio, Path):
        samples = read_speech(audio)
    else:
        from pipelines.voice.audio import to_model_rate

        data, rate = audio
        array = np.asarray(data)
        if rate <= 0 or array.ndim not in (1, 2):
            raise InvalidInputError(
                "The speech samples are not mono or multichannel audio.", field="audio"
            )
        if not np.isfinite(array).all():
            raise InvalidInputError("The speech contains invalid samples.", field="audio")
        if array.shape[0] > MAX_AUDIO_SECONDS * rate:
            raise InvalidInputError(
                f"The speech is longer than {MAX_AUDIO_SECONDS // 60} minutes.", field="audio"
            )
        samples = to_model_rate(array, rate)
        if rate in MUXED_RATES and rate != AUDIO_RATE:
            mono = array if array.ndim == 1 else array.mean(axis=1)
            sound = (np.ascontiguousarray(mono, dtype=np.float32), rate)
    if samples.size < MIN_AUDIO_SECONDS * AUDIO_RATE:
        raise InvalidInputError(
            "The speech is empty or shorter than a tenth of a second: there is nothing to "
            "lip-sync.",
            field="audio",
        )
    return samples, sound or (samples, AUDIO_RATE)
