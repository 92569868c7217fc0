"""Voice activity detection: silero-vad on OpenVINO, and an endpointer that turns its
probabilities into "speech started" / "speech ended" events.

silero-vad (MIT, the ``silero-vad`` PyPI package) ships ``silero_vad_openvino_16k.onnx``, the
one of its ONNX files OpenVINO reads (the default one fails on its If-branch). It takes 512
samples (32 ms at 16 kHz) prefixed by the last 64 samples of the previous input, and carries a
``[2, 1, 128]`` state; one chunk costs about 0.1 ms on one CPU thread.

REPL use::

    vad = SileroVad(Path(".../silero_vad_openvino_16k.onnx"))
    events = Endpointer(end_silence_ms=700).feed_all(vad.probabilities(samples_16k))
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from pipelines.contract import ModelPipeline, compile_properties, load_with, shared_core
from pipelines.core import InvalidInputError, MetricRecord

SAMPLE_RATE = 16_000
CHUNK = 512
"""Samples per VAD step (32 ms)."""
CONTEXT = 64
"""Samples of the previous input prefixed to each chunk (as the package's own wrapper does)."""
STATE_SHAPE = (2, 1, 128)
VAD_FILE = "silero_vad_openvino_16k.onnx"
END_LAG_CHUNKS = 1
"""Chunks the probability stays above the threshold after the sound stops (measured)."""
# f32 matches the torch model exactly (bf16 differs by 0.01, which changes no decision but makes
# tests compare against a moving target); one thread: a chunk is far too small to share.
VAD_PROPERTIES = {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": 1}

Samples = npt.NDArray[np.float32]


class SileroVad(ModelPipeline):
    """silero-vad compiled on one device; streaming, so one audio stream per instance.

    Args:
        model: the ``silero_vad_openvino_16k.onnx`` file.
        device: an OpenVINO device (the CPU: the model is tiny).
    """

    name = "vad"

    def __init__(self, model: Path, device: str = "CPU", *, cache_dir: Path | None = None):
        super().__init__(device, cache_dir)
        self.model = model
        self._request: Any = None
        self._state = np.zeros(STATE_SHAPE, np.float32)
        self._context = np.zeros((1, CONTEXT), np.float32)
        self._pending = np.zeros(0, np.float32)
        self.chunks = 0

    def _load(self) -> Any:
        if not self.model.is_file():
            raise InvalidInputError(f"The voice activity model {self.model} does not exist.")
        properties = compile_properties(self.cache_dir, VAD_PROPERTIES)
        compiled = load_with(
            lambda: shared_core().compile_model(str(self.model), self.device, properties),
            what="the voice activity model",
            device=self.device,
        )
        self._request = compiled.create_infer_request()
        return compiled

    def reset(self) -> None:
        """Forget the stream so far (a new utterance or a new recording)."""
        self._state = np.zeros(STATE_SHAPE, np.float32)
        self._context = np.zeros((1, CONTEXT), np.float32)
        self._pending = np.zeros(0, np.float32)

    def probability(self, chunk: Samples) -> float:
        """Speech probability of one :data:`CHUNK`-sample chunk, continuing the stream."""
        self._loaded_model()
        if chunk.shape != (CHUNK,):
            raise InvalidInputError(f"The VAD takes {CHUNK} samples at a time.", field="audio")
        block = np.concatenate([self._context, chunk.astype(np.float32)[None, :]], axis=1)
        self._request.infer({"input": block, "state": self._state})
        self._state = np.array(self._request.get_tensor("stateN").data, np.float32)
        self._context = block[:, -CONTEXT:]
        self.chunks += 1
        return float(self._request.get_tensor("output").data.reshape(-1)[0])

    def probabilities(self, samples: Samples) -> Iterator[float]:
        """Probabilities of every whole chunk of ``samples``; a remainder waits for the next
        call (so a stream may be fed in blocks of any size)."""
        joined = np.concatenate([self._pending, np.asarray(samples, np.float32)])
        whole = joined.size - joined.size % CHUNK
        self._pending = joined[whole:]
        for start in range(0, whole, CHUNK):
            yield self.probability(joined[start : start + CHUNK])

    def metrics(self) -> MetricRecord:
        """Load time and chunks processed."""
        return MetricRecord(
            self.name, self.device, {"load_ms": self.load_ms, "chunks": self.chunks}
        )


@dataclass(frozen=True)
class VadEvent:
    """Speech started or ended, ``time`` seconds from the start of the stream."""

    kind: Literal["speech_started", "speech_paused", "speech_resumed", "speech_ended"]
    time: float


class Endpointer:
    """Turns per-chunk probabilities into start and end events (silero's VADIterator rules).

    Speech starts at the first chunk at or above ``threshold`` (backdated by ``pad_ms``); it
    ends when the probability stays below ``threshold - 0.15`` for ``end_silence_ms``, and the
    end reported is the end of the last chunk at or above ``threshold``, moved back by
    :data:`END_LAG_CHUNKS` (the probability trails the sound: without it, ends of espeak-ng
    sentences came 50–110 ms late; with it 20–80 ms, and never before the sound ended). A
    burst shorter than ``min_speech_ms`` ends without an event, as if nothing was said.

    With ``pause_ms``, reported speech followed by that much silence also gives
    ``speech_paused`` (dated like the end would be), and speech coming back before the end
    ``speech_resumed``: a conversation starts answering at the pause and keeps the answer only
    if the end follows.

    Args:
        end_silence_ms: silence that ends a turn (100 to segment speech; 500–800 to end a
            spoken turn: a comma pause drops the probability for ~130 ms).
        min_speech_ms: shortest speech reported.
        pause_ms: silence reported as a pause (None: no pauses; below ``end_silence_ms``).
    """

    def __init__(
        self,
        *,
        threshold: float = 0.5,
        end_silence_ms: float = 700.0,
        min_speech_ms: float = 250.0,
        pad_ms: float = 30.0,
        pause_ms: float | None = None,
    ) -> None:
        self.threshold = threshold
        self.low = threshold - 0.15
        self.end_silence = end_silence_ms / 1000.0
        self.min_speech = min_speech_ms / 1000.0
        self.pad = pad_ms / 1000.0
        self.chunk_seconds = CHUNK / SAMPLE_RATE
        self.now = 0.0
        self.speaking = False
        self._reported = False
        self._start = 0.0
        self._last_speech = 0.0
        self._silence_from: float | None = None
        self.pause = pause_ms / 1000.0 if pause_ms is not None else None
        self._paused = False

    def feed(self, probability: float) -> VadEvent | None:
        """The event this chunk completes, if any (call once per chunk, in order)."""
        chunk_start, self.now = self.now, self.now + self.chunk_seconds
        if probability >= self.threshold:
            self._silence_from = None
            if not self.speaking:
                self.speaking, self._reported = True, False
                self._start = max(0.0, chunk_start - self.pad)
            self._last_speech = max(self._start, self.now - END_LAG_CHUNKS * self.chunk_seconds)
            if self._paused:
                self._paused = False
                return VadEvent("speech_resumed", chunk_start)
            if not self._reported and self.now - self._start >= self.min_speech:
                self._reported = True
                return VadEvent("speech_started", self._start)
            return None
        if not self.speaking or probability >= self.low:
            return None
        if self._silence_from is None:
            self._silence_from = chunk_start
        silence = self.now - self._silence_from
        if silence < self.end_silence:
            if self.pause is None or self._paused or silence < self.pause or not self._reported:
                return None
            self._paused = True
            return VadEvent("speech_paused", self._last_speech)
        self.speaking, self._silence_from, self._paused = False, None, False
        return VadEvent("speech_ended", self._last_speech) if self._reported else None

    def feed_all(self, probabilities: Iterable[float]) -> list[VadEvent]:
        """Every event of ``probabilities`` in order."""
        return [event for p in probabilities if (event := self.feed(p)) is not None]

    def finish(self) -> VadEvent | None:
        """End the stream: speech still going ends now (None when nothing was reported)."""
        self._paused = False
        if not (self.speaking and self._reported):
            self.speaking = False
            return None
        self.speaking = False
        return VadEvent("speech_ended", self._last_speech)


def speech_spans(
    vad: SileroVad, samples: Samples, *, end_silence_ms: float = 300.0
) -> list[tuple[float, float]]:
    """The (start, end) seconds of speech in a whole clip (the stream is reset first)."""
    vad.reset()
    endpointer = Endpointer(end_silence_ms=end_silence_ms)
    events = endpointer.feed_all(vad.probabilities(samples))
    if (last := endpointer.finish()) is not None:
        events.append(last)
    vad.reset()
    starts = [event.time for event in events if event.kind == "speech_started"]
    ends = [event.time for event in events if event.kind == "speech_ended"]
    return list(zip(starts, ends, strict=True))
