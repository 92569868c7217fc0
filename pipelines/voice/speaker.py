"""The speaker encoder: a 16 kHz clip in, a 512-d unit x-vector out.

The model is an OpenVINO IR with speechbrain's x-vector contract: filterbank features
``[1, T, 24]`` in, ``[1, 1, 512]`` out. Features come from :mod:`pipelines.voice.fbank`, so
nothing here needs torch.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from pipelines.core import DeviceError, InvalidInputError, MetricRecord, ModelLoadError
from pipelines.voice.audio import MODEL_RATE
from pipelines.voice.fbank import N_MELS, filterbank_features

EMBEDDING_SIZE = 512
MODEL_FILE = "openvino_model.xml"
MIN_SAMPLES = MODEL_RATE // 2  # the TDNN's receptive field is ~150 ms; half a second is a floor


def find_encoder_model(path: Path) -> Path:
    """The IR file of a speaker encoder given its folder or the ``.xml`` itself.

    Raises:
        ModelLoadError: no IR there.
    """
    xml = path / MODEL_FILE if path.is_dir() else path
    if xml.suffix != ".xml" or not xml.is_file():
        raise ModelLoadError(f"{path} has no speaker encoder ({MODEL_FILE} is missing).")
    return xml


class SpeakerEncoder:
    """Compiles the encoder once; :meth:`embed` may be called many times (not concurrently)."""

    def __init__(self, model: Path, device: str = "CPU") -> None:
        import openvino as ov

        xml = find_encoder_model(model)
        core = ov.Core()
        try:
            network = core.read_model(str(xml))
        except RuntimeError as error:
            raise ModelLoadError(f"OpenVINO could not read {xml}: {error}") from error
        _check_contract(network, xml)
        started = time.perf_counter()
        try:
            # f32: the embedding is compared across runs and devices; bf16 would move it.
            compiled = core.compile_model(network, device, {"INFERENCE_PRECISION_HINT": "f32"})
        except RuntimeError as error:
            raise DeviceError(
                f"The speaker encoder could not be compiled for {device}: {error}", device=device
            ) from error
        self.compile_seconds = time.perf_counter() - started
        self.device = device
        self._request = compiled.create_infer_request()
        self.last_ms = 0.0

    def embed(self, samples: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The L2-normalised ``[512]`` embedding of a 16 kHz mono clip.

        Raises:
            InvalidInputError: the clip is shorter than half a second or silent.
        """
        if samples.ndim != 1 or samples.size < MIN_SAMPLES:
            raise InvalidInputError(
                "The clip is too short to recognise a voice in it.", field="reference"
            )
        started = time.perf_counter()
        features = filterbank_features(samples)
        self._request.infer({0: features})
        output = np.asarray(self._request.get_output_tensor(0).data, dtype=np.float32)
        self.last_ms = (time.perf_counter() - started) * 1000.0
        vector = output.reshape(-1)
        norm = float(np.linalg.norm(vector))
        if vector.size != EMBEDDING_SIZE or not np.isfinite(norm) or norm == 0.0:
            raise InvalidInputError(
                "No voice could be measured in this clip (the encoder returned nothing usable).",
                field="reference",
            )
        unit: npt.NDArray[np.float32] = (vector / norm).astype(np.float32)
        return unit

    def metrics(self, audio_seconds: float) -> MetricRecord:
        """The last :meth:`embed` as a metric record."""
        return MetricRecord(
            "speaker-encoder",
            self.device,
            {"latency_ms": self.last_ms, "audio_s": audio_seconds},
        )


def _check_contract(network: object, xml: Path) -> None:
    from openvino import Dimension

    inputs = network.inputs  # type: ignore[attr-defined]
    outputs = network.outputs  # type: ignore[attr-defined]
    if len(inputs) != 1 or len(outputs) != 1:
        raise ModelLoadError(
            f"{xml.name} is not a speaker encoder: it has {len(inputs)} inputs and "
            f"{len(outputs)} outputs (expected 1 and 1)."
        )
    shape = inputs[0].get_partial_shape()
    out_shape = outputs[0].get_partial_shape()
    last_in = shape[shape.rank.get_length() - 1] if shape.rank.is_static else None
    last_out = out_shape[out_shape.rank.get_length() - 1] if out_shape.rank.is_static else None
    if (
        not shape.rank.is_static
        or shape.rank.get_length() != 3
        or last_in is None
        or not last_in.compatible(Dimension(N_MELS))
        or last_out is None
        or not last_out.compatible(Dimension(EMBEDDING_SIZE))
    ):
        raise ModelLoadError(
            f"{xml.name} does not have the speaker-encoder contract "
            f"(input [1, T, {N_MELS}] → output [1, 1, {EMBEDDING_SIZE}]); "
            f"it has input {shape} → output {out_shape}."
        )
