"""The lip-sync network (Wav2Lip contract) on a device, fed in batches.

Contract: ``audio`` ``[B, 1, 80, 16]`` mel windows and ``face`` ``[B, 6, 96, 96]`` (BGR / 255:
the crop with its lower half zeroed, then the unmasked reference crop) → ``[B, 3, 96, 96]``
sigmoid BGR. Any model with these shapes can be used. Batches go through an asynchronous
infer queue (2 jobs × 32 frames kept both cores busy here; one batch of 128 in latency mode
was 2× slower), or one synchronous request for comparison.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pipelines.core import Cancelled, CancelToken, DeviceError, ModelLoadError

MODEL_FILE = "openvino_model.xml"
FACE_SIZE = 96
BATCH = 32
JOBS = 2

Float32Array = npt.NDArray[np.float32]


def find_model(path: Path) -> Path:
    """The IR of a lip-sync model from its folder or the ``.xml`` itself."""
    xml = path / MODEL_FILE if path.is_dir() else path
    if not xml.is_file():
        raise ModelLoadError(f"{path} has no lip-sync model ({MODEL_FILE} is missing).")
    return xml


class LipsyncModel:
    """A compiled Wav2Lip-contract model."""

    def __init__(self, model: Path, device: str = "CPU", *, jobs: int = JOBS) -> None:
        import openvino as ov

        xml = find_model(model)
        core = ov.Core()
        try:
            network = core.read_model(str(xml))
        except RuntimeError as error:
            raise ModelLoadError(f"OpenVINO could not read {xml}: {error}") from error
        self._audio_input, self._face_input = _check_contract(network, xml)
        properties = {"PERFORMANCE_HINT": "THROUGHPUT"} if jobs > 1 else {}
        try:
            self._compiled = core.compile_model(network, device, properties)
        except RuntimeError as error:
            raise DeviceError(
                f"The lip-sync model could not be compiled for {device}: {error}", device=device
            ) from error
        self.device = device
        self.jobs = jobs
        self._queue: Any = ov.AsyncInferQueue(self._compiled, jobs) if jobs > 1 else None
        self._request = self._compiled.create_infer_request()

    def infer(
        self,
        audio: Float32Array,
        faces: Float32Array,
        *,
        batch: int = BATCH,
        cancel: CancelToken | None = None,
        on_batch: Callable[[int], None] | None = None,
    ) -> Float32Array:
        """Mouth crops ``[N, 3, 96, 96]`` for ``N`` mel windows and face inputs, in order.

        ``on_batch(frames_done)`` is called as batches complete.
        """
        count = audio.shape[0]
        output = np.empty((count, 3, FACE_SIZE, FACE_SIZE), np.float32)
        starts = range(0, count, batch)
        if self._queue is None:
            for start in starts:
                _check(cancel)
                stop = min(count, start + batch)
                self._request.infer(
                    {self._audio_input: audio[start:stop], self._face_input: faces[start:stop]}
                )
                output[start:stop] = self._request.get_output_tensor(0).data
                if on_batch is not None:
                    on_batch(stop)
            return output
        done = [0]

        def collect(request: Any, span: tuple[int, int]) -> None:
            output[span[0] : span[1]] = request.get_output_tensor(0).data
            done[0] += span[1] - span[0]

        self._queue.set_callback(collect)
        for start in starts:
            _check(cancel)
            stop = min(count, start + batch)
            # Copies: the queue keeps the inputs until the job runs.
            inputs = {
                self._audio_input: np.ascontiguousarray(audio[start:stop]),
                self._face_input: np.ascontiguousarray(faces[start:stop]),
            }
            self._queue.start_async(inputs, (start, stop))
            if on_batch is not None:
                on_batch(done[0])
        self._queue.wait_all()
        if on_batch is not None:
            on_batch(count)
        return output


def _check(cancel: CancelToken | None) -> None:
    if cancel is not None and cancel.cancelled:
        raise Cancelled()


def _check_contract(network: Any, xml: Path) -> tuple[str, str]:
    """Names of the audio and face inputs, or ModelLoadError if the shapes do not fit."""
    inputs = {}
    for port in network.inputs:
        shape = port.get_partial_shape()
        dims = (
            [d.get_length() if d.is_static else -1 for d in shape] if shape.rank.is_static else []
        )
        inputs[port.get_any_name()] = dims
    audio = [name for name, dims in inputs.items() if dims[1:] == [1, 80, 16]]
    face = [name for name, dims in inputs.items() if dims[1:] == [6, FACE_SIZE, FACE_SIZE]]
    outputs = network.outputs
    out_shape = outputs[0].get_partial_shape() if len(outputs) == 1 else None
    out_dims = [d.get_length() if d.is_static else -1 for d in out_shape] if out_shape else []
    if len(inputs) != 2 or not audio or not face or out_dims[1:] != [3, FACE_SIZE, FACE_SIZE]:
        raise ModelLoadError(
            f"{xml.name} does not have the lip-sync contract (audio [B,1,80,16] + face "
            f"[B,6,96,96] → [B,3,96,96]); it has inputs {inputs} and output {out_dims}."
        )
    return audio[0], face[0]
