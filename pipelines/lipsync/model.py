"""The lip-sync network (the Wav2Lip contract) on a device, fed in batches.

Contract: ``audio`` ``[B, 1, 80, 16]`` mel windows and ``face`` ``[B, 6, 96, 96]`` (BGR / 255:
the crop with its lower half zeroed, then the unmasked reference crop) → ``[B, 3, 96, 96]``
sigmoid BGR. Any model with these shapes can be used; inputs are told apart by shape, not by
name, because converted checkpoints name them arbitrarily.

Two ways to run it: an asynchronous infer queue with a throughput hint (several batches in
flight, one CPU stream each, while the caller pastes and encodes the previous batch), or one
synchronous request per batch with a latency hint (all cores on one batch; the benchmark's
baseline). benchmarks/results/avatar.json has the numbers behind the defaults.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Generator, Iterable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pipelines.contract import (
    ModelPipeline,
    compile_properties,
    load_with,
    raise_if_cancelled,
    shared_core,
)
from pipelines.core import CancelToken, DeviceError, ModelLoadError
from pipelines.openvino_errors import openvino_reason

MODEL_FILE = "openvino_model.xml"
FACE_SIZE = 96
AUDIO_SHAPE = (1, 80, 16)
FACE_SHAPE = (6, FACE_SIZE, FACE_SIZE)
OUTPUT_SHAPE = (3, FACE_SIZE, FACE_SIZE)
BATCH = 16  # no slower than 32 in the sweep, and finer steps for progress and cancel
JOBS = 2

Float32Array = npt.NDArray[np.float32]
Batch = tuple[Float32Array, Float32Array]


def find_model(path: Path) -> Path:
    """The IR of a lip-sync model from its folder or the ``.xml`` itself.

    Raises:
        ModelLoadError: there is none.
    """
    xml = path / MODEL_FILE if path.is_dir() else path
    if not xml.is_file():
        raise ModelLoadError(f"{path} has no lip-sync model ({MODEL_FILE} is missing).")
    return xml


def check_model(model: Path) -> None:
    """Check that a model folder (or ``.xml``) has the Wav2Lip contract, without compiling it:
    what registering a model from outside needs, so a wrong one is refused then, not at its
    first video.

    Raises:
        ModelLoadError: no IR, an unreadable one, or inputs and outputs of other shapes (the
            message names them).
    """
    network, xml = _read(model)
    _check_contract(network, xml)


def _read(model: Path) -> tuple[Any, Path]:
    xml = find_model(model)
    core = shared_core()
    what = f"the lip-sync model {xml.parent.name}"
    return load_with(lambda: core.read_model(str(xml)), what=what, device="CPU"), xml


class LipsyncModel(ModelPipeline):
    """A Wav2Lip-contract model; one caller at a time.

    Args:
        model: the model folder or its ``.xml``.
        device: an OpenVINO device name.
        jobs: batches in flight through the async queue; 1 runs synchronously instead.
        batch: frames per inference request (a model with a fixed batch size uses its own).
        properties: OpenVINO compile properties; they override the hint chosen from ``jobs``.
        cache_dir: compiled-blob cache (``CACHE_DIR``) for this model and device; None: none.
    """

    name = "lipsync-model"

    def __init__(
        self,
        model: Path,
        device: str = "CPU",
        *,
        jobs: int = JOBS,
        batch: int = BATCH,
        properties: dict[str, Any] | None = None,
        cache_dir: Path | None = None,
    ) -> None:
        super().__init__(device, cache_dir)
        self.model = model
        self.jobs = max(1, jobs)
        self.batch = max(1, batch)
        self._properties = properties or {}
        self._fixed = False
        self._audio_input = self._face_input = 0
        self._queue: Any = None
        self._request: Any = None

    def _load(self) -> Any:
        """Read the IR, check its contract and compile it.

        Raises:
            ModelLoadError: no IR, a damaged one, or not the Wav2Lip contract.
            DeviceError: ``device`` could not compile it.
        """
        import openvino as ov

        network, xml = _read(self.model)
        self._audio_input, self._face_input, fixed_batch = _check_contract(network, xml)
        hint = {"PERFORMANCE_HINT": "THROUGHPUT" if self.jobs > 1 else "LATENCY"}
        properties = compile_properties(self.cache_dir, {**hint, **self._properties})
        compiled = load_with(
            lambda: shared_core().compile_model(network, self.device, properties),
            what=f"the lip-sync model {xml.parent.name}",
            device=self.device,
        )
        self.batch = fixed_batch or self.batch
        self._fixed = fixed_batch is not None
        self._queue = ov.AsyncInferQueue(compiled, self.jobs) if self.jobs > 1 else None
        self._request = compiled.create_infer_request()
        return compiled

    def close(self) -> None:
        """Drop the compiled model and its requests."""
        self._queue = self._request = None
        super().close()

    def infer(
        self, audio: Float32Array, faces: Float32Array, *, cancel: CancelToken | None = None
    ) -> Float32Array:
        """Mouth crops ``[N, 3, 96, 96]`` for ``N`` mel windows and face inputs, in order."""
        self._loaded_model()
        count = audio.shape[0]
        spans = [(start, min(count, start + self.batch)) for start in range(0, count, self.batch)]
        chunks = ((audio[a:b], faces[a:b]) for a, b in spans)
        outputs = list(self.stream(chunks, cancel=cancel))
        if not outputs:
            return np.empty((0, *OUTPUT_SHAPE), np.float32)
        return np.concatenate(outputs)

    def stream(
        self, batches: Iterable[Batch], *, cancel: CancelToken | None = None
    ) -> Generator[Float32Array, None, None]:
        """The output of each ``(audio, faces)`` batch, in order, while later batches run.

        With the async queue up to ``jobs`` batches are in flight: the caller's work on one
        output (pasting, encoding) overlaps the inference of the next ones. A batch may be
        empty (frames without a face); it yields an empty array. Batches should hold at most
        :attr:`batch` frames.

        Raises:
            Cancelled: ``cancel`` was set (checked before each batch).
            DeviceError: the device failed while running the model.
        """
        self._loaded_model()
        if self._queue is None:
            for audio, faces in batches:
                raise_if_cancelled(cancel)
                yield self._infer_now(audio, faces)
            return
        results: dict[int, Float32Array | BaseException] = {}
        ready = threading.Condition()

        def collect(request: Any, userdata: tuple[int, int]) -> None:
            index, count = userdata
            try:
                value: Float32Array | BaseException = np.array(
                    request.get_output_tensor(0).data[:count], dtype=np.float32
                )
            except RuntimeError as error:  # surfaced on the caller's thread
                value = error
            with ready:
                results[index] = value
                ready.notify_all()

        self._queue.set_callback(collect)
        pending: deque[int] = deque()
        try:
            for index, (audio, faces) in enumerate(batches):
                raise_if_cancelled(cancel)
                if audio.shape[0] == 0:
                    results[index] = np.empty((0, *OUTPUT_SHAPE), np.float32)
                else:
                    inputs, count = self._inputs(audio, faces)
                    try:
                        self._queue.start_async(inputs, (index, count))
                    except RuntimeError as error:
                        raise self._device_error(error) from error
                pending.append(index)
                while pending and (len(pending) > self.jobs or pending[0] in results):
                    yield self._take(pending.popleft(), results, ready)
            while pending:
                raise_if_cancelled(cancel)
                yield self._take(pending.popleft(), results, ready)
        finally:
            self._queue.wait_all()  # no request may outlive the arrays it writes into

    def _take(
        self, index: int, results: dict[int, Float32Array | BaseException], ready: Any
    ) -> Float32Array:
        with ready:
            ready.wait_for(lambda: index in results)
            value = results.pop(index)
        if isinstance(value, BaseException):
            raise self._device_error(value) from value
        return value

    def _infer_now(self, audio: Float32Array, faces: Float32Array) -> Float32Array:
        if audio.shape[0] == 0:
            return np.empty((0, *OUTPUT_SHAPE), np.float32)
        inputs, count = self._inputs(audio, faces)
        try:
            self._request.infer(inputs)
        except RuntimeError as error:
            raise self._device_error(error) from error
        return np.array(self._request.get_output_tensor(0).data[:count], dtype=np.float32)

    def _inputs(self, audio: Float32Array, faces: Float32Array) -> tuple[dict[int, Any], int]:
        """Contiguous float32 inputs, padded to a fixed batch size; and the real count."""
        count = audio.shape[0]
        audio = np.ascontiguousarray(audio, dtype=np.float32)
        faces = np.ascontiguousarray(faces, dtype=np.float32)
        if self._fixed and count < self.batch:
            audio = np.concatenate(
                [audio, np.zeros((self.batch - count, *AUDIO_SHAPE), np.float32)]
            )
            faces = np.concatenate([faces, np.zeros((self.batch - count, *FACE_SHAPE), np.float32)])
        return {self._audio_input: audio, self._face_input: faces}, count

    def _device_error(self, error: BaseException) -> DeviceError:
        return DeviceError(
            f"The lip-sync model failed on {self.device}: {openvino_reason(error)}",
            device=self.device,
        )


def _dims(port: Any) -> list[int] | None:
    shape = port.get_partial_shape()
    if shape.rank.is_dynamic:
        return None
    return [d.get_length() if d.is_static else -1 for d in shape]


def _check_contract(network: Any, xml: Path) -> tuple[int, int, int | None]:
    """Indices of the audio and face inputs and the fixed batch size (None when dynamic).

    Raises:
        ModelLoadError: the inputs or the output do not have the contract's shapes.
    """
    inputs = [_dims(port) for port in network.inputs]
    audio = [i for i, dims in enumerate(inputs) if dims and tuple(dims[1:]) == AUDIO_SHAPE]
    face = [i for i, dims in enumerate(inputs) if dims and tuple(dims[1:]) == FACE_SHAPE]
    outputs = [_dims(port) for port in network.outputs]
    output = outputs[0] if outputs else None
    if (
        len(inputs) != 2
        or len(audio) != 1
        or len(face) != 1
        or not output
        or (tuple(output[1:]) != OUTPUT_SHAPE)
    ):
        raise ModelLoadError(
            f"{xml.name} is not a lip-sync model: it should take audio [B,1,80,16] and face "
            f"[B,6,96,96] and give [B,3,96,96] (the Wav2Lip contract), but it takes "
            f"{_shapes(inputs)} and gives {_shapes(outputs)}."
        )
    fixed = {d[0] for d in (inputs[audio[0]], inputs[face[0]]) if d and d[0] > 0}
    if len(fixed) > 1:
        raise ModelLoadError(f"{xml.name} has inputs of different batch sizes {sorted(fixed)}.")
    return audio[0], face[0], (fixed.pop() if fixed else None)


def _shapes(dims: list[list[int] | None]) -> str:
    text = ", ".join("[?]" if d is None else "[" + ",".join(map(str, d)) + "]" for d in dims)
    return text or "nothing"
