"""Rendering: source frames in output order, model batches, pasted mouths, encoded frames.

The source is played forwards, then backwards (ping-pong) when the speech outlasts it; frames
stream from the decoder and only those shown again are kept. Batches go to the model's async
queue and each batch's frames wait, in order, for their mouths; pasting and encoding one batch
overlaps the inference of the next.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt

from pipelines.core import Cancelled, CancelToken, Closing, PipelineError, Progress
from pipelines.lipsync.boxes import Box
from pipelines.lipsync.compose import FACE_SIZE, crop_face, model_input, paste_mouth
from pipelines.lipsync.frames import MEMORY_BUDGET, FrameStore
from pipelines.lipsync.media import FaceSource
from pipelines.lipsync.mel import WINDOW_FRAMES
from pipelines.lipsync.model import LipsyncModel
from pipelines.lipsync.mp4 import Mp4Writer

Float32Array = npt.NDArray[np.float32]
Image = npt.NDArray[np.uint8]


def ping_pong(available: int, needed: int) -> list[int]:
    """Source frame of each output frame: forwards, then backwards, and so on (no frame is
    shown twice in a row at the turns, so the motion does not stall)."""
    if available <= 1:
        return [0] * needed
    period = 2 * (available - 1)
    phases = (n % period for n in range(needed))
    return [phase if phase < available else period - phase for phase in phases]


class OrderedFrames(Closing):
    """The source frame of every output frame, in output order.

    Frames stream from the decoder while the output plays the source forwards; only frames
    that a later output shows again (ping-pong) are kept — in memory, then on disk.
    """

    def __init__(
        self,
        source: FaceSource,
        order: list[int],
        cancel: CancelToken | None = None,
        *,
        memory_budget: int = MEMORY_BUDGET,
        scratch: Path | None = None,
    ) -> None:
        self._decoded = source.frames(cancel)
        self._order = order
        self._streamed = forward_run(order)
        self._keep = set(order[self._streamed :])
        self._store = FrameStore(memory_budget, scratch)
        self._slots: dict[int, int] = {}

    def __iter__(self) -> Iterator[Image]:
        last: Image | None = None
        for number, index in enumerate(self._order):
            if number < self._streamed:
                frame = next(self._decoded, None)
                if frame is None:  # a second decode found fewer frames than the first
                    assert last is not None
                    frame = last
                if index in self._keep:
                    self._slots[index] = len(self._store)
                    self._store.append(frame)
                last = frame
            else:
                frame = self._store[self._slots[index]]
            yield frame

    def close(self) -> None:
        """Stop decoding and drop the kept frames (and their temp file)."""
        close = getattr(self._decoded, "close", None)
        if close is not None:
            close()
        self._store.close()


def forward_run(order: list[int]) -> int:
    """How many outputs from the start show source frames 0, 1, 2, … in turn."""
    run = 0
    while run < len(order) and order[run] == run:
        run += 1
    return run


class Render:
    """Batches in, frames out: the model's outputs pasted and encoded in order."""

    def __init__(
        self,
        model: LipsyncModel,
        still: bool,
        boxes: list[Box | None],
        order: list[int],
        mel: Float32Array,
        starts: npt.NDArray[np.int64],
        stages: dict[str, float],
    ) -> None:
        self.model = model
        self.still = still
        self.boxes = boxes
        self.order = order
        self.mel = mel
        self.starts = starts
        self.stages = stages
        self._still_input: Float32Array | None = None

    def write(
        self,
        path: Path,
        frames: Iterable[Image],
        video: tuple[int, int, float],
        sound: tuple[Float32Array, int],
        cancel: CancelToken | None,
        on_progress: Callable[[Progress], None] | None,
    ) -> None:
        """Encode every output frame and the speech (``sound``: mono samples and their rate)
        into ``path``.

        Raises:
            Cancelled: ``cancel`` was set.
            PipelineError: the encoder failed.
        """
        import av

        width, height, fps = video
        total = len(self.order)
        started = time.perf_counter()
        mark = time.perf_counter()
        try:
            writer = Mp4Writer(path, fps, width, height, sound[1])
        except av.error.FFmpegError as error:
            raise PipelineError(f"The video encoder could not start: {error}") from error
        self.stages["encode"] += time.perf_counter() - mark
        pending: deque[tuple[int, list[Image]]] = deque()
        outputs = self.model.stream(self._batches(iter(frames), pending), cancel=cancel)
        try:
            while True:
                mark = time.perf_counter()
                generating = self.stages["compose"]
                mouths = next(outputs, None)
                # Time inside next() that was not spent making the batch was spent waiting.
                waited = time.perf_counter() - mark - (self.stages["compose"] - generating)
                self.stages["infer"] += waited
                if mouths is None:
                    break
                if cancel is not None and cancel.cancelled:
                    raise Cancelled()
                begin, batch = pending.popleft()
                self._emit(writer, begin, batch, mouths)
                report(on_progress, begin + len(batch), total, started)
            mark = time.perf_counter()
            writer.finish(sound[0])
            self.stages["encode"] += time.perf_counter() - mark
        except av.error.FFmpegError as error:
            writer.abort()
            if isinstance(error, OSError):
                raise  # disk full, folder gone: the caller names the output
            raise PipelineError(f"The video could not be encoded: {error}") from error
        except BaseException:
            writer.abort()
            raise
        finally:
            outputs.close()  # waits for batches still in flight

    def _batches(
        self, frames: Iterator[Image], pending: deque[tuple[int, list[Image]]]
    ) -> Iterator[tuple[Float32Array, Float32Array]]:
        """The model's inputs for each batch of output frames (faceless frames left out); the
        batch's frames wait in ``pending`` for their mouths."""
        total = len(self.order)
        for begin in range(0, total, self.model.batch):
            mark = time.perf_counter()
            end = min(total, begin + self.model.batch)
            batch = [next(frames) for _ in range(begin, end)]
            faced = [n for n in range(begin, end) if self.boxes[self.order[n]] is not None]
            audio = np.empty((len(faced), 1, self.mel.shape[0], WINDOW_FRAMES), np.float32)
            for row, n in enumerate(faced):
                start = self.starts[n]
                audio[row, 0] = self.mel[:, start : start + WINDOW_FRAMES]
            faces = np.empty((len(faced), 6, FACE_SIZE, FACE_SIZE), np.float32)
            for row, n in enumerate(faced):
                faces[row] = self._face_input(batch[n - begin], self.order[n])
            pending.append((begin, batch))
            self.stages["compose"] += time.perf_counter() - mark
            yield audio, faces

    def _face_input(self, frame: Image, index: int) -> Float32Array:
        box = self.boxes[index]
        assert box is not None
        if self.still:  # the same crop for every frame
            if self._still_input is None:
                self._still_input = model_input(crop_face(frame, box))
            return self._still_input
        return model_input(crop_face(frame, box))

    def _emit(
        self, writer: Mp4Writer, begin: int, batch: list[Image], mouths: Float32Array
    ) -> None:
        row = 0
        for n, frame in enumerate(batch, start=begin):
            mark = time.perf_counter()
            box = self.boxes[self.order[n]]
            if box is not None:
                frame = paste_mouth(frame, box, mouths[row])
                row += 1
            middle = time.perf_counter()
            writer.add_frame(frame)
            self.stages["compose"] += middle - mark
            self.stages["encode"] += time.perf_counter() - middle


def report(
    on_progress: Callable[[Progress], None] | None, done: int, total: int, started: float
) -> None:
    if on_progress is None:
        return
    elapsed = time.perf_counter() - started
    rate = done / elapsed if elapsed > 0 and done else 0.0
    if rate:
        left = (total - done) / rate
        message = f"{done}/{total} frames · {rate:.1f} frames/s · about {_duration(left)} left"
    else:
        message = f"0/{total} frames · starting"
    on_progress(Progress("lipsync", done, total, message))


def _duration(seconds: float) -> str:
    whole = max(0, round(seconds))
    return f"{whole} s" if whole < 60 else f"{whole // 60} min {whole % 60:02d} s"
